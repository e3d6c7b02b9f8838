package rest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserGraphQLConsole runs a query from the console page at GET
// /graphql in Chromium: the page's script is allowed by its own CSP, the
// secret reaches the API, and the result is shown. With
// PAYLINE_UPDATE_SCREENSHOTS=1 it rewrites docs/graphql-console.png.
func TestBrowserGraphQLConsole(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	tokenID, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "maria-lopez", "required_jobs": ["employment", "income", "paystubs"]}`)
	if res := f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, "")); res.status != 200 {
		t.Fatalf("link session: %d %s", res.status, res.raw)
	}
	f.waitJobs(tokenID, 3)

	ctx := newBrowser(t)
	m := modal{t: t, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1200, 820), chromedp.Navigate(f.http.URL+"/graphql")); err != nil {
		t.Fatal(err)
	}
	m.until("the console", `!!document.querySelector('#run')`)
	if err := chromedp.Do(ctx, chromedp.SetValue("#secret", f.secret), chromedp.Click(`[data-example="jobs"]`),
		chromedp.Click("#run")); err != nil {
		t.Fatal(err)
	}
	m.until("the result", `(() => { try { const r = JSON.parse(document.querySelector('#result').textContent);
		return r.data.jobs.edges.length === 3 && r.data.jobs.edges.every(e => e.node.account.endUser.endUserId === 'maria-lopez'); }
		catch (e) { return false; } })()`)
	m.until("the cost in the status line", `/cost \d+ of 10000/.test(document.querySelector('#status').textContent)`)

	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "console.png")
	if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
		out = filepath.Join("..", "docs", "graphql-console.png")
	}
	if err := os.WriteFile(out, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
