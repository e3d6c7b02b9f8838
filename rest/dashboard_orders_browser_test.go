package rest

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserLinkOrders signs a developer in to the dashboard in headless
// Chromium and sends Link from the Link orders page: a text without the
// person's consent is refused in the server's words, then an order by
// e-mail and text is sent, shows its messages sent, its link and its QR
// code; the link followed in the browser opens Link by itself; the order
// is canceled. Photographed at 1280 and 375 px
// (docs/dashboard/*-orders.png), on both databases.
func TestBrowserLinkOrders(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		sender := &recordingSender{}
		f := newFixture(t, db, func(s *fixtureSetup) { s.sender, s.orderSweep = sender, 100*time.Millisecond })
		f.addMember("acme", "dev@acme.test", domain.RoleDeveloper)
		p := tab{t: t, ctx: newBrowser(t), save: db.Dialect == storage.SQLite}
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		p.goTo(f.http.URL + "/dashboard")
		p.set("#email", "dev@acme.test")
		p.set("#password", memberPassword)
		p.click("#signin-submit")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)

		p.goTo(f.http.URL + "/dashboard/#/orders")
		p.until("the send form", `!!document.getElementById('order-form')`)
		p.until("no orders yet", `!!document.querySelector('p.empty')`)
		p.set("#order-org", "Acme Lending")
		p.set("#order-end-user", "applicant-42")
		p.set("#order-email", "jordan.lee@example.com")
		p.set("#order-phone", "(555) 201-1234")
		// A text needs the person's consent, which the form asks for.
		p.click("#order-send")
		p.until("the refusal of a text without consent", `[...document.querySelectorAll('#order-form p.error')].some((e) => e.textContent.includes('sms_consent'))`)
		p.click("#order-consent")
		p.set("#order-zone", zoneAt(f.clock.Now(), 10, 15))
		p.click("#order-send")
		p.until("the order in the list", `!!document.querySelector('#orders tbody tr')`)
		waitFor(t, "both messages", func() bool { return len(sender.messages()) == 2 })
		// Away and back to read the order again (the overview drawn first:
		// a page still loading would draw over the next one).
		p.goTo(f.http.URL + "/dashboard/#/overview")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)
		p.goTo(f.http.URL + "/dashboard/#/orders")
		p.until("the order sent", `document.querySelector('#orders tbody tr .pill')?.textContent === 'sent'`)
		row := p.text("#orders tbody tr")
		for _, want := range []string{"applicant-42", "j***@example.com", "***-***-1234", "/o/", "2 reminders left"} {
			if !strings.Contains(row, want) {
				t.Errorf("the order's row %q lacks %q", row, want)
			}
		}
		p.until("the QR code drawn", `(() => { const img = document.querySelector('#orders .order-link img'); return img && img.complete && img.naturalWidth > 0; })()`)
		p.shoot("orders", `document.querySelector('#orders .order-link img')?.complete`)

		// The link, followed in the browser, opens Link by itself (the
		// page's script posts back) and the order is opened.
		link := f.get("/v1/link_orders").list(t)[0]["url"].(string)
		p.goTo(link)
		p.until("Link's hosted page", `location.pathname === '/link/v1/site' && location.hash === ''`)
		if got := f.get("/v1/link_orders").list(t)[0]["status"]; got != "opened" {
			t.Errorf("status %v after the browser followed the link", got)
		}
		p.goTo(f.http.URL + "/dashboard/#/orders")
		p.until("the order opened", `document.querySelector('#orders tbody tr .pill')?.textContent === 'opened'`)
		if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`(window.confirm = () => true, true)`)); err != nil {
			t.Fatal(err)
		}
		p.click("#orders button.cancel-order")
		p.until("the order canceled", `document.querySelector('#orders tbody tr .pill')?.textContent === 'canceled'`)
		list := f.get("/v1/link_orders").list(t)
		if len(list) != 1 || list[0]["status"] != "canceled" {
			t.Errorf("REST lists %v", list)
		}
	})
}
