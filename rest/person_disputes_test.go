package rest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// personJSON sends JSON as the person's page would (same origin, its
// cookie) and returns the status and the decoded body.
func (b *personBrowser) personJSON(method, path, body string, headers ...string) (int, map[string]any) {
	b.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, b.base+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", b.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		b.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, out
}

func errorCode(body map[string]any) any {
	e, _ := body["error"].(map[string]any)
	return e["code"]
}

// TestPersonDisputes: the person signed in to their own page files a
// dispute of their employment (the step says end_user), lists only
// their own, brings new information (the due time extends to 45 days),
// and can neither dispute nor reach another person's account or
// dispute; without the page's cookie, or from another site, nothing is
// answered; on both databases.
func TestPersonDisputes(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, erin := f.connectPerson("erin")
		_, frank := f.connectPerson("frank")
		franks := f.post("/v1/end_users/frank/disputes", `{"item": {"type": "employment", "id": "`+frank+`"}, "note": "Not my employer."}`).data(t)["id"].(string)

		b := newPersonBrowser(t, f.http.URL)
		if status, body := b.personJSON("GET", "/me/disputes", ""); status != 401 || errorCode(body) != domain.CodePortalSessionInvalid {
			t.Errorf("without a session: %d %v", status, body)
		}
		link := f.post("/v1/end_users/erin/portal_links", ``).data(t)["url"].(string)
		if status, _, _ := b.do("POST", link, url.Values{}); status != 303 {
			t.Fatalf("sign in: %d", status)
		}

		status, body := b.personJSON("POST", "/me/disputes", `{"item": {"type": "employment", "id": "`+erin+`"}, "note": "I left this job in May."}`)
		if status != 201 {
			t.Fatalf("open: %d %v", status, body)
		}
		d := body["data"].(map[string]any)
		id := d["id"].(string)
		if d["end_user_id"] != "erin" || d["steps"].([]any)[0].(map[string]any)["by"] != "end_user" || d["status"] != "open" {
			t.Errorf("opened: %v", d)
		}
		if status, body := b.personJSON("POST", "/me/disputes", `{"item": {"type": "employment", "id": "`+frank+`"}, "note": "x"}`); status != 404 ||
			errorCode(body) != domain.CodeDisputeItemNotFound {
			t.Errorf("frank's account: %d %v", status, body)
		}
		status, body = b.personJSON("GET", "/me/disputes", "")
		if list := body["data"].([]any); status != 200 || len(list) != 1 || list[0].(map[string]any)["id"] != id {
			t.Errorf("erin's disputes: %d %v", status, body)
		}
		if status, body := b.personJSON("POST", "/me/disputes/"+franks+"/information", `{"note": "x"}`); status != 404 ||
			errorCode(body) != domain.CodeDisputeNotFound {
			t.Errorf("information on frank's dispute: %d %v", status, body)
		}
		status, body = b.personJSON("POST", "/me/disputes/"+id+"/information", `{"note": "My last pay slip says so."}`)
		if status != 200 || body["data"].(map[string]any)["extended_at"] == nil {
			t.Errorf("new information: %d %v", status, body)
		}
		if status, body := b.personJSON("POST", "/me/disputes", `{"item": {"type": "employment", "id": "`+erin+`"}, "note": "x"}`,
			"Origin", "https://elsewhere.example", "Sec-Fetch-Site", "cross-site"); status != 403 || errorCode(body) != domain.CodeCrossOrigin {
			t.Errorf("a cross-site post: %d %v", status, body)
		}

		// The page's own form, without script: answered with the page.
		form := func(note, item string) url.Values {
			return url.Values{"item_type": {"employment"}, "item_id": {item}, "note": {note}}
		}
		if status, loc, _ := b.do("POST", "/me/disputes", form("My start date is wrong.", erin)); status != 303 || loc != "/me?done=disputed#disputes" {
			t.Errorf("the page's form: %d to %q", status, loc)
		}
		if status, _, page := b.do("GET", "/me", nil); status != 200 || strings.Count(page, "data-dispute=") != 2 ||
			!strings.Contains(page, "You dispute your employment at") || !strings.Contains(page, "My start date is wrong.") {
			t.Errorf("the page after the form: %d\n%s", status, page)
		}
		if status, _, page := b.do("POST", "/me/disputes", form("x", frank)); status != 404 || strings.Contains(page, "Not my employer") {
			t.Errorf("the form naming frank's account: %d", status)
		}
		if status, _, page := b.do("POST", "/me/disputes", form(" ", erin)); status != 400 || !strings.Contains(page, "note") {
			t.Errorf("the form without words: %d\n%s", status, page)
		}
		req, err := http.NewRequest("POST", f.http.URL+"/me/disputes", strings.NewReader(form("x", erin).Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", "https://evil.example")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		if resp, err := b.client.Do(req); err != nil || resp.StatusCode != 403 {
			t.Errorf("a cross-site form post: %v %v", resp, err)
		} else {
			resp.Body.Close()
		}
		if status, body := b.personJSON("GET", "/me/disputes", ""); status != 200 || len(body["data"].([]any)) != 2 {
			t.Errorf("after the refused posts, erin has %v", body["data"])
		}
	})
}
