package rest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/reports"
	"payline/storage"
	"payline/storage/storagetest"
)

var reportJobs = []string{"identity", "employment", "income", "paystubs"}

// connectAs completes Link for endUser on platform p with a sandbox user
// and waits for the report jobs.
func (f *fixture) connectAs(endUser string, p domain.Platform, user string, jobs ...string) string {
	f.t.Helper()
	tokenID, token := f.createToken(fmt.Sprintf(`{"org_name": "Acme", "end_user_id": %q, "required_jobs": ["%s"]}`, endUser, strings.Join(jobs, `", "`)))
	acct := f.linkSession(sessionBody(token, p.ID, user, "")).data(f.t)["account_id"].(string)
	f.waitJobs(tokenID, len(jobs))
	return acct
}

// fetch GETs an absolute URL without any API header: a download link is
// its own credential.
func fetch(t *testing.T, method, u string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

// TestVerificationReports: VOIE and VOE of an end user with a current and
// a terminated employment agree with the accounts' data, are rebuilt only
// when the data changes, and say which jobs are missing.
func TestVerificationReports(t *testing.T) {
	current := switchPlatform(t)
	other := platformWhere(t, "other than the first", func(p domain.Platform) bool { return p.ID != current.ID })
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		a1 := f.connectAs("borrower", current, sandbox.UserGood, reportJobs...)
		a2 := f.connectAs("borrower", other, sandbox.UserTerminated, reportJobs...)

		voie := f.get("/v1/end_users/borrower/verification_reports/voie").data(t)
		identity := f.get("/v1/accounts/" + a1 + "/identity").data(t)
		emp := voie["employee"].(map[string]any)
		if emp["name"].(map[string]any)["full_name"] != identity["full_name"] || emp["last_four_ssn"] != identity["last_four_ssn"] ||
			emp["date_of_birth"] != identity["date_of_birth"] || voie["report_type"] != "voie" {
			t.Errorf("employee %v, want the identity %v", emp, identity)
		}
		employments := voie["employments"].([]any)
		if len(employments) != 2 {
			t.Fatalf("%d employments, want 2", len(employments))
		}
		statuses := map[string]string{}
		for _, e := range employments {
			e := e.(map[string]any)
			statuses[e["account_id"].(string)] = e["employment_status"].(string)
			in := e["income"].(map[string]any)
			// Each year's gross is its last paystub's year-to-date gross; a
			// year whose paystubs were all read is also their sum.
			sum, last, lastDate := map[string]int64{}, map[string]int64{}, map[string]string{}
			for _, p := range f.allPages("/v1/accounts/" + e["account_id"].(string) + "/paystubs?limit=100") {
				y, d := p["pay_date"].(string)[:4], p["pay_date"].(string)
				sum[y] += int64(p["gross_pay_amount"].(float64))
				if d > lastDate[y] {
					last[y], lastDate[y] = int64(p["gross_pay_ytd"].(float64)), d
				}
			}
			for _, y := range in["annual_incomes"].([]any) {
				y := y.(map[string]any)
				year, got := y["year"].(string), int64(y["gross_pay_ytd"].(float64))
				if got != last[year] || (y["basis"] == domain.BasisPaystubs && got != sum[year]) || (y["basis"] != domain.BasisPaystubs) != y["partial"] {
					t.Errorf("%s %s: gross %d (%s, partial %v), want the last paystub's YTD %d (and the sum %d when all were read)",
						e["employer_name"], year, got, y["basis"], y["partial"], last[year], sum[year])
				}
			}
			if len(in["paystubs"].([]any)) != 2 || e["most_recent_pay_date"] == nil {
				t.Errorf("%s: %d recent paystubs, most recent %v", e["employer_name"], len(in["paystubs"].([]any)), e["most_recent_pay_date"])
			}
		}
		if statuses[a1] != "employed" || statuses[a2] != "terminated" {
			t.Errorf("statuses %v, want %s employed and %s terminated", statuses, a1, a2)
		}
		doc := voie["document"].(map[string]any)
		if !strings.HasPrefix(doc["download_url"].(string), f.http.URL+"/files/"+doc["id"].(string)+"?") {
			t.Errorf("download_url %v", doc["download_url"])
		}
		exp, _ := time.Parse(time.RFC3339, doc["download_url_expiration"].(string))
		if d := time.Until(exp); d < 14*time.Minute || d > 16*time.Minute {
			t.Errorf("link expires in %s, want 15 minutes", d)
		}

		// Unchanged data: the same document, a fresh link, no new event.
		again := f.get("/v1/end_users/borrower/verification_reports/voie").data(t)
		if again["document"].(map[string]any)["id"] != doc["id"] || again["id"] != voie["id"] || f.countEvents("voie_report.refreshed") != 1 {
			t.Errorf("a second GET rebuilt the report: %v, %d events", again["document"], f.countEvents("voie_report.refreshed"))
		}
		// New paystubs: a rebuild with the same reference number.
		f.clock.advance(40 * 24 * time.Hour)
		f.refreshMonitored()
		rebuilt := f.get("/v1/end_users/borrower/verification_reports/voie").data(t)
		if rebuilt["document"].(map[string]any)["id"] == doc["id"] || rebuilt["id"] != voie["id"] || f.countEvents("voie_report.refreshed") != 2 {
			t.Errorf("new paystubs did not rebuild the report: %v, %d events", rebuilt["document"], f.countEvents("voie_report.refreshed"))
		}

		voe := f.get("/v1/end_users/borrower/verification_reports/voe").data(t)
		for _, e := range voe["employments"].([]any) {
			if _, ok := e.(map[string]any)["income"]; ok || voe["report_type"] != "voe" {
				t.Errorf("a VOE employment carries income: %v", e)
			}
		}
		if voe["document"].(map[string]any)["id"] == rebuilt["document"].(map[string]any)["id"] {
			t.Error("VOE and VOIE share a document")
		}

		nobody := f.get("/v1/end_users/nobody/verification_reports/voie")
		nobody.wantError(t, 404, typeNotFound, domain.CodeEndUserNotFound)
		if msg := fmt.Sprint(nobody.body["error"].(map[string]any)["message"]); !strings.Contains(msg, "identity, employment, income and paystubs") {
			t.Errorf("a report of an end user without accounts says %q, not which jobs make one", msg)
		}
		f.connectAs("switcher", current, sandbox.UserGood, "direct_deposit_allocations")
		res := f.get("/v1/end_users/switcher/verification_reports/voe")
		res.wantError(t, 404, typeNotFound, domain.CodeProductNotFound)
		if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "paystubs") || !strings.Contains(msg, "employment") {
			t.Errorf("message %q does not name the jobs that produce the data", msg)
		}
	})
}

