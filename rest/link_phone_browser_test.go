package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// phoneWidth is the width of the phone the tests hold: an iPhone's 375
// CSS pixels.
const phoneWidth = 375

// onPhone sizes a browser as a phone held upright: 375 CSS pixels wide,
// with a touch screen (so Link knows it is on a phone).
func onPhone(m modal) {
	m.t.Helper()
	if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(phoneWidth, 740, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		m.t.Fatal(err)
	}
}

// phoneFit checks a Link step as a phone shows it: nothing wider than the
// screen (document.scrollingElement.scrollWidth <= 375, the page's and the
// modal's), the step one column (the screen's parts stacked, none beside
// another), every target at least 44 px wide and high (getBoundingClientRect
// of every shown button, link, field and label that acts: a radio's is its
// label; a field's name label is not a target, its field is), and text
// readable without zoom (at least 13 px; fields 16 px, below which a phone
// zooms in on focus).
func phoneFit(m modal, step string) {
	m.t.Helper()
	js := `(() => {
		const d = ` + frameDoc + `;
		if (!d) return 'no modal';
		const problems = [];
		const top = document.scrollingElement.scrollWidth, inner = d.scrollingElement.scrollWidth;
		if (top > ` + fmt.Sprint(phoneWidth) + ` || inner > ` + fmt.Sprint(phoneWidth) + `) problems.push('scrolls sideways: page ' + top + ', modal ' + inner);
		const shown = el => el.getClientRects().length > 0 && !el.closest('[hidden]') && getComputedStyle(el).visibility !== 'hidden';
		const name = el => el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ' "' + el.textContent.trim().slice(0, 24) + '"';
		d.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, label.choice, label.pick').forEach(el => {
			if (!shown(el)) return;
			const target = el.matches('input[type=radio], input[type=checkbox]') ? el.closest('label') || el : el;
			const r = target.getBoundingClientRect();
			if (r.width < 44 || r.height < 44) problems.push('target ' + name(el) + ' is ' + Math.round(r.width) + 'x' + Math.round(r.height));
			if (r.right > ` + fmt.Sprint(phoneWidth) + ` + 0.5 || r.left < -0.5) problems.push('target ' + name(el) + ' is off the screen');
		});
		const parts = Array.from(d.querySelectorAll('#screen > *')).filter(shown).map(el => [el, el.getBoundingClientRect()]);
		for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
			const a = parts[i][1], b = parts[j][1];
			if (a.top < b.bottom - 1 && b.top < a.bottom - 1) problems.push(name(parts[i][0]) + ' is beside ' + name(parts[j][0]));
		}
		const walker = d.createTreeWalker(d.body, NodeFilter.SHOW_TEXT);
		for (let n = walker.nextNode(); n; n = walker.nextNode()) {
			const el = n.parentElement;
			if (!n.textContent.trim() || !shown(el)) continue;
			const px = parseFloat(getComputedStyle(el).fontSize);
			if (px < 13) problems.push('text "' + n.textContent.trim().slice(0, 24) + '" is ' + px + ' px');
		}
		d.querySelectorAll('input:not([type=radio]):not([type=checkbox]):not([type=file]), select').forEach(el => {
			if (shown(el) && parseFloat(getComputedStyle(el).fontSize) < 16) problems.push('field ' + name(el) + ' is below 16 px');
		});
		return problems.join('; ');
	})()`
	problems, err := chromedp.Run(m.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		m.t.Fatal(err)
	}
	if problems != "" {
		m.t.Errorf("on a phone, %s: %s", step, problems)
	}
}

