package rest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserDemoPage opens the Link demo page at a phone's and a
// desktop's width: its stylesheet applies under its own CSP (no inline
// styles), nothing scrolls sideways, the modal's card is on screen, and
// the event log lists the events, newest first. PAYLINE_UPDATE_SCREENSHOTS=1 rewrites
// docs/link/demo-*.png.
func TestBrowserDemoPage(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	for _, width := range []int64{375, 1280} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			_, token := f.createToken(switchTokenBody(""))
			m := modal{t: t, ctx: newBrowser(t)}
			if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(width, 780),
				chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token)); err != nil {
				t.Fatal(err)
			}
			m.until("the demo stylesheet", `getComputedStyle(document.body).backgroundColor === 'rgb(241, 245, 249)'`)
			m.until("the page to fit its width", `document.documentElement.scrollWidth <= window.innerWidth`)
			if err := chromedp.Do(m.ctx, chromedp.Click("#open")); err != nil {
				t.Fatal(err)
			}
			m.click("#consent-continue")
			m.waitScreen("SEARCH_DEFAULT")
			m.until("the modal's card on screen", `(() => { const d = `+frameDoc+`; const c = d && d.querySelector('.card');
				if (!c) return false; const r = c.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth + 0.5 && r.top >= 0; })()`)
			m.click("#close")
			m.click("#exit-confirm")
			m.until("the modal to close", `!document.querySelector('#payline-link-frame')`)
			m.until("the event log", `document.querySelectorAll('#log li').length === window.paylineEvents.length &&
				window.paylineEvents.length >= 3 && document.querySelector('#empty').hidden`)
			m.until("the newest event first in the log", `(() => { const first = document.querySelector('#log li');
				return first.querySelector('.n').textContent === String(window.paylineEvents.length) &&
					first.querySelector('.name').textContent === window.paylineEvents[window.paylineEvents.length - 1][0]; })()`)
			m.until("the page to fit its width with the log", `document.documentElement.scrollWidth <= window.innerWidth`)

			png, err := chromedp.Run(m.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "demo.png")
			if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
				out = filepath.Join("..", "docs", "link", fmt.Sprintf("demo-%d.png", width))
			}
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(out, png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