// TestDownloadLinks: a link downloads its PDF with HEAD and Range, and
// an expired, altered or foreign link is refused with 403.
func TestDownloadLinks(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs("lender-user", p, sandbox.UserGood, reportJobs...)
		doc := f.get("/v1/end_users/lender-user/verification_reports/voie").data(t)["document"].(map[string]any)
		link := doc["download_url"].(string)

		res, body := fetch(t, "GET", link)
		if res.StatusCode != 200 || !strings.HasPrefix(string(body), "%PDF-") {
			t.Fatalf("download: %d %q", res.StatusCode, body[:min(len(body), 40)])
		}
		wantName := "voie-lender-user-" + f.clock.Now().Format(time.DateOnly) + ".pdf"
		if res.Header.Get("Content-Type") != "application/pdf" || res.Header.Get("Cache-Control") != "private, no-store" ||
			res.Header.Get("Content-Disposition") != `attachment; filename=`+wantName {
			t.Errorf("headers %v", res.Header)
		}
		head, headBody := fetch(t, "HEAD", link)
		if head.StatusCode != 200 || len(headBody) != 0 || head.ContentLength != int64(len(body)) {
			t.Errorf("HEAD: %d, %d bytes, length %d", head.StatusCode, len(headBody), head.ContentLength)
		}
		part, partBody := fetch(t, "GET", link, "Range", "bytes=0-4")
		if part.StatusCode != http.StatusPartialContent || string(partBody) != "%PDF-" {
			t.Errorf("Range: %d %q", part.StatusCode, partBody)
		}

		u, _ := url.Parse(link)
		q := u.Query()
		tamper := func(id, expires, signature string) string {
			v := url.Values{"expires": {expires}, "signature": {signature}}
			return f.http.URL + "/files/" + id + "?" + v.Encode()
		}
		flip := func(s string) string {
			last := s[len(s)-1]
			if last == '0' {
				return s[:len(s)-1] + "1"
			}
			return s[:len(s)-1] + "0"
		}
		exp, _ := strconv64(q.Get("expires"))
		for name, bad := range map[string]string{
			"another id":        tamper(domain.NewID(), q.Get("expires"), q.Get("signature")),
			"changed id byte":   tamper(flip(doc["id"].(string)), q.Get("expires"), q.Get("signature")),
			"later expiry":      tamper(doc["id"].(string), fmt.Sprint(exp+3600), q.Get("signature")),
			"changed signature": tamper(doc["id"].(string), q.Get("expires"), flip(q.Get("signature"))),
			"unknown key id":    tamper(doc["id"].(string), q.Get("expires"), "k9"+strings.TrimPrefix(q.Get("signature"), "k2")),
			"no signature":      f.http.URL + "/files/" + doc["id"].(string),
			"not an id":         tamper("not-a-document", q.Get("expires"), q.Get("signature")),
		} {
			res, body := fetch(t, "GET", bad)
			if res.StatusCode != 403 || !strings.Contains(string(body), domain.CodeDownloadLinkInvalid) || strings.Contains(string(body), "%PDF") ||
				res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("%s: %d %s %v", name, res.StatusCode, body, res.Header)
			}
		}

		// Another tenant's document with this tenant's well-formed signature.
		other, err := f.keys.CreateKey(context.Background(), "rival", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		tokenID, token := f.createToken(`{"org_name": "Rival", "end_user_id": "theirs", "required_jobs": ["identity", "employment", "income", "paystubs"]}`, "x-api-secret", other.Secret)
		f.post("/v1/sandbox/link_sessions", sessionBody(token, p.ID, sandbox.UserGood, ""), "x-api-secret", other.Secret).data(t)
		f.waitJobs(tokenID, 4, "x-api-secret", other.Secret)
		theirs := f.get("/v1/end_users/theirs/verification_reports/voie", "x-api-secret", other.Secret).data(t)["document"].(map[string]any)
		if res, _ := fetch(t, "GET", tamper(theirs["id"].(string), q.Get("expires"), q.Get("signature"))); res.StatusCode != 403 {
			t.Errorf("another tenant's document with our signature: %d", res.StatusCode)
		}
		if res, _ := fetch(t, "GET", theirs["download_url"].(string)); res.StatusCode != 200 {
			t.Errorf("their own link: %d", res.StatusCode)
		}

		// One second after expiry the link is refused.
		f.clock.advance(15*time.Minute + time.Second)
		if res, _ := fetch(t, "GET", link); res.StatusCode != 403 {
			t.Errorf("expired link: %d", res.StatusCode)
		}
		fresh := f.get("/v1/end_users/lender-user/verification_reports/voie").data(t)["document"].(map[string]any)
		if res, _ := fetch(t, "GET", fresh["download_url"].(string)); res.StatusCode != 200 || fresh["id"] != doc["id"] {
			t.Errorf("a re-minted link to the same document: %d", res.StatusCode)
		}

		// Each download is audited; a refused one is not (nothing was read).
		var downloads int
		if err := db.GetContext(context.Background(), &downloads, db.Rebind(`SELECT count(*) FROM audit_log
			WHERE action = 'document.downloaded' AND actor = 'link' AND target = ? AND customer_id = ?`), doc["id"], f.key.CustomerID); err != nil {
			t.Fatal(err)
		}
		if downloads != 4 { // GET, HEAD, Range and the re-minted link
			t.Errorf("%d downloads of %s audited, want 4", downloads, doc["id"])
		}
	})
}

