// Package conformance is the connector protocol's conformance kit: it
// drives a connector through every scenario protocol v1 defines and says,
// for each, whether the connector passed and why not. payline connectors
// check runs it; a connector passes when every scenario does.
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"payline/connectors/protocol"
	"payline/domain"
	"payline/internal/trust"
)

// Users are the test credentials a connector gives for each login
// scenario; DefaultUsers are the sandbox's. MFACode is the second factor
// the MFA user passes with.
type Users struct {
	Password   string `json:"password"`
	Good       string `json:"good"`
	MFA        string `json:"mfa"`
	MFACode    string `json:"mfa_code"`
	Locked     string `json:"locked"`
	JobError   string `json:"job_error"`
	JobPending string `json:"job_pending"`
}

// DefaultUsers are the sandbox connector's test users.
var DefaultUsers = Users{Password: "pass_good", Good: "user_good", MFA: "user_mfa", MFACode: "123456", Locked: "user_locked",
	JobError: "user_error", JobPending: "user_pending"}

// Result is one scenario's outcome.
type Result struct {
	Scenario string
	Passed   bool
	Reason   string // why it failed, or what was checked
}

// Check runs every scenario against the connector at url, signing with
// secret. It never stops at a failure: each scenario reports.
func Check(ctx context.Context, url, secret string, users Users, client *http.Client) []Result {
	k := &kit{url: strings.TrimRight(url, "/"), secret: secret, users: users, http: client}
	if k.http == nil {
		k.http = &http.Client{Timeout: 30 * time.Second}
	}
	// The kit signs its requests and logs test users in: no redirect is
	// followed with them, as Payline's own client follows none.
	k.http = trust.RefusingRedirects(k.http)
	k.run(ctx)
	return k.results
}

type kit struct {
	url, secret string
	users       Users
	http        *http.Client
	results     []Result

	caps     protocol.Capabilities
	platform protocol.PlatformCapability
}

func (k *kit) pass(scenario, what string) {
	k.results = append(k.results, Result{Scenario: scenario, Passed: true, Reason: what})
}

func (k *kit) fail(scenario, format string, args ...any) {
	k.results = append(k.results, Result{Scenario: scenario, Reason: fmt.Sprintf(format, args...)})
}

// answer is a response as the kit reads it.
type answer struct {
	status int
	body   []byte
	err    error
}

func (a answer) code() string {
	var eb protocol.ErrorBody
	_ = json.Unmarshal(a.body, &eb)
	return eb.Error.Code
}

func (a answer) String() string {
	if a.err != nil {
		return a.err.Error()
	}
	return fmt.Sprintf("%d %.200s", a.status, bytes.TrimSpace(a.body))
}

