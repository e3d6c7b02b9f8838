package client_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/client"
	"payline/client/api"
)

// TestReactLink mounts @payline/link-react's <PaylineLink> in a test page
// (React and the wrapper bundled by esbuild from the package's lockfile,
// no CDN), opens Link with the button, completes a sandbox session in the
// modal and sees onSuccess with the account, then exit; a second mount is
// unmounted with Link open, and the modal goes with it.
//
// The page and the Payline server share one origin, as they would behind
// an integrator's proxy, so the test can reach into the modal's frame: a
// server here serves the page and passes everything else to Payline.
func TestReactLink(t *testing.T) {
	srv := sandboxServer(t)
	dir := filepath.Join("..", "sdk", "react")
	npmInstalled(t, dir, filepath.Join("esbuild", "package.json"))
	bundle := filepath.Join(t.TempDir(), "page.js")
	build := exec.Command(filepath.Join("node_modules", ".bin", "esbuild"), filepath.Join("test", "page.js"), "--bundle", "--format=iife",
		"--minify", `--define:process.env.NODE_ENV="production"`, "--outfile="+bundle)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bundling the test page: %v\n%s", err, out)
	}

	target, _ := url.Parse(srv.URL)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /react-test/{$}", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFile(w, r, filepath.Join(dir, "test", "index.html"))
	})
	mux.HandleFunc("GET /react-test/dist/page.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, bundle) })
	mux.Handle("/", httputil.NewSingleHostReverseProxy(target))
	page := httptest.NewServer(mux)
	defer page.Close()

	c, err := client.New(srv.URL, srv.Secret)
	if err != nil {
		t.Fatal(err)
	}
	newToken := func() string {
		res, err := c.CreateLinkTokenWithResponse(context.Background(), api.LinkTokenCreate{OrgName: ptr("Acme Bank"),
			EndUserId: ptr("react-user"), RequiredJobs: &[]api.JobType{"direct_deposit_switch"},
			Allocation: &api.LinkTokenAllocation{Targets: &[]api.AllocationTarget{{
				Type: "checking", AccountNumber: "123456789", RoutingNumber: "011000015"}}}})
		if err != nil {
			t.Fatal(err)
		}
		return res.JSON200.Data.Token
	}

	b := browser{t: t, ctx: newBrowser(t)}
	b.navigate(page.URL + "/react-test/#token=" + newToken())
	b.until("the button, enabled once link.js has loaded", `(() => { const b = document.querySelector('button.connect'); return !!b && !b.disabled; })()`)
	b.run(chromedp.Click("button.connect"))
	b.click("#consent-continue")
	b.waitScreen("SEARCH_DEFAULT")
	b.typeInto("#search-input", "summit payroll")
	b.click(`.result[data-kind="platform"]`)
	b.click("#confirm-provider")
	b.typeInto("#username", "user_good")
	b.typeInto("#password", "pass_good")
	b.click("#login-submit")
	b.click("#alloc-full")
	b.click("#alloc-continue")
	b.click("#confirm-switch")
	b.waitScreen("JOB_SUCCESS")
	b.until("onSuccess", `window.paylineCallbacks.some(c => c[0] === 'onSuccess')`)
	b.click("#done")
	b.until("onExit and the modal to close", `window.paylineCallbacks.some(c => c[0] === 'onExit') && !document.querySelector('#payline-link-frame')`)

	var callbacks [][2]json.RawMessage
	if err := json.Unmarshal([]byte(b.eval(`JSON.stringify(window.paylineCallbacks)`)), &callbacks); err != nil {
		t.Fatal(err)
	}
	var success struct {
		AccountID, PlatformID, Job string
		Params                     struct{ Action string }
	}
	if err := json.Unmarshal(callbacks[0][1], &success); err != nil {
		t.Fatal(err)
	}
	if success.Job != "direct_deposit_switch" || success.Params.Action != "full_switch" {
		t.Errorf("onSuccess had %s", callbacks[0][1])
	}
	// The account onSuccess named exists for this key.
	if _, err := c.GetAccountWithResponse(context.Background(), success.AccountID); err != nil {
		t.Errorf("the account of onSuccess: %v", err)
	}

	// Unmounting with Link open closes the modal.
	b.navigate(page.URL + "/react-test/#token=" + newToken())
	b.until("the button", `(() => { const b = document.querySelector('button.connect'); return !!b && !b.disabled; })()`)
	b.run(chromedp.Click("button.connect"))
	b.until("the modal", `!!document.querySelector('#payline-link-frame')`)
	b.eval(`(window.unmountLink(), "")`)
	b.until("the modal to go with the component", `!!document.querySelector('#unmounted') && !document.querySelector('#payline-link-frame')`)
}

// chromiumPath is Debian's chromium, which .ci/run installs.
const chromiumPath = "/usr/bin/chromium"

// newBrowser starts headless Chromium for one test. Without it the test
// is skipped loudly, except under CI=true, where it fails.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing: CI must run the browser tests (apt-get install chromium)", chromiumPath)
		}
		t.Skipf("*** SKIPPING browser test: %s not installed (apt-get install chromium) ***", chromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// browser drives the test page and the Link modal's same-origin frame.
type browser struct {
	t   *testing.T
	ctx context.Context
}

const frameDoc = `document.querySelector('#payline-link-frame') && document.querySelector('#payline-link-frame').contentDocument`

func (b browser) run(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval returns the string js evaluates to.
func (b browser) eval(js string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

func (b browser) navigate(u string) {
	b.t.Helper()
	// A new hash alone does not reload the page.
	b.run(chromedp.Navigate("about:blank"), chromedp.Navigate(u))
}

// until polls js in the page until it is true, or fails after 20s.
func (b browser) until(what, js string) {
	b.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
		if err != nil {
			b.t.Fatalf("%s: %v", what, err)
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			events, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineEvents)`))
			b.t.Fatalf("timed out waiting for %s; events so far: %s", what, events)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (b browser) click(sel string) {
	b.t.Helper()
	b.until("click "+sel, fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q);
		if (!el || el.disabled || el.offsetParent === null) return false; el.click(); return true; })()`, frameDoc, sel))
}

func (b browser) typeInto(sel, value string) {
	b.t.Helper()
	b.until("type into "+sel, fmt.Sprintf(`(() => { const d = %s; const el = d && d.querySelector(%q);
		if (!el) return false; el.value = %q; el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, frameDoc, sel, value))
}

func (b browser) waitScreen(name string) {
	b.t.Helper()
	b.until("screen "+name, fmt.Sprintf(`(window.paylineEvents || []).some(e => e[0] === 'screen_transition' && e[1].screen_name === %q)`, name))
}
