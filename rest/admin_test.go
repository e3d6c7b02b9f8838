package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

const memberPassword = "correct horse battery staple"

func (r result) errorCode() string {
	e, _ := r.body["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func (r result) errorMessage() string {
	e, _ := r.body["error"].(map[string]any)
	m, _ := e["message"].(string)
	return m
}

// gqlAs runs a GraphQL operation with the given headers and returns the
// HTTP status with the decoded body, whatever the status.
type gqlAnswer struct {
	status int
	raw    string
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func (f *fixture) gqlAs(query string, headers ...string) gqlAnswer {
	f.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query})
	res := f.request("POST", "/graphql", strings.NewReader(string(body)), append([]string{"Content-Type", "application/json"}, headers...)...)
	out := gqlAnswer{status: res.status, raw: string(res.raw)}
	if err := json.Unmarshal(res.raw, &out); err != nil {
		f.t.Fatal(err)
	}
	return out
}

// addMember adds a member of the customer with memberPassword.
func (f *fixture) addMember(customer, email string, role domain.Role) {
	f.t.Helper()
	if _, err := f.members.AddMember(context.Background(), customer, email, string(role), memberPassword); err != nil {
		f.t.Fatal(err)
	}
}

// adminToken signs a member in through POST /v1/admin/token.
func (f *fixture) adminToken(email string) string {
	f.t.Helper()
	res := f.post("/v1/admin/token", fmt.Sprintf(`{"username": %q, "password": %q}`, email, memberPassword), "x-api-secret", "")
	if res.status != http.StatusOK {
		f.t.Fatalf("sign in %s: %d %s", email, res.status, res.raw)
	}
	return res.data(f.t)["token"].(string)
}

// asMember are the headers of an admin API request with a bearer token.
func asMember(token string) []string {
	return []string{"x-api-secret", "", "Authorization", "Bearer " + token}
}

func TestAdminAPIKeys(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		f.addMember("acme", "vic@acme.test", domain.RoleViewer)
		f.addMember("globex", "gus@globex.test", domain.RoleAdministrator)

		token := f.adminToken("ada@acme.test")
		// The fixture's key (made by the CLI path) is listed, without its secret.
		list := f.get("/v1/admin/api_keys", asMember(token)...)
		if list.status != 200 || len(list.list(t)) != 1 || list.list(t)[0]["key"] != f.key.ID || list.list(t)[0]["secret"] != nil {
			t.Fatalf("list: %d %s", list.status, list.raw)
		}

		// An administrator creates a key that expires in an hour; its
		// secret works at once and stops working after expires_at.
		expires := f.clock.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		created := f.post("/v1/admin/api_keys", fmt.Sprintf(`{"expires_at": %q}`, expires), asMember(token)...)
		if created.status != 200 {
			t.Fatalf("create: %d %s", created.status, created.raw)
		}
		k := created.data(t)
		secret, keyID := k["secret"].(string), k["key"].(string)
		if len(secret) != 64 || k["is_active"] != true || k["expires_at"] == nil {
			t.Fatalf("created key %v", k)
		}
		if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != 200 {
			t.Fatalf("new key refused: %d %s", res.status, res.raw)
		}

		// Another customer's administrator sees none of these keys and
		// cannot revoke them.
		other := f.adminToken("gus@globex.test")
		if res := f.get("/v1/admin/api_keys", asMember(other)...); res.status != 200 || len(res.list(t)) != 0 {
			t.Fatalf("globex sees %s", res.raw)
		}
		if res := f.post("/v1/admin/api_keys/"+keyID+"/revoke", "", asMember(other)...); res.status != 404 || res.errorCode() != domain.CodeAPIKeyNotFound {
			t.Fatalf("globex revoked acme's key: %d %s", res.status, res.raw)
		}

		// A viewer lists but may not create or revoke.
		viewer := f.adminToken("vic@acme.test")
		if res := f.get("/v1/admin/api_keys", asMember(viewer)...); res.status != 200 || len(res.list(t)) != 2 {
			t.Fatalf("viewer list: %d %s", res.status, res.raw)
		}
		for _, path := range []string{"/v1/admin/api_keys", "/v1/admin/api_keys/" + keyID + "/revoke"} {
			res := f.post(path, "", asMember(viewer)...)
			if res.status != 403 || res.errorCode() != domain.CodeRoleForbidden || !strings.Contains(res.errorMessage(), "only administrators") {
				t.Fatalf("viewer POST %s: %d %s", path, res.status, res.raw)
			}
		}

		// Revoking refuses the secret at once.
		revoked := f.post("/v1/admin/api_keys/"+keyID+"/revoke", "", asMember(token)...)
		if revoked.status != 200 || revoked.data(t)["revoked_at"] == nil || revoked.data(t)["is_active"] != false {
			t.Fatalf("revoke: %d %s", revoked.status, revoked.raw)
		}
		if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != 401 || res.errorCode() != domain.CodeRevokedAPISecret {
			t.Fatalf("revoked key: %d %s", res.status, res.raw)
		}

		// A second key expiring in an hour works until then.
		created = f.post("/v1/admin/api_keys", fmt.Sprintf(`{"expires_at": %q}`, expires), asMember(token)...)
		secret = created.data(t)["secret"].(string)
		if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != 200 {
			t.Fatalf("second key: %d %s", res.status, res.raw)
		}
		for _, body := range []string{`{"expires_at": "2020-01-01T00:00:00Z"}`, `{"expires_at": "tomorrow"}`} {
			if res := f.post("/v1/admin/api_keys", body, asMember(token)...); res.status != 400 || res.errorCode() != domain.CodeInvalidFields {
				t.Errorf("create %s: %d %s", body, res.status, res.raw)
			}
		}
		f.clock.advance(time.Hour + time.Second)
		if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != 401 || res.errorCode() != domain.CodeExpiredAPISecret {
			t.Fatalf("expired key: %d %s", res.status, res.raw)
		}
		// The admin token lasted an hour too.
		if res := f.get("/v1/admin/api_keys", asMember(token)...); res.status != 401 || res.errorCode() != domain.CodeExpiredAdminToken {
			t.Fatalf("expired token: %d %s", res.status, res.raw)
		}
		if res := f.get("/v1/admin/api_keys", "x-api-secret", ""); res.status != 401 || res.errorCode() != domain.CodeMissingAdminToken {
			t.Fatalf("no token: %d %s", res.status, res.raw)
		}
		if res := f.get("/v1/admin/api_keys", asMember("not-a-token")...); res.status != 401 || res.errorCode() != domain.CodeInvalidAdminToken {
			t.Fatalf("bad token: %d %s", res.status, res.raw)
		}

		// Every change is in the audit log, with who made it.
		log, err := storage.NewKeyStore(db).AuditLog(context.Background(), f.key.Scope(), 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range log {
			got = append(got, e.Action+" by "+e.Actor)
		}
		slices.Reverse(got)
		want := []string{"api_key.created by cli", "member.signed_in by member:ada@acme.test", "api_key.created by member:ada@acme.test",
			"member.signed_in by member:vic@acme.test", "api_key.revoked by member:ada@acme.test", "api_key.created by member:ada@acme.test"}
		if !slices.Equal(got, want) {
			t.Errorf("audit log\n got %q\nwant %q", got, want)
		}
	})
}