// call sends a request signed with secret at time ts, with an optional
// deadline.
func (k *kit) call(ctx context.Context, method, path string, in any, secret string, ts time.Time, deadline *time.Time) answer {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return answer{err: err}
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, k.url+path, bytes.NewReader(body))
	if err != nil {
		return answer{err: err}
	}
	if secret != "" {
		req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
		req.Header.Set(protocol.HeaderSignature, protocol.Sign(secret, method, path, ts.Unix(), body))
	}
	if deadline != nil {
		req.Header.Set(protocol.HeaderDeadline, deadline.UTC().Format(time.RFC3339Nano))
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := k.http.Do(req)
	if err != nil {
		return answer{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return answer{status: resp.StatusCode, body: raw, err: err}
}

func (k *kit) signed(ctx context.Context, method, path string, in any) answer {
	d := time.Now().Add(20 * time.Second)
	return k.call(ctx, method, path, in, k.secret, time.Now(), &d)
}

func (k *kit) run(ctx context.Context) {
	if !k.capabilities(ctx) {
		return // nothing else can be checked without a platform
	}
	k.signatures(ctx)
	good := k.logins(ctx)
	k.matching(ctx)
	k.jobs(ctx, good)
	k.products(ctx, good)
	k.deadline(ctx)
	k.unknownOperation(ctx)
}

func (k *kit) capabilities(ctx context.Context) bool {
	const s = "capabilities"
	a := k.signed(ctx, http.MethodGet, protocol.PathCapabilities, nil)
	if a.err != nil || a.status != 200 {
		k.fail(s, "GET %s: %s", protocol.PathCapabilities, a)
		return false
	}
	if err := json.Unmarshal(a.body, &k.caps); err != nil {
		k.fail(s, "not the capabilities object: %v", err)
		return false
	}
	if k.caps.ProtocolVersion != protocol.Version {
		k.fail(s, "protocol_version %q, want %q", k.caps.ProtocolVersion, protocol.Version)
		return false
	}
	if len(k.caps.Platforms) == 0 {
		k.fail(s, "serves no platform")
		return false
	}
	for _, p := range k.caps.Platforms {
		if p.ID == "" || p.Name == "" {
			k.fail(s, "a platform without an id or name: %+v", p)
			return false
		}
		if _, ok := domain.ParsePlatformType(p.Type); !ok {
			k.fail(s, "platform %s: type %q is not payroll, time_and_attendance, tax or merchant", p.ID, p.Type)
			return false
		}
		for _, j := range p.Jobs {
			if _, ok := domain.ParseJobType(j); !ok {
				k.fail(s, "platform %s: unknown job %q", p.ID, j)
				return false
			}
		}
		for _, pr := range p.Products {
			if !slices.Contains(products, pr) {
				k.fail(s, "platform %s: unknown product %q", p.ID, pr)
				return false
			}
		}
	}
	// The platform the other scenarios use: the one with the most products.
	k.platform = slices.MaxFunc(k.caps.Platforms, func(a, b protocol.PlatformCapability) int { return len(a.Products) - len(b.Products) })
	k.pass(s, fmt.Sprintf("protocol %s, %d platforms; using %s (%s)", k.caps.ProtocolVersion, len(k.caps.Platforms), k.platform.Name, k.platform.ID))
	return true
}

var products = []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductPaystubs,
	domain.ProductAllocations, domain.ProductTaxForms, domain.ProductShifts}

func (k *kit) signatures(ctx context.Context) {
	refused := func(s string, a answer) {
		if a.err != nil || a.status != http.StatusUnauthorized || a.code() != "INVALID_SIGNATURE" {
			k.fail(s, "want 401 INVALID_SIGNATURE, got %s", a)
			return
		}
		k.pass(s, "401 INVALID_SIGNATURE")
	}
	login := k.loginBody(k.users.Good, k.users.Password, "")
	refused("signature: wrong secret", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret+"-not", time.Now(), nil))
	refused("signature: missing", k.call(ctx, http.MethodPost, protocol.PathLogin, login, "", time.Now(), nil))
	refused("signature: replayed (10 minutes old)", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret, time.Now().Add(-10*time.Minute), nil))
	refused("signature: from the future (10 minutes)", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret, time.Now().Add(10*time.Minute), nil))
	// A body changed after signing.
	body, _ := json.Marshal(login)
	ts := time.Now().Unix()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, k.url+protocol.PathLogin, bytes.NewReader(append(body, ' ')))
	req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(protocol.HeaderSignature, protocol.Sign(k.secret, http.MethodPost, protocol.PathLogin, ts, body))
	a := answer{}
	if resp, err := k.http.Do(req); err != nil {
		a.err = err
	} else {
		a.status = resp.StatusCode
		a.body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	refused("signature: body changed after signing", a)
}

func (k *kit) loginBody(user, password, mfa string) protocol.LoginRequest {
	return protocol.LoginRequest{Platform: protocol.Platform{ID: k.platform.ID, Name: k.platform.Name, Type: k.platform.Type},
		Credentials: protocol.Credentials{Username: user, Password: password, MFACode: mfa}}
}