// visible waits for sel to be shown in the modal.
func (m modal) visible(sel string) {
	m.t.Helper()
	m.until(sel+" shown", fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q); return !!el && el.getClientRects().length > 0 && !el.closest('[hidden]'); })()`, frameDoc, sel))
}

// reads waits for Link's uploads to be read and the send button enabled:
// the reader takes seconds a picture, and a document's pages are read
// again after each change (a reorder), so longer than until's 20 s.
func (m modal) reads(what string) {
	m.t.Helper()
	js := `(() => { const d = ` + frameDoc + `; const b = d && d.querySelector('#upload-submit'); return !!b && !b.disabled; })()`
	deadline := time.Now().Add(90 * time.Second)
	for {
		ok, err := chromedp.Run(m.ctx, chromedp.Evaluate[bool](js))
		if err != nil {
			m.t.Fatal(err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("timed out waiting for %s: %s", what, m.text("#upload-list")+" "+m.text("#message"))
		}
		time.Sleep(100 * time.Millisecond) // polling the page: nothing to wait on from Go
	}
}

// into scrolls sel of the modal to the middle of the screen, for a
// screenshot of what the step is about.
func (m modal) into(sel string) {
	m.t.Helper()
	if _, err := chromedp.Run(m.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const el = (%s).querySelector(%q); if (el) el.scrollIntoView({block: 'center'}); return !!el; })()`, frameDoc, sel))); err != nil {
		m.t.Fatal(err)
	}
}

