package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"payline/connectors/protocol"
	"payline/domain"
)

var products = []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductPaystubs,
	domain.ProductAllocations, domain.ProductTaxForms, domain.ProductShifts}

func (k *kit) capabilities(ctx context.Context) bool {
	const s = "capabilities"
	a := k.signed(ctx, http.MethodGet, protocol.PathCapabilities, nil)
	if a.err != nil || a.status != 200 {
		k.fail(s, tried{}, "GET %s: %s", protocol.PathCapabilities, a)
		return false
	}
	if err := json.Unmarshal(a.body, &k.caps); err != nil {
		k.fail(s, tried{}, "not the capabilities object: %v", err)
		return false
	}
	if k.caps.ProtocolVersion != protocol.Version {
		k.fail(s, tried{}, "protocol_version %q, want %q", k.caps.ProtocolVersion, protocol.Version)
		return false
	}
	if len(k.caps.Platforms) == 0 {
		k.fail(s, tried{}, "serves no platform")
		return false
	}
	if why := malformed(k.caps.Platforms); why != "" {
		k.fail(s, tried{}, "%s", why)
		return false
	}
	k.labels = labels(k.caps.Platforms)
	k.platforms = k.caps.Platforms
	if len(k.only) > 0 {
		k.platforms = nil
		for _, id := range k.only {
			i := slices.IndexFunc(k.caps.Platforms, func(p protocol.PlatformCapability) bool { return p.ID == id })
			if i < 0 {
				k.fail(s, tried{}, "platform %s (asked for) is not among the %d the connector lists", id, len(k.caps.Platforms))
				return false
			}
			k.platforms = append(k.platforms, k.caps.Platforms[i])
		}
	}
	// The platform the connector-wide scenarios log in at: the checked one
	// with the most products.
	k.first = slices.MaxFunc(k.platforms, func(a, b protocol.PlatformCapability) int { return len(a.Products) - len(b.Products) })
	what := fmt.Sprintf("protocol %s, %d platforms", k.caps.ProtocolVersion, len(k.caps.Platforms))
	if len(k.platforms) < len(k.caps.Platforms) {
		names := make([]string, len(k.platforms))
		for i, p := range k.platforms {
			names[i] = k.labels[p.ID]
		}
		what += fmt.Sprintf("; checking %d: %s", len(k.platforms), strings.Join(names, ", "))
	}
	k.pass(s, tried{}, what)
	return true
}

// malformed says what is wrong with the platforms a connector lists, ""
// when nothing is.
func malformed(platforms []protocol.PlatformCapability) string {
	seen := map[string]bool{}
	for _, p := range platforms {
		if p.ID == "" || p.Name == "" {
			return fmt.Sprintf("a platform without an id or name: %+v", p)
		}
		if seen[p.ID] {
			return fmt.Sprintf("platform %s is listed twice", p.ID)
		}
		seen[p.ID] = true
		if _, ok := domain.ParsePlatformType(p.Type); !ok {
			return fmt.Sprintf("platform %s: type %q is not payroll, time_and_attendance, tax or merchant", p.ID, p.Type)
		}
		for _, j := range p.Jobs {
			if _, ok := domain.ParseJobType(j); !ok {
				return fmt.Sprintf("platform %s: unknown job %q", p.ID, j)
			}
		}
		for _, pr := range p.Products {
			if !slices.Contains(products, pr) {
				return fmt.Sprintf("platform %s: unknown product %q", p.ID, pr)
			}
		}
	}
	return ""
}

// labels are how messages name each platform: its name, with its id too
// when another platform has the same name.
func labels(platforms []protocol.PlatformCapability) map[string]string {
	named := map[string]int{}
	for _, p := range platforms {
		named[p.Name]++
	}
	out := make(map[string]string, len(platforms))
	for _, p := range platforms {
		out[p.ID] = p.Name
		if named[p.Name] > 1 {
			out[p.ID] = p.Name + " (" + p.ID + ")"
		}
	}
	return out
}

// on is the kit trying one platform.
func (k *kit) on(p protocol.PlatformCapability) *platformKit {
	return &platformKit{kit: k, at: tried{platform: p, label: k.labels[p.ID]}}
}

// platformKit runs the scenarios of one platform.
type platformKit struct {
	*kit
	at tried
}

