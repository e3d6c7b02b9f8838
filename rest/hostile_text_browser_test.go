package rest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// hostileWatch records, in one browser, whatever hostile text would do if
// a page took it as HTML or code: a dialog opened, a request for "x" (an
// <img src=x>), and in each page and frame a Content-Security-Policy
// refusal (an inline handler or script the policy stopped).
type hostileWatch struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	dialogs []string
	fetched []string
}

// recordViolations runs in every document before its own scripts.
const recordViolations = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')));`

// planted lists, as JSON, what hostile text left in the page and in
// Link's frame: window.__xss set, a CSP refusal, an element with an
// inline handler (no page of ours has one: the CSP forbids them), an
// <img src=x>, or a script of hostile text.
const planted = `(() => {
	const wins = [window], fr = document.querySelector('#payline-link-frame');
	if (fr && fr.contentWindow) wins.push(fr.contentWindow);
	const found = [];
	for (const w of wins) {
		if (w.__xss !== undefined) found.push('window.__xss = ' + w.__xss);
		for (const v of w.__violations || []) found.push('CSP refused ' + v);
		for (const el of w.document.querySelectorAll('*')) {
			const on = el.getAttributeNames().filter((n) => n.startsWith('on'));
			if (on.length) found.push('<' + el.localName + '> with ' + on.join(' '));
			if (el.localName === 'img' && el.getAttribute('src') === 'x') found.push('<img src=x>');
			if (el.localName === 'script' && el.textContent.includes('__xss')) found.push('<script>' + el.textContent);
		}
	}
	return JSON.stringify(found);
})()`

func watchHostile(t *testing.T, ctx context.Context) *hostileWatch {
	t.Helper()
	w := &hostileWatch{t: t, ctx: ctx}
	// The tab first, so the listener misses nothing of the first page.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *cdppage.EventJavascriptDialogOpening:
			w.mu.Lock()
			w.dialogs = append(w.dialogs, string(e.Type)+": "+e.Message)
			w.mu.Unlock()
			// A dialog holds the page until answered; the listener may not
			// run a command itself.
			go func() {
				_ = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{Accept: false})
					return err
				}))
			}()
		case *network.EventRequestWillBeSent:
			if u, err := url.Parse(e.Request.URL); err == nil && path.Base(u.Path) == "x" {
				w.mu.Lock()
				w.fetched = append(w.fetched, e.Request.URL)
				w.mu.Unlock()
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: recordViolations})
		return err
	})); err != nil {
		t.Fatal(err)
	}
	return w
}

// findings is what hostile text did so far, in words.
func (w *hostileWatch) findings() []string {
	w.t.Helper()
	raw, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](planted))
	if err != nil {
		w.t.Fatal(err)
	}
	var found []string
	_ = json.Unmarshal([]byte(raw), &found)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, d := range w.dialogs {
		found = append(found, "a dialog: "+d)
	}
	for _, u := range w.fetched {
		found = append(found, "a request for "+u)
	}
	return found
}

// check fails the test if hostile text did anything, where.
func (w *hostileWatch) check(where string) {
	w.t.Helper()
	if found := w.findings(); len(found) > 0 {
		w.t.Errorf("%s: hostile text ran or was parsed as HTML: %q", where, found)
	}
}

// TestHostileWatchSeesHTML is the watch's own control: hostile text put
// into the Link demo page as HTML (what every other test shows does not
// happen) is seen, its handler refused by the CSP, its "x" fetched, and
// a dialog opened from the page is seen too.
func TestHostileWatchSeesHTML(t *testing.T) {
	f := newFixture(t, storagetest.Open(t, storage.SQLite, storagetest.Seeded))
	ctx := newBrowser(t)
	w := watchHostile(t, ctx)
	p := tab{t: t, ctx: ctx}
	p.goTo(f.http.URL + "/link/v1/demo")
	p.until("the demo page", `!!document.getElementById('open')`)
	if found := w.findings(); len(found) != 0 {
		t.Fatalf("the demo page alone: %q", found)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(document.body.insertAdjacentHTML('beforeend', %q), true)`, hostileEmployer))); err != nil {
		t.Fatal(err)
	}
	p.until("the image's failure", `!!document.querySelector('img[src="x"]') && window.__violations.length > 0`)
	// The dialog opens after this call returns: the page waits on it.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(setTimeout(() => alert('hostile')), true)`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the dialog and the request seen", func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.dialogs) == 1 && len(w.fetched) == 1
	})
	found := strings.Join(w.findings(), "\n")
	for _, want := range []string{"CSP refused script-src-attr", "<img> with onerror", "<img src=x>", "a dialog: alert: hostile", "a request for " + f.http.URL + "/link/v1/x"} {
		if !strings.Contains(found, want) {
			t.Errorf("the watch did not see %q; it saw:\n%s", want, found)
		}
	}
}

