package rest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"

	"github.com/chromedp/chromedp"
)

// TestBrowserBills walks Link in headless Chromium for a bill switch with a
// card and for a cancellation: merchant category chips, login, the
// payment method or the confirmation, and the success screen in words;
// the client events, the job and its webhook.
func TestBrowserBills(t *testing.T) {
	both := merchant(t, domain.JobBillSwitch, domain.JobBillCancellation)
	cancelOnly := merchant(t, domain.JobBillCancellation)
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	rcv := newReceiver(t, always(200))
	f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
	f.createWebhook(rcv.srv.URL+"/bills", `"bill_switch.added", "bill_cancellation.added"`)
	for _, c := range []struct {
		job      domain.JobType
		merchant domain.Platform
		act      func(m modal)
		title    string
		outcome  string
		params   string
	}{
		{domain.JobBillSwitch, both, func(m modal) {
			m.waitScreen("BILL_PAYMENT")
			m.click("#pay-card")
			m.typeInto("#card-number", "4242 4242 4242 4241") // a typo: the check digit is wrong
			m.typeInto("#card-name", "Travel")
			m.typeInto("#card-exp-month", "12")
			m.typeInto("#card-exp-year", "2031")
			m.fits("bill payment")
			m.shoot(375, "bill-2-payment")
			m.click("#confirm-bill")
			m.until("the card typo caught", `(() => { const d = `+frameDoc+`; return !!d && d.body.textContent.includes('card number does not look right'); })()`)
			m.typeInto("#card-number", testCard)
			m.click("#confirm-bill")
		}, "Your bill is switched", "will charge Travel card ••••4242 from your next bill",
			`{"payment":{"card_name":"Travel","last_four_card_number":"4242"},"type":"card"}`},
		{domain.JobBillCancellation, cancelOnly, func(m modal) {
			m.waitScreen("BILL_CANCEL_CONFIRMATION")
			m.click("#confirm-cancel")
		}, "Your subscription is cancelled", "has your cancellation", `{}`},
	} {
		t.Run(string(c.job), func(t *testing.T) {
			tokenID, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "bill-browser", "required_jobs": ["` + string(c.job) + `"]}`)
			m := openLink(t, f, token)
			if err := chromedp.Do(m.ctx, chromedp.EmulateViewport(375, 760)); err != nil {
				t.Fatal(err)
			}
			m.waitScreen("SEARCH_DEFAULT")
			m.until("the category chips", `(() => { const d = `+frameDoc+`; return !!d && d.querySelectorAll('.chip').length > 1; })()`)
			m.fits("merchant search")
			if c.job == domain.JobBillSwitch {
				m.shoot(375, "bill-1-search-"+string(c.job))
			}
			category := c.merchant.MerchantCategories[0]
			m.click(fmt.Sprintf(`.chip[data-category=%q]`, category))
			m.click(fmt.Sprintf(`.result[data-id=%q]`, c.merchant.ID))
			m.click("#confirm-provider")
			m.typeInto("#username", sandbox.UserGood)
			m.typeInto("#password", sandbox.Password)
			m.click("#login-submit")
			c.act(m)
			m.waitScreen("JOB_SUCCESS")
			m.fits("bill success")
			if c.job == domain.JobBillSwitch {
				m.shoot(375, "bill-3-success-"+string(c.job))
			}
			if got := m.text("#title"); got != c.title {
				t.Errorf("success title %q, want %q", got, c.title)
			}
			if got := m.text("#outcome"); !strings.Contains(got, c.outcome) {
				t.Errorf("success text %q, want it to say %q", got, c.outcome)
			}
			m.click("#done")
			got := eventNames(m.events())
			want := []string{"open", "screen_transition:SEARCH_DEFAULT", "screen_transition:SEARCH_RESULTS", "select_platform",
				"screen_transition:PROVIDER_CONFIRMATION", "screen_transition:LOGIN", "login_attempt", "login"}
			if c.job == domain.JobBillSwitch {
				want = append(want, "screen_transition:BILL_PAYMENT")
			} else {
				want = append(want, "screen_transition:BILL_CANCEL_CONFIRMATION")
			}
			want = append(want, "success", "screen_transition:JOB_SUCCESS", "exit")
			if !slices.Equal(got, want) {
				t.Errorf("events\n got %v\nwant %v", got, want)
			}
			if s := m.callback("onSuccess"); s["job"] != string(c.job) {
				t.Errorf("onSuccess %v", s)
			}
			j := f.waitJobs(tokenID, 1)[0]
			params := fmt.Sprint(string(mustJSON(t, j["params"])))
			if j["name"] != string(c.job) || j["outcome"] != "success" || params != c.params {
				t.Errorf("job %v params %s, want %s", j, params, c.params)
			}
			waitFor(t, "the "+string(c.job)+" webhook", func() bool {
				for _, d := range rcv.deliveries() {
					if strings.Contains(string(d.body), `"`+string(c.job)+`.added"`) && strings.Contains(string(d.body), tokenID) {
						return true
					}
				}
				return false
			})
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