// TestDownloadNames: a file named in another script downloads with an
// ASCII filename every client reads and the real one as filename*.
func TestDownloadNames(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs("zoë-陈", p, sandbox.UserGood, reportJobs...)
		link := f.get("/v1/end_users/" + url.PathEscape("zoë-陈") + "/verification_reports/voie").data(t)["document"].(map[string]any)["download_url"].(string)
		res, _ := fetch(t, "GET", link)
		day := f.clock.Now().Format(time.DateOnly)
		want := `attachment; filename=voie-zo_-_-` + day + `.pdf; filename*=UTF-8''voie-zo%C3%AB-%E9%99%88-` + day + `.pdf`
		if got := res.Header.Get("Content-Disposition"); res.StatusCode != 200 || got != want {
			t.Errorf("Content-Disposition %q, want %q", got, want)
		}
		_, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if err != nil || params["filename"] != "voie-zoë-陈-"+day+".pdf" {
			t.Errorf("Go's reader takes the filename as %q (%v)", params["filename"], err)
		}
	})
}

// TestW2Documents: W-2 documents get download links to rendered PDFs.
func TestW2Documents(t *testing.T) {
	p := platformWhere(t, "with tax forms", func(p domain.Platform) bool {
		return strings.Contains(fmt.Sprint(p.SupportedJobs), "tax_forms")
	})
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs("taxpayer", p, sandbox.UserGood, "tax_forms")
		docs := f.get("/v1/end_users/taxpayer/documents").list(t)
		if len(docs) == 0 {
			t.Fatal("no W-2 documents")
		}
		d := docs[0]["document"].(map[string]any)
		res, body := fetch(t, "GET", d["download_url"].(string))
		if res.StatusCode != 200 || !strings.HasPrefix(string(body), "%PDF-") || !strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment; filename=w2-") {
			t.Fatalf("W-2 download: %d %v", res.StatusCode, res.Header)
		}
		one := f.get("/v1/end_users/taxpayer/documents/" + docs[0]["id"].(string)).data(t)["document"].(map[string]any)
		if one["id"] != d["id"] || !strings.HasPrefix(one["download_url"].(string), f.http.URL+"/files/") {
			t.Errorf("document %v", one)
		}
	})
}

