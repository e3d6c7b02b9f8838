package rest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestSevenVersions runs one scenario under each of the seven versions and
// checks docs/versions.md's table: the shapes that differ differ as it
// says (jobs and job events before 2023-11-22 carry params.amount), the
// request fields it names are refused before their version, webhooks of
// versions before 2023-04-18 are refused, and every other response is
// byte-for-byte what the latest version answers.
func TestSevenVersions(t *testing.T) {
	p := fractionalPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })

		// Webhooks: one per version that may have them, refused for the rest.
		for _, v := range domain.Versions {
			res := f.post("/v1/webhooks", `{"url": "`+rcv.srv.URL+`/`+v+`", "version": "`+v+`", "enabled_events": ["direct_deposit_switch.added"]}`,
				"Service-Version", v)
			allowed := !domain.VersionBefore(v, "2023-04-18")
			if allowed != (res.status == 200) {
				t.Errorf("webhook of version %s: %d %s", v, res.status, res.raw)
			}
		}

		// One amount switch and one data connection, made at the latest version.
		tokenID, token := f.createToken(switchTokenBody(""))
		acct := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "amount", "value": 19.99}`)).data(t)["account_id"].(string)
		f.waitJobs(tokenID, 1)
		dataAcct, _ := f.connectWithJobs("versions-user", "identity", "income", "paystubs")
		webhookVersions := domain.WebhookVersions()
		waitFor(t, "a switch event per webhook version", func() bool { return len(rcv.deliveries()) == len(webhookVersions) })

		paths := []string{"/v1/jobs", "/v1/accounts", "/v1/accounts/" + acct, "/v1/accounts/" + dataAcct + "/paystubs",
			"/v1/accounts/" + dataAcct + "/income", "/v1/accounts/" + dataAcct + "/identity", "/v1/end_users/versions-user/accounts",
			"/v1/webhooks", "/v1/platforms/" + p.ID, "/v1/employers?limit=3", "/v1/search?q=summit", "/v1/link_tokens/" + tokenID + "/jobs"}
		latest := map[string][]byte{}
		for _, path := range paths {
			latest[path] = f.get(path).raw
		}
		for _, v := range domain.Versions {
			for _, path := range paths {
				res := f.get(path, "Service-Version", v)
				if res.status != 200 || res.header.Get("Service-Version") != v {
					t.Fatalf("%s at %s: %d (Service-Version %q) %s", path, v, res.status, res.header.Get("Service-Version"), res.raw)
				}
				if path == "/v1/jobs" && domain.VersionBefore(v, "2023-11-22") {
					checkAmountAdded(t, v, res.raw, latest[path], acct)
					continue
				}
				if string(res.raw) != string(latest[path]) {
					t.Errorf("%s at %s differs from %s, which the table does not say:\n got %s\nwant %s", path, v, domain.LatestVersion, res.raw, latest[path])
				}
			}
		}

		// Each webhook got the switch event in its own version's shape.
		var newest map[string]any
		payloads := map[string]map[string]any{}
		for _, d := range rcv.deliveries() {
			var body struct {
				Payload map[string]any `json:"payload"`
			}
			if err := json.Unmarshal(d.body, &body); err != nil {
				t.Fatal(err)
			}
			payloads[d.header.Get("service-version")] = body.Payload
		}
		newest = payloads[domain.LatestVersion]
		for _, v := range webhookVersions {
			got := payloads[v]
			if got == nil {
				t.Fatalf("no delivery for the %s webhook", v)
			}
			params := got["params"].(map[string]any)
			if domain.VersionBefore(v, "2023-11-22") {
				if params["amount"] != float64(1999) {
					t.Errorf("%s webhook: params.amount %v, want 1999", v, params["amount"])
				}
				delete(params, "amount")
			} else if _, ok := params["amount"]; ok {
				t.Errorf("%s webhook has params.amount", v)
			}
			if !reflect.DeepEqual(got, newest) {
				t.Errorf("%s webhook payload differs beyond params.amount:\n got %v\nwant %v", v, got, newest)
			}
		}

		// Request fields tied to a version.
		for _, v := range domain.Versions {
			for _, c := range []struct {
				field, body string
				since       string
			}{
				{"features", `{"org_name": "Acme Bank", "end_user_id": "v", "features": ["paystubs"]}`, "2025-07-08"},
				{"solution", `{"org_name": "Acme Bank", "end_user_id": "v", "solution": "Verify", "required_jobs": ["paystubs"]}`, "2025-07-08"},
				{"end_user.platform_matching", `{"org_name": "Acme Bank", "end_user_id": "v", "required_jobs": ["direct_deposit_switch"],
					"allocation": {"targets": [{"type": "checking", "account_number": "12345678", "routing_number": "` + goodRouting + `"}]},
					"end_user": {"platform_matching": {"social_security_last_four": "4321", "first_name": "Ada", "last_name": "Lovelace",
					"date_of_birth": "1990-12-10", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"}}}`, "2023-11-22"},
				{"required_jobs", `{"org_name": "Acme Bank", "end_user_id": "v", "required_jobs": ["paystubs"]}`, domain.Versions[len(domain.Versions)-1]},
			} {
				res := f.post("/v1/link_tokens", c.body, "Service-Version", v)
				if domain.VersionBefore(v, c.since) {
					if res.status != 400 || !strings.Contains(res.errorMessage(), c.field+": needs Service-Version "+c.since) {
						t.Errorf("%s at %s: %d %s, want 400 naming %s", c.field, v, res.status, res.raw, c.since)
					}
				} else if res.status != 200 {
					t.Errorf("%s at %s: %d %s", c.field, v, res.status, res.raw)
				}
			}
		}
	})
}