func (k *kit) signatures(ctx context.Context) {
	at := k.on(k.first).at.as(k.users.Good)
	refused := func(s string, a answer) {
		if a.err != nil || a.status != http.StatusUnauthorized || a.code() != "INVALID_SIGNATURE" {
			k.fail(s, at, "want 401 INVALID_SIGNATURE, got %s", a)
			return
		}
		k.pass(s, at, "401 INVALID_SIGNATURE")
	}
	login := loginBody(k.first, k.users.Good, k.users.Password, "")
	refused("signature: wrong secret", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret+"-not", time.Now(), nil))
	refused("signature: missing", k.call(ctx, http.MethodPost, protocol.PathLogin, login, "", time.Now(), nil))
	refused("signature: replayed (10 minutes old)", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret, time.Now().Add(-10*time.Minute), nil))
	refused("signature: from the future (10 minutes)", k.call(ctx, http.MethodPost, protocol.PathLogin, login, k.secret, time.Now().Add(10*time.Minute), nil))
	// A body changed after signing.
	body, _ := json.Marshal(login)
	ts := time.Now().Unix()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, k.url+protocol.PathLogin, bytes.NewReader(append(body, ' ')))
	a := answer{err: err}
	if err == nil {
		req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
		req.Header.Set(protocol.HeaderSignature, protocol.Sign(k.secret, http.MethodPost, protocol.PathLogin, ts, body))
		a = k.send(req)
	}
	refused("signature: body changed after signing", a)
}

func loginBody(p protocol.PlatformCapability, user, password, mfa string) protocol.LoginRequest {
	return protocol.LoginRequest{Platform: protocol.Platform{ID: p.ID, Name: p.Name, Type: p.Type},
		Credentials: protocol.Credentials{Username: user, Password: password, MFACode: mfa}}
}

func (k *platformKit) login(ctx context.Context, user, password, mfa string) (protocol.LoginResponse, answer) {
	a := k.signed(ctx, http.MethodPost, protocol.PathLogin, loginBody(k.at.platform, user, password, mfa))
	var out protocol.LoginResponse
	if a.err == nil && a.status == 200 {
		if err := json.Unmarshal(a.body, &out); err != nil {
			a.err = fmt.Errorf("not a login answer: %w", err)
		}
	}
	return out, a
}

// logins checks every login scenario at the platform and returns the good
// user's connection ("" when it failed).
func (k *platformKit) logins(ctx context.Context) string {
	const goodLogin = "login: good credentials"
	at := k.at.as(k.users.Good)
	out, a := k.login(ctx, k.users.Good, k.users.Password, "")
	good := out.Connection
	switch {
	case a.err != nil || a.status != 200:
		k.fail(goodLogin, at, "want 200 with a connection, got %s", a)
	case out.Connection == "" || out.MFARequired != nil:
		k.fail(goodLogin, at, "want a connection and no mfa_required, got %s", a)
	default:
		k.pass(goodLogin, at, "a connection")
	}
	refusal := func(s, user, password, mfa, code string) {
		_, a := k.login(ctx, user, password, mfa)
		if a.err != nil || a.status != http.StatusUnprocessableEntity || a.code() != code {
			k.fail(s, k.at.as(user), "want 422 %s, got %s", code, a)
			return
		}
		k.pass(s, k.at.as(user), "422 "+code)
	}
	refusal("login: wrong password", k.users.Good, k.users.Password+"-wrong", "", domain.CodeInvalidCredentials)
	refusal("login: unknown user", "no-such-user-"+strconv.FormatInt(time.Now().UnixNano(), 36), k.users.Password, "", domain.CodeInvalidCredentials)
	if k.users.Locked == "" {
		k.skip("login: locked account", k.at, "no locked user given (--users)")
	} else {
		refusal("login: locked account", k.users.Locked, k.users.Password, "", domain.CodeAccountLocked)
	}
	k.mfa(ctx, refusal)
	return good
}

// mfaScenarios are the scenarios of a platform with a second factor.
var mfaScenarios = []string{"login: MFA asked for", "login: wrong MFA code", "login: right MFA code"}