func strconv64(s string) (int64, error) {
	var n int64
	_, err := fmt.Sscan(s, &n)
	return n, err
}

// TestStaleReportBuiltOnce: ten concurrent GETs of a stale report, half
// through a second report service on the same database (another
// instance), build it once: one voie_report.refreshed event and one new
// PDF, the others answering with the report that build stored. Listing
// documents renders nothing; a W-2 is rendered on its first download.
func TestStaleReportBuiltOnce(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs("racer", p, sandbox.UserGood, append(slices.Clone(reportJobs), "tax_forms")...)
		f.get("/v1/end_users/racer/verification_reports/voie").data(t)
		files := func() int {
			var n int
			if err := db.GetContext(context.Background(), &n, `SELECT count(*) FROM files WHERE kind = 'voie'`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if f.countEvents("voie_report.refreshed") != 1 || files() != 1 {
			t.Fatalf("first build: %d events, %d files", f.countEvents("voie_report.refreshed"), files())
		}
		f.clock.advance(40 * 24 * time.Hour)
		f.refreshMonitored() // new paystubs: the stored report is stale

		signer, err := reports.NewSigner(testMasterKey, f.http.URL, 0, f.clock)
		if err != nil {
			t.Fatal(err)
		}
		other := reports.NewService(storage.NewTransactor(db, f.queue), domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build), f.keys, signer, f.clock)
		sc := f.key.Scope()
		var wg sync.WaitGroup
		ids := make([]string, 10)
		for i := range 10 {
			wg.Go(func() {
				if i%2 == 0 {
					ids[i] = fmt.Sprint(f.get("/v1/end_users/racer/verification_reports/voie").data(t)["document"].(map[string]any)["id"])
					return
				}
				r, err := other.VerificationReport(context.Background(), sc, "racer", domain.ReportVOIE, domain.ReportRequest{})
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = r.Document.ID
			})
		}
		wg.Wait()
		if n := f.countEvents("voie_report.refreshed"); n != 2 || files() != 2 {
			t.Errorf("ten concurrent GETs of a stale report: %d refreshed events (want 2 in all), %d PDFs (want 2)", n, files())
		}
		for _, id := range ids {
			if id != ids[0] {
				t.Errorf("the GETs answered different documents: %v", ids)
				break
			}
		}

		// A list renders nothing; the W-2's first download renders it.
		var before int
		if err := db.GetContext(context.Background(), &before, `SELECT count(*) FROM files`); err != nil {
			t.Fatal(err)
		}
		docs := f.get("/v1/end_users/racer/documents?type=w2").list(t)
		var after int
		if err := db.GetContext(context.Background(), &after, `SELECT count(*) FROM files`); err != nil {
			t.Fatal(err)
		}
		if len(docs) == 0 || after != before {
			t.Fatalf("listing %d W-2s stored %d files", len(docs), after-before)
		}
		res, body := fetch(t, "GET", docs[0]["document"].(map[string]any)["download_url"].(string))
		if res.StatusCode != 200 || !bytes.HasPrefix(body, []byte("%PDF-")) {
			t.Errorf("the W-2's first download: %d", res.StatusCode)
		}
	})
}

