package domain_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// stubFile is an upload the fake parser reads as the paystub p.
func stubFile(t *testing.T, name string, p domain.ReadPaystub) domain.UploadFile {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return domain.UploadFile{Name: name, Data: append([]byte("%PDF-1.4\n"), b...)}
}

// TestUploadPaystubsChecks uploads an end user's paystubs in two Link
// sessions: the second session's stubs are checked against the first's
// (stored) ones, a forged one is suspected with its reason and the
// earlier stored stub keeps its status; every document gets a
// documents.parsed event; a preview stores nothing.
func TestUploadPaystubsChecks(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	_, value := w.mustToken(domain.LinkTokenRequest{})
	first := []domain.UploadFile{stubFile(t, "jan-09.pdf", cleanStub(1)), stubFile(t, "jan-23.pdf", cleanStub(2))}
	if n, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, first); err != nil || n != 2 {
		t.Fatalf("UploadDocuments: %d, %v", n, err)
	}
	w.clock.Advance(24 * time.Hour)

	// The directory's first employer, named on a stub with another EIN.
	dir, err := w.dir.ListEmployers(w.ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 1})
	if err != nil || len(dir.Items) == 0 {
		t.Fatalf("directory: %v", err)
	}
	known := dir.Items[0]
	impostor := cleanStub(1)
	impostor.EmployerName, impostor.EmployerEIN, impostor.PayDate = known.Name, "55-5555555", "2026-01-16"
	reused := cleanStub(2)
	// The January 23 stub's figures under dates four weeks later.
	reused.PayDate, reused.PayPeriodStart, reused.PayPeriodEnd = "2026-02-20", "2026-02-01", "2026-02-14"
	next := []domain.UploadFile{stubFile(t, "feb-06.pdf", cleanStub(3)), stubFile(t, "feb-20.pdf", reused),
		stubFile(t, "other.pdf", impostor), {Name: "photo.pdf", Data: []byte("%PDF-1.4\nnot a paystub")}}

	_, value = w.mustToken(domain.LinkTokenRequest{})
	events := len(w.events())
	previews, err := w.link.PreviewUploads(w.ctx, value, domain.DocumentPaystub, next)
	if err != nil {
		t.Fatalf("PreviewUploads: %v", err)
	}
	if len(w.events()) != events {
		t.Error("a preview stored events")
	}
	wantRead := []bool{true, true, true, false}
	for i, p := range previews {
		if p.Read != wantRead[i] || p.Name != next[i].Name || p.Note == "" {
			t.Errorf("preview %d: %+v", i, p)
		}
	}
	if p := previews[0]; p.EmployerName != "Acme Corp" || p.PayDate != "2026-02-06" || p.NetPay == nil || p.NetPay.Amount != 160000 {
		t.Errorf("preview of a clean stub: %+v", p)
	}
	// The preview is not an oracle for the checks: the copy and the
	// impostor, which the upload below marks, preview as the clean stub.
	if previews[1].Note != previews[0].Note || previews[2].Note != previews[0].Note {
		t.Errorf("previews tell the checks' outcome: clean %q, reused %q, impostor %q", previews[0].Note, previews[1].Note, previews[2].Note)
	}

	if _, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, next); err != nil {
		t.Fatalf("UploadDocuments: %v", err)
	}
	docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25})
	if err != nil || len(docs.Items) != 6 {
		t.Fatalf("%d documents, %v", len(docs.Items), err)
	}
	byName := map[string]domain.DocumentFraud{}
	for _, d := range docs.Items {
		byName[d.Document.FileName] = d.Document.Fraud
	}
	// The copy is evidence (suspected); a directory that knows the
	// employer by another EIN is a doubt for a person (needs_review).
	want := map[string][]string{"jan-09.pdf": nil, "jan-23.pdf": nil, "feb-06.pdf": nil,
		"feb-20.pdf": {domain.FraudYTDNotCumulative, domain.FraudFiguresReused}, "other.pdf": {domain.FraudEmployerUnknown}}
	wantStatus := map[string]string{"feb-20.pdf": domain.FraudSuspected, "other.pdf": domain.FraudNeedsReview}
	for name, codesWanted := range want {
		f := byName[name]
		status := cmp.Or(wantStatus[name], domain.FraudNotSuspected)
		if f.Status != status || len(codes(f.Reasons)) != len(codesWanted) {
			t.Errorf("%s: fraud %+v, want %s %v", name, f, status, codesWanted)
			continue
		}
		for i, c := range codesWanted {
			if codes(f.Reasons)[i] != c {
				t.Errorf("%s: reasons %+v, want %v", name, f.Reasons, codesWanted)
			}
		}
	}
	if f := byName["photo.pdf"]; f.Status != domain.FraudUnavailable {
		t.Errorf("an unread file: %+v", f)
	}
	if c := w.countEvents(domain.EventDocumentsParsed); c != 6 {
		t.Errorf("%d documents.parsed events, want 6", c)
	}

	// Documents to income: the clean stubs of Acme Corp make one
	// employment; the suspected and unread ones are left out and named.
	emps, excluded := domain.DocumentEmployments(docs.Items)
	if len(emps) != 1 || len(emps[0].Paystubs) != 3 || emps[0].EmployerEIN != "123456789" {
		t.Fatalf("employments %+v", emps)
	}
	if len(excluded) != 3 {
		t.Errorf("excluded %+v, want the reused, the impostor and the unread", excluded)
	}
}

