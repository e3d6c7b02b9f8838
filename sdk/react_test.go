package sdk_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"payline.dev/client"
	"payline.dev/client/api"
	"payline/internal/browsertest"
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
	dir := "react"
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

	b := newPage(t)
	b.navigate(page.URL + "/react-test/#token=" + newToken())
	b.Until("the button, enabled once link.js has loaded", `(() => { const b = document.querySelector('button.connect'); return !!b && !b.disabled; })()`)
	b.run(chromedp.Click("button.connect"))
	b.Click("#consent-continue")
	b.WaitScreen("SEARCH_DEFAULT")
	b.TypeInto("#search-input", "summit payroll")
	b.Click(`.result[data-kind="platform"]`)
	b.Click("#confirm-provider")
	b.TypeInto("#username", "user_good")
	b.TypeInto("#password", "pass_good")
	b.Click("#login-submit")
	b.Click("#alloc-full")
	b.Click("#alloc-continue")
	b.Click("#confirm-switch")
	b.WaitScreen("JOB_SUCCESS")
	b.Until("onSuccess", `window.paylineCallbacks.some(c => c[0] === 'onSuccess')`)
	b.Click("#done")
	b.Until("onExit and the modal to close", `window.paylineCallbacks.some(c => c[0] === 'onExit') && !document.querySelector('#payline-link-frame')`)

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
	b.Until("the button", `(() => { const b = document.querySelector('button.connect'); return !!b && !b.disabled; })()`)
	b.run(chromedp.Click("button.connect"))
	b.Until("the modal", `!!document.querySelector('#payline-link-frame')`)
	b.eval(`(window.unmountLink(), "")`)
	b.Until("the modal to go with the component", `!!document.querySelector('#unmounted') && !document.querySelector('#payline-link-frame')`)
}

// browser drives the test page and the Link modal's same-origin frame.
type browser struct {
	browsertest.Page
	t *testing.T
}

func newPage(t *testing.T) browser {
	return browser{Page: browsertest.Page{T: t, Ctx: browsertest.New(t)}, t: t}
}

func (b browser) run(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.Ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// eval returns the string js evaluates to.
func (b browser) eval(js string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](js))
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
