package rest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"payline/domain/sandbox"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// graphiqlEditor is JS for the CodeMirror instance of one of GraphiQL's
// editors: the query, the headers (the second editor under the tools
// tabs; variables is the first) or the response.
var graphiqlEditor = map[string]string{
	"query":    `document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror`,
	"headers":  `document.querySelectorAll('.graphiql-editor-tool .graphiql-editor')[1].querySelector('.CodeMirror').CodeMirror`,
	"response": `document.querySelector('.graphiql-response .CodeMirror').CodeMirror`,
}

// TestBrowserGraphiQL drives GraphiQL at GET /graphql in Chromium as a
// developer would: the page loads its bundle from the binary under its
// own CSP (any violation fails the test), the secret is typed into the
// headers editor, a query typed into the query editor completes endUsers
// from the schema, and running it shows the real answer. The saved
// "RecentJobs" tab then runs with the same secret, which follows the
// developer to it, and a subscription typed in a tab gets a job as Link
// finishes it, over the websocket the headers authenticate; a dialog
// opens within the CSP too. The page is
// photographed at 1280 px; with PAYLINE_UPDATE_SCREENSHOTS=1 the picture
// replaces docs/graphql/graphiql.png.
func TestBrowserGraphiQL(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	tokenID, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "maria-lopez", "required_jobs": ["employment", "income", "paystubs"]}`)
	if res := f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, "")); res.status != 200 {
		t.Fatalf("link session: %d %s", res.status, res.raw)
	}
	f.waitJobs(tokenID, 3)

	ctx := newBrowser(t)
	m := graphiqlPage{t: t, ctx: ctx}
	// Before any of the page's own scripts: note every CSP violation.
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: `window.cspViolations = [];
			document.addEventListener('securitypolicyviolation', e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`})
		return err
	}), chromedp.EmulateViewport(1280, 860), chromedp.Navigate(f.http.URL+"/graphql")); err != nil {
		t.Fatal(err)
	}
	m.until("GraphiQL with the saved examples as tabs", `document.querySelectorAll('.graphiql-tab').length === 3 &&
		!!document.querySelector('.graphiql-query-editor .CodeMirror') && !!document.querySelector('.graphiql-response .CodeMirror')`)
	if got := evalString(t, ctx, graphiqlEditor["headers"]+`.getValue()`); !strings.Contains(got, `"x-api-secret": "YOUR_SECRET"`) {
		t.Fatalf("the headers editor starts with %q, not the x-api-secret placeholder", got)
	}

	// The secret, typed into the headers editor over the placeholder.
	typeInto(t, ctx, "headers", `.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror-lines`, `{"x-api-secret": "`+f.secret+`"}`)
	if got := evalString(t, ctx, graphiqlEditor["headers"]+`.getValue()`); got != `{"x-api-secret": "`+f.secret+`"}` {
		t.Fatalf("the headers editor holds %q after typing", got)
	}

	// A query typed into the query editor: "{ endU" offers endUsers from
	// the schema, and the rest is typed as a developer would.
	typeInto(t, ctx, "query", `.graphiql-query-editor .CodeMirror-lines`, "{ endU")
	m.until("completion of endU offering endUsers", `[...document.querySelectorAll('.CodeMirror-hints .CodeMirror-hint')].some(li => li.textContent === 'endUsers')`)
	if err := chromedp.Do(ctx, chromedp.KeyEvent("sers(first: 5) { edges { node { endUserId accounts(first: 5) { totalCount } } } }")); err != nil {
		t.Fatal(err)
	}
	const typed = "{ endUsers(first: 5) { edges { node { endUserId accounts(first: 5) { totalCount } } } } }"
	// Closing brackets typed over CodeMirror's own may leave the spaces
	// between them otherwise than typed; the query is the same.
	if got := evalString(t, ctx, graphiqlEditor["query"]+`.getValue()`); strings.Join(strings.Fields(got), "") != strings.Join(strings.Fields(typed), "") {
		t.Fatalf("the query editor holds %q after typing, want %q", got, typed)
	}
	m.run()
	m.until("the answer in the response pane", fmt.Sprintf(`(() => { try { const r = JSON.parse(%s.getValue());
		return r.data.endUsers.edges.some(e => e.node.endUserId === 'maria-lopez' && e.node.accounts.totalCount === 1); }
		catch (e) { return false; } })()`, graphiqlEditor["response"]))

	// The saved "RecentJobs" example, in its own tab, with the secret
	// carried over from the first.
	m.until("the RecentJobs tab", `(() => { const b = [...document.querySelectorAll('.graphiql-tab-button')].find(b => b.textContent === 'RecentJobs');
		if (!b) return false; b.click(); return true; })()`)
	m.until("the secret in the RecentJobs tab's headers", fmt.Sprintf(`%s.getValue().includes(%q) && %s.getValue().includes('query RecentJobs')`,
		graphiqlEditor["headers"], f.secret, graphiqlEditor["query"]))
	m.run()
	m.until("RecentJobs' answer", fmt.Sprintf(`(() => { try { const r = JSON.parse(%s.getValue());
		return r.data.jobs.edges.length === 3 && r.data.jobs.edges.every(e => e.node.account.endUser.endUserId === 'maria-lopez'); }
		catch (e) { return false; } })()`, graphiqlEditor["response"]))
	// The picture: the answer beside the docs explorer (the schema from
	// /graphql/schema.graphql), with the variables, not the secret, below
	// the query.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.graphiql-editor-tools button[data-name="variables"]`)),
		chromedp.Click(chromedp.CSS(`button[aria-label="Show Documentation Explorer"]`))); err != nil {
		t.Fatal(err)
	}
	m.until("the docs explorer", `[...document.querySelectorAll('.graphiql-doc-explorer .graphiql-doc-explorer-type-name')].some(a => a.textContent === 'Query')`)
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Hide Documentation Explorer"]`)),
		chromedp.Click(chromedp.CSS(`.graphiql-editor-tools button[data-name="headers"]`))); err != nil {
		t.Fatal(err)
	}

	// A subscription, run from a new tab over the websocket, gets the
	// jobs of a Link session that finishes while it listens.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("button.graphiql-tab-add"))); err != nil {
		t.Fatal(err)
	}
	m.until("the new tab, with the secret", fmt.Sprintf(`document.querySelectorAll('.graphiql-tab').length === 4 && %s.getValue().includes(%q)`,
		graphiqlEditor["headers"], f.secret))
	typeInto(t, ctx, "query", `.graphiql-query-editor .CodeMirror-lines`, `subscription { jobUpdated(endUserId: "ana-ruiz") { name outcome } }`)
	watchers := jobWatchers()
	m.run()
	m.until("the subscription running (the stop button)", `document.querySelector('.graphiql-execute-button').getAttribute('aria-label').startsWith('Stop')`)
	// Watching the job feed on the server, so the jobs below are not
	// finished before anyone listens.
	m.untilServer("the subscription to watch jobs", func() bool { return jobWatchers() > watchers })
	tokenID2, token2 := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "ana-ruiz", "required_jobs": ["employment"]}`)
	if res := f.linkSession(sessionBody(token2, switchPlatform(t).ID, sandbox.UserGood, "")); res.status != 200 {
		t.Fatalf("link session: %d %s", res.status, res.raw)
	}
	f.waitJobs(tokenID2, 1)
	m.until("a job in the subscription's response", fmt.Sprintf(`(() => { try { const r = JSON.parse(%s.getValue());
		return r.data.jobUpdated.name === 'employment'; } catch (e) { return false; } })()`, graphiqlEditor["response"]))

	// A dialog (settings) adds a <style> element, which the CSP allows.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Open settings dialog"]`))); err != nil {
		t.Fatal(err)
	}
	m.until("the settings dialog", `!!document.querySelector('.graphiql-dialog')`)
	if v := evalString(t, ctx, `JSON.stringify(window.cspViolations)`); v != "[]" {
		t.Errorf("the page broke its CSP: %s", v)
	}
	out := filepath.Join(t.TempDir(), "graphiql.png")
	if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
		out = filepath.Join("..", "docs", "graphql", "graphiql.png")
	}
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
}