// TestUploadAnotherVersion: an end user who uploads a paystub again with
// other figures (an edited file tried again, whether the first was
// suspected or not) sends the new one to a person with ANOTHER_VERSION,
// a doubt; the same stub uploaded again is no doubt.
func TestUploadAnotherVersion(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	upload := func(files ...domain.UploadFile) {
		t.Helper()
		_, value := w.mustToken(domain.LinkTokenRequest{})
		if _, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, files); err != nil {
			t.Fatalf("UploadDocuments: %v", err)
		}
		w.clock.Advance(time.Hour)
	}
	fraudOf := func(name string) []domain.DocumentFraud {
		t.Helper()
		docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25})
		if err != nil {
			t.Fatal(err)
		}
		var out []domain.DocumentFraud
		for _, d := range docs.Items {
			if d.Document.FileName == name {
				out = append(out, d.Document.Fraud)
			}
		}
		return out
	}
	upload(stubFile(t, "jan-09.pdf", cleanStub(1)))
	upload(stubFile(t, "again.pdf", cleanStub(1)))
	if f := fraudOf("again.pdf"); len(f) != 1 || f[0].Status != domain.FraudNotSuspected {
		t.Errorf("the same stub uploaded again: %+v", f)
	}
	edited := cleanStub(1)
	*edited.GrossPayAmount += 50000
	*edited.NetPayAmount += 50000
	*edited.GrossPayYTD += 50000
	*edited.NetPayYTD += 50000
	edited.Earnings = nil // its lines would not add up otherwise
	upload(stubFile(t, "edited.pdf", edited))
	f := fraudOf("edited.pdf")
	if len(f) != 1 || f[0].Status != domain.FraudNeedsReview || !slices.Contains(codes(f[0].Reasons), domain.FraudAnotherVersion) {
		t.Fatalf("an edited version of a stored stub: %+v", f)
	}
	if r := f[0].Reasons[slices.Index(codes(f[0].Reasons), domain.FraudAnotherVersion)]; r.Kind != domain.ReasonDoubt ||
		!slices.Equal(r.Fields, []string{"gross_pay_amount", "net_pay_amount", "gross_pay_ytd", "net_pay_ytd"}) {
		t.Errorf("ANOTHER_VERSION: %+v", r)
	}
	// Tried once more, edited again: the stored versions (one awaiting a
	// person) are still compared.
	*edited.NetPayAmount += 100
	*edited.NetPayYTD += 100
	upload(stubFile(t, "edited-2.pdf", edited))
	if f := fraudOf("edited-2.pdf"); len(f) != 1 || !slices.Contains(codes(f[0].Reasons), domain.FraudAnotherVersion) {
		t.Errorf("a second edit: %+v", f)
	}
}

// TestUploadsOffered: one rule says when Link offers uploads, and the use
// case refuses the tokens it does not offer them to.
func TestUploadsOffered(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	a, _ := w.mustLogin("user_good", "paystubs")
	tests := []struct {
		name string
		r    domain.LinkTokenRequest
		want bool
	}{
		{"an end user's token", domain.LinkTokenRequest{EndUserID: "erin"}, true},
		{"an on-demand update of an account", domain.LinkTokenRequest{AccountID: a.ID}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, value := w.mustToken(tc.r)
			sess, err := w.link.Open(w.ctx, value)
			if err != nil {
				t.Fatal(err)
			}
			if got := sess.UploadsOffered(); got != tc.want {
				t.Fatalf("UploadsOffered = %v, want %v", got, tc.want)
			}
			_, err = w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, []domain.UploadFile{stubFile(t, "a.pdf", cleanStub(1))})
			if (err == nil) != tc.want {
				t.Errorf("UploadDocuments: %v, offered %v", err, tc.want)
			}
		})
	}
}