// TestAdminSignInRefusals: a wrong password and an unknown member get one
// answer; an address guessing one member is refused with 429 and
// Retry-After, and no one else is refused for its failures.
func TestAdminSignInRefusals(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		f.addMember("acme", "bob@acme.test", domain.RoleDeveloper)
		// ada's e-mail fails often enough to be slowed: an attempt told to
		// wait its turn (429 SIGN_IN_SLOWED, Retry-After) comes back when
		// told, as the dashboard does. This test is about the answers,
		// TestSignInSlowsAGuessedEmail (storage) the waits.
		signIn := func(user, password string) result {
			body := fmt.Sprintf(`{"username": %q, "password": %q}`, user, password)
			res := f.post("/v1/admin/token", body, "x-api-secret", "")
			if res.status == 429 && res.errorCode() == domain.CodeSignInSlowed {
				wait, err := strconv.Atoi(res.header.Get("Retry-After"))
				if err != nil || wait <= 0 {
					t.Fatalf("SIGN_IN_SLOWED without a Retry-After: %v %s", res.header, res.raw)
				}
				f.clock.advance(time.Duration(wait) * time.Second)
				res = f.post("/v1/admin/token", body, "x-api-secret", "")
			}
			return res
		}
		// A wrong password and an unknown member get the same answer.
		wrong, unknown := signIn("ada@acme.test", "not the password"), signIn("nobody@acme.test", "not the password")
		if wrong.status != 401 || wrong.errorCode() != domain.CodeInvalidCredentials || string(wrong.raw) != string(unknown.raw) {
			t.Fatalf("wrong password %d %s; unknown member %d %s", wrong.status, wrong.raw, unknown.status, unknown.raw)
		}
		if res := signIn("", ""); res.status != 400 || res.errorCode() != domain.CodeMissingFields {
			t.Fatalf("empty: %d %s", res.status, res.raw)
		}

		// Five failures for one member from one address refuse that
		// address's next attempt, even with the right password, and say
		// when to retry.
		for range 4 {
			signIn("ada@acme.test", "guess")
		}
		res := signIn("ada@acme.test", memberPassword)
		if res.status != 429 || res.errorCode() != domain.CodeRateLimitExceeded || res.header.Get("Retry-After") == "" {
			t.Fatalf("after 5 failures: %d %s", res.status, res.raw)
		}
		// They refuse no one else: another member behind the same address
		// (an office's NAT), which failed six times, signs in.
		if res := signIn("bob@acme.test", memberPassword); res.status != 200 {
			t.Fatalf("bob from the same address: %d %s", res.status, res.raw)
		}
		// A minute later one attempt is allowed again.
		f.clock.advance(time.Minute + time.Second)
		if res := signIn("ada@acme.test", memberPassword); res.status != 200 {
			t.Fatalf("after a minute: %d %s", res.status, res.raw)
		}
	})
}

