// Package browsertest drives headless Chromium for the browser tests of
// Link: the REST package's (the demo page, the modal's screens) and the
// React wrapper's in package client. Link's modal runs in an iframe of
// the page's own origin, which these helpers reach into.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// ChromiumPath is Debian's chromium, which .ci/run installs.
const ChromiumPath = "/usr/bin/chromium"

// New starts headless Chromium for one test, ended by t's cleanup.
// Without Chromium the test is skipped loudly, except under CI=true,
// where it fails.
func New(t testing.TB) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI must run the browser tests (apt-get install chromium)", ChromiumPath)
		}
		t.Skipf("*** SKIPPING browser test: %s not installed (apt-get install chromium) ***", ChromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// FrameDoc is, in the page's JavaScript, the Link modal's document (null
// while the modal is closed).
const FrameDoc = `document.querySelector('#payline-link-frame') && document.querySelector('#payline-link-frame').contentDocument`

// Page is a page of one test's browser. Its pages record Link's client
// events in window.paylineEvents as [name, payload] pairs.
type Page struct {
	T   testing.TB
	Ctx context.Context
}

// Until evaluates js in the page until it is true, or fails the test
// after 20 s with the events seen so far.
func (p Page) Until(what, js string) {
	p.T.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(p.Ctx, chromedp.Evaluate[bool](js))
		if err != nil {
			p.T.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			events, _ := chromedp.Run(p.Ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineEvents)`))
			p.T.Fatalf("timed out waiting for %s; events so far: %s", what, events)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Click clicks sel in the modal once it is there, enabled and shown.
func (p Page) Click(sel string) {
	p.T.Helper()
	p.Until("click "+sel, fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q);
		if (!el || el.disabled || el.offsetParent === null) return false; el.click(); return true; })()`, FrameDoc, sel))
}

// TypeInto sets the value of sel in the modal as typing would.
func (p Page) TypeInto(sel, value string) {
	p.T.Helper()
	p.Until("type into "+sel, fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q);
		if (!el) return false; el.value = %q; el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, FrameDoc, sel, value))
}

// WaitScreen waits for Link's screen_transition to the named screen.
func (p Page) WaitScreen(name string) {
	p.T.Helper()
	p.Until("screen "+name, fmt.Sprintf(`(window.paylineEvents || []).some(e => e[0] === 'screen_transition' && e[1].screen_name === %q)`, name))
}