// attr is an attribute of sel in the modal (null as "<none>").
func (m modal) attr(sel, name string) string {
	m.t.Helper()
	s, err := chromedp.Run(m.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => { const el = %s.querySelector(%q); return el && el.hasAttribute(%q) ? el.getAttribute(%q) : '<none>'; })()`, frameDoc, sel, name, name)))
	if err != nil {
		m.t.Fatal(err)
	}
	return s
}

// giveFiles hands files to a file input of the modal as the phone's camera
// or file picker would (DevTools' DOM.setFileInputFiles, which fires the
// input's change).
func (m modal) giveFiles(sel string, paths ...string) {
	m.t.Helper()
	m.until(sel+" present", fmt.Sprintf(`(() => { const d = %s; return !!d && !!d.querySelector(%q); })()`, frameDoc, sel))
	if err := chromedp.Do(m.ctx, chromedp.SetUploadFiles(sel, paths)); err != nil {
		m.t.Fatalf("set files on %s: %v", sel, err)
	}
}

func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dimmed is a photo at a quarter of its light: taken in a dim room.
func dimmed(t *testing.T, photo []byte) []byte {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(photo))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	out := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			out.Set(x, y, color.RGBA{uint8(r >> 8 / 4), uint8(g >> 8 / 4), uint8(bl >> 8 / 4), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestBrowserLinkPhone walks Link on a phone (375 px, touch), checking
// every step fits (phoneFit) and shooting it (docs/link/375-phone-*.png
// with PAYLINE_UPDATE_SCREENSHOTS=1): Link opened on a computer shows a
// QR code, the code (read back by zbarimg) opens Link in a second browser
// sized as a phone at the same step (the login), and the computer says
// the session moved; on the phone a wrong password offers the upload in
// the same session; the camera input takes a paystub of two pages (the
// camera known by its accept and capture attributes), both pictures shown
// before sending and reorderable; a dim picture and a blurred one are
// asked again (measured in the browser), the blurred one taken again;
// the two pages go up as one document, read with the stub's employer;
// and the computer then says the phone is done.
func TestBrowserLinkPhone(t *testing.T) {
	photo, employer, _ := wildStub(t, "dev-adp-05")
	top, bottom := halves(t, photo)
	page1, page2 := writeTemp(t, "page-1.jpg", top), writeTemp(t, "page-2.jpg", bottom)
	dim := writeTemp(t, "dim.jpg", dimmed(t, photo))
	shaky := writeTemp(t, "shaky.jpg", blurred(t, photo))
	whole := writeTemp(t, "whole.jpg", photo)

	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "phone-user", "required_jobs": ["paystubs", "income"]}`)

	// The computer: Link to the login, then "Continue on your phone".
	pc := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(pc.ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	pc.click("#consent-continue")
	pc.typeInto("#search-input", "summit payroll")
	pc.click(`.result[data-kind="platform"]`)
	pc.click("#confirm-provider")
	pc.waitScreen("LOGIN")
	pc.click("#handoff")
	pc.until("the QR code", `(() => { const d = `+frameDoc+`; const img = d && d.querySelector('#handoff-qr'); return !!img && img.complete && img.naturalWidth > 0; })()`)
	src, err := chromedp.Run(pc.ctx, chromedp.Evaluate[string](frameDoc+`.querySelector('#handoff-qr').src`))
	if err != nil {
		t.Fatal(err)
	}
	url := decodeQR(t, src)
	if !strings.HasPrefix(url, f.http.URL+"/link/v1/continue#code=") || strings.Contains(url, token) {
		t.Fatalf("the QR code reads %q", url)
	}
	pc.shoot(1280, "phone-0-computer-qr")

	// The phone opens the URL of the QR code: the same session, at the login.
	phone := modal{t: t, ctx: newBrowser(t)}
	onPhone(phone)
	if err := chromedp.Do(phone.ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	phone.waitScreen("LOGIN")
	if got := phone.text("#title"); got != "Sign in to Summit Payroll" {
		t.Errorf("the phone continued at %q", got)
	}
	if addr, _ := chromedp.Run(phone.ctx, chromedp.Evaluate[string](`location.href`)); strings.Contains(addr, "code=") {
		t.Errorf("the code stayed in the phone's address bar: %s", addr)
	}
	if phone.attr("#handoff", "hidden") == "<none>" {
		t.Error("the phone offers to continue on a phone")
	}
	pc.visible("#handoff-moved")
	pc.shoot(1280, "phone-0-computer-moved")
	phoneFit(phone, "the login")
	phone.shoot(phoneWidth, "phone-1-login")

	// A wrong password: the upload is offered in the same session.
	phone.typeInto("#username", sandbox.UserGood)
	phone.typeInto("#password", "not-my-password")
	phone.click("#login-submit")
	phone.visible("#upload-after-failure")
	if msg := phone.text("#message"); msg != "That username and password did not work. Check them and try again." {
		t.Errorf("a refused login on the phone says %q", msg)
	}
	phoneFit(phone, "the refused login")
	phone.shoot(phoneWidth, "phone-2-login-refused")
	phone.click("#upload-after-failure")
	phone.waitScreen("DOC_UPLOAD")

	// The camera: a picture input that asks for the back camera; files too.
	if a, c := phone.attr("#upload-camera", "accept"), phone.attr("#upload-camera", "capture"); a != "image/*,application/pdf" || c != "environment" {
		t.Errorf("the camera input: accept %q, capture %q", a, c)
	}
	if c, a := phone.attr("#upload-files", "capture"), phone.attr("#upload-files", "accept"); c != "<none>" || !strings.Contains(a, "application/pdf") {
		t.Errorf("the file input: capture %q, accept %q", c, a)
	}
	phoneFit(phone, "the empty upload")
	phone.shoot(phoneWidth, "phone-3-upload")

	// A paystub of two pages, taken with the camera at once.
	phone.giveFiles("#upload-camera", page1, page2)
	phone.until("both pages shown", `(() => { const d = `+frameDoc+`; return d.querySelectorAll('#upload-doc-0 img.thumb').length === 2; })()`)
	phone.reads("both pages read")
	if got := phone.text("#upload-doc-0 h2"); got != "Document 1 · 2 pages" {
		t.Errorf("the document reads %q", got)
	}
	if got := phone.text("#upload-file-0"); !strings.Contains(got, "✓") || !strings.Contains(got, employer) {
		t.Errorf("the two pages previewed as %q; want %s read", got, employer)
	}
	order := func() string {
		s, _ := chromedp.Run(phone.ctx, chromedp.Evaluate[string](`Array.from(`+frameDoc+`.querySelectorAll('#upload-doc-0 img.thumb')).map(i => i.src).join(' ')`))
		return s
	}
	before := order()
	phone.click(`#upload-page-0-0 button[aria-label="Move page 1 down"]`)
	phone.until("the pages swapped", fmt.Sprintf(`Array.from(%s.querySelectorAll('#upload-doc-0 img.thumb')).map(i => i.src).join(' ') !== %q`, frameDoc, before))
	phone.click(`#upload-page-0-0 button[aria-label="Move page 1 down"]`)
	phone.until("the pages back in order", fmt.Sprintf(`Array.from(%s.querySelectorAll('#upload-doc-0 img.thumb')).map(i => i.src).join(' ') === %q`, frameDoc, before))
	phone.reads("the pages read again")
	phoneFit(phone, "two pages")
	phone.into("#upload-file-0")
	phone.shoot(phoneWidth, "phone-4-two-pages")

	// A second document taken in a dim room: asked again, and removed.
	phone.click("#upload-new-doc")
	phone.giveFiles("#upload-camera", dim)
	phone.visible("#upload-warning-1-0")
	if got := phone.text("#upload-warning-1-0"); !strings.Contains(got, "too dark") {
		t.Errorf("a dim picture is asked again with %q", got)
	}
	if disabled, _ := chromedp.Run(phone.ctx, chromedp.Evaluate[bool](`(`+frameDoc+`).querySelector('#upload-submit').disabled`)); !disabled {
		t.Error("documents can be sent while a picture is asked again")
	}
	phoneFit(phone, "a dim picture")
	phone.into("#upload-warning-1-0")
	phone.shoot(phoneWidth, "phone-5-too-dark")
	phone.click("#upload-remove-1-0")
	phone.until("the dim picture gone", `!(`+frameDoc+`).querySelector('#upload-doc-1')`)

	// A shaky one (the camera's next picture starts a document again once
	// the one it was adding to is gone): asked again, and taken again.
	phone.giveFiles("#upload-camera", shaky)
	phone.visible("#upload-warning-1-0")
	if got := phone.text("#upload-warning-1-0"); !strings.Contains(got, "blurred") {
		t.Errorf("a blurred picture is asked again with %q", got)
	}
	phoneFit(phone, "a blurred picture")
	phone.into("#upload-warning-1-0")
	phone.shoot(phoneWidth, "phone-6-blurred")
	phone.click("#upload-retake-1-0")
	phone.giveFiles("#upload-camera", whole)
	phone.until("the picture taken again", `(() => { const d = `+frameDoc+`; return !d.querySelector('#upload-warning-1-0') && d.querySelectorAll('#upload-doc-1 img.thumb').length === 1; })()`)
	// The same stub twice is not what this person means to send.
	phone.click("#upload-remove-1-0")
	phone.until("one document left", `!(`+frameDoc+`).querySelector('#upload-doc-1')`)
	phone.reads("one document to send")
	if got := phone.text("#upload-submit"); got != "Send 1 document" {
		t.Errorf("the send button says %q", got)
	}
	phone.click("#upload-submit")
	phone.waitScreen("DOC_UPLOAD_SUCCESS")
	if got := phone.text("#outcome"); got != "1 document was sent to Acme Bank." {
		t.Errorf("success says %q", got)
	}
	phoneFit(phone, "the upload's success")
	phone.shoot(phoneWidth, "phone-7-sent")

	docs := f.get("/v1/end_users/phone-user/documents").list(t)
	if len(docs) != 1 {
		t.Fatalf("%d documents stored; want the two pages as one", len(docs))
	}
	if pd, _ := docs[0]["parsed_data"].(map[string]any); pd["employer_name"] != employer {
		t.Errorf("the document of two pages was read as %v", pd)
	}
	// The computer hears that the phone is done.
	pc.until("the computer says done", `(() => { const d = `+frameDoc+`; return !!d && d.querySelector('#title').textContent === 'All done on your phone'; })()`)
	pc.shoot(1280, "phone-8-computer-done")
	var events []string
	for _, e := range phone.events() {
		events = append(events, e.Name)
	}
	if b, _ := json.Marshal(events); !strings.Contains(string(b), `"doc_uploads_submitted"`) {
		t.Errorf("the phone's events %s", b)
	}
}

// TestBrowserLinkPhoneSwitch walks Link to completion on a phone in the
// sandbox, a direct deposit switch from consent to success, every step
// checked as a phone shows it (phoneFit).
func TestBrowserLinkPhoneSwitch(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "phone-switch", "required_jobs": ["direct_deposit_switch", "paystubs"],
		"allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`)
	m := modal{t: t, ctx: newBrowser(t)}
	onPhone(m)
	if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	m.visible("#consent-continue")
	phoneFit(m, "consent")
	m.click("#consent-continue")
	m.waitScreen("SEARCH_DEFAULT")
	m.typeInto("#search-input", "summit payroll")
	m.visible(`.result[data-kind="platform"]`)
	phoneFit(m, "search")
	m.click(`.result[data-kind="platform"]`)
	m.waitScreen("PROVIDER_CONFIRMATION")
	phoneFit(m, "provider")
	m.click("#confirm-provider")
	m.waitScreen("LOGIN")
	phoneFit(m, "login")
	m.typeInto("#username", sandbox.UserGood)
	m.typeInto("#password", sandbox.Password)
	m.click("#login-submit")
	m.waitScreen("DD_AMOUNT_SELECTION")
	m.click("#alloc-partial")
	m.visible("#alloc-value")
	phoneFit(m, "amount")
	m.typeInto("#alloc-value", "150")
	m.click("#alloc-continue")
	m.waitScreen("DD_CONFIRMATION")
	phoneFit(m, "confirmation")
	m.click("#confirm-switch")
	m.waitScreen("JOB_SUCCESS")
	m.visible("#dd-form")
	phoneFit(m, "success")
	m.click("#done")
	m.until("the modal to close", `!document.querySelector('#payline-link-frame')`)
}

// TestBrowserLinkHandoffUpload: the upload screen on a computer hands off
// to the phone, whose camera is the point: the phone opens at the upload,
// the same session, its camera input ready, and the computer says so.
func TestBrowserLinkHandoffUpload(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "phone-upload", "required_jobs": ["paystubs"]}`)
	pc := modal{t: t, ctx: newBrowser(t)}
	if err := chromedp.Do(pc.ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
		t.Fatal(err)
	}
	pc.click("#consent-continue")
	pc.typeInto("#search-input", "summit payroll")
	pc.click(`.result[data-kind="platform"]`)
	pc.click("#confirm-provider")
	pc.click("#upload-instead")
	pc.waitScreen("DOC_UPLOAD")
	pc.click("#handoff")
	pc.until("the QR code", `(() => { const d = `+frameDoc+`; const img = d && d.querySelector('#handoff-qr'); return !!img && img.complete && img.naturalWidth > 0; })()`)
	src, err := chromedp.Run(pc.ctx, chromedp.Evaluate[string](frameDoc+`.querySelector('#handoff-qr').src`))
	if err != nil {
		t.Fatal(err)
	}
	phone := modal{t: t, ctx: newBrowser(t)}
	onPhone(phone)
	if err := chromedp.Do(phone.ctx, chromedp.Navigate(decodeQR(t, src))); err != nil {
		t.Fatal(err)
	}
	phone.waitScreen("DOC_UPLOAD")
	phone.visible("#upload-camera-label")
	if c := phone.attr("#upload-camera", "capture"); c != "environment" {
		t.Errorf("the phone's camera input: capture %q", c)
	}
	phoneFit(phone, "the upload handed off")
	pc.visible("#handoff-moved")
	// Back on the computer, the step is there again, nothing started over.
	pc.click("#handoff-cancel")
	pc.visible("#upload-files-label")
	if got := pc.text("#title"); got != "Upload your documents" {
		t.Errorf("the computer returned to %q", got)
	}
}
