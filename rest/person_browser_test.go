package rest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/notify"
	"payline/storage"
	"payline/storage/storagetest"
)

// personFit checks the person's page as a phone shows it: nothing wider
// than 375 px, every button, link and "Dispute this" control shown at
// least 44 px high and inside the screen, every field with a label, text
// at least 13 px.
func personFit(t *testing.T, ctx context.Context, step string) {
	t.Helper()
	js := `(() => {
		const problems = [];
		const w = document.scrollingElement.scrollWidth;
		if (w > ` + fmt.Sprint(phoneWidth) + `) problems.push('scrolls sideways: ' + w);
		document.querySelectorAll('button, a[href], input:not([type=hidden]), summary, textarea').forEach(el => {
			if (!el.checkVisibility()) return;
			const r = el.getBoundingClientRect();
			if (r.height < 44 && el.tagName !== 'A' || r.height < 20) problems.push(el.tagName + ' "' + el.textContent.trim() + '" is ' + Math.round(r.height) + ' px high');
			if (el.tagName !== 'A' && r.width < 44) problems.push(el.tagName + ' "' + el.textContent.trim() + '" is ' + Math.round(r.width) + ' px wide');
			if (r.right > ` + fmt.Sprint(phoneWidth) + ` + 0.5) problems.push(el.tagName + ' "' + el.textContent.trim() + '" is off the screen');
			if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && !(el.labels && el.labels.length)) problems.push('a field without a label');
		});
		document.querySelectorAll('p, dt, dd, h1, h2, h3, button, a, span').forEach(el => {
			if (el.textContent.trim() && parseFloat(getComputedStyle(el).fontSize) < 13) problems.push('text of ' + getComputedStyle(el).fontSize + ': "' + el.textContent.trim().slice(0, 30) + '"');
		});
		return problems.join('; ');
	})()`
	problems, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatal(err)
	}
	if problems != "" {
		t.Errorf("%s at %d px: %s", step, phoneWidth, problems)
	}
}

