package rest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserDocumentReview is the review queue end to end in headless
// Chromium, on both databases: an end user uploads through Link a paystub
// whose figures do not add up, which the VOIE leaves out as needing
// review; a member of the reviewer role finds it on the dashboard's
// Review page, sees the page beside the fields read (choosing a field,
// with the mouse or the keyboard, marks where it was read), corrects the
// net pay and accepts it; the next VOIE counts it with the basis
// "reviewed by a member of acme", and the audit log says who changed
// which field. The review pages are photographed at 1280 and 375 px
// (docs/dashboard).
func TestBrowserDocumentReview(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		reviewInBrowser(t, db, db.Dialect == storage.SQLite)
	})
}

func reviewInBrowser(t *testing.T, db *storage.DB, save bool) {
	f := newFixture(t, db)
	f.addMember("acme", "rita@acme.test", domain.RoleReviewer)
	id := f.uploadForReview("applicant-7")["id"].(string)

	// Until a person accepts it, the stub counts toward no income.
	voie := f.get("/v1/end_users/applicant-7/verification_reports/voie").data(t)
	if emps, _ := voie["employments"].([]any); len(emps) != 0 {
		t.Fatalf("the VOIE counts a stub nobody reviewed: %v", emps)
	}
	excluded, _ := voie["excluded_documents"].([]any)
	if len(excluded) != 1 || excluded[0].(map[string]any)["document_id"] != id || excluded[0].(map[string]any)["reason"] != domain.ExcludedNeedsReview {
		t.Fatalf("the VOIE's excluded documents: %v", voie["excluded_documents"])
	}

	p := tab{t: t, ctx: newBrowser(t), save: save}
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	p.goTo(f.http.URL + "/dashboard")
	p.until("the sign-in form", `!document.getElementById('signin').hidden`)
	p.set("#email", "rita@acme.test")
	p.set("#password", memberPassword)
	p.click("#signin-submit")
	p.until("the overview", `!!document.getElementById('stat-accounts')`)

	// The queue.
	p.click(`nav a[data-page="review"]`)
	p.until("the queue", `document.querySelectorAll('#review-rows tbody tr').length === 1`)
	if row := p.text("#review-rows tbody tr"); !strings.Contains(row, "applicant-7") || !strings.Contains(row, "needs review") ||
		!strings.Contains(row, "march-24.pdf") {
		t.Errorf("the queue's row reads %q", row)
	}
	p.shoot("review-queue", `document.querySelectorAll('#review-rows tbody tr').length === 1`)
	// On a phone the queue fits its box, the status under the document's
	// name (its own column cut the pill short at the table's edge).
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(375, 900)); err != nil {
		t.Fatal(err)
	}
	p.until("the queue whole at 375 px", `(() => { const w = document.getElementById('review-rows').parentElement,
		pills = [...document.querySelectorAll('#review-rows tbody .pill')].filter(e => e.offsetParent !== null);
		return w.scrollWidth <= w.clientWidth && pills.length === 1 && pills[0].textContent === 'needs review' &&
			pills[0].getBoundingClientRect().right <= w.getBoundingClientRect().right; })()`)
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// The document: its page beside the fields read.
	p.click("#review-rows a.review-open")
	pageDrawn := `(() => { const i = document.getElementById('review-page'); return !!i && i.complete && i.naturalWidth > 0; })()`
	p.until("the page drawn", pageDrawn)
	if v := p.value("#field-net_pay_amount"); v != "2222.98" {
		t.Errorf("the net pay as read: %q", v)
	}
	if why := p.text(".why-review"); !strings.Contains(why, "$") {
		t.Errorf("the reasons read %q", why)
	}
	// Choosing a field marks it on the page: with the mouse, then with the
	// keyboard's Tab from the field before it.
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS("label[for=field-gross_pay_amount]"))); err != nil {
		t.Fatal(err)
	}
	p.until("the gross pay marked", `!document.getElementById('review-mark').hidden && document.activeElement.id === 'field-gross_pay_amount'`)
	if err := chromedp.Do(p.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
		t.Fatal(err)
	}
	p.until("the net pay marked", `document.activeElement.id === 'field-net_pay_amount' && !document.getElementById('review-mark').hidden &&
		document.getElementById('review-located').textContent.startsWith('Net pay')`)
	p.until("the mark on the page", `(() => { const m = document.getElementById('review-mark').getBoundingClientRect(),
		i = document.getElementById('review-page').getBoundingClientRect();
		return m.width > 0 && m.height > 0 && m.left >= i.left - 1 && m.right <= i.right + 1 && m.top >= i.top - 1 && m.bottom <= i.bottom + 1; })()`)
	p.until("the labels aligned", `(() => { const ls = [...document.querySelectorAll('#review-fields label')].map(l => l.getBoundingClientRect().right);
		return ls.length > 10 && ls.every(r => Math.abs(r - ls[0]) < 1); })()`)
	p.shoot("review-document", pageDrawn+` && !document.getElementById('review-mark').hidden`)

	// A bad figure is refused with the field named; then the net pay is
	// corrected and the stub accepted.
	p.set("#field-net_pay_amount", "1972.985")
	p.click("#review-accept")
	p.until("the refusal", `document.getElementById('review-error').textContent.includes('two decimal places')`)
	p.set("#field-net_pay_amount", "1,972.98")
	p.set("#review-note", "Net pay checked with the employer by phone.")
	p.click("#review-accept")
	p.until("the review recorded", `!!document.getElementById('review-decision') && document.getElementById('review-decision').textContent.includes('Accepted')`)
	if c := p.text("#review-corrections tbody"); !strings.Contains(c, "Net pay") || !strings.Contains(c, "$2,222.98") || !strings.Contains(c, "$1,972.98") {
		t.Errorf("the corrections read %q", c)
	}
	if d := p.text("#review-decision"); !strings.Contains(d, "By rita@acme.test") || !strings.Contains(d, "reviewed by a member of acme") {
		t.Errorf("the decision reads %q", d)
	}
	p.until("the page drawn again", pageDrawn)
	p.shoot("review-accepted", pageDrawn+` && !!document.getElementById('review-corrections') && document.getElementById('flash').hidden`)
	p.click(`a[href="#/review"]`)
	p.until("an empty queue", `!!document.querySelector('#review-list .empty')`)

	// The next VOIE counts the stub, with the basis.
	voie = f.get("/v1/end_users/applicant-7/verification_reports/voie").data(t)
	emps, _ := voie["employments"].([]any)
	if len(emps) != 1 {
		t.Fatalf("the VOIE after the review: %v", voie["employments"])
	}
	src := emps[0].(map[string]any)["source"].(map[string]any)
	if ids, _ := src["document_ids"].([]any); len(ids) != 1 || ids[0] != id {
		t.Errorf("the VOIE's source %v", src)
	}
	if bases, _ := src["review_bases"].([]any); len(bases) != 1 || bases[0] != "reviewed by a member of acme" {
		t.Errorf("the VOIE's basis %v", src)
	}
	stubs := emps[0].(map[string]any)["income"].(map[string]any)["paystubs"].([]any)
	if len(stubs) != 1 || stubs[0].(map[string]any)["net_pay_amount"] != float64(197298) {
		t.Errorf("the VOIE's paystub %v", stubs)
	}

	// Who changed what: the audit log, and the review's before and after.
	log, err := storage.NewKeyStore(db).AuditLog(context.Background(), f.key.Scope(), 50)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(log, func(e domain.AuditEntry) bool { return e.Action == domain.AuditDocumentReviewed })
	if i < 0 || log[i].Actor != "member:rita@acme.test" || log[i].Target != id || log[i].Detail != "accepted; corrected net_pay_amount" {
		t.Errorf("the audit log: %+v", log)
	}
	review := f.get("/v1/end_users/applicant-7/documents/" + id).data(t)["review"].(map[string]any)
	c := review["corrections"].([]any)
	if len(c) != 1 || c[0].(map[string]any)["before"] != "222298" || c[0].(map[string]any)["after"] != "197298" ||
		review["note"] != "Net pay checked with the employer by phone." {
		t.Errorf("the stored review %v", review)
	}
}

// value is an input's value.
func (p tab) value(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).value || ''`, sel)))
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}