// TestUploaderIsAnEndUser: an end user who only uploaded documents in Link
// is an end user everywhere one is read: alone, in a batch and in the
// paged list (with no accounts, first seen at the first upload), beside
// one with accounts and uploads, who is counted once, by accounts.
func TestUploaderIsAnEndUser(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		uploadedAt := w.clock.Now()
		_, value := w.mustToken(domain.LinkTokenRequest{EndUserID: "ulla"})
		if _, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, []domain.UploadFile{stubFile(t, "a.pdf", cleanStub(1))}); err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(time.Hour)
		a, _ := w.mustLogin(sandbox.UserGood)
		_, value = w.mustToken(domain.LinkTokenRequest{})
		if _, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, []domain.UploadFile{stubFile(t, "b.pdf", cleanStub(2))}); err != nil {
			t.Fatal(err)
		}
		want := map[string]domain.EndUser{
			"erin": {ID: "erin", Accounts: 1, FirstConnected: a.CreatedAt},
			"ulla": {ID: "ulla", Accounts: 0, FirstConnected: uploadedAt},
		}
		same := func(what string, got domain.EndUser) {
			t.Helper()
			if w := want[got.ID]; got.ID != w.ID || got.Accounts != w.Accounts || !got.FirstConnected.Equal(w.FirstConnected) {
				t.Errorf("%s: %+v, want %+v", what, got, w)
			}
		}
		for id := range want {
			u, err := w.accounts.EndUser(w.ctx, w.sc, id)
			if err != nil {
				t.Fatalf("EndUser(%s): %v", id, err)
			}
			same("EndUser", u)
		}
		users, errs := w.accounts.EndUsersByID(w.ctx, w.sc, []string{"ulla", "nobody", "erin"})
		same("EndUsersByID slot 0", users[0])
		same("EndUsersByID slot 2", users[2])
		wantCode(t, errs[1], domain.CodeEndUserNotFound)

		// The list pages by id across both kinds, forward and backward.
		var ids []string
		p := domain.PageRequest{Limit: 1}
		for {
			page, err := w.accounts.EndUsers(w.ctx, w.sc, p)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range page.Items {
				same("EndUsers", u)
				ids = append(ids, u.ID)
			}
			if page.Next == nil {
				break
			}
			p.Cursor = page.Next
		}
		if strings.Join(ids, ",") != "erin,ulla" {
			t.Errorf("EndUsers pages %v, want erin then ulla", ids)
		}
		last, err := w.accounts.EndUsers(w.ctx, w.sc, domain.PageRequest{Limit: 1, Backward: true})
		if err != nil || len(last.Items) != 1 || last.Items[0].ID != "ulla" || last.Prev == nil {
			t.Fatalf("the last end user: %+v, %v", last.Items, err)
		}
		before, err := w.accounts.EndUsers(w.ctx, w.sc, domain.PageRequest{Limit: 1, Backward: true, Cursor: last.Prev})
		if err != nil || len(before.Items) != 1 || before.Items[0].ID != "erin" {
			t.Errorf("the end user before the last: %+v, %v", before.Items, err)
		}
	})
}

