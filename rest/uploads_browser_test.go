package rest

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"

	"github.com/chromedp/chromedp"
)

// TestBrowserUploads walks Link in headless Chromium for a user who cannot
// log in: from the login screen to the upload, a file that is too large
// refused in words before sending, then two files chosen and previewed
// (the paystub read, with its employer, pay date and net pay; the
// picture not, and why) before the user submits, then sent, the
// doc_uploads_submitted event with a count of 2, and the documents
// through REST.
func TestBrowserUploads(t *testing.T) {
	pdf, stub := testPaystubPDF(t)
	img := testPNG(t)
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "browser-uploader", "required_jobs": ["paystubs"]}`)
	m := openLink(t, f, token)
	if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(375, 760)); err != nil {
		t.Fatal(err)
	}
	m.waitScreen("SEARCH_DEFAULT")
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.click("#confirm-provider")
	m.waitScreen("LOGIN")
	m.click("#upload-instead")
	m.waitScreen("DOC_UPLOAD")
	// Files are handed to the file input as a user's picker would.
	choose := func(files ...string) {
		m.t.Helper()
		m.until("files chosen", `(() => { const d = `+frameDoc+`; const input = d && d.querySelector('#upload-files'); if (!input) return false;
			const dt = new DataTransfer(); `+strings.Join(files, ";")+`; input.files = dt.files;
			input.dispatchEvent(new Event('change')); return true; })()`)
	}
	file := func(name, typ string, data []byte) string {
		return fmt.Sprintf(`dt.items.add(new File([Uint8Array.from(atob(%q), c => c.charCodeAt(0))], %q, {type: %q}))`,
			base64.StdEncoding.EncodeToString(data), name, typ)
	}
	choose(`dt.items.add(new File([new Uint8Array(11 * 1024 * 1024)], 'scan.pdf', {type: 'application/pdf'}))`)
	m.until("the size refusal", `(() => { const d = `+frameDoc+`; return !!d && d.body.textContent.includes('Each file can be at most 10 MB'); })()`)
	choose(file("march.pdf", "application/pdf", pdf), file("photo.png", "image/png", img))
	// The picture (4 pixels of black) is asked again as too dark; this
	// person keeps it.
	m.click("#upload-keep-1-0")
	m.until("the preview", `(() => { const d = `+frameDoc+`; return !!d && !!d.querySelector('#upload-file-1') && !d.querySelector('#upload-submit').disabled; })()`)
	net := domain.USD(stub.NetPayAmount.Amount).Formatted()
	if got := m.text("#upload-file-0"); !strings.Contains(got, "✓ march.pdf") || !strings.Contains(got, stub.EmployerName) ||
		!strings.Contains(got, "paid "+stub.PayDate.Time().Format("Jan 2, 2006")) || !strings.Contains(got, "net pay "+net) || !strings.Contains(got, "We read this paystub.") {
		t.Errorf("the paystub's preview reads %q", got)
	}
	if got := m.text("#upload-file-1"); !strings.Contains(got, "✗ photo.png") || !strings.Contains(got, "We couldn't read this file.") {
		t.Errorf("the picture's preview reads %q", got)
	}
	if n := f.countEvents("documents.added"); n != 0 {
		t.Errorf("the preview stored %d documents", n)
	}
	m.fits("upload")
	m.shoot(375, "upload-1-files")
	m.click("#upload-submit")
	m.waitScreen("DOC_UPLOAD_SUCCESS")
	if got := m.text("#outcome"); got != "2 documents were sent to Acme Bank." {
		t.Errorf("success text %q", got)
	}
	m.click("#done")
	var submitted map[string]any
	var names []string
	for _, e := range m.events() {
		names = append(names, e.Name)
		if e.Name == "doc_uploads_submitted" {
			submitted = e.Payload
		}
	}
	if submitted == nil || submitted["uploadedDocumentSubmittedCount"] != float64(2) {
		t.Errorf("doc_uploads_submitted %v", submitted)
	}
	if i, j := slices.Index(names, "doc_uploads_begin"), slices.Index(names, "doc_uploads_submitted"); i < 0 || j < i || names[len(names)-1] != "exit" {
		t.Errorf("events %v", names)
	}
	docs := f.get("/v1/end_users/browser-uploader/documents").list(t)
	if len(docs) != 2 {
		t.Fatalf("%d documents through REST", len(docs))
	}
	found := false
	for _, d := range docs {
		if pd, ok := d["parsed_data"].(map[string]any); ok && pd["employer_name"] == stub.EmployerName && pd["pay_date"] == stub.PayDate.String() {
			found = true
		}
	}
	if !found {
		t.Errorf("the uploaded paystub was not read: %v", docs)
	}
}
