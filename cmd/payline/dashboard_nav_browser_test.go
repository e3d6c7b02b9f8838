package main

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/internal/browsertest"
	"payline/internal/testwait"
	"payline/storage"
)

// TestDashboardSlowPageDoesNotDrawOverNext: a member opens the overview,
// whose query the test holds, then the outbox before the overview's
// answer comes; when it does come, it is dropped (the dashboard says so
// with a payline-stale-answer event) and the outbox stays on screen.
// Before, the slower page drew over the one the member had moved to.
func TestDashboardSlowPageDoesNotDrawOverNext(t *testing.T) {
	ctx := browsertest.New(t)
	m, _ := startDeliveryMain(t, "sqlite:"+filepath.Join(t.TempDir(), "payline.db"), DeliveryConfig{})
	bg := context.Background()
	ks := storage.NewKeyStore(m.db)
	keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
	members := domain.NewMemberService(keys, ks, ks, storage.NewSignInThrottle(m.db), domain.SystemClock{}, 4)
	const password = "correct horse battery staple"
	if _, err := members.AddMember(bg, "sandbox", "dev@acme.test", string(domain.RoleDeveloper), password); err != nil {
		t.Fatal(err)
	}
	until := func(what, js string) {
		t.Helper()
		testwait.Until(t, 20*time.Second, func() error {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
			if err != nil {
				return err
			}
			if !ok {
				page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' | ' + document.body.innerText.slice(0, 200)`))
				return fmt.Errorf("not yet: %s (the page: %s)", what, page)
			}
			return nil
		})
	}
	eval := func(js string) {
		t.Helper()
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](js)); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate("http://"+m.Addr()+"/dashboard")); err != nil {
		t.Fatal(err)
	}
	until("the sign-in form", `!!document.querySelector('#signin-form') && !document.querySelector('#signin').hidden`)
	if err := chromedp.Do(ctx, chromedp.SetValue("#email", "dev@acme.test"), chromedp.SetValue("#password", password), chromedp.Click("#signin-submit")); err != nil {
		t.Fatal(err)
	}
	until("the overview drawn", `!!document.querySelector('#stat-accounts')`)

	// Hold the next overview answer until the test releases it.
	eval(`(() => {
		const fetchNow = window.fetch;
		window.fetch = async (url, opts) => {
			const res = await fetchNow(url, opts);
			if (opts && typeof opts.body === 'string' && opts.body.includes('overview(days')) {
				window.heldOverview = true;
				await new Promise((release) => { window.releaseOverview = release; });
			}
			return res;
		};
		window.addEventListener('payline-stale-answer', () => { window.staleDropped = true; });
		location.hash = '#/outbox';
	})()`)
	until("the outbox drawn", `!!document.querySelector('#outbox')`)
	eval(`location.hash = '#/overview'`)
	until("the overview's query held", `window.heldOverview === true && typeof window.releaseOverview === 'function'`)
	eval(`location.hash = '#/outbox'`)
	until("the outbox drawn again", `!!document.querySelector('#outbox') && !document.querySelector('#stat-accounts')`)
	eval(`window.releaseOverview()`)
	until("the overview's late answer dropped", `window.staleDropped === true`)
	until("the outbox still shown", `!!document.querySelector('#outbox') && !document.querySelector('#stat-accounts') && location.hash === '#/outbox'`)
}
