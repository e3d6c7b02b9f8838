package rest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// arithmeticStub is a paystub of the corpus whose net pay is $250 more
// than its gross less its taxes and deductions: the checks doubt it
// (ARITHMETIC_MISMATCH), so it waits for a person.
func arithmeticStub(t testing.TB) uploadFile {
	t.Helper()
	pdf, err := os.ReadFile("../testdata/documents/forged/arithmetic.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return uploadFile{"march-24.pdf", pdf}
}

// uploadForReview uploads the arithmetic stub through Link as the end
// user's and returns the stored document.
func (f *fixture) uploadForReview(endUserID string) map[string]any {
	f.t.Helper()
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "` + endUserID + `", "required_jobs": ["paystubs"]}`)
	if status, out := f.upload(token, "paystub", arithmeticStub(f.t)); status != 200 {
		f.t.Fatalf("upload: %d %v", status, out)
	}
	docs := f.get("/v1/end_users/" + endUserID + "/documents").list(f.t)
	if len(docs) != 1 {
		f.t.Fatalf("%d documents", len(docs))
	}
	return docs[0]
}

// getRaw sends a GET with the headers and returns the status, the
// Content-Type and the body, whatever they are.
func (f *fixture) getRaw(path string, headers ...string) (int, string, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.http.URL+path, nil)
	req.Header.Set("Service-Version", domain.LatestVersion)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// TestDocumentReviewREST is the review queue over REST on both databases:
// an uploaded stub whose figures do not add up is needs_review with a
// review required and documents.review_required; an API key and a member
// read the queue and the page; a review needs a member of the reviewer or
// administrator role (an API key alone, a viewer and a developer are
// refused), bad corrections are named, a correction accepted is stored
// with who and when, audited and announced, once; the VOIE then counts
// the stub; another customer sees and reviews nothing.
func TestDocumentReviewREST(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "rita@acme.test", domain.RoleReviewer)
		f.addMember("acme", "vic@acme.test", domain.RoleViewer)
		f.addMember("acme", "dev@acme.test", domain.RoleDeveloper)
		doc := f.uploadForReview("rev-user")
		id := doc["id"].(string)
		fraud := doc["fraud"].(map[string]any)
		if fraud["status"] != domain.FraudNeedsReview {
			t.Fatalf("the stub's checks: %v", fraud)
		}
		if r, _ := doc["review"].(map[string]any); r["status"] != "required" {
			t.Fatalf("review %v, want required", doc["review"])
		}
		if p := f.eventPayloads(domain.EventDocumentsReviewRequired); len(p) != 1 || p[0]["document_id"] != id || p[0]["end_user_id"] != "rev-user" {
			t.Errorf("documents.review_required: %v", p)
		}

		// The queue, with the API key and with a member's token.
		queue := f.get("/v1/document_reviews").list(t)
		if len(queue) != 1 || queue[0]["id"] != id {
			t.Fatalf("the queue: %v", queue)
		}
		rita := "Bearer " + f.adminToken("rita@acme.test")
		if q := f.get("/v1/document_reviews?end_user_id=rev-user&limit=1", "x-api-secret", "", "Authorization", rita).list(t); len(q) != 1 {
			t.Errorf("the queue read by a member: %v", q)
		}
		if q := f.get("/v1/document_reviews?end_user_id=someone-else").list(t); len(q) != 0 {
			t.Errorf("another end user's queue: %v", q)
		}
		f.get("/v1/document_reviews?status=maybe").wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeInvalidFields)
		f.get("/v1/document_reviews", "x-api-secret", "").wantError(t, 401, "UNAUTHORIZED_REQUEST", domain.CodeMissingAPISecret)

		// The page beside the fields, for a key and a member alike.
		pages := "/v1/end_users/rev-user/documents/" + id + "/pages/"
		status, typ, png := f.getRaw(pages+"1", "x-api-secret", f.secret)
		if status != 200 || typ != "image/png" || !bytes.HasPrefix(png, []byte("\x89PNG")) {
			t.Fatalf("page 1: %d %s %.40q", status, typ, png)
		}
		if status, _, _ := f.getRaw(pages+"1", "Authorization", rita); status != 200 {
			t.Errorf("page 1 for a member: %d", status)
		}
		f.get(pages+"2").wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDocumentPageNotFound)
		f.get(pages+"0").wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeInvalidFields)
		f.get(pages+"one").wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeInvalidFields)
		f.get("/v1/end_users/someone-else/documents/"+id+"/pages/1").wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDocumentNotFound)

		// Who may review.
		review := "/v1/end_users/rev-user/documents/" + id + "/review"
		accept := `{"outcome": "accepted", "corrections": {"net_pay_amount": "1,972.98"}, "note": "net pay checked with the employer"}`
		f.post(review, accept).wantError(t, 401, "UNAUTHORIZED_REQUEST", domain.CodeMissingAdminToken)
		for _, who := range []string{"vic@acme.test", "dev@acme.test"} {
			f.post(review, accept, "x-api-secret", "", "Authorization", "Bearer "+f.adminToken(who)).
				wantError(t, 403, "UNAUTHORIZED_REQUEST", domain.CodeRoleForbidden)
		}
		// Bad corrections are named, and change nothing.
		res := f.post(review, `{"outcome": "accepted", "corrections": {"net_pay_amount": "1972.985", "pay_date": "03/24/2026", "bonus": 1}}`,
			"x-api-secret", "", "Authorization", rita)
		res.wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeInvalidFields)
		for _, field := range []string{"corrections.net_pay_amount", "corrections.pay_date", "corrections.bonus"} {
			if !strings.Contains(res.errorMessage(), field) {
				t.Errorf("the refusal %q does not name %s", res.errorMessage(), field)
			}
		}
		f.post(review, `{"outcome": "rejected"}`, "x-api-secret", "", "Authorization", rita).
			wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeMissingFields)

		// Accepted, corrected: a JSON number is read from its literal too.
		res = f.post(review, `{"outcome": "accepted", "corrections": {"net_pay_amount": "1,972.98", "total_taxes": 600.02},
			"note": "net pay checked with the employer"}`, "x-api-secret", "", "Authorization", rita)
		if res.status != 200 {
			t.Fatalf("review: %d %s", res.status, res.raw)
		}
		got := res.data(t)
		r := got["review"].(map[string]any)
		if r["status"] != "completed" || r["outcome"] != "accepted" || r["basis"] != "reviewed by a member of acme" ||
			r["note"] != "net pay checked with the employer" || r["reviewed_at"] == nil || !domain.ValidID(r["reviewer_id"].(string)) {
			t.Errorf("review %v", r)
		}
		corrections := r["corrections"].([]any)
		if len(corrections) != 1 || corrections[0].(map[string]any)["before"] != "222298" || corrections[0].(map[string]any)["after"] != "197298" {
			t.Errorf("corrections %v (total_taxes was read as printed, so it is no correction)", corrections)
		}
		if pd := got["parsed_data"].(map[string]any); pd["net_pay_amount"] != float64(197298) {
			t.Errorf("parsed_data after the review: %v", pd)
		}
		f.post(review, accept, "x-api-secret", "", "Authorization", rita).
			wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeDocumentAlreadyReviewed)
		if q := f.get("/v1/document_reviews").list(t); len(q) != 0 {
			t.Errorf("the queue after the review: %v", q)
		}
		if q := f.get("/v1/document_reviews?status=completed").list(t); len(q) != 1 || q[0]["id"] != id {
			t.Errorf("the completed reviews: %v", q)
		}
		if q := f.get("/v1/document_reviews?status=all").list(t); len(q) != 1 {
			t.Errorf("all reviews: %v", q)
		}

		// Audited (who and which field, not the figures) and announced.
		log, err := storage.NewKeyStore(db).AuditLog(context.Background(), f.key.Scope(), 20)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(log, func(e domain.AuditEntry) bool { return e.Action == domain.AuditDocumentReviewed })
		if i < 0 || log[i].Actor != "member:rita@acme.test" || log[i].Target != id || log[i].Detail != "accepted; corrected net_pay_amount" ||
			log[i].Address != "127.0.0.1" {
			t.Errorf("audit log %+v", log)
		}
		if p := f.eventPayloads(domain.EventDocumentsReviewed); len(p) != 1 || p[0]["outcome"] != "accepted" || p[0]["document_id"] != id {
			t.Errorf("documents.reviewed: %v", p)
		}

		// The next VOIE counts the stub.
		voie := f.get("/v1/end_users/rev-user/verification_reports/voie").data(t)
		emps, _ := voie["employments"].([]any)
		if len(emps) != 1 {
			t.Fatalf("VOIE employments %v", voie["employments"])
		}
		src := emps[0].(map[string]any)["source"].(map[string]any)
		if ids, _ := src["document_ids"].([]any); len(ids) != 1 || ids[0] != id {
			t.Errorf("the VOIE's source %v", src)
		}

		// Another customer sees and reviews none of it.
		globex, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		f.addMember("globex", "gus@globex.test", domain.RoleAdministrator)
		if q := f.get("/v1/document_reviews?status=all", "x-api-secret", globex.Secret).list(t); len(q) != 0 {
			t.Errorf("another customer's queue: %v", q)
		}
		f.get(pages+"1", "x-api-secret", globex.Secret).wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDocumentNotFound)
		f.post(review, `{"outcome": "rejected", "note": "x"}`, "x-api-secret", "", "Authorization", "Bearer "+f.adminToken("gus@globex.test")).
			wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDocumentNotFound)
	})
}

// FuzzReviewBody fuzzes POST .../documents/{id}/review as a reviewer, on
// a document under review: any body is a success or the spec's 4XX error,
// never a 5XX.
func FuzzReviewBody(f *testing.F) {
	fx := newFixture(f, storagetest.Open(f, storage.SQLite, storagetest.Seeded))
	fx.skipSpec = true // arbitrary input meets undocumented shapes of no interest here
	fx.addMember("acme", "rita@acme.test", domain.RoleReviewer)
	id := fx.uploadForReview("fuzzed")["id"].(string)
	token := "Bearer " + fx.adminToken("rita@acme.test")
	for _, s := range []string{`{"outcome": "accepted", "corrections": {"net_pay_amount": "1,972.98"}}`, `{"outcome": "rejected", "note": "n"}`,
		`{"outcome": "accepted", "corrections": {"net_pay_amount": 1972.985, "pay_date": null}}`, `{"outcome": "accepted", "corrections": {"x": true}}`,
		`{"outcome": "accepted", "corrections": {"employer_name": "A\u0000"}}`, `{"corrections": []}`, `null`, `{"note": 5}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fx.t = t
		res := fx.request("POST", "/v1/end_users/fuzzed/documents/"+id+"/review", bytes.NewReader(body),
			"Content-Type", "application/json", "x-api-secret", "", "Authorization", token)
		checkNotServerError(t, res)
	})
}
