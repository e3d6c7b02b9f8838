package rest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// tab drives one dashboard tab.
type tab struct {
	t   *testing.T
	ctx context.Context
	// save writes screenshots to docs/dashboard under
	// PAYLINE_UPDATE_SCREENSHOTS=1 (one database's run only).
	save bool
}

// until runs JS in the page until it returns true, or fails after 20s.
func (p tab) until(what, js string) {
	p.t.Helper()
	testwait.Until(p.t, 20*time.Second, func() error {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+js+")"))
		if err != nil {
			p.t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return nil
		}
		text, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText.slice(0, 600)`))
		return fmt.Errorf("waiting for %s; the page says:\n%s", what, text)
	})
}

func (p tab) click(sel string) {
	p.t.Helper()
	p.until("click "+sel, fmt.Sprintf(`(() => { const el = document.querySelector(%q);
		if (!el || el.disabled || el.offsetParent === null) return false; el.click(); return true; })()`, sel))
}

func (p tab) set(sel, value string) {
	p.t.Helper()
	p.until("fill "+sel, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false;
		el.value = %q; el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, sel, value))
}

func (p tab) text(sel string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {}).textContent || ''`, sel)))
	if err != nil {
		p.t.Fatal(err)
	}
	return s
}

func (p tab) goTo(url string) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, chromedp.Navigate(url)); err != nil {
		p.t.Fatal(err)
	}
}

// shoot saves the page at 1280 and 375 px wide, checking it never
// scrolls sideways; under PAYLINE_UPDATE_SCREENSHOTS=1 into docs/dashboard.
func (p tab) shoot(name, ready string) {
	p.t.Helper()
	for _, width := range []int64{1280, 375} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			p.t.Fatal(err)
		}
		p.until(name+" ready at "+fmt.Sprint(width), ready)
		p.until(name+" fits "+fmt.Sprint(width)+" px", `document.documentElement.scrollWidth <= document.documentElement.clientWidth`)
		p.until("every navigation link whole at "+fmt.Sprint(width)+" px", `[...document.querySelectorAll('nav a')].every(a => {
			const r = a.getBoundingClientRect(), n = a.parentElement.getBoundingClientRect();
			return r.left >= n.left && r.right <= n.right + 0.5 && r.right <= document.documentElement.clientWidth + 0.5; })`)
		// A cell whose content is wider than the cell is clipped or spills
		// over its neighbour; a table wider than the page scrolls in its box.
		p.until("no clipped table cell at "+fmt.Sprint(width)+" px", `[...document.querySelectorAll('td, th')].every(c => c.scrollWidth <= c.clientWidth + 1)`)
		png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			p.t.Fatal(err)
		}
		out := filepath.Join(p.t.TempDir(), name+".png")
		if p.save && os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
			out = filepath.Join("..", "docs", "dashboard", fmt.Sprintf("%d-%s.png", width, name))
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			p.t.Fatal(err)
		}
	}
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		p.t.Fatal(err)
	}
}

// TestBrowserDashboard signs an administrator in to the dashboard in
// headless Chromium and uses every page: creates and revokes a key (the
// revoked secret then gets 401 from REST), registers a webhook (after
// its refusal of an http:// URL) and sends it a test event, completes a sandbox Link session from Link preview
// while a second tab's Jobs page shows the jobs arrive without a reload,
// opens the end user's paystubs, and signs out. Each page is
// photographed at 1280 and 375 px (docs/dashboard), on both databases.
func TestBrowserDashboard(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		browseDashboard(t, db, db.Dialect == storage.SQLite)
	})
}

