// Package conformance is the connector protocol's conformance kit: it
// drives a connector through every scenario protocol v1 defines, on every
// platform the connector lists, and says for each whether the connector
// passed, failed and why, or was skipped because its capabilities do not
// declare what the scenario tests. payline connectors check runs it; a
// connector passes when no scenario fails.
package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"payline/connectors/protocol"
	"payline/internal/trust"
)

// Users are the test credentials a connector gives for each login
// scenario; DefaultUsers are the sandbox's. MFACode is the second factor
// the MFA user passes with. A user left empty skips the scenarios that
// need it.
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

// State is how a scenario ended.
type State string

// The states of a scenario: passed, failed, or skipped because the
// connector's capabilities (or the test users) do not declare what it
// tests.
const (
	Passed  State = "pass"
	Failed  State = "fail"
	Skipped State = "skip"
)

// Result is one scenario's outcome, on one platform for the scenarios run
// per platform.
type Result struct {
	Scenario string `json:"scenario"`
	// PlatformID and Platform (its name) are the platform the scenario
	// tried; empty for the scenarios about the connector as a whole.
	PlatformID string `json:"platform_id,omitempty"`
	Platform   string `json:"platform,omitempty"`
	// User is the test user it logged in as, if any.
	User  string `json:"user,omitempty"`
	State State  `json:"state"`
	// Reason says why it failed or was skipped, or what was checked; it
	// begins "platform P · user U: " when it tried a platform or a user.
	Reason string `json:"reason"`
	// Problems are what is wrong with the data a product scenario read,
	// each "platform · product · item n · field: what is wrong (got X)".
	Problems []string `json:"problems,omitempty"`
}

// Failed says whether the scenario failed.
func (r Result) Failed() bool { return r.State == Failed }

// AllPassed says whether a run passed: no scenario failed (each passed or
// was skipped), and at least one ran.
func AllPassed(results []Result) bool {
	for _, r := range results {
		if r.Failed() {
			return false
		}
	}
	return len(results) > 0
}

// Check runs every scenario against the connector at url, signing with
// secret: on every platform its capabilities list, or on those of
// platformIDs only when any are given. It never stops at a failure: each
// scenario reports.
func Check(ctx context.Context, url, secret string, users Users, client *http.Client, platformIDs ...string) []Result {
	k := &kit{url: strings.TrimRight(url, "/"), secret: secret, users: users, http: client, only: platformIDs}
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
	only        []string
	results     []Result

	caps      protocol.Capabilities
	platforms []protocol.PlatformCapability // the ones checked
	first     protocol.PlatformCapability   // the one the connector-wide scenarios log in at
	labels    map[string]string             // platform id → how messages name it
}

func (k *kit) run(ctx context.Context) {
	if !k.capabilities(ctx) {
		return // nothing else can be checked without a platform
	}
	k.signatures(ctx)
	k.matching(ctx)
	for _, p := range k.platforms {
		at := k.on(p)
		good := at.logins(ctx)
		at.jobs(ctx, good)
		at.products(ctx, good)
		at.disputes(ctx, good)
		at.disconnect(ctx, good)
	}
	k.deadline(ctx)
	k.unknownOperation(ctx)
}

// tried is what a scenario tried: a platform and a test user, either
// possibly none.
type tried struct {
	platform protocol.PlatformCapability
	label    string
	user     string
}

// as is the same platform with another user.
func (t tried) as(user string) tried { t.user = user; return t }

// prefix is how a message names what was tried: "platform P · user U: ".
func (t tried) prefix() string {
	var parts []string
	if t.label != "" {
		parts = append(parts, "platform "+t.label)
	}
	if t.user != "" {
		parts = append(parts, "user "+t.user)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, " · ") + ": "
}

func (k *kit) record(scenario string, t tried, state State, reason string, problems []string) {
	k.results = append(k.results, Result{Scenario: scenario, PlatformID: t.platform.ID, Platform: t.platform.Name, User: t.user,
		State: state, Reason: t.prefix() + reason, Problems: problems})
}

func (k *kit) pass(scenario string, t tried, what string) { k.record(scenario, t, Passed, what, nil) }

func (k *kit) skip(scenario string, t tried, why string) { k.record(scenario, t, Skipped, why, nil) }

func (k *kit) fail(scenario string, t tried, format string, args ...any) {
	k.record(scenario, t, Failed, fmt.Sprintf(format, args...), nil)
}

// answer is a response as the kit reads it.
type answer struct {
	status int
	body   []byte
	err    error
}

func (a answer) code() string {
	var eb protocol.ErrorBody
	_ = json.Unmarshal(a.body, &eb) // not an ErrorBody: no code, which the check reports
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
	return k.send(req)
}

func (k *kit) send(req *http.Request) answer {
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
