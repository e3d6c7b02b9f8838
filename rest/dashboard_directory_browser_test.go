package rest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserDashboardDirectoryStatus: on a relay whose upstream's
// directory is still syncing (its /readyz says so), the dashboard says
// where the sync stands under its header; without a relay it says
// nothing. Photographed at 1280 and 375 px (PAYLINE_UPDATE_SCREENSHOTS=1
// writes them to docs/dashboard).
func TestBrowserDashboardDirectoryStatus(t *testing.T) {
	const status = "syncing 4,200 of ~20,000 employers"
	for _, relayed := range []bool{true, false} {
		db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
		f := newFixture(t, db, func(s *fixtureSetup) {
			if relayed {
				s.rest.Ready = func(context.Context) []Check { return []Check{{Name: "upstream_directory", Status: status}} }
			}
		})
		email := map[bool]string{true: "ada@relay.test", false: "ada@sandbox.test"}[relayed]
		f.addMember("acme", email, domain.RoleAdministrator)
		p := tab{t: t, ctx: newBrowser(t), save: relayed}
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		p.goTo(f.http.URL + "/dashboard")
		p.until("the sign-in form", `!document.getElementById('signin').hidden`)
		p.set("#email", email)
		p.set("#password", memberPassword)
		p.click("#signin-submit")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)
		if !relayed {
			// The status is fetched as the dashboard starts: once /readyz
			// has answered it stays hidden.
			p.until("/readyz answered", `performance.getEntriesByType('resource').some(e => e.name.endsWith('/readyz'))`)
			if p.text("#directory-status") != "" {
				t.Errorf("without a relay the dashboard says %q", p.text("#directory-status"))
			}
			continue
		}
		p.until("the directory's status", `!document.getElementById('directory-status').hidden`)
		if got, want := p.text("#directory-status"), "Employer directory: "+status; got != want {
			t.Errorf("the dashboard says %q, want %q", got, want)
		}
		p.shoot("directory-syncing", `!document.getElementById('directory-status').hidden`)
		if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") != "1" {
			continue
		}
		if _, err := os.Stat(filepath.Join("..", "docs", "dashboard", "375-directory-syncing.png")); err != nil {
			t.Errorf("the screenshot was not written: %v", err)
		}
	}
}