func (k *kit) login(ctx context.Context, user, password, mfa string) (protocol.LoginResponse, answer) {
	a := k.signed(ctx, http.MethodPost, protocol.PathLogin, k.loginBody(user, password, mfa))
	var out protocol.LoginResponse
	if a.err == nil && a.status == 200 {
		if err := json.Unmarshal(a.body, &out); err != nil {
			a.err = fmt.Errorf("not a login answer: %w", err)
		}
	}
	return out, a
}

// logins checks every login scenario and returns the good user's
// connection ("" when it failed).
func (k *kit) logins(ctx context.Context) string {
	out, a := k.login(ctx, k.users.Good, k.users.Password, "")
	good := out.Connection
	switch {
	case a.err != nil || a.status != 200:
		k.fail("login: good credentials", "want 200 with a connection, got %s", a)
	case out.Connection == "" || out.MFARequired != nil:
		k.fail("login: good credentials", "want a connection and no mfa_required, got %s", a)
	default:
		k.pass("login: good credentials", "a connection")
	}
	refusal := func(s, user, password, mfa, code string) {
		_, a := k.login(ctx, user, password, mfa)
		if a.err != nil || a.status != http.StatusUnprocessableEntity || a.code() != code {
			k.fail(s, "want 422 %s, got %s", code, a)
			return
		}
		k.pass(s, "422 "+code)
	}
	refusal("login: wrong password", k.users.Good, k.users.Password+"-wrong", "", domain.CodeInvalidCredentials)
	refusal("login: unknown user", "no-such-user-"+strconv.FormatInt(time.Now().UnixNano(), 36), k.users.Password, "", domain.CodeInvalidCredentials)
	refusal("login: locked account", k.users.Locked, k.users.Password, "", domain.CodeAccountLocked)
	out, a = k.login(ctx, k.users.MFA, k.users.Password, "")
	if a.err != nil || a.status != 200 || out.MFARequired == nil || out.MFARequired.Prompt == "" || out.Connection != "" {
		k.fail("login: MFA asked for", "want 200 with mfa_required and a prompt, got %s", a)
	} else {
		k.pass("login: MFA asked for", "prompt: "+out.MFARequired.Prompt)
	}
	refusal("login: wrong MFA code", k.users.MFA, k.users.Password, k.users.MFACode+"9", domain.CodeInvalidMFACode)
	out, a = k.login(ctx, k.users.MFA, k.users.Password, k.users.MFACode)
	if a.err != nil || a.status != 200 || out.Connection == "" {
		k.fail("login: right MFA code", "want 200 with a connection, got %s", a)
	} else {
		k.pass("login: right MFA code", "a connection")
	}
	return good
}

func (k *kit) matching(ctx context.Context) {
	const s = "match"
	candidates := make([]protocol.Platform, 0, len(k.caps.Platforms))
	for _, p := range k.caps.Platforms {
		candidates = append(candidates, protocol.Platform{ID: p.ID, Name: p.Name, Type: p.Type})
	}
	req := protocol.MatchRequest{Matching: protocol.Matching{SocialSecurityLastFour: "4321", DateOfBirth: "1990-01-02", FirstName: "Ada", LastName: "Lovelace"},
		Candidates: candidates}
	var first, second protocol.MatchResponse
	for i, out := range []*protocol.MatchResponse{&first, &second} {
		a := k.signed(ctx, http.MethodPost, protocol.PathMatch, req)
		if a.err != nil || a.status != 200 || json.Unmarshal(a.body, out) != nil || out.PlatformIDs == nil {
			k.fail(s, "attempt %d: want 200 with platform_ids, got %s", i+1, a)
			return
		}
	}
	for _, id := range first.PlatformIDs {
		if !slices.ContainsFunc(candidates, func(p protocol.Platform) bool { return p.ID == id }) {
			k.fail(s, "matched %s, which is not a candidate", id)
			return
		}
	}
	if !slices.Equal(first.PlatformIDs, second.PlatformIDs) {
		k.fail(s, "the same identifiers matched %v, then %v", first.PlatformIDs, second.PlatformIDs)
		return
	}
	k.pass(s, fmt.Sprintf("%d of %d candidates, the same twice", len(first.PlatformIDs), len(candidates)))
}