// encodeURIComponent is JavaScript's, for the text of these tests (which
// holds none of !'()*, which it leaves and url.QueryEscape does not).
func encodeURIComponent(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// TestBrowserHostileTextDashboard, in headless Chromium on both
// databases: a workspace named with a <script>, a member whose address
// holds a template expression, an end user whose id closes an attribute
// and opens an <svg onload>, another whose id is a javascript: URL (its
// link stays the dashboard's own #/end-users/ route), and an uploaded paystub whose file name
// holds an <img onerror> and a right-to-left override and whose employer
// and line names are HTML and script. The member signs in and opens the
// header, the end users, the end user, the review queue and the
// document, and accepts it with a note of HTML. Each page shows each text
// literally (the override dropped), nothing runs, no dialog opens, no
// "x" is fetched and the page's CSP refuses nothing; the VOIE the
// dashboard links to then prints them literally.
func TestBrowserHostileTextDashboard(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		ws, err := f.keys.CreateKey(context.Background(), hostileWorkspace, domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		key := []string{"x-api-secret", ws.Secret}
		f.addMember(hostileWorkspace, hostileMember, domain.RoleAdministrator)
		// A payroll account, so the end user is listed, then the upload.
		body, _ := json.Marshal(map[string]any{"org_name": hostileOrg, "end_user_id": hostileEndUser, "required_jobs": []string{"paystubs"}})
		tokenID, token := f.createToken(string(body), key...)
		if res := f.post("/v1/sandbox/link_sessions", sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, ""), key...); res.status != 200 {
			t.Fatalf("link session: %d %s", res.status, res.raw)
		}
		f.waitJobs(tokenID, 1, key...)
		// A second end user whose id is a javascript: URL, which the
		// dashboard links to.
		body, _ = json.Marshal(map[string]any{"org_name": "Acme", "end_user_id": hostileURLEndUser, "required_jobs": []string{"paystubs"}})
		tokenID, token = f.createToken(string(body), key...)
		if res := f.post("/v1/sandbox/link_sessions", sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, ""), key...); res.status != 200 {
			t.Fatalf("link session: %d %s", res.status, res.raw)
		}
		f.waitJobs(tokenID, 1, key...)
		f.hostileUpload(hostileEndUser, hostileOrg, key...)

		p := tab{t: t, ctx: newBrowser(t)}
		w := watchHostile(t, p.ctx)
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		p.goTo(f.http.URL + "/dashboard")
		p.until("the sign-in form", `!document.getElementById('signin').hidden`)
		p.set("#email", hostileMember)
		p.set("#password", memberPassword)
		p.click("#signin-submit")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)
		if got := p.text("#workspace"); got != hostileWorkspace+" · sandbox mode" {
			t.Errorf("the header's workspace reads %q", got)
		}
		if got := p.text("#who"); got != hostileMember+" (administrator)" {
			t.Errorf("the header's member reads %q", got)
		}
		w.check("the overview")

		p.goTo(f.http.URL + "/dashboard/#/end-users")
		p.until("the end user listed", fmt.Sprintf(`[...document.querySelectorAll('#page td a')].some((a) => a.textContent === %q)`, hostileEndUser))
		w.check("the end users")
		// The javascript: id is a link to its page, never a javascript: URL.
		p.until("the javascript: id listed", fmt.Sprintf(`[...document.querySelectorAll('#page td a')].some((a) => a.textContent === %q && a.getAttribute('href') === %q)`,
			hostileURLEndUser, "#/end-users/"+encodeURIComponent(hostileURLEndUser)))
		p.click(fmt.Sprintf(`#page td a[href=%q]`, "#/end-users/"+encodeURIComponent(hostileURLEndUser)))
		p.until("the javascript: id's page", fmt.Sprintf(`(document.querySelector('#page h2 code') || {}).textContent === %q`, hostileURLEndUser))
		w.check("the javascript: end user")
		p.goTo(f.http.URL + "/dashboard/#/end-users")
		p.click(fmt.Sprintf(`#page td a[href=%q]`, "#/end-users/"+encodeURIComponent(hostileEndUser)))
		p.until("the end user's page", fmt.Sprintf(`(document.querySelector('#page h2 code') || {}).textContent === %q`, hostileEndUser))
		p.until("the upload among the documents", fmt.Sprintf(`[...document.querySelectorAll('#page li a')].some((a) => a.textContent === %q)`, hostileFileShown))
		w.check("the end user")

		p.goTo(f.http.URL + "/dashboard/#/review")
		p.until("the queue", `document.querySelectorAll('#review-rows tbody tr').length === 1`)
		if row := p.text("#review-rows tbody tr"); !strings.Contains(row, hostileFileShown) || !strings.Contains(row, hostileEndUser) ||
			!strings.Contains(row, "the net pay read is") || strings.ContainsRune(row, '\u202e') {
			t.Errorf("the queue's row reads %q", row)
		}
		w.check("the review queue")

		p.click("#review-rows a.review-open")
		p.until("the employer read", fmt.Sprintf(`(document.getElementById('field-employer_name') || {}).value === %q`, hostileEmployer))
		if h1 := p.text("#page h1"); !strings.HasPrefix(h1, hostileFileShown+" ") {
			t.Errorf("the document's heading reads %q", h1)
		}
		if by := p.text("#page h1 + p"); !strings.Contains(by, "uploaded by "+hostileEndUser+" ·") {
			t.Errorf("the document's uploader reads %q", by)
		}
		w.check("the document")
		p.set("#review-note", hostileNote)
		p.click("#review-accept")
		p.until("the review recorded", `!!document.getElementById('review-decision')`)
		if d := p.text("#review-decision"); !strings.Contains(d, "By "+hostileMember) || !strings.Contains(d, "reviewed by a member of "+hostileWorkspace) ||
			!strings.Contains(d, "“"+hostileNote+"”") {
			t.Errorf("the decision reads %q", d)
		}
		w.check("the decision")

		// The VOIE the end user's page links to, now counting the stub.
		p.goTo(f.http.URL + "/dashboard/#/end-users/" + url.PathEscape(hostileEndUser))
		p.until("the VOIE's link", `!!document.querySelector('a.report-link')`)
		href, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.querySelector('a.report-link').href`))
		if err != nil {
			t.Fatal(err)
		}
		w.check("the end user, reviewed")
		res, pdf := fetch(t, "GET", href)
		if res.StatusCode != 200 {
			t.Fatalf("the VOIE's PDF: %d", res.StatusCode)
		}
		checkReportPDF(t, pdf, hostileEmployer, "reviewed by a member of "+hostileWorkspace)
	})
}

// TestBrowserHostileTextLink, in headless Chromium on both databases: an
// integrator's org_name that is an <svg onload>, and an end user's upload
// whose file name holds an <img onerror> and a right-to-left override
// and whose employer is HTML. Link's consent, preview and success screens
// show each literally (the override dropped); nothing runs in the page
// or the modal's frame, no dialog opens, no "x" is fetched and the CSP
// refuses nothing.
func TestBrowserHostileTextLink(t *testing.T) {
	pdf := hostilePaystubPDF(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		body, _ := json.Marshal(map[string]any{"org_name": hostileOrg, "end_user_id": hostileEndUser, "required_jobs": []string{"paystubs"}})
		_, token := f.createToken(string(body))
		m := modal{t: t, ctx: newBrowser(t)}
		w := watchHostile(t, m.ctx)
		if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(375, 760), chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
			t.Fatal(err)
		}
		// frameText is, in the page's JavaScript, the modal's text.
		frameText := `((` + frameDoc + `) && (` + frameDoc + `).body ? (` + frameDoc + `).body.textContent : '')`
		m.until("the consent naming the org", fmt.Sprintf(`%s.includes(%q)`, frameText, hostileOrg+" uses Payline to connect your payroll account"))
		w.check("Link's consent")
		m.click("#consent-continue")
		m.waitScreen("SEARCH_DEFAULT")
		m.typeInto("#search-input", "summit payroll")
		m.click(`.result[data-kind="platform"]`)
		m.click("#confirm-provider")
		m.waitScreen("LOGIN")
		w.check("Link's login")
		m.click("#upload-instead")
		m.waitScreen("DOC_UPLOAD")
		m.until("the file chosen", fmt.Sprintf(`(() => { const input = (`+frameDoc+`).querySelector('#upload-files'); if (!input) return false;
			const dt = new DataTransfer(); dt.items.add(new File([Uint8Array.from(atob(%q), (c) => c.charCodeAt(0))], %q, {type: 'application/pdf'}));
			input.files = dt.files; input.dispatchEvent(new Event('change')); return true; })()`, base64.StdEncoding.EncodeToString(pdf), hostileFileName))
		m.until("the preview", fmt.Sprintf(`%s.includes(%q)`, frameText, "We read this paystub."))
		if got := m.text("#upload-file-0"); !strings.Contains(got, "✓ "+hostileFileShown) || !strings.Contains(got, hostileEmployer) || strings.ContainsRune(got, '\u202e') {
			t.Errorf("the preview reads %q", got)
		}
		w.check("Link's preview")
		m.click("#upload-submit")
		m.waitScreen("DOC_UPLOAD_SUCCESS")
		if got := m.text("#outcome"); got != "1 document was sent to "+hostileOrg+"." {
			t.Errorf("the success screen reads %q", got)
		}
		w.check("Link's success")
	})
}