// TestReportVersions: a rebuild from changed data is a new version with a
// new reference and its own PDF; the earlier one stays listed and
// downloadable until retention prunes it, and then it is gone from the
// list and its link answers 403.
func TestReportVersions(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs("versioned", p, sandbox.UserGood, reportJobs...)
		v1 := f.get("/v1/end_users/versioned/verification_reports/voie").data(t)
		if v1["version"] != float64(1) || len(v1["versions"].([]any)) != 0 {
			t.Fatalf("the first build: version %v, versions %v", v1["version"], v1["versions"])
		}
		f.clock.advance(time.Hour)
		f.connectAs("versioned", p, sandbox.UserTerminated, reportJobs...) // another employment: new data
		v2 := f.get("/v1/end_users/versioned/verification_reports/voie").data(t)
		if v2["version"] != float64(2) || v2["id"] != v1["id"] {
			t.Fatalf("the rebuild: version %v, id %v (first %v)", v2["version"], v2["id"], v1["id"])
		}
		doc1, doc2 := v1["document"].(map[string]any)["id"], v2["document"].(map[string]any)["id"]
		listed := v2["versions"].([]any)
		if doc1 == doc2 || len(listed) != 1 || at(listed[0], "version") != float64(1) || at(listed[0], "document", "id") != doc1 ||
			at(listed[0], "reference") != v1["id"].(string)+"-v1" {
			t.Fatalf("versions of the rebuild: %v (documents %v, %v)", listed, doc1, doc2)
		}
		old, _ := fetch(t, "GET", at(listed[0], "document", "download_url").(string))
		cur, _ := fetch(t, "GET", v2["document"].(map[string]any)["download_url"].(string))
		if old.StatusCode != 200 || cur.StatusCode != 200 || old.Header.Get("ETag") == cur.Header.Get("ETag") {
			t.Errorf("downloads: the first %d, the second %d, ETags %s and %s", old.StatusCode, cur.StatusCode, old.Header.Get("ETag"), cur.Header.Get("ETag"))
		}
		// Retention: the superseded build goes, the current one stays.
		pruned, err := domain.RetentionPolicy{ReportVersions: time.Minute}.Prune(context.Background(), storage.NewRetentionStore(db), f.clock.Now())
		if err != nil || pruned.ReportVersions != 1 {
			t.Fatalf("prune: %+v, %v", pruned, err)
		}
		after := f.get("/v1/end_users/versioned/verification_reports/voie").data(t)
		if after["version"] != float64(2) || len(after["versions"].([]any)) != 0 {
			t.Errorf("after retention: version %v, versions %v", after["version"], after["versions"])
		}
		if res, _ := fetch(t, "GET", at(listed[0], "document", "download_url").(string)); res.StatusCode != 403 {
			t.Errorf("the pruned version's link: %d, want 403", res.StatusCode)
		}
		if res, _ := fetch(t, "GET", after["document"].(map[string]any)["download_url"].(string)); res.StatusCode != 200 {
			t.Errorf("the current version's link: %d", res.StatusCode)
		}

		// A tracking id and purpose: a version of their own, printed and
		// echoed; the same again is that version; a plain GET serves it too.
		if after["requester"] != "acme" || after["tracking_id"] != "" || after["purpose"] != "" {
			t.Errorf("an untracked report: requester %v, tracking %v, purpose %v", after["requester"], after["tracking_id"], after["purpose"])
		}
		path := "/v1/end_users/versioned/verification_reports/voie?tracking_id=LN-2026-0042&purpose=credit_application"
		tracked := f.get(path).data(t)
		if tracked["version"] != float64(3) || tracked["tracking_id"] != "LN-2026-0042" || tracked["purpose"] != "credit_application" {
			t.Errorf("a tracked request: version %v, tracking %v, purpose %v", tracked["version"], tracked["tracking_id"], tracked["purpose"])
		}
		if again := f.get(path).data(t); again["version"] != float64(3) {
			t.Errorf("the same tracking again built version %v", again["version"])
		}
		if plain := f.get("/v1/end_users/versioned/verification_reports/voie").data(t); plain["version"] != float64(3) {
			t.Errorf("a plain GET after a tracked one: version %v", plain["version"])
		}
		f.get("/v1/end_users/versioned/verification_reports/voie?purpose=curiosity").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		f.get("/v1/end_users/versioned/verification_reports/voie?tracking_id="+strings.Repeat("x", 65)).wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
	})
}