// typeInto focuses one of GraphiQL's editors by clicking it, selects all
// (Ctrl-A) and types text over it with key events, as a person would;
// CodeMirror closes brackets and quotes as they are opened and types over
// the closing ones, so balanced text comes out as typed, give or take a
// space.
func typeInto(t *testing.T, ctx context.Context, editor, clickSel, text string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(clickSel))); err != nil {
		t.Fatalf("click the %s editor: %v", editor, err)
	}
	if focused := evalString(t, ctx, `String(`+graphiqlEditor[editor]+`.hasFocus())`); focused != "true" {
		t.Fatalf("clicking %s did not focus the %s editor", clickSel, editor)
	}
	if err := chromedp.Do(ctx,
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)),
		chromedp.KeyEvent(text),
	); err != nil {
		t.Fatalf("type into the %s editor: %v", editor, err)
	}
}

func evalString(t *testing.T, ctx context.Context, js string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return s
}

// graphiqlPage waits on the GraphiQL page, and says what it showed when
// it times out.
type graphiqlPage struct {
	t   *testing.T
	ctx context.Context
}

// until evaluates js until it is true, or fails after 20s with the
// editors' contents and any CSP violations.
func (p graphiqlPage) until(what, js string) {
	p.t.Helper()
	p.untilServer(what, func() bool {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](js))
		if err != nil {
			p.t.Fatalf("%s: %v", what, err)
		}
		return ok
	})
}

// untilServer waits for cond as until waits for the page.
func (p graphiqlPage) untilServer(what string, cond func() bool) {
	p.t.Helper()
	testwait.Every(50*time.Millisecond).Until(p.t, 20*time.Second, func() error {
		if cond() {
			return nil
		}
		state, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`JSON.stringify({
			query: document.querySelector('.graphiql-query-editor .CodeMirror')?.CodeMirror.getValue(),
			headers: document.querySelectorAll('.graphiql-editor-tool .graphiql-editor')[1]?.querySelector('.CodeMirror')?.CodeMirror.getValue(),
			response: document.querySelector('.graphiql-response .CodeMirror')?.CodeMirror.getValue(),
			csp: window.cspViolations})`))
		return fmt.Errorf("waiting for %s; the page shows %s", what, state)
	})
}

// run clicks the execute button once GraphiQL has parsed what the query
// editor holds: it reads the operation to run from the parse, which it
// makes 100 ms after the last change.
func (p graphiqlPage) run() {
	p.t.Helper()
	p.until("GraphiQL to parse the query", fmt.Sprintf(`(() => { const cm = %s;
		return !!cm.documentAST && cm.documentAST.loc.source.body === cm.getValue(); })()`, graphiqlEditor["query"]))
	if err := chromedp.Do(p.ctx, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
		p.t.Fatal(err)
	}
}

// jobWatchers counts the goroutines that watch the job feed for a
// jobUpdated subscription (WatchService.WatchJobs).
func jobWatchers() int {
	buf := make([]byte, 1<<22)
	n := runtime.Stack(buf, true)
	count := 0
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "(*WatchService).WatchJobs") {
			count++
		}
	}
	return count
}
