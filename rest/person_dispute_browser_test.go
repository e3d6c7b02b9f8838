package rest

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/notify"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestPersonDisputeEndToEnd is issue 50's "done when", on both databases
// and in a real browser at 375 px: a sandbox person completes Link and
// asks for a receipt by e-mail; the receipt reaches a real SMTP server
// (aiosmtpd); its link opens their page, which shows the connection and
// the VOIE the customer built; they dispute a paystub's net pay with
// "Dispute this" (the dispute is due 30 days after its receipt, the
// customer gets dispute.opened, the next VOIE notes it) and the page
// lists it with its steps; then they take their consent back (the
// account stops refreshing, the sandbox is told, its data is gone, the
// customer gets consent.revoked) and the page shows it. Screenshots of
// the form and the dispute's steps under PAYLINE_UPDATE_SCREENSHOTS=1
// (docs/person.md), from the SQLite run.
func TestPersonDisputeEndToEnd(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		smtpd := startMailServer(t)
		rcv := newReceiver(t, always(200))
		store := storage.NewMessageStore(db)
		sender, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox,
			SMTPURL:  fmt.Sprintf("smtp://payline:%s@127.0.0.1:%d", url.PathEscape("right horse battery"), smtpd.port),
			SMTPFrom: "receipts@payline.example", Outbox: store, OptOuts: store})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, func(s *fixtureSetup) { s.sender, s.caFile = sender, rcv.caFile })
		f.createWebhook(rcv.srv.URL+"/hooks", `"dispute.opened", "consent.revoked"`)
		shots := db.Dialect == storage.SQLite
		tokenID, token := f.createToken(`{"org_name": "Acme Lending", "end_user_id": "pat-e2e", "required_jobs": ["paystubs", "identity", "employment"]}`)

		// Link, on a phone, with an address for the receipt.
		m := modal{t: t, ctx: newBrowser(t)}
		onPhone(m)
		if err := chromedp.Do(m.ctx, chromedp.Navigate(f.http.URL+"/link/v1/demo#token="+token), chromedp.Click("#open")); err != nil {
			t.Fatal(err)
		}
		m.click("#consent-continue")
		m.waitScreen("SEARCH_DEFAULT")
		m.typeInto("#search-input", "summit payroll")
		m.click(`.result[data-kind="platform"]`)
		m.waitScreen("PROVIDER_CONFIRMATION")
		m.click("#confirm-provider")
		m.waitScreen("LOGIN")
		m.typeInto("#username", sandbox.UserGood)
		m.typeInto("#password", sandbox.Password)
		m.click("#login-submit")
		m.waitScreen("JOB_SUCCESS")
		m.typeInto("#receipt-email", "pat@example.com")
		m.click("#receipt-send")

		// The receipt, from the SMTP server.
		waitFor(t, "the receipt at the SMTP server", func() bool { return len(smtpd.mails(t)) == 1 })
		mail := smtpd.mails(t)[0]
		if !strings.Contains(mail.to, "pat@example.com") || !strings.HasPrefix(mail.subject, "Your receipt") || !strings.Contains(mail.text, "Acme Lending") {
			t.Fatalf("receipt %q to %q:\n%s", mail.subject, mail.to, mail.text)
		}
		link := portalURL.FindString(mail.text)
		if link == "" || !strings.HasPrefix(link, f.http.URL) {
			t.Fatalf("no link to this server's page in the receipt:\n%s", mail.text)
		}
		var accountID string
		for _, a := range f.get("/v1/end_users/pat-e2e/accounts").list(t) {
			accountID = a["id"].(string)
		}
		f.waitJobs(tokenID, 3)
		before := f.get("/v1/end_users/pat-e2e/verification_reports/voie?purpose=credit_application").data(t)

		// The page, from the receipt's link: the connection and the VOIE.
		ctx := m.ctx
		if err := chromedp.Do(ctx, chromedp.Navigate(link)); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the link's page", `!!document.querySelector('form button')`)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("form button"))); err != nil {
			t.Fatal(err)
		}
		card := fmt.Sprintf(`section[data-account=%q]`, accountID)
		waitPage(t, ctx, "the page with the connection and the report", `!!document.querySelector('`+card+` .status.on') && !!document.querySelector('a[href="/me/reports/voie"]')`)
		stub := f.get("/v1/accounts/" + accountID + "/paystubs?limit=1").list(t)[0]
		stubID := stub["id"].(string)
		personFit(t, ctx, "the page with paystubs")

		// "Dispute this" on the newest paystub's net pay, with the keyboard:
		// focus the control, Enter opens the form.
		figure := fmt.Sprintf(`li[data-paystub=%q] .figure:first-of-type`, stubID)
		if got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(figure))); err != nil || !strings.Contains(got, "Net pay") {
			t.Fatalf("the paystub's first figure reads %q (%v)", got, err)
		}
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(figure)), chromedp.Focus(chromedp.CSS(figure+` summary`)), chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the dispute form open", `document.querySelector('`+figure+` details').open`)
		if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(figure+` textarea`), "My net pay was $100 more than this.")); err != nil {
			t.Fatal(err)
		}
		personFit(t, ctx, "the dispute form")
		if shots {
			personShot(t, ctx, "dispute-form", true)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(figure+` button[type=submit]`))); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the page with the dispute", `!!document.querySelector('section[data-dispute] [data-status="open"]') && document.getElementById('notice') !== null`)
		personFit(t, ctx, "the page with the dispute")

		// The dispute, as the customer's API answers it: 30 days to answer.
		ds := f.get("/v1/disputes?end_user_id=pat-e2e").list(t)
		if len(ds) != 1 {
			t.Fatalf("%d disputes, want 1", len(ds))
		}
		d := ds[0]
		item := d["item"].(map[string]any)
		if item["type"] != "paystub" || item["id"] != stubID || item["field"] != "net_pay_amount" || d["note"] != "My net pay was $100 more than this." {
			t.Errorf("the dispute is %v", d)
		}
		received, err1 := time.Parse(time.RFC3339, d["received_at"].(string))
		due, err2 := time.Parse(time.RFC3339, d["due_at"].(string))
		if err1 != nil || err2 != nil || !due.Equal(received.AddDate(0, 0, 30)) {
			t.Errorf("received_at %v, due_at %v: want due 30 days on", d["received_at"], d["due_at"])
		}
		// The page says so, in words, with each step.
		section := fmt.Sprintf(`section[data-dispute=%q]`, d["id"])
		text, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(section)))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"You dispute the net pay of your paystub paid", "Received", "My net pay was $100 more than this.",
			received.UTC().Format(personDate), due.UTC().Format(personDate), "We received your dispute. We must answer by " + due.UTC().Format(personDate)} {
			if !strings.Contains(text, want) {
				t.Errorf("the dispute's card lacks %q:\n%s", want, text)
			}
		}
		// The source is told within its 5 business days; the page shows it.
		waitFor(t, "the sandbox told of the dispute", func() bool {
			return f.get("/v1/disputes/" + d["id"].(string)).data(t)["furnisher_notified_at"] != nil
		})
		if err := chromedp.Do(ctx, chromedp.Navigate(f.http.URL+"/me")); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the page with the provider told", `(document.querySelector('`+section+` [data-told]') || {textContent: ''}).textContent.startsWith('Yes')`)
		if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS(section))); err != nil {
			t.Fatal(err)
		}
		if shots {
			personShot(t, ctx, "dispute-steps", true)
		}

		// The customer got dispute.opened; the VOIE built next notes it.
		waitFor(t, "dispute.opened", func() bool { return gotEvent(rcv, "dispute.opened", d["id"].(string)) })
		voie := f.get("/v1/end_users/pat-e2e/verification_reports/voie?purpose=credit_application").data(t)
		if voie["version"] == before["version"] {
			t.Errorf("the VOIE was not rebuilt after the dispute (version %v)", voie["version"])
		}
		noted := false
		for _, fl := range voie["flags"].([]any) {
			fl := fl.(map[string]any)
			noted = noted || fl["code"] == domain.FlagItemDisputed && fl["employment"] == accountID && strings.Contains(fmt.Sprint(fl["message"]), "net pay")
		}
		if !noted {
			t.Errorf("the VOIE built after the dispute does not note it: %v", voie["flags"])
		}

		// Consent taken back.
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(card+` button.danger`)), chromedp.KeyEvent("\r")); err != nil {
			t.Fatal(err)
		}
		waitPage(t, ctx, "the page with consent taken back", `!!document.querySelector('`+card+` [data-status="revoked"]') && !!document.getElementById('revocations')`)
		personFit(t, ctx, "the page after revoking")
		revoked, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("#revocations + section")))
		if err != nil || !strings.Contains(revoked, "the sandbox payroll platform ended its connection") {
			t.Errorf("the revocation reads %q (%v)", revoked, err)
		}
		a := f.get("/v1/accounts/" + accountID).data(t)
		if a["connected"] != false || a["disconnected_by"] != "end_user" || a["monitoring_status"] != "unavailable" {
			t.Errorf("the customer's API answers %v", a)
		}
		if stubs := f.get("/v1/accounts/" + accountID + "/paystubs").list(t); len(stubs) != 0 {
			t.Errorf("%d paystubs are left after consent was taken back", len(stubs))
		}
		waitFor(t, "consent.revoked", func() bool { return gotEvent(rcv, "consent.revoked", accountID) })
		// The dispute stays on the page, with its steps.
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('`+section+`')`)); err != nil || !ok {
			t.Errorf("the dispute is no longer on the page after revoking (%v)", err)
		}
	})
}

// gotEvent says whether the receiver got an event of the type naming id.
func gotEvent(rcv *receiver, event, id string) bool {
	for _, d := range rcv.deliveries() {
		if strings.Contains(string(d.body), `"`+event+`"`) && strings.Contains(string(d.body), id) {
			return true
		}
	}
	return false
}