func (k *platformKit) mfa(ctx context.Context, refusal func(s, user, password, mfa, code string)) {
	why := ""
	switch {
	case !k.at.platform.MFASupported:
		why = "its capabilities do not declare mfa_supported"
	case k.users.MFA == "" || k.users.MFACode == "":
		why = "no MFA user and code given (--users)"
	}
	if why != "" {
		for _, s := range mfaScenarios {
			k.skip(s, k.at, why)
		}
		return
	}
	at := k.at.as(k.users.MFA)
	out, a := k.login(ctx, k.users.MFA, k.users.Password, "")
	if a.err != nil || a.status != 200 || out.MFARequired == nil || out.MFARequired.Prompt == "" || out.Connection != "" {
		k.fail(mfaScenarios[0], at, "want 200 with mfa_required and a prompt, got %s", a)
	} else {
		k.pass(mfaScenarios[0], at, "prompt: "+out.MFARequired.Prompt)
	}
	refusal(mfaScenarios[1], k.users.MFA, k.users.Password, k.users.MFACode+"9", domain.CodeInvalidMFACode)
	out, a = k.login(ctx, k.users.MFA, k.users.Password, k.users.MFACode)
	if a.err != nil || a.status != 200 || out.Connection == "" {
		k.fail(mfaScenarios[2], at, "want 200 with a connection, got %s", a)
	} else {
		k.pass(mfaScenarios[2], at, "a connection")
	}
}

func (k *kit) matching(ctx context.Context) {
	const s = "match"
	candidates := make([]protocol.Platform, 0, len(k.caps.Platforms))
	for _, p := range k.caps.Platforms {
		candidates = append(candidates, protocol.Platform{ID: p.ID, Name: p.Name, Type: p.Type})
	}
	m := protocol.Matching{SocialSecurityLastFour: "4321", DateOfBirth: "1990-01-02", FirstName: "Ada", LastName: "Lovelace"}
	req := protocol.MatchRequest{Matching: m, Candidates: candidates}
	// Matching tries no platform or user but a person: the message says whom.
	at := tried{user: fmt.Sprintf("%s %s (born %s, SSN ending %s)", m.FirstName, m.LastName, m.DateOfBirth, m.SocialSecurityLastFour)}
	var first, second protocol.MatchResponse
	for i, out := range []*protocol.MatchResponse{&first, &second} {
		a := k.signed(ctx, http.MethodPost, protocol.PathMatch, req)
		if a.err != nil || a.status != 200 || json.Unmarshal(a.body, out) != nil || out.PlatformIDs == nil {
			k.fail(s, at, "attempt %d: want 200 with platform_ids, got %s", i+1, a)
			return
		}
	}
	for _, id := range first.PlatformIDs {
		if !slices.ContainsFunc(candidates, func(p protocol.Platform) bool { return p.ID == id }) {
			k.fail(s, at, "matched %s, which is not a candidate", id)
			return
		}
	}
	if !slices.Equal(first.PlatformIDs, second.PlatformIDs) {
		k.fail(s, at, "the same identifiers matched %v, then %v", first.PlatformIDs, second.PlatformIDs)
		return
	}
	k.pass(s, at, fmt.Sprintf("%d of %d candidates, the same twice", len(first.PlatformIDs), len(candidates)))
}

func (k *platformKit) account(connection string) protocol.Account {
	p := k.at.platform
	return protocol.Account{ID: "0195f0a0-0000-7000-8000-00000000c0de", CustomerID: "conformance", EndUserID: "conformance-user",
		PlatformID: p.ID, EmployerName: p.Name, Connection: connection, CreatedAt: time.Now().UTC().Add(-time.Hour)}
}

