package rest

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// personBrowser is a person's browser: cookies kept, redirects shown.
type personBrowser struct {
	t      *testing.T
	client *http.Client
	base   string
}

func newPersonBrowser(t *testing.T, base string) *personBrowser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &personBrowser{t: t, base: base, client: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request as the page's form would (same origin) and returns
// the status, Location and body.
func (b *personBrowser) do(method, path string, form url.Values) (int, string, string) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	u := path
	if strings.HasPrefix(path, "/") {
		u = b.base + path
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", b.base)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(page)
}

var portalURL = regexp.MustCompile(`https?://[^\s"<]+/p/[A-Za-z0-9_-]{43}`)

// connectPerson completes Link in the sandbox for end user, returning the
// link token and the account id.
func (f *fixture) connectPerson(endUser string, headers ...string) (string, string) {
	f.t.Helper()
	p := switchPlatform(f.t.(*testing.T))
	_, token := f.createToken(`{"org_name": "Acme Lending", "end_user_id": "`+endUser+`", "required_jobs": ["paystubs", "identity"]}`, headers...)
	res := f.post("/v1/sandbox/link_sessions", sessionBody(token, p.ID, sandbox.UserGood, ""), headers...)
	if res.status != 200 {
		f.t.Fatalf("link session: %d %s", res.status, res.raw)
	}
	return token, res.data(f.t)["account_id"].(string)
}

// TestPortalLinks: the customer's portal link is single-use and expires;
// its GET spends nothing; the person's cookie shows only their accounts
// at their customer and cannot revoke another's; the receipt asked for
// from Link carries a link; consent taken back answers the account as
// disconnected_by end_user; on both databases.
func TestPortalLinks(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		sender := &recordingSender{}
		f := newFixture(t, db, func(s *fixtureSetup) { s.sender = sender })
		token, erin := f.connectPerson("erin")
		_, frank := f.connectPerson("frank")
		other, err := f.keys.CreateKey(t.Context(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		_, elsewhere := f.connectPerson("erin", "x-api-secret", other.Secret)

		res := f.post("/v1/end_users/nobody/portal_links", ``)
		res.wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeEndUserNotFound)
		res = f.post("/v1/end_users/erin/portal_links", ``)
		if res.status != 201 {
			t.Fatalf("create: %d %s", res.status, res.raw)
		}
		link := res.data(t)["url"].(string)
		if !portalURL.MatchString(link) || strings.Contains(link, token) || strings.Contains(link, f.secret) {
			t.Fatalf("portal link %q", link)
		}

		// GET spends nothing; the post signs in, once.
		b := newPersonBrowser(t, f.http.URL)
		for range 2 {
			if status, _, page := b.do("GET", link, nil); status != 200 || !strings.Contains(page, "Open my page") {
				t.Fatalf("GET link: %d %s", status, page)
			}
		}
		status, loc, _ := b.do("POST", link, url.Values{})
		if status != 303 || loc != "/me" {
			t.Fatalf("sign in: %d %q", status, loc)
		}
		status, _, page := b.do("GET", "/me", nil)
		if status != 200 || !strings.Contains(page, `data-account="`+erin+`"`) {
			t.Fatalf("page: %d %s", status, page)
		}
		for _, id := range []string{frank, elsewhere} {
			if strings.Contains(page, id) {
				t.Errorf("erin's page shows account %s", id)
			}
			if status, _, _ := b.do("POST", "/me/revoke", url.Values{"account_id": {id}}); status != 404 {
				t.Errorf("erin revoked another's account %s: %d", id, status)
			}
		}
		// Another site cannot sign a browser in with a link it holds.
		req0, _ := http.NewRequest("POST", link, strings.NewReader(""))
		req0.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req0.Header.Set("Origin", "https://evil.example")
		req0.Header.Set("Sec-Fetch-Site", "cross-site")
		if resp, err := http.DefaultClient.Do(req0); err != nil || resp.StatusCode != 403 {
			t.Fatalf("a cross-site sign-in: %v %v", resp.StatusCode, err)
		}
		// A second browser with the spent link gets a page offering a new one.
		stranger := newPersonBrowser(t, f.http.URL)
		if status, _, page := stranger.do("POST", link, url.Values{}); status != 410 || !strings.Contains(page, "Send me a new link") {
			t.Fatalf("a used link: %d %s", status, page)
		}
		if status, _, _ := stranger.do("GET", "/me", nil); status != 401 {
			t.Errorf("a stranger's /me: %d", status)
		}
		// No address on file yet: the fresh link has nowhere to go.
		if status, _, page := stranger.do("POST", strings.TrimPrefix(link, f.http.URL)+"/resend", url.Values{}); status != 200 ||
			!strings.Contains(page, "no address") {
			t.Errorf("resend without an address: %d %s", status, page)
		}

		// The receipt, asked for from Link's completion step.
		req, _ := http.NewRequest("POST", f.http.URL+"/link/v1/api/receipt", strings.NewReader(`{"email": "erin@example.com"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		rb, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(rb), "e***@example.com") {
			t.Fatalf("receipt: %d %s", resp.StatusCode, rb)
		}
		msgs := sender.messages()
		m := msgs[len(msgs)-1]
		if m.To != "erin@example.com" || !strings.Contains(m.Text, "Acme Lending") || !portalURL.MatchString(m.Text) {
			t.Fatalf("receipt %+v", m)
		}
		// Now a spent link sends a fresh one to that address, once in a
		// while.
		if status, _, page := stranger.do("POST", strings.TrimPrefix(link, f.http.URL)+"/resend", url.Values{}); status != 200 ||
			!strings.Contains(page, "e***@example.com") {
			t.Errorf("resend: %d %s", status, page)
		}
		if status, _, page := stranger.do("POST", strings.TrimPrefix(link, f.http.URL)+"/resend", url.Values{}); status != 429 ||
			!strings.Contains(page, "a moment ago") {
			t.Errorf("resend just after another: %d %s", status, page)
		}
		f.clock.advance(domain.PortalResendEvery)
		if status, _, _ := stranger.do("POST", strings.TrimPrefix(link, f.http.URL)+"/resend", url.Values{}); status != 200 {
			t.Errorf("resend two minutes on: %d", status)
		}

		// Consent taken back, from another site: refused.
		req, _ = http.NewRequest("POST", f.http.URL+"/me/revoke", strings.NewReader("account_id="+erin))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		for _, c := range b.client.Jar.Cookies(mustURL(t, f.http.URL+"/me")) {
			req.AddCookie(c)
		}
		if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 403 {
			t.Fatalf("a cross-site revoke: %v %v", resp.StatusCode, err)
		}
		if a := f.get("/v1/accounts/" + erin).data(t); a["connected"] != true {
			t.Fatalf("a cross-site revoke disconnected the account: %v", a)
		}
		// From the page: done.
		status, loc, _ = b.do("POST", "/me/revoke", url.Values{"account_id": {erin}})
		if status != 303 || loc != "/me?done=revoked" {
			t.Fatalf("revoke: %d %q", status, loc)
		}
		a := f.get("/v1/accounts/" + erin).data(t)
		if a["connected"] != false || a["disconnected_by"] != "end_user" || a["monitoring_status"] != "unavailable" {
			t.Errorf("account after revoke %v", a)
		}
		if a := f.get("/v1/accounts/" + frank).data(t); a["connected"] != true || a["disconnected_by"] != nil {
			t.Errorf("frank's account %v", a)
		}
		// GraphQL answers the same.
		d := f.gql(`query($a: ID!, $b: ID!) { a: account(id: $a) { connected disconnectedBy } b: account(id: $b) { connected disconnectedBy } }`,
			map[string]any{"a": erin, "b": frank}).ok(t)
		if a, b := d["a"].(map[string]any), d["b"].(map[string]any); a["disconnectedBy"] != "end_user" || a["connected"] != false ||
			b["disconnectedBy"] != nil || b["connected"] != true {
			t.Errorf("GraphQL answers %v", d)
		}
		if a := f.get("/v1/accounts/"+elsewhere, "x-api-secret", other.Secret).data(t); a["connected"] != true {
			t.Errorf("erin's account at globex %v", a)
		}
		if status, _, page := b.do("GET", "/me?done=revoked", nil); status != 200 || !strings.Contains(page, `data-status="revoked"`) ||
			!strings.Contains(page, "Consent you took back") {
			t.Errorf("page after revoke: %d %s", status, page)
		}
		// Signing out ends the session.
		b.do("POST", "/me/sign_out", url.Values{})
		if status, _, _ := b.do("GET", "/me", nil); status != 401 {
			t.Errorf("after sign-out: %d", status)
		}
	})
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// disconnectRoute is cmd/payline's: the connector tells a connection's
// source of a revocation when it can.
func disconnectRoute(c domain.Connector) domain.SourceDisconnecter {
	if d, ok := c.(domain.SourceDisconnecter); ok {
		return d
	}
	return domain.NoConnector{}
}