// checkAmountAdded checks GET /v1/jobs at an old version: the amount
// switch's job carries params.amount in cents, every other job null, and
// without it each job is exactly the latest version's.
func checkAmountAdded(t *testing.T, v string, old, latest []byte, switchAccount string) {
	t.Helper()
	var o, l struct {
		Data []map[string]any `json:"data"`
		Meta map[string]any   `json:"meta"`
	}
	if err := json.Unmarshal(old, &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(latest, &l); err != nil {
		t.Fatal(err)
	}
	if len(o.Data) != len(l.Data) || !reflect.DeepEqual(o.Meta, l.Meta) {
		t.Fatalf("GET /v1/jobs at %s: %d jobs, meta %v; latest %d, %v", v, len(o.Data), o.Meta, len(l.Data), l.Meta)
	}
	for i := range o.Data {
		params := o.Data[i]["params"].(map[string]any)
		amount, ok := params["amount"]
		want := any(nil)
		if o.Data[i]["account_id"] == switchAccount && o.Data[i]["name"] == "direct_deposit_switch" {
			want = float64(1999)
		}
		if !ok || amount != want {
			t.Errorf("job %v at %s: params.amount %v (present %v), want %v", o.Data[i]["name"], v, amount, ok, want)
		}
		delete(params, "amount")
		if !reflect.DeepEqual(o.Data[i], l.Data[i]) {
			t.Errorf("job %d at %s differs beyond params.amount:\n got %v\nwant %v", i, v, o.Data[i], l.Data[i])
		}
	}
}

// TestVersionsDocListsTheTables keeps docs/versions.md's tables the code's.
func TestVersionsDocListsTheTables(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "versions.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, v := range domain.Versions {
		if !strings.Contains(doc, "| `"+v+"`") {
			t.Errorf("docs/versions.md has no row for %s", v)
		}
	}
	for _, r := range domain.RequestRules {
		row := fmt.Sprintf("| %s | `%s` | `%s` |", r.Since, r.Endpoint, r.Field)
		if !strings.Contains(doc, row) {
			t.Errorf("docs/versions.md lacks the request rule row %q", row)
		}
	}
	for _, c := range domain.VersionChanges {
		if !strings.Contains(doc, "| "+c.Version+" |") {
			t.Errorf("docs/versions.md lacks the change of %s (%s)", c.Version, c.Summary)
		}
	}
}