// personShot saves the page, whole or as the screen shows it
// (viewport), as docs/person/375-<name>.png under
// PAYLINE_UPDATE_SCREENSHOTS=1.
func personShot(t *testing.T, ctx context.Context, name string, viewport bool) {
	t.Helper()
	if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") != "1" {
		return
	}
	shot := chromedp.FullScreenshot(100)
	if viewport {
		shot = chromedp.CaptureScreenshot()
	}
	png, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "docs", "person")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "375-"+name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitPage waits for js to be true in the top document (not Link's frame).
func waitPage(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			body, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
			t.Fatalf("timed out waiting for %s; the page says: %s", what, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestBrowserPersonPage: on a phone (375 px), a person completes sandbox
// Link and asks for a receipt by e-mail on Link's last screen; the
// receipt, read from the sandbox outbox, holds a link to their page; the
// link's page signs them in, the page shows the connection, they take
// their consent back and the page shows it taken back; the customer's
// API then answers the account disconnected by end_user; the used link
// offers a new one. Every page fits the phone; screenshots under
// PAYLINE_UPDATE_SCREENSHOTS=1 (docs/person.md).
func TestBrowserPersonPage(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	messages := storage.NewMessageStore(db)
	f := newFixture(t, db, func(s *fixtureSetup) { s.sender = notify.Outbox{Store: messages, Now: time.Now} })
	tokenID, token := f.createToken(`{"org_name": "Acme Lending", "end_user_id": "pat-375", "required_jobs": ["paystubs", "identity", "employment"]}`)

	// Link, on a phone, to the end.
	m := modal{t: t, ctx: newBrowser(t)}
	onPhone(m)
	if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	m.click("#consent-continue")
	m.waitScreen("SEARCH_DEFAULT")
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.waitScreen("PROVIDER_CONFIRMATION")
	m.click("#confirm-provider")
	m.waitScreen("LOGIN")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.waitScreen("JOB_SUCCESS")
	m.visible("#receipt-email")
	phoneFit(m, "success with the receipt's field")
	m.typeInto("#receipt-email", "pat@example.com")
	m.click("#receipt-send")
	m.until("the receipt sent", `(() => { const d = `+frameDoc+`; const s = d && d.querySelector('#receipt-status');
		return !!s && s.textContent.startsWith('Sent to p***@example.com'); })()`)
	personShot(t, m.ctx, "link-receipt", true)

	// The receipt, from the sandbox outbox.
	page, err := messages.OutboxMessages(t.Context(), f.key.Scope(), domain.PageRequest{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var receipt domain.OutboxMessage
	for _, msg := range page.Items {
		if strings.HasPrefix(msg.Subject, "Your receipt") {
			receipt = msg
			break
		}
	}
	if receipt.To != "pat@example.com" || !strings.Contains(receipt.Text, "Acme Lending") || !strings.Contains(receipt.Text, "your paystubs") {
		t.Fatalf("receipt %q to %q:\n%s", receipt.Subject, receipt.To, receipt.Text)
	}
	link := portalURL.FindString(receipt.Text)
	if link == "" || !strings.HasPrefix(link, f.http.URL) {
		t.Fatalf("no link to this server's page in the receipt:\n%s", receipt.Text)
	}
	var accountID string
	for _, a := range f.get("/v1/end_users/pat-375/accounts").list(t) {
		accountID = a["id"].(string)
	}
	// The customer builds a VOIE about the person once the data is in.
	f.waitJobs(tokenID, 3)
	if res := f.get("/v1/end_users/pat-375/verification_reports/voie?purpose=credit_application"); res.status != 200 {
		t.Fatalf("voie: %d %s", res.status, res.raw)
	}

	// The person's page, in the same phone's browser.
	ctx := m.ctx
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the link's page", `!!document.querySelector('form button')`)
	personFit(t, ctx, "the link's page")
	personShot(t, ctx, "open-link", false)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("form button"))); err != nil {
		t.Fatal(err)
	}
	card := fmt.Sprintf(`section[data-account=%q]`, accountID)
	waitPage(t, ctx, "the page with the connection", `!!document.querySelector('`+card+`')`)
	text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(card)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "Shared") || !strings.Contains(text, "paystubs") || !strings.Contains(text, "Summit Payroll") {
		t.Errorf("the connection reads %q", text)
	}
	personFit(t, ctx, "the page")
	personShot(t, ctx, "page", false)
	// The report is the person's to download.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const a = document.querySelector('a[href="/me/reports/voie"]');
		return a ? a.closest('section').innerText : '';
	})()`))
	if err != nil || !strings.Contains(got, "acme") || !strings.Contains(got, "credit application") {
		t.Errorf("the report reads %q (%v)", got, err)
	}
	kind, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch('/me/reports/voie').then(r => r.status + ' ' + r.headers.get('content-type'))`, chromedp.EvalAwaitPromise))
	if err != nil || kind != "200 application/pdf" {
		t.Errorf("the report's download answers %q (%v)", kind, err)
	}

	// Consent taken back, with the keyboard: focus the button, press Enter.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(card+` button.danger`)), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the page with consent taken back", `!!document.querySelector('`+card+` [data-status="revoked"]') && !!document.getElementById('revocations')`)
	personFit(t, ctx, "the page after revoking")
	personShot(t, ctx, "revoked", false)
	if a := f.get("/v1/accounts/" + accountID).data(t); a["connected"] != false || a["disconnected_by"] != "end_user" {
		t.Errorf("the customer's API answers %v", a)
	}

	// The used link offers a new one.
	if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	waitPage(t, ctx, "the used link's page", `document.body.innerText.includes('Send me a new link')`)
	personFit(t, ctx, "the used link's page")
	personShot(t, ctx, "used-link", false)
}