// TestUploadNamesCleaned: an upload's file name and the text read from it
// come with control characters and bidirectional overrides, which would
// spoof a name in logs, CSVs and the dashboard; both are kept without
// them, in the preview and in the stored document.
func TestUploadNamesCleaned(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	stub := cleanStub(1)
	stub.EmployerName = "Acme\u202E Corp\x00"
	stub.Earnings[0].Name = "Regular\r\nBonus"
	files := []domain.UploadFile{stubFile(t, "pay\r\nstub\u202Efdp.exe\x1b[31m", stub), stubFile(t, "\u202E\u2066\r\n", cleanStub(2))}
	_, value := w.mustToken(domain.LinkTokenRequest{})
	previews, err := w.link.PreviewUploads(w.ctx, value, domain.DocumentPaystub, files)
	if err != nil {
		t.Fatal(err)
	}
	if previews[0].Name != "pay stubfdp.exe[31m" || previews[0].EmployerName != "Acme Corp" || previews[1].Name != "file 2" {
		t.Errorf("previews: %q %q %q", previews[0].Name, previews[0].EmployerName, previews[1].Name)
	}
	if _, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, files); err != nil {
		t.Fatal(err)
	}
	docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25})
	if err != nil || len(docs.Items) != 2 {
		t.Fatalf("%d documents, %v", len(docs.Items), err)
	}
	names := map[string]*domain.ReadPaystub{}
	for _, d := range docs.Items {
		names[d.Document.FileName] = d.Document.ParsedData.Paystub
	}
	p := names["pay stubfdp.exe[31m"]
	if p == nil || names["file 2"] == nil {
		t.Fatalf("stored names: %v", names)
	}
	if p.EmployerName != "Acme Corp" || p.Earnings[0].Name != "Regular Bonus" {
		t.Errorf("stored reading: %q, %q", p.EmployerName, p.Earnings[0].Name)
	}
}

// TestCheckVersionsNeedsAnEmployer: two stubs of one pay date whose
// employer was not read may be two jobs, not two versions of one stub.
func TestCheckVersionsNeedsAnEmployer(t *testing.T) {
	a, b := cleanStub(1), cleanStub(1)
	*b.GrossPayAmount += 100
	a.EmployerName, a.EmployerEIN, b.EmployerName, b.EmployerEIN = "", "", "", ""
	if got := domain.CheckVersions([]domain.SeriesStub{{DocumentID: "a", New: true, Stub: a}, {DocumentID: "b", New: true, Stub: b}}); len(got) != 0 {
		t.Errorf("stubs without an employer: %v", got)
	}
	a.EmployerName, b.EmployerName = "Acme Corp", "Acme Corp"
	if got := domain.CheckVersions([]domain.SeriesStub{{DocumentID: "a", New: true, Stub: a}, {DocumentID: "b", New: true, Stub: b}}); len(got["a"]) != 1 || len(got["b"]) != 1 {
		t.Errorf("two versions of one employer's stub: %v", got)
	}
}

// TestUploadReadingBounded: an upload or preview whose files take longer
// than the reading limit to read, all together, is refused with
// UPLOAD_TOO_SLOW_TO_READ, its reading stopped and nothing stored; a
// caller who leaves first gets its context's end, not that refusal.
func TestUploadReadingBounded(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	w.link.WithUploadReadingLimit(50 * time.Millisecond)
	slow := domain.UploadFile{Name: "scan.pdf", Data: []byte("%PDF-1.4\nSLOW")}
	files := []domain.UploadFile{stubFile(t, "one.pdf", cleanStub(1)), slow}
	_, value := w.mustToken(domain.LinkTokenRequest{})

	_, err := w.link.PreviewUploads(w.ctx, value, domain.DocumentPaystub, files)
	wantCode(t, err, domain.CodeUploadTooSlowToRead)
	_, err = w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, files)
	wantCode(t, err, domain.CodeUploadTooSlowToRead)
	if de := domain.AsError(err); !strings.Contains(de.Message, "longer than 50ms") {
		t.Errorf("message %q; want the limit in it", de.Message)
	}
	// Nothing stored: the end user has no documents (nor anything else).
	if docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25}); err == nil && len(docs.Items) != 0 ||
		err != nil && domain.AsError(err).Code != domain.CodeEndUserNotFound {
		t.Fatalf("%d documents stored after the refusal, %v; want none", len(docs.Items), err)
	}

	// The caller left before the limit: its context's end.
	w.link.WithUploadReadingLimit(time.Hour)
	left, cancel := context.WithCancel(w.ctx)
	cancel()
	if _, err := w.link.UploadDocuments(left, value, domain.DocumentPaystub, files); !errors.Is(err, context.Canceled) {
		t.Errorf("a caller who left: %v; want context.Canceled", err)
	}

	// Within the limit, the same token uploads.
	if n, err := w.link.UploadDocuments(w.ctx, value, domain.DocumentPaystub, files[:1]); err != nil || n != 1 {
		t.Errorf("an upload within the limit: %d, %v", n, err)
	}
	if docs, err := w.accounts.Documents(w.ctx, w.sc, "erin", domain.DocumentPaystub, domain.PageRequest{Limit: 25}); err != nil || len(docs.Items) != 1 {
		t.Errorf("after the upload within the limit: %d documents, %v; want 1", len(docs.Items), err)
	}
}