func (k *kit) account(connection string) protocol.Account {
	return protocol.Account{ID: "0195f0a0-0000-7000-8000-00000000c0de", CustomerID: "conformance", EndUserID: "conformance-user",
		PlatformID: k.platform.ID, EmployerName: k.platform.Name, Connection: connection, CreatedAt: time.Now().UTC().Add(-time.Hour)}
}

func (k *kit) runJob(ctx context.Context, key, connection, job string) (protocol.RunResponse, answer) {
	now := time.Now().UTC()
	req := protocol.RunRequest{IdempotencyKey: key, Account: k.account(connection), StartedAt: now.Add(-time.Second), Now: now,
		Job: protocol.Job{ID: domain.NewID(), Name: job, CreatedAt: now.Add(-time.Second), Params: domain.JobParams{}}}
	a := k.signed(ctx, http.MethodPost, protocol.PathRun, req)
	var out protocol.RunResponse
	if a.err == nil && a.status == 200 {
		if err := json.Unmarshal(a.body, &out); err != nil {
			a.err = fmt.Errorf("not a run answer: %w", err)
		}
	}
	return out, a
}

// connectionOf logs a scenario's user in for its connection.
func (k *kit) connectionOf(ctx context.Context, user string) string {
	out, _ := k.login(ctx, user, k.users.Password, "")
	return out.Connection
}

func (k *kit) jobs(ctx context.Context, good string) {
	if good == "" {
		k.fail("jobs: success", "no connection: the good login failed")
		return
	}
	for _, job := range k.platform.Jobs {
		s := "jobs: " + job + " succeeds"
		out, a := k.runJob(ctx, domain.NewID(), good, job)
		if a.err != nil || a.status != 200 || out.Outcome != "success" {
			k.fail(s, "want 200 success, got %s", a)
			continue
		}
		k.pass(s, "success")
	}
	job := k.platform.Jobs[0]
	if conn := k.connectionOf(ctx, k.users.JobError); conn == "" {
		k.fail("jobs: error outcome", "the job-error user could not log in")
	} else if out, a := k.runJob(ctx, domain.NewID(), conn, job); a.err != nil || a.status != 200 || out.Outcome != "error" || out.ErrorCode == "" {
		k.fail("jobs: error outcome", "want 200 error with an error_code, got %s", a)
	} else {
		k.pass("jobs: error outcome", out.ErrorType+" "+out.ErrorCode)
	}
	if conn := k.connectionOf(ctx, k.users.JobPending); conn == "" {
		k.fail("jobs: pending outcome", "the job-pending user could not log in")
	} else if out, a := k.runJob(ctx, domain.NewID(), conn, job); a.err != nil || a.status != 200 || out.Outcome != "pending" || out.RetryAfterSeconds <= 0 {
		k.fail("jobs: pending outcome", "want 200 pending with retry_after_seconds > 0, got %s", a)
	} else {
		k.pass("jobs: pending outcome", fmt.Sprintf("retry after %gs", out.RetryAfterSeconds))
	}
	// The same attempt twice: the same answer.
	key := domain.NewID()
	first, a1 := k.runJob(ctx, key, good, job)
	second, a2 := k.runJob(ctx, key, good, job)
	if a1.err != nil || a2.err != nil || a1.status != 200 || a2.status != 200 || first != second {
		k.fail("jobs: idempotency key repeated", "want the same answer twice, got %s then %s", a1, a2)
	} else {
		k.pass("jobs: idempotency key repeated", "the same answer")
	}
	if _, a := k.runJob(ctx, "", good, job); a.err != nil || a.status != http.StatusBadRequest {
		k.fail("jobs: no idempotency key", "want 400, got %s", a)
	} else {
		k.pass("jobs: no idempotency key", "400 "+a.code())
	}
}