func (k *platformKit) runJob(ctx context.Context, key, connection, job string) (protocol.RunResponse, answer) {
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
func (k *platformKit) connectionOf(ctx context.Context, user string) string {
	out, _ := k.login(ctx, user, k.users.Password, "")
	return out.Connection
}

func (k *platformKit) jobs(ctx context.Context, good string) {
	at := k.at.as(k.users.Good)
	if len(k.at.platform.Jobs) == 0 {
		for _, s := range []string{"jobs: error outcome", "jobs: pending outcome", "jobs: idempotency key repeated", "jobs: no idempotency key"} {
			k.skip(s, k.at, "its capabilities list no job")
		}
		return
	}
	if good == "" {
		k.fail("jobs: success", at, "no connection: the good login failed")
		return
	}
	for _, job := range k.at.platform.Jobs {
		s := "jobs: " + job + " succeeds"
		out, a := k.runJob(ctx, domain.NewID(), good, job)
		if a.err != nil || a.status != 200 || out.Outcome != "success" {
			k.fail(s, at, "want 200 success, got %s", a)
			continue
		}
		k.pass(s, at, "success")
	}
	job := k.at.platform.Jobs[0]
	k.jobError(ctx, job)
	k.jobPending(ctx, job)
	// The same attempt twice: the same answer.
	key := domain.NewID()
	first, a1 := k.runJob(ctx, key, good, job)
	second, a2 := k.runJob(ctx, key, good, job)
	if a1.err != nil || a2.err != nil || a1.status != 200 || a2.status != 200 || !sameRun(first, second) {
		k.fail("jobs: idempotency key repeated", at, "%s twice: want the same answer, got %s then %s", job, a1, a2)
	} else {
		k.pass("jobs: idempotency key repeated", at, job+": the same answer")
	}
	if _, a := k.runJob(ctx, "", good, job); a.err != nil || a.status != http.StatusBadRequest {
		k.fail("jobs: no idempotency key", at, "%s: want 400, got %s", job, a)
	} else {
		k.pass("jobs: no idempotency key", at, job+": 400 "+a.code())
	}
}

func sameRun(a, b protocol.RunResponse) bool {
	at := a.At == nil && b.At == nil || a.At != nil && b.At != nil && a.At.Equal(*b.At)
	a.At, b.At = nil, nil
	return at && a == b
}

func (k *platformKit) jobError(ctx context.Context, job string) {
	const s = "jobs: error outcome"
	if k.users.JobError == "" {
		k.skip(s, k.at, "no job-error user given (--users)")
		return
	}
	at := k.at.as(k.users.JobError)
	if conn := k.connectionOf(ctx, k.users.JobError); conn == "" {
		k.fail(s, at, "could not log in")
	} else if out, a := k.runJob(ctx, domain.NewID(), conn, job); a.err != nil || a.status != 200 || out.Outcome != "error" || out.ErrorCode == "" {
		k.fail(s, at, "%s: want 200 error with an error_code, got %s", job, a)
	} else {
		k.pass(s, at, job+": "+out.ErrorType+" "+out.ErrorCode)
	}
}

func (k *platformKit) jobPending(ctx context.Context, job string) {
	const s = "jobs: pending outcome"
	switch {
	case !k.at.platform.PendingSupported:
		k.skip(s, k.at, "its capabilities do not declare pending_supported")
		return
	case k.users.JobPending == "":
		k.skip(s, k.at, "no job-pending user given (--users)")
		return
	}
	at := k.at.as(k.users.JobPending)
	if conn := k.connectionOf(ctx, k.users.JobPending); conn == "" {
		k.fail(s, at, "could not log in")
	} else if out, a := k.runJob(ctx, domain.NewID(), conn, job); a.err != nil || a.status != 200 || out.Outcome != "pending" || out.RetryAfterSeconds <= 0 {
		k.fail(s, at, "%s: want 200 pending with retry_after_seconds > 0, got %s", job, a)
	} else {
		k.pass(s, at, fmt.Sprintf("%s: retry after %gs", job, out.RetryAfterSeconds))
	}
}

func (k *kit) deadline(ctx context.Context) {
	const s = "deadline already passed"
	at := k.on(k.first).at.as(k.users.Good)
	past := time.Now().Add(-time.Second)
	start := time.Now()
	a := k.call(ctx, http.MethodPost, protocol.PathLogin, loginBody(k.first, k.users.Good, k.users.Password, ""), k.secret, time.Now(), &past)
	took := time.Since(start)
	if a.err != nil || a.status < 500 || took > 5*time.Second {
		k.fail(s, at, "want a 5XX (504) at once for work whose deadline passed, got %s after %s", a, took.Round(time.Millisecond))
		return
	}
	k.pass(s, at, fmt.Sprintf("%d after %s", a.status, took.Round(time.Millisecond)))
}

func (k *kit) unknownOperation(ctx context.Context) {
	const s = "unknown operation"
	a := k.signed(ctx, http.MethodPost, "/connector/v1/no-such-operation", map[string]any{})
	if a.err != nil || a.status != http.StatusNotFound {
		k.fail(s, tried{}, "want 404, got %s", a)
		return
	}
	k.pass(s, tried{}, "404")
}
