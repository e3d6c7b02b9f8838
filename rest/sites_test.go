package rest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

func siteBodyJSON(extra string) string {
	return `{"org_name": "Acme Bank", "job": "direct_deposit_switch", "account_number": "123456789", "routing_number": "` + goodRouting +
		`", "account_type": "checking", "redirect_url": "https://acme.example/done?ref=42"` + extra + `}`
}

// TestSites: the legacy POST /v1/sites checks ttl's bounds, the legacy
// amount's two decimals and the redirect URL's scheme, and answers a URL
// of the hosted page, the expiry in Unix seconds and the token id, on
// both databases.
func TestSites(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		before := time.Now()
		res := f.post("/v1/sites", siteBodyJSON(""))
		d := res.data(t)
		if res.status != 200 || !strings.HasPrefix(d["url"].(string), f.http.URL+"/link/v1/site#token=lt_") || !domain.ValidID(d["token_id"].(string)) {
			t.Fatalf("site %d %v", res.status, d)
		}
		if exp := int64(d["expires"].(float64)); exp < before.Add(900*time.Second).Unix() || exp > time.Now().Add(900*time.Second).Unix()+1 {
			t.Errorf("expires %d, want about now + 900 s", exp)
		}
		long := f.post("/v1/sites", siteBodyJSON(`, "ttl": 1209600, "amount": 150.00`)).data(t)
		if exp := int64(long["expires"].(float64)); exp < before.Add(1209600*time.Second).Unix() {
			t.Errorf("a 14-day site expires %d", exp)
		}
		for _, tc := range []struct{ name, extra, field string }{
			{"ttl too short", `, "ttl": 899`, "ttl"},
			{"ttl too long", `, "ttl": 1209601`, "ttl"},
			{"ttl fractional", `, "ttl": 900.5`, "ttl"},
			{"amount with three decimals", `, "amount": 19.999`, "amount"},
			{"amount with one decimal", `, "amount": 19.9`, "amount"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.post("/v1/sites", siteBodyJSON(tc.extra))
				res.wantError(t, http.StatusBadRequest, typeInvalid, domain.CodeInvalidFields)
				if !strings.Contains(res.body["error"].(map[string]any)["message"].(string), tc.field) {
					t.Errorf("message %v does not name %s", res.body, tc.field)
				}
			})
		}
		for _, redirect := range []string{"javascript:alert(1)", "data:text/html,hi", "/relative", "ftp://acme.example/x"} {
			res := f.post("/v1/sites", strings.Replace(siteBodyJSON(""), "https://acme.example/done?ref=42", redirect, 1))
			res.wantError(t, http.StatusBadRequest, typeInvalid, domain.CodeInvalidFields)
		}
		payment := strings.Replace(siteBodyJSON(""), "direct_deposit_switch", "direct_deposit_payment", 1)
		f.post("/v1/sites", payment).wantError(t, http.StatusBadRequest, typeInvalid, domain.CodeMissingFields)
		if res := f.post("/v1/sites", strings.Replace(payment, `"account_type"`, `"amount": 25.00, "account_type"`, 1)); res.status != 200 {
			t.Errorf("a payment site with its amount: %d %s", res.status, res.raw)
		}
	})
}

// TestBrowserSiteRedirect: the hosted page of a site runs Link without
// the integrator's SDK and, when the user is done, sends the browser to
// redirect_url with the outcome and ids in the query string.
func TestBrowserSiteRedirect(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	landed := make(chan url.Values, 1)
	back := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/done" {
			select {
			case landed <- r.URL.Query():
			default:
			}
		}
		fmt.Fprint(w, "<!doctype html><title>Acme</title><p>Welcome back")
	}))
	defer back.Close()
	site := f.post("/v1/sites", strings.Replace(siteBodyJSON(`, "amount": 150.00`), "https://acme.example/done?ref=42", back.URL+"/done?ref=42", 1)).data(t)

	m := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(m.ctx, chromedp.Navigate(site["url"].(string))); err != nil {
		t.Fatal(err)
	}
	m.click("#consent-continue")
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.click("#confirm-provider")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.click("#confirm-switch")
	m.click("#done")
	select {
	case q := <-landed:
		if q.Get("ref") != "42" || q.Get("outcome") != "success" || q.Get("job") != "direct_deposit_switch" ||
			q.Get("link_token_id") != site["token_id"] || !domain.ValidID(q.Get("account_id")) {
			t.Errorf("redirected with %v", q)
		}
		jobs := f.get("/v1/jobs?account_id=" + q.Get("account_id")).list(t)
		if len(jobs) != 1 || jobs[0]["params"].(map[string]any)["allocation"].(map[string]any)["value"] != 150.0 {
			t.Errorf("the site's switch %v", jobs)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the browser was not sent back to redirect_url")
	}
}
