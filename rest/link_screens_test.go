package rest

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// shoot saves a screenshot of the page as docs/link/<width>-<name>.png
// when PAYLINE_UPDATE_SCREENSHOTS=1, else in a temporary directory.
func (m modal) shoot(width int64, name string) {
	m.t.Helper()
	png, err := chromedp.Run(m.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		m.t.Fatal(err)
	}
	out := filepath.Join(m.t.TempDir(), name+".png")
	if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" && (width == 375 || width == 1280) {
		out = filepath.Join("..", "docs", "link", fmt.Sprintf("%d-%s.png", width, name))
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// fits fails when the modal scrolls sideways.
func (m modal) fits(where string) {
	m.t.Helper()
	m.until("no sideways scroll on "+where, `(() => { const d = `+frameDoc+`; return !!d && d.documentElement.scrollWidth <= d.documentElement.clientWidth; })()`)
}

// text is the modal's text at a selector.
func (m modal) text(sel string) string {
	m.t.Helper()
	s, err := chromedp.Run(m.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q); return el ? el.textContent : ''; })()`, frameDoc, sel)))
	if err != nil {
		m.t.Fatal(err)
	}
	return s
}

// TestBrowserLinkScreens walks Link at two phones' and a desktop's width:
// the consent screen, search with logos, back navigation, a refused login
// in the user's words, the allocation, and a success screen that says
// what happened, with no sideways scroll anywhere and the spec's events
// unchanged. PAYLINE_UPDATE_SCREENSHOTS=1 rewrites docs/link/*.png.
func TestBrowserLinkScreens(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	for _, width := range []int64{320, 375, 1280} { // the docs show 375 and 1280
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "screens", "required_jobs": ["direct_deposit_switch", "paystubs"],
				"allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`)
			m := modal{t: t, ctx: newBrowser(t)}
			if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(width, 760), chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token),
				chromedp.Click("#open")); err != nil {
				t.Fatal(err)
			}
			m.until("the consent screen", `(() => { const d = `+frameDoc+`; return !!d && !!d.querySelector('#consent-continue'); })()`)
			if got := m.text("#title"); got != "Acme Bank uses Payline to connect your payroll account" {
				t.Errorf("consent title %q", got)
			}
			if shares := m.text("#shares"); !strings.Contains(shares, "paycheck is deposited") || !strings.Contains(shares, "paystubs") {
				t.Errorf("consent lists %q", shares)
			}
			m.fits("consent")
			m.shoot(width, "1-consent")
			m.click("#consent-continue")
			m.waitScreen("SEARCH_DEFAULT")
			m.typeInto("#search-input", "summit payroll")
			m.until("results with logos", `(() => { const d = `+frameDoc+`; return d.querySelectorAll('.result .logo').length > 0; })()`)
			m.fits("search")
			m.shoot(width, "2-search")
			m.click(`.result[data-kind="platform"]`)
			m.waitScreen("PROVIDER_CONFIRMATION")
			m.fits("provider confirmation")
			m.shoot(width, "3-provider")
			m.click("#back")
			m.until("search again", `(window.paylineEvents || []).filter(e => e[0] === 'screen_transition' && e[1].screen_name === 'SEARCH_DEFAULT').length === 2`)
			m.typeInto("#search-input", "summit payroll")
			m.click(`.result[data-kind="platform"]`)
			m.click("#confirm-provider")
			m.waitScreen("LOGIN")
			m.typeInto("#username", sandbox.UserGood)
			m.typeInto("#password", "not-the-password")
			m.click("#login-submit")
			m.until("the refusal", `(() => { const d = `+frameDoc+`; return !d.querySelector('#message').hidden; })()`)
			if msg := m.text("#message"); msg != "That username and password did not work. Check them and try again." {
				t.Errorf("a refused login says %q", msg)
			}
			m.fits("login")
			m.shoot(width, "4-login-refused")
			m.typeInto("#password", sandbox.Password)
			m.click("#login-submit")
			m.waitScreen("DD_AMOUNT_SELECTION")
			m.click("#alloc-partial")
			m.typeInto("#alloc-value", "150")
			m.fits("amount")
			m.shoot(width, "5-amount")
			m.click("#alloc-continue")
			m.waitScreen("DD_CONFIRMATION")
			m.fits("confirmation")
			m.shoot(width, "6-confirm")
			m.click("#confirm-switch")
			m.waitScreen("JOB_SUCCESS")
			if got := m.text("#outcome"); got != "$150.00 of each paycheck will go to Main ••••6789 starting with your next pay date." {
				t.Errorf("success says %q", got)
			}
			m.fits("success")
			m.shoot(width, "7-success")

			got := eventNames(m.events())
			want := []string{"open", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
				"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
				"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:LOGIN", "login_attempt", "error", "login_attempt", "login",
				"screen_transition:DD_AMOUNT_SELECTION", "input_allocation", "screen_transition:DD_CONFIRMATION", "success",
				"screen_transition:JOB_SUCCESS"}
			if !slices.Equal(got, want) {
				t.Errorf("events\n got %v\nwant %v", got, want)
			}
			// The developer detail stays in the event payload.
			for _, e := range m.events() {
				if e.Name == "error" && e.Payload["code"] != "INVALID_CREDENTIALS" {
					t.Errorf("error payload %v", e.Payload)
				}
			}
		})
	}
}

