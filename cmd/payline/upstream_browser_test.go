package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/internal/testwait"
)

// The relay's demo page frames the relay's modal, which frames the
// upstream's modal. The browser runs without the same-origin policy so
// the test can reach into the upstream's (cross-origin) frame as a user's
// clicks would.
const (
	upstreamModal = `(() => { const r = document.querySelector('#payline-link-frame'); const d = r && r.contentDocument;
		const u = d && d.querySelector('#payline-link-frame'); return u && u.contentDocument; })()`
)

func relayBrowser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("/usr/bin/chromium is missing: CI must run the browser tests (apt-get install chromium)")
		}
		t.Skip("*** SKIPPING browser test: /usr/bin/chromium not installed ***")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath("/usr/bin/chromium"), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("ignore-certificate-errors", true), chromedp.Flag("disable-web-security", true),
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.UserDataDir(t.TempDir()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return ctx
}

// inUpstream waits until js, run with d as the upstream modal's document,
// returns true.
func inUpstream(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	testwait.Until(t, 20*time.Second, func() error {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const d = %s; if (!d) return false; %s })()`, upstreamModal, js)))
		if err == nil && ok {
			return nil
		}
		events, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineEvents)`))
		return fmt.Errorf("waiting for %s (%v); events so far: %s", what, err, events)
	})
}

func clickIn(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	inUpstream(t, ctx, "click "+sel, fmt.Sprintf(`const el = d.querySelector(%q);
		if (!el || el.disabled || el.offsetParent === null) return false; el.click(); return true;`, sel))
}

func typeIn(t *testing.T, ctx context.Context, sel, value string) {
	t.Helper()
	inUpstream(t, ctx, "type into "+sel, fmt.Sprintf(`const el = d.querySelector(%q); if (!el) return false;
		el.value = %q; el.dispatchEvent(new Event('input', {bubbles: true})); return true;`, sel, value))
}

// TestRelayLinkInBrowser: the relay's modal opens the upstream's Link
// inside itself with the relayed token; the user signs in there, the
// upstream's client events reach the integrator's page unchanged, and
// the account arrives on the relay. At 375 and 1280 px wide, with the
// screenshots docs/upstreams.md shows (rewritten only with
// PAYLINE_UPDATE_SCREENSHOTS=1).
func TestRelayLinkInBrowser(t *testing.T) {
	var logs bytes.Buffer
	p := startRelayPairTLS(t, "sqlite:"+filepath.Join(t.TempDir(), "relay.db"), &logs, true)
	defer func() {
		if t.Failed() {
			t.Log(logs.String())
		}
	}()
	for _, size := range [][2]int{{375, 812}, {1280, 800}} {
		t.Run(fmt.Sprintf("%dpx", size[0]), func(t *testing.T) {
			endUser := fmt.Sprintf("browser-%d", size[0])
			status, tok := p.call(t, "POST", p.relayBase+"/v1/link_tokens", p.relaySecret,
				`{"org_name": "Acme Lending", "end_user_id": "`+endUser+`", "required_jobs": ["paystubs", "identity"]}`)
			if status != 200 {
				t.Fatalf("link token: %d %v", status, tok)
			}
			ctx := relayBrowser(t)
			token := tok["data"].(map[string]any)["token"].(string)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(size[0]), int64(size[1])),
				chromedp.Navigate(p.relayBase+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
				t.Fatal(err)
			}
			clickIn(t, ctx, "#consent-continue")
			typeIn(t, ctx, "#search-input", "summit payroll")
			clickIn(t, ctx, `.result[data-kind="platform"]`)
			clickIn(t, ctx, "#confirm-provider")
			typeIn(t, ctx, "#username", "user_good")
			typeIn(t, ctx, "#password", "pass_good")
			shot(t, ctx, fmt.Sprintf("relay-login-%d.png", size[0]), size[0])
			clickIn(t, ctx, "#login-submit")
			inUpstream(t, ctx, "the success screen", `return !!d.querySelector('#done') && d.querySelector('#done').offsetParent !== null;`)
			shot(t, ctx, fmt.Sprintf("relay-success-%d.png", size[0]), size[0])
			clickIn(t, ctx, "#done")
			deadline := time.Now().Add(15 * time.Second)
			testwait.Eventually(t, time.Until(deadline), func() bool {
				closed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.querySelector('#payline-link-frame')`))
				if err != nil {
					t.Fatal(err)
				}
				return closed
			}, "the relay's modal did not close after the upstream's exit")
			raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.paylineEvents)`))
			if err != nil {
				t.Fatal(err)
			}
			var events [][2]json.RawMessage
			if err := json.Unmarshal([]byte(raw), &events); err != nil {
				t.Fatal(err)
			}
			var names []string
			var accountID string
			for _, e := range events {
				var name string
				_ = json.Unmarshal(e[0], &name)
				names = append(names, name)
				if name == "login" {
					var payload map[string]any
					_ = json.Unmarshal(e[1], &payload)
					accountID, _ = payload["accountId"].(string)
				}
			}
			for _, want := range []string{"open", "select_platform", "login_attempt", "login", "success", "exit"} {
				if !slices.Contains(names, want) {
					t.Errorf("the integrator's page never got %s: %v", want, names)
				}
			}
			// The account the upstream's login event named arrives here.
			testwait.Every(100*time.Millisecond).Until(t, time.Until(deadline.Add(15*time.Second)), func() error {
				status, acct := p.call(t, "GET", p.relayBase+"/v1/accounts/"+accountID, p.relaySecret, "")
				if data, _ := acct["data"].(map[string]any); status != 200 || data["end_user_id"] != endUser {
					return fmt.Errorf("account %s never reached the relay: %d %v", accountID, status, acct)
				}
				return nil
			})
			if strings.Contains(logs.String(), "pass_good") {
				t.Error("the password reached the relay's logs")
			}
		})
	}
}

// shot takes a screenshot of the page, checks it is a picture as wide as
// the viewport, and keeps it in a temporary directory; with
// PAYLINE_UPDATE_SCREENSHOTS=1 it replaces docs/upstreams/<name>, the
// pictures docs/upstreams.md shows. A plain test run leaves the checkout
// as it found it.
func shot(t *testing.T, ctx context.Context, name string, width int) {
	t.Helper()
	pic, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(pic))
	if err != nil {
		t.Fatalf("%s is not a PNG: %v", name, err)
	}
	if cfg.Width != width {
		t.Errorf("%s is %d px wide, want the viewport's %d", name, cfg.Width, width)
	}
	dir := t.TempDir()
	if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
		dir = filepath.Join("..", "..", "docs", "upstreams")
	}
	if err := os.WriteFile(filepath.Join(dir, name), pic, 0o644); err != nil {
		t.Fatal(err)
	}
}
