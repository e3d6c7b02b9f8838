package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/internal/browsertest"
	"payline/internal/testwait"
	"payline/storage"
)

// TestOutboxInDashboard: a developer signed in to the sandbox's dashboard
// sees the Outbox page list the workspace's kept messages (another
// customer's not among them), the e-mail drawn from its HTML with its
// link, the text as a text; photographed at 1280 and 375 px
// (docs/dashboard/*-outbox.png under PAYLINE_UPDATE_SCREENSHOTS=1).
func TestOutboxInDashboard(t *testing.T) {
	ctx := browsertest.New(t)
	m, _ := startDeliveryMain(t, "sqlite:"+filepath.Join(t.TempDir(), "payline.db"), DeliveryConfig{})
	bg := context.Background()
	var customer string
	if err := m.db.GetContext(bg, &customer, `SELECT customer_id FROM api_keys`); err != nil {
		t.Fatal(err)
	}
	ks := storage.NewKeyStore(m.db)
	keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
	members := domain.NewMemberService(keys, ks, ks, storage.NewSignInThrottle(m.db), domain.SystemClock{}, 4)
	const password = "correct horse battery staple"
	if _, err := members.AddMember(bg, "sandbox", "dev@acme.test", string(domain.RoleDeveloper), password); err != nil {
		t.Fatal(err)
	}
	d, err := m.newMessageDelivery(domain.SystemClock{})
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []domain.OutboundMessage{
		{Channel: domain.ChannelEmail, To: "another@example.com", Subject: "Another workspace's message", Text: "never shown here",
			CustomerID: "another-customer", Mode: domain.ModeSandbox},
		{Channel: domain.ChannelEmail, To: "jordan.rivera@example.com", FromName: "Acme Lending", Subject: "Acme Lending asks you to connect your payroll",
			Text: "Hello Jordan,\n\nAcme Lending asks you to connect your payroll account so they can verify your income for your loan application.\n\n" +
				"Open https://payline.test/l/7Xq2mK9pL4 to start. It takes about five minutes.\n\nThis link works until Dec 1, 2026.",
			CustomerID: customer, Mode: domain.ModeSandbox, Ref: "0194c1d2-link-order"},
		{Channel: domain.ChannelSMS, To: "+15558675310", FromName: "Acme Lending",
			Text:       "Acme Lending asks you to connect your payroll: https://payline.test/l/7Xq2mK9pL4 Reply STOP to opt out.",
			CustomerID: customer, Mode: domain.ModeSandbox, Ref: "0194c1d2-link-order"},
	} {
		if _, err := d.Sender.Send(bg, msg); err != nil {
			t.Fatal(err)
		}
	}
	base := "http://" + m.Addr()
	until := func(what, js string) {
		t.Helper()
		testwait.Until(t, 20*time.Second, func() error {
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
			if err != nil {
				return err
			}
			if !ok {
				page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + ' | ' + document.body.innerText.slice(0, 300)`))
				return fmt.Errorf("not yet: %s (the page: %s)", what, page)
			}
			return nil
		})
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/dashboard")); err != nil {
		t.Fatal(err)
	}
	until("the sign-in form", `!!document.querySelector('#signin-form') && !document.querySelector('#signin').hidden`)
	if err := chromedp.Do(ctx, chromedp.SetValue("#email", "dev@acme.test"), chromedp.SetValue("#password", password), chromedp.Click("#signin-submit")); err != nil {
		t.Fatal(err)
	}
	until("signed in", `!document.querySelector('#app').hidden`)
	// The overview the sign-in opens first is drawn before the hash moves:
	// a page still loading would replace the outbox when it finished.
	until("the overview drawn", `!!document.querySelector('#stat-accounts')`)
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash = '#/outbox'`)); err != nil {
		t.Fatal(err)
	}
	until("two messages", `document.querySelectorAll('#outbox article').length === 2`)
	until("the text as a text, its link a link", `(() => { const b = document.querySelector('#outbox article[data-channel="sms"] .sms-bubble');
		return b.textContent.includes('Reply STOP to opt out.') && b.querySelector('a').href === 'https://payline.test/l/7Xq2mK9pL4'; })()`)
	until("the e-mail drawn from its HTML", `(() => { const host = document.querySelector('#outbox article[data-channel="email"] .mail-html');
		const a = host && host.shadowRoot.querySelector('a');
		return !!a && a.href === 'https://payline.test/l/7Xq2mK9pL4' && host.shadowRoot.textContent.includes('Acme Lending') &&
			getComputedStyle(host.shadowRoot.querySelector('p')).marginBottom === '16px'; })()`)
	until("masked recipients only", `!document.body.textContent.includes('jordan.rivera@') && document.body.textContent.includes('j***@example.com') &&
		document.body.textContent.includes('***-***-5310')`)
	until("no other workspace's message", `!document.body.textContent.includes("Another workspace's message")`)
	for _, width := range []int64{1280, 375} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 900)); err != nil {
			t.Fatal(err)
		}
		until(fmt.Sprintf("no sideways scroll at %d px", width), `document.documentElement.scrollWidth <= document.documentElement.clientWidth`)
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(t.TempDir(), "outbox.png")
		if os.Getenv("PAYLINE_UPDATE_SCREENSHOTS") == "1" {
			out = filepath.Join("..", "..", "docs", "dashboard", fmt.Sprintf("%d-outbox.png", width))
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