func browseDashboard(t *testing.T, db *storage.DB, save bool) {
	// The first delivery is refused with a reason, which the log shows.
	rcv := newReceiver(t, func(n int) int { return map[bool]int{true: 400, false: 200}[n == 1] })
	rcv.reply = func(n int) string {
		if n == 1 {
			return `{"error": "unknown signing secret: copy it from the dashboard's webhook page"}`
		}
		return "ok"
	}
	f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
	f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
	p := tab{t: t, ctx: newBrowser(t), save: save}
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// Sign in: a wrong password shows the server's words.
	p.goTo(f.http.URL + "/dashboard")
	p.until("the sign-in form", `!document.getElementById('signin').hidden`)
	p.shoot("signin", `true`)
	p.set("#email", "ada@acme.test")
	p.set("#password", "not the password")
	p.click("#signin-submit")
	p.until("the refusal", `!document.getElementById('signin-error').hidden`)
	if got := p.text("#signin-error"); got != "the e-mail address or password is wrong" {
		t.Errorf("sign-in error %q", got)
	}
	p.set("#password", memberPassword)
	p.click("#signin-submit")
	p.until("the overview", `!!document.getElementById('stat-accounts')`)
	if got := p.text("#who"); got != "ada@acme.test (administrator)" {
		t.Errorf("signed in as %q", got)
	}
	if got := p.text("#workspace"); !strings.HasPrefix(got, "acme · ") || !strings.HasSuffix(got, " mode") {
		t.Errorf("the header names the workspace %q, want the customer and then the mode", got)
	}
	// No delivery to count: the card says so, not "0 delivered" by a dash.
	if got := p.text("#stat-deliveries"); !strings.HasPrefix(got, "None to a registered webhook in the last 7 days") {
		t.Errorf("the overview's deliveries with none: %q", got)
	}
	p.shoot("overview-empty", `!!document.getElementById('stat-accounts')`)

	// API keys: create one, use its secret, revoke it.
	p.goTo(f.http.URL + "/dashboard/#/keys")
	p.click("#create-key")
	p.until("the new secret", `!!document.getElementById('new-secret')`)
	secret := p.text("#new-secret")
	if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != http.StatusOK {
		t.Fatalf("the dashboard's new secret: %d %s", res.status, res.raw)
	}
	p.shoot("keys", `!!document.getElementById('new-secret')`)
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`)); err != nil {
		t.Fatal(err)
	}
	p.click("#keys tbody tr:first-child button.revoke")
	p.until("the key revoked", `document.querySelector('#keys tbody tr:first-child .pill').textContent === 'revoked'`)
	if res := f.get("/v1/accounts", "x-api-secret", secret); res.status != http.StatusUnauthorized || res.errorCode() != domain.CodeRevokedAPISecret {
		t.Fatalf("the revoked secret: %d %s", res.status, res.raw)
	}

	// Webhooks: register one and send it a test event.
	p.goTo(f.http.URL + "/dashboard/#/webhooks")
	p.until("the webhook form", `!!document.getElementById('webhook-url')`)
	// The form's labels line up (the events list once set its label above
	// the URL's).
	p.until("the webhook form's labels in line", `(() => { const [a, b] = [...document.querySelectorAll('#webhook-form label')].map(l => l.getBoundingClientRect().top);
		return Math.abs(a - b) < 1; })()`)
	// A refused URL shows the payload's userErrors, as a request's error would be.
	p.set("#webhook-url", "http://example.com/payline")
	p.click("#webhook-form button[type=submit]")
	p.until("the refusal of an http:// URL", `[...document.querySelectorAll('p.error')].some((e) => e.textContent.includes('https://'))`)
	p.set("#webhook-url", rcv.srv.URL+"/payline")
	p.click("#webhook-form button[type=submit]")
	p.click("section.webhook button.send-test")
	p.until("the refused delivery in the log", `!!document.querySelector('section.webhook table.deliveries .pill.failed')`)
	p.click("section.webhook table.deliveries .delivery-response summary")
	if got := p.text("section.webhook table.deliveries .delivery-response pre"); !strings.Contains(got, "unknown signing secret") {
		t.Errorf("the refused delivery's response excerpt reads %q", got)
	}
	p.click("section.webhook button.send-test")
	waitFor(t, "the second test event", func() bool {
		n := 0
		for _, d := range rcv.deliveries() {
			if strings.Contains(string(d.body), `"webhook.test"`) {
				n++
			}
		}
		return n == 2
	})
	p.until("the delivery in the log", `!!document.querySelector('section.webhook table.deliveries .pill.delivered')`)
	p.click("section.webhook table.deliveries tr:nth-child(2) .delivery-response summary")
	p.shoot("webhooks", `!!document.querySelector('table.deliveries .delivery-response[open]')`)
	// The card's heading starts at its padding, its buttons stand clear of
	// the deliveries, and the events list box shows whole rows (the next
	// one was cut in half by the border), each whole on a phone.
	p.until("the webhook card's heading at its top", `(() => { const c = document.querySelector('section.webhook');
		return c.querySelector('h2').getBoundingClientRect().top - c.getBoundingClientRect().top <= 22; })()`)
	p.until("the webhook's buttons clear of its deliveries", `document.querySelector('section.webhook .row-actions').getBoundingClientRect().bottom + 8 <=
		document.querySelector('section.webhook .table-wrap').getBoundingClientRect().top`)
	for _, width := range []int64{1280, 375} {
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		p.until(fmt.Sprintf("the events list's rows whole at %d px", width), `(() => { const s = document.getElementById('webhook-events');
			const box = s.getBoundingClientRect(), top = box.top + s.clientTop, bottom = top + s.clientHeight;
			return [...s.options].every(o => { const r = o.getBoundingClientRect();
				return r.height > 0 && (r.bottom <= bottom + 0.5 && r.top >= top - 0.5 || r.top >= bottom - 0.5 || r.bottom <= top + 0.5) &&
					o.scrollWidth <= s.clientWidth; }); })()`)
	}
	if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}

	// Jobs in a second tab (same browser, same cookie), Link in the first.
	jobs := tab{t: t, ctx: func() context.Context { c, _ := chromedp.NewContext(p.ctx); return c }(), save: save}
	jobs.goTo(f.http.URL + "/dashboard/#/jobs")
	jobs.until("the live subscription", `document.getElementById('live') && document.getElementById('live').textContent.includes('live')`)
	if n := jobs.text("#job-rows"); n != "" {
		t.Fatalf("jobs before any Link session: %q", n)
	}
	p.goTo(f.http.URL + "/dashboard/#/link")
	p.set("#link-end-user", "dash-user")
	// Before Link says anything, a line says so: no empty box.
	p.until("no events yet", `document.getElementById('link-events').hidden && !document.getElementById('link-events-empty').hidden`)
	p.shoot("link", `!!document.getElementById('open-link')`)
	p.click("#open-link")
	m := modal{t: t, ctx: p.ctx}
	m.click("#consent-continue")
	m.typeInto("#search-input", "summit payroll")
	m.click(`.result[data-kind="platform"]`)
	m.click("#confirm-provider")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.click("#done")
	p.until("Link's events on the page", `document.getElementById('link-events').textContent.includes('success') &&
		!document.getElementById('link-events').hidden && document.getElementById('link-events-empty').hidden`)
	jobs.until("the jobs on the Jobs page, without a reload", `document.querySelectorAll('#job-rows tr').length >= 3`)
	jobs.until("every job finished", `[...document.querySelectorAll('#job-rows .pill')].every(p => p.textContent === 'success')`)
	jobs.shoot("jobs", `document.querySelectorAll('#job-rows tr').length >= 3`)

	// The end user's paystubs, and the overview now counting them. A
	// second account reads W-2s (labelled by tax year and employer).
	second := f.connectAs("dash-user", switchPlatform(t), sandbox.UserGood, "identity", "paystubs", "tax_forms")
	p.goTo(f.http.URL + "/dashboard/#/end-users/dash-user")
	p.until("the paystubs", `document.querySelectorAll('table.paystubs tbody tr').length > 0`)
	p.until("W-2s named by tax year and employer", `(() => { const w = [...document.querySelectorAll('ul.documents a')].map(a => a.textContent).filter(t => t.startsWith('W-2 '));
		return w.length >= 2 && w.every(t => /^W-2 \d{4} · \S/.test(t)) && new Set(w).size === w.length; })()`)
	// One date format: days as "Nov 28, 2026", moments with their time.
	p.until("one date format", `(() => { const days = [...document.querySelectorAll('table.paystubs tbody td:first-child')].map(c => c.textContent);
		const moments = [...document.querySelectorAll('main time')].filter(t => t.dateTime.length > 10).map(t => t.textContent);
		return days.length > 0 && moments.length > 0 && days.every(d => /^[A-Z][a-z]{2} \d{1,2}, \d{4}$/.test(d)) &&
			moments.every(m => /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/.test(m)) &&
			[...document.querySelectorAll('ul.facts li')].every(l => !/\d{4}-\d{2}-\d{2}/.test(l.textContent)); })()`)
	// Three jobs fit the page: no button for more (pageInfo read).
	sel := fmt.Sprintf(`.account-jobs[data-account=%q]`, second)
	p.until("the account's jobs, no more to read", fmt.Sprintf(`document.querySelectorAll('%s tbody tr').length === 3 && document.querySelector('%s .more-jobs').hidden`, sel, sel))
	p.shoot("end-user", `document.querySelectorAll('table.paystubs tbody tr').length > 0`)
	p.goTo(f.http.URL + "/dashboard/#/overview")
	p.until("the overview's counts", `document.getElementById('stat-accounts') && document.getElementById('stat-accounts').textContent === '2'`)
	p.shoot("overview", `!!document.querySelector('svg.chart')`)
	// The legend's swatches are alike (the error swatch once took the
	// message box's padding), at both widths.
	p.until("the legend's swatches to be alike", `(() => { const s = [...document.querySelectorAll('.legend i')].map(i => i.getBoundingClientRect());
		return s.length === 3 && s.every(r => r.width === s[0].width && r.height === s[0].height && r.width <= 12); })()`)

	// Sign out: the sign-in form is back, and the cookie no longer works.
	p.click("#signout")
	p.until("the sign-in form", `!document.getElementById('signin').hidden`)
	ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`fetch('/dashboard/session').then(r => r.status === 401)`, chromedp.EvalAwaitPromise))
	if err != nil || !ok {
		t.Errorf("the session after signing out: ok=%v err=%v", ok, err)
	}
}