// TestBrowserLinkKeyboardOnly completes a switch with the keyboard alone:
// focus lands on each screen's field or main action, Tab reaches the
// search results, and Enter does the rest.
func TestBrowserLinkKeyboardOnly(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(switchTokenBody(""))
	m := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(375, 760), chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token),
		chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	focused := func(id string) {
		t.Helper()
		m.until("focus on #"+id, `(() => { const d = `+frameDoc+`; return !!(d && d.activeElement && d.activeElement.id === '`+id+`' && document.activeElement && document.activeElement.id === 'payline-link-frame'); })()`)
	}
	keys := func(k string) {
		t.Helper()
		if err := chromedp.Do(m.ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
	}
	focused("consent-continue")
	keys(kb.Enter)
	focused("search-input")
	keys("summit payroll")
	m.until("results", `(() => { const d = `+frameDoc+`; return d.querySelectorAll('.result').length > 0; })()`)
	keys(kb.Tab)
	m.until("focus on a result", `(() => { const d = `+frameDoc+`; return !!(d && d.activeElement && d.activeElement.classList.contains('result')); })()`)
	keys(kb.Enter)
	focused("confirm-provider")
	keys(kb.Enter)
	focused("username")
	keys(sandbox.UserGood)
	keys(kb.Tab)
	focused("password")
	keys(sandbox.Password)
	keys(kb.Enter)
	m.waitScreen("DD_AMOUNT_SELECTION")
	focused("alloc-continue")
	keys(kb.Enter)
	focused("confirm-switch")
	keys(kb.Enter)
	m.waitScreen("JOB_SUCCESS")
	focused("done")
	keys(kb.Enter)
	m.until("the modal to close", `!document.querySelector('#payline-link-frame')`)
	if s := m.callback("onSuccess"); s["job"] != "direct_deposit_switch" {
		t.Errorf("onSuccess %v", s)
	}
}

// TestBrowserLinkRefusedToken: a token Link cannot use sends no open
// event, only the error, and tells the user what to do in their words.
func TestBrowserLinkRefusedToken(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	m := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token=lt_not_a_real_token"), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	m.until("the error event", `(window.paylineEvents || []).some(e => e[0] === 'error')`)
	if got := eventNames(m.events()); !slices.Equal(got, []string{"error"}) {
		t.Errorf("events %v, want only error", got)
	}
	if got := m.text("#subtitle"); !strings.HasPrefix(got, "This link has expired or was already used. Go back to") {
		t.Errorf("the user reads %q", got)
	}
	if got := m.text("#mode-badge"); got != "" {
		t.Errorf("badge %q", got)
	}
}