func (k *kit) products(ctx context.Context, good string) {
	for _, product := range k.platform.Products {
		s := "products: " + product
		if good == "" {
			k.fail(s, "no connection: the good login failed")
			continue
		}
		now := time.Now().UTC()
		req := protocol.FetchRequest{Product: product, Account: k.account(good), Since: now.Add(-domain.PaystubHistory), Now: now}
		pages, items := 0, 0
		var failed string
		for {
			a := k.signed(ctx, http.MethodPost, protocol.PathFetch, req)
			var page protocol.FetchResponse
			if a.err != nil || a.status != 200 || json.Unmarshal(a.body, &page) != nil || len(page.Data) == 0 {
				failed = fmt.Sprintf("page %d: want 200 with data and next_cursor, got %s", pages+1, a)
				break
			}
			if !bytes.Contains(a.body, []byte(`"next_cursor"`)) {
				failed = fmt.Sprintf("page %d has no next_cursor (null on the last page)", pages+1)
				break
			}
			pages++
			n, err := checkData(product, page.Data)
			if err != nil {
				failed = fmt.Sprintf("page %d: %v", pages, err)
				break
			}
			items += n
			if page.NextCursor == nil {
				break
			}
			if *page.NextCursor == "" || *page.NextCursor == req.Cursor || pages > 1000 {
				failed = fmt.Sprintf("page %d: next_cursor %q does not move on", pages, *page.NextCursor)
				break
			}
			req.Cursor = *page.NextCursor
		}
		if failed != "" {
			k.fail(s, "%s", failed)
			continue
		}
		k.pass(s, fmt.Sprintf("%d items over %d pages", items, pages))
	}
}

// checkData checks one page's shape: an object for the single products, a
// list otherwise, with whole-cent amounts; it returns the items counted.
func checkData(product string, data json.RawMessage) (int, error) {
	switch product {
	case domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome:
		var obj map[string]any
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return 0, fmt.Errorf("data is not an object")
		}
		return 1, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return 0, fmt.Errorf("data is not a list of objects")
	}
	if product == domain.ProductPaystubs {
		for i, p := range items {
			for _, f := range []string{"gross_pay_amount", "net_pay_amount", "gross_pay_ytd", "net_pay_ytd"} {
				if _, err := strconv.ParseInt(string(p[f]), 10, 64); err != nil {
					return 0, fmt.Errorf("paystub %d: %s is %s, not whole cents", i, f, p[f])
				}
			}
			if len(p["id"]) == 0 || len(p["pay_date"]) == 0 {
				return 0, fmt.Errorf("paystub %d has no id or pay_date", i)
			}
		}
	}
	return len(items), nil
}

func (k *kit) deadline(ctx context.Context) {
	const s = "deadline already passed"
	past := time.Now().Add(-time.Second)
	start := time.Now()
	a := k.call(ctx, http.MethodPost, protocol.PathLogin, k.loginBody(k.users.Good, k.users.Password, ""), k.secret, time.Now(), &past)
	took := time.Since(start)
	if a.err != nil || a.status < 500 || took > 5*time.Second {
		k.fail(s, "want a 5XX (504) at once for work whose deadline passed, got %s after %s", a, took.Round(time.Millisecond))
		return
	}
	k.pass(s, fmt.Sprintf("%d after %s", a.status, took.Round(time.Millisecond)))
}

func (k *kit) unknownOperation(ctx context.Context) {
	const s = "unknown operation"
	a := k.signed(ctx, http.MethodPost, "/connector/v1/no-such-operation", map[string]any{})
	if a.err != nil || a.status != http.StatusNotFound {
		k.fail(s, "want 404, got %s", a)
		return
	}
	k.pass(s, "404")
}