// TestSignInTimeDoesNotTellMembersApart checks that an unknown e-mail costs
// a bcrypt comparison like a wrong password, at the production work
// factor, so the time of a refusal does not say whether a member exists.
func TestSignInTimeDoesNotTellMembersApart(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	ks := storage.NewKeyStore(db)
	keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
	members := domain.NewMemberService(keys, ks, ks, storage.NewSignInThrottle(db), domain.SystemClock{}, bcrypt.DefaultCost)
	ctx := context.Background()
	if _, err := members.AddMember(ctx, "acme", "ada@acme.test", "administrator", memberPassword); err != nil {
		t.Fatal(err)
	}
	fastest := func(email string) time.Duration {
		best := time.Hour
		for i := range 3 { // distinct addresses, so the throttle stays out of it
			start := time.Now()
			_, _, err := members.SignIn(ctx, email, "wrong password", fmt.Sprint("10.0.0.", i), domain.ModeSandbox, time.Hour)
			best = min(best, time.Since(start))
			if !domain.IsKind(err, domain.KindUnauthorized) {
				t.Fatalf("%s: %v", email, err)
			}
		}
		return best
	}
	wrong, unknown := fastest("ada@acme.test"), fastest("nobody@acme.test")
	// bcrypt at the default cost takes tens of milliseconds; skipping it
	// would make the unknown member's refusal a hundred times faster.
	if unknown < wrong/3 {
		t.Errorf("an unknown member is refused in %s, a wrong password in %s: the time tells them apart", unknown, wrong)
	}
}

func TestViewerCannotChangeThroughGraphQL(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "vic@acme.test", domain.RoleViewer)
		f.addMember("acme", "dev@acme.test", domain.RoleDeveloper)
		f.addMember("globex", "gus@globex.test", domain.RoleAdministrator)
		f.createWebhook("https://example.com/hook", `"account.added"`)
		f.seedEndUser("acme-user", 1, switchPlatform(t).ID)

		create := `mutation { createWebhook(input: {url: "https://example.com/other", enabledEvents: ["account.added"], version: "` + domain.LatestVersion + `"}) { id } }`
		viewer := f.dashboardCookie("vic@acme.test")
		res := f.gqlAs(create, "x-api-secret", "", "Cookie", viewer)
		if res.status != 403 || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != domain.CodeRoleForbidden {
			t.Fatalf("viewer's createWebhook: %d %+v", res.status, res.Errors)
		}
		// Reads work for the viewer, in its own tenant only.
		res = f.gqlAs(`{ viewer { role } webhooks { edges { node { url } } } endUser(id: "acme-user") { id } }`, "x-api-secret", "", "Cookie", viewer)
		if res.status != 200 || len(res.Errors) > 0 || !strings.Contains(string(res.raw), "example.com/hook") || !strings.Contains(string(res.raw), `"role":"viewer"`) {
			t.Fatalf("viewer's read: %d %s", res.status, res.raw)
		}
		other := f.dashboardCookie("gus@globex.test")
		res = f.gqlAs(`{ webhooks { edges { node { url } } } endUser(id: "acme-user") { id } endUsers { edges { node { id } } } }`, "x-api-secret", "", "Cookie", other)
		if res.status != 200 || strings.Contains(string(res.raw), "example.com") || strings.Contains(string(res.raw), "acme-user") {
			t.Fatalf("globex sees acme's data: %s", res.raw)
		}
		// A developer may create a webhook; it is signed with the
		// workspace's newest active key, and another site's page may not
		// make the browser do it.
		dev := f.dashboardCookie("dev@acme.test")
		if res := f.gqlAs(create, "x-api-secret", "", "Cookie", dev); res.status != 200 || len(res.Errors) > 0 {
			t.Fatalf("developer's createWebhook: %d %s", res.status, res.raw)
		}
		res = f.gqlAs(create, "x-api-secret", "", "Cookie", dev, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
		if res.status != 403 || len(res.Errors) != 1 || res.Errors[0].Extensions["code"] != domain.CodeCrossOrigin {
			t.Fatalf("cross-site createWebhook: %d %s", res.status, res.raw)
		}
	})
}

// dashboardCookie signs a member in as the dashboard does and returns the
// Cookie header value.
func (f *fixture) dashboardCookie(email string) string {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.http.URL+"/dashboard/session",
		strings.NewReader(fmt.Sprintf(`{"email": %q, "password": %q}`, email, memberPassword)))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
				f.t.Fatalf("session cookie %+v is not HttpOnly and SameSite=Strict", c)
			}
			return c.Name + "=" + c.Value
		}
	}
	f.t.Fatalf("sign in %s: %d, no cookie", email, resp.StatusCode)
	return ""
}
