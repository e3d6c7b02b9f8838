package rest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// recordingSender is a test double of the domain's message port: it keeps
// every message it is given, and fails those refuse says to.
type recordingSender struct {
	mu   sync.Mutex
	sent []domain.OutboundMessage
	// refuse, when set, fails a message: an error wrapping
	// domain.ErrDeliveryRefused for good, any other to be tried again.
	refuse func(m domain.OutboundMessage) error
	tries  int
}

func (r *recordingSender) Send(_ context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tries++
	if r.refuse != nil {
		if err := r.refuse(m); err != nil {
			return domain.SentMessage{}, err
		}
	}
	r.sent = append(r.sent, m)
	return domain.SentMessage{ProviderID: fmt.Sprintf("msg-%d", len(r.sent)), SentAt: time.Now().UTC()}, nil
}

func (r *recordingSender) messages() []domain.OutboundMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]domain.OutboundMessage(nil), r.sent...)
}

func (r *recordingSender) setRefuse(f func(m domain.OutboundMessage) error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.refuse = f
}

// zoneAt returns a fixed-offset IANA zone (Etc/GMT±N) whose local hour is
// from lo to hi at now: tests pick daytime to send at once, or the night
// to see quiet hours hold messages, whatever the hour they run at.
func zoneAt(now time.Time, lo, hi int) string {
	for off := -12; off <= 14; off++ {
		h := (now.UTC().Hour() + off + 48) % 24
		if h < lo || h > hi {
			continue
		}
		if off == 0 {
			return "Etc/GMT"
		}
		return fmt.Sprintf("Etc/GMT%+d", -off) // Etc/GMT+5 is five hours behind UTC
	}
	panic("no zone")
}

// orderFixture is a fixture whose Link orders send through a recording
// sender and are swept every 100 ms, with a webhook receiving every
// link_order event.
func orderFixture(t *testing.T, db *storage.DB) (*fixture, *recordingSender, *receiver) {
	t.Helper()
	sender := &recordingSender{}
	rcv := newReceiver(t, always(200))
	f := newFixture(t, db, func(s *fixtureSetup) {
		s.sender, s.orderSweep, s.caFile = sender, 100*time.Millisecond, rcv.caFile
	})
	f.createWebhook(rcv.srv.URL+"/hooks", `"link_order.sent", "link_order.opened", "link_order.completed", "link_order.expired", "link_order.canceled"`)
	return f, sender, rcv
}

func orderBody(endUser, tz, extra string) string {
	return fmt.Sprintf(`{"org_name": "Acme Lending", "end_user_id": %q, "features": ["income"], "time_zone": %q%s}`, endUser, tz, extra)
}

const bothChannels = `, "delivery": {"email": "jane.doe@example.com", "phone": "+1 (555) 201-1234"}, "sms_consent": true`

// orderEvents are the link_order events the receiver got for an order,
// in order.
func orderEvents(t *testing.T, rcv *receiver, orderID string) []string {
	t.Helper()
	var out []string
	for _, d := range rcv.deliveries() {
		var body struct {
			Event   string         `json:"event"`
			Payload map[string]any `json:"payload"`
		}
		if err := json.Unmarshal(d.body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Payload["link_order_id"] == orderID {
			out = append(out, body.Event)
		}
	}
	return out
}

func sorted(s []string) []string { slices.Sort(s); return s }

// noRedirects is a client that shows redirects instead of following them.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// follow opens an order's short link as a person's browser would (no
// API secret): the page, and when it is an open order's, the post its
// script makes at once. It returns the last status, Location and page.
func follow(t *testing.T, link string) (int, string, string) {
	t.Helper()
	status, _, page := fetchLink(t, http.MethodGet, link)
	if status != http.StatusOK || !strings.Contains(page, `id="open-form"`) {
		return status, "", page
	}
	return fetchLink(t, http.MethodPost, link)
}

func fetchLink(t *testing.T, method, link string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(method, link, nil)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}

// tokenOf reads the link token out of the hosted page's address.
func tokenOf(t *testing.T, location string) string {
	t.Helper()
	page, fragment, ok := strings.Cut(location, "#token=")
	if !ok || page != "/link/v1/site" {
		t.Fatalf("the link went to %q, not Link's hosted page with a token", location)
	}
	tok, err := url.QueryUnescape(fragment)
	if err != nil || !strings.HasPrefix(tok, "lt_") {
		t.Fatalf("token %q in %q", tok, location)
	}
	return tok
}

func (f *fixture) order(id string) map[string]any {
	f.t.Helper()
	return f.get("/v1/link_orders/" + id).data(f.t)
}

func TestLinkOrderValidation(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, _ := orderFixture(t, db)
		for _, tc := range []struct{ name, body, code, mention string }{
			{"no delivery", `{"org_name": "Acme Lending", "end_user_id": "u1"}`, domain.CodeMissingFields, "delivery.email or delivery.phone"},
			{"empty delivery", `{"org_name": "Acme Lending", "end_user_id": "u1", "delivery": {}}`, domain.CodeMissingFields, "delivery"},
			{"bad email", `{"org_name": "Acme Lending", "end_user_id": "u1", "delivery": {"email": "jane@"}}`, domain.CodeInvalidFields, "delivery.email"},
			{"text without consent", `{"org_name": "Acme Lending", "end_user_id": "u1", "delivery": {"phone": "+15552011234"}}`, domain.CodeInvalidFields, "sms_consent"},
			{"bad phone", `{"org_name": "Acme Lending", "end_user_id": "u1", "delivery": {"phone": "call me"}, "sms_consent": true}`, domain.CodeInvalidFields, "delivery.phone"},
			{"window too long", orderBody("u1", "America/Chicago", `, "delivery": {"email": "a@example.com"}, "expires_in_hours": 721`), domain.CodeInvalidFields, "expires_in_hours"},
			{"window zero", orderBody("u1", "America/Chicago", `, "delivery": {"email": "a@example.com"}, "expires_in_hours": 0`), domain.CodeInvalidFields, "expires_in_hours"},
			{"four reminders", orderBody("u1", "America/Chicago", `, "delivery": {"email": "a@example.com"}, "reminders": 4`), domain.CodeInvalidFields, "reminders"},
			{"bad time zone", orderBody("u1", "Mars/Olympus", `, "delivery": {"email": "a@example.com"}`), domain.CodeInvalidFields, "time_zone"},
			// The link token's own rules, applied by the same code.
			{"no org name", `{"end_user_id": "u1", "delivery": {"email": "a@example.com"}}`, domain.CodeMissingFields, "org_name"},
			{"no end user", `{"org_name": "Acme Lending", "delivery": {"email": "a@example.com"}}`, domain.CodeMissingFields, "end_user_id"},
			{"unknown job", `{"org_name": "Acme Lending", "end_user_id": "u1", "features": ["telepathy"], "delivery": {"email": "a@example.com"}}`, domain.CodeInvalidFields, "telepathy"},
			{"unknown employer", `{"org_name": "Acme Lending", "end_user_id": "u1", "employer_id": "` + domain.NewID() + `", "delivery": {"email": "a@example.com"}}`, domain.CodeInvalidFields, "employer_id"},
			{"switch without target", `{"org_name": "Acme Lending", "end_user_id": "u1", "required_jobs": ["direct_deposit_switch"], "delivery": {"email": "a@example.com"}}`, domain.CodeMissingFields, "allocation.targets"},
			{"platform matching", `{"org_name": "Acme Lending", "end_user_id": "u1", "end_user": {}, "delivery": {"email": "a@example.com"}}`, domain.CodeInvalidFields, "end_user"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.post("/v1/link_orders", tc.body)
				res.wantError(t, 400, typeInvalid, tc.code)
				if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, tc.mention) {
					t.Errorf("message %q does not mention %q", msg, tc.mention)
				}
			})
		}
		if n := len(f.get("/v1/link_orders").list(t)); n != 0 {
			t.Errorf("%d orders stored from refused requests", n)
		}
		if len(sender.messages()) != 0 {
			t.Errorf("refused requests sent %d messages", len(sender.messages()))
		}
		f.get("/v1/link_orders/"+domain.NewID()).wantError(t, 404, typeNotFound, domain.CodeLinkOrderNotFound)
		f.get("/v1/link_orders/not-an-id").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		f.get("/v1/link_orders?status=lost").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
	})
}

// TestLinkOrderLifecycle follows an order through created → sent →
// opened → completed: the messages hold the short link and no link
// token, the link opens Link on the same token however often (and on
// whatever device) it is followed, Link's login completes the order
// once, each step sends its webhook, and the link then says the order is
// done.
func TestLinkOrderLifecycle(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, rcv := orderFixture(t, db)
		tz := zoneAt(f.clock.Now(), 10, 15)
		res := f.post("/v1/link_orders", orderBody("order-user-1", tz, bothChannels))
		if res.status != 201 {
			t.Fatalf("create: %d %s", res.status, res.raw)
		}
		o := res.data(t)
		id, link := o["id"].(string), o["url"].(string)
		if o["status"] != "created" || o["reminders_left"] != float64(2) || o["time_zone"] != tz || o["qr_code_url"] != link+"/qr" ||
			!strings.HasPrefix(link, f.http.URL+"/o/") || len(strings.TrimPrefix(link, f.http.URL+"/o/")) != 22 {
			t.Errorf("created %s", res.raw)
		}
		expires, _ := time.Parse(time.RFC3339, o["expires_at"].(string))
		if d := expires.Sub(f.clock.Now()); d < 71*time.Hour || d > 72*time.Hour {
			t.Errorf("expires_at %v is not 72 hours away", expires)
		}
		deliveries := o["deliveries"].([]any)
		if len(deliveries) != 2 || fmt.Sprint(deliveries[0].(map[string]any)["to"]) != "j***@example.com" ||
			fmt.Sprint(deliveries[1].(map[string]any)["to"]) != "***-***-1234" {
			t.Errorf("deliveries %v", deliveries)
		}

		waitFor(t, "the order to be sent on both channels", func() bool { return len(sender.messages()) == 2 })
		for _, m := range sender.messages() {
			if !strings.Contains(m.Text, link) || strings.Contains(m.Text+m.HTML+m.Subject, "lt_") || m.FromName != "Acme Lending" || m.Ref != id {
				t.Errorf("%s message: %+v", m.Channel, m)
			}
			if (m.Channel == domain.ChannelEmail) != (m.To == "jane.doe@example.com") || (m.Channel == domain.ChannelSMS && m.To != "+15552011234") {
				t.Errorf("%s message to %q", m.Channel, m.To)
			}
		}
		waitFor(t, "status sent", func() bool { return f.order(id)["status"] == "sent" })
		for _, d := range f.order(id)["deliveries"].([]any) {
			if d := d.(map[string]any); d["status"] != "sent" || d["sent_at"] == nil {
				t.Errorf("delivery %v", d)
			}
		}
		if list := f.get("/v1/link_orders?end_user_id=order-user-1&status=sent").list(t); len(list) != 1 || list[0]["id"] != id {
			t.Errorf("filtered list %v", list)
		}
		if list := f.get("/v1/link_orders?status=opened").list(t); len(list) != 0 {
			t.Errorf("status=opened lists %v", list)
		}

		// Resent: both channels again, the same link.
		if r := f.post("/v1/link_orders/"+id+"/resend", ``); r.status != 200 {
			t.Fatalf("resend: %d %s", r.status, r.raw)
		}
		waitFor(t, "the resend", func() bool { return len(sender.messages()) == 4 })

		// Fetched (a mail scanner, a link preview): the page, and nothing
		// changes until it posts back.
		if st, _, page := fetchLink(t, http.MethodGet, link); st != 200 || !strings.Contains(page, `id="open-form"`) ||
			!strings.Contains(page, `src="/o/open.js"`) || strings.Contains(page, "lt_") {
			t.Errorf("the link's page: %d %s", st, page)
		}
		if got := f.order(id)["status"]; got != "sent" {
			t.Errorf("status %v after a fetch of the link", got)
		}
		// Opened twice (two devices): the same Link session's token.
		status, loc, _ := follow(t, link)
		if status != http.StatusSeeOther {
			t.Fatalf("open: %d", status)
		}
		token := tokenOf(t, loc)
		if _, again, _ := follow(t, link); tokenOf(t, again) != token {
			t.Errorf("a second opening got another token")
		}
		if got := f.order(id)["status"]; got != "opened" {
			t.Errorf("status %v after opening", got)
		}
		if st, sess := f.linkAPI("GET", "session", token, ""); st != 200 || sess["org_name"] != "Acme Lending" {
			t.Errorf("session %d %v", st, sess)
		}
		// Link completes: the login connects an account for the end user.
		st, login := f.linkAPI("POST", "login", token, `{"platform_id": "`+p.ID+`", "username": "`+sandbox.UserGood+`", "password": "`+sandbox.Password+`"}`)
		if st != 200 || login["account_id"] == nil {
			t.Fatalf("login %d %v", st, login)
		}
		done := f.order(id)
		if done["status"] != "completed" || done["account_id"] != login["account_id"] || done["reminders_left"] != float64(0) {
			t.Errorf("after Link: %v", done)
		}
		waitFor(t, "sent, opened and completed webhooks", func() bool { return len(orderEvents(t, rcv, id)) == 3 })
		if got := fmt.Sprint(sorted(orderEvents(t, rcv, id))); got != "[link_order.completed link_order.opened link_order.sent]" {
			t.Errorf("events %s", got)
		}
		// The link now says plainly that it is done; the order cannot be
		// resent or canceled.
		if st, _, page := follow(t, link); st != 200 || !strings.Contains(page, "all set") || !strings.Contains(page, `data-status="completed"`) {
			t.Errorf("completed link: %d %s", st, page)
		}
		f.post("/v1/link_orders/"+id+"/resend", ``).wantError(t, 400, typeInvalid, domain.CodeLinkOrderClosed)
		f.post("/v1/link_orders/"+id+"/cancel", ``).wantError(t, 400, typeInvalid, domain.CodeLinkOrderClosed)

		// A link no order has.
		if st, _, page := follow(t, f.http.URL+"/o/AAAAAAAAAAAAAAAAAAAAAA"); st != 404 || !strings.Contains(page, "not valid") {
			t.Errorf("unknown link: %d %s", st, page)
		}
		// The addresses are nowhere in the database in the clear.
		if hits := searchDatabase(t, db, []string{"jane.doe@example.com", "5552011234"}); len(hits) > 0 {
			t.Errorf("addresses stored in the clear: %v", hits)
		}
	})
}

// TestLinkOrderTenantIsolation: another customer's order is not found,
// whatever the call.
func TestLinkOrderTenantIsolation(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, _, _ := orderFixture(t, db)
		id := f.post("/v1/link_orders", orderBody("iso-user", "America/Chicago", `, "delivery": {"email": "a@example.com"}`)).data(t)["id"].(string)
		other, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		as := []string{"x-api-secret", other.Secret}
		f.get("/v1/link_orders/"+id, as...).wantError(t, 404, typeNotFound, domain.CodeLinkOrderNotFound)
		f.request("POST", "/v1/link_orders/"+id+"/resend", nil, as...).wantError(t, 404, typeNotFound, domain.CodeLinkOrderNotFound)
		f.request("POST", "/v1/link_orders/"+id+"/cancel", nil, as...).wantError(t, 404, typeNotFound, domain.CodeLinkOrderNotFound)
		if list := f.get("/v1/link_orders", as...).list(t); len(list) != 0 {
			t.Errorf("another customer lists %v", list)
		}
		if got := f.order(id)["status"]; got == "canceled" {
			t.Errorf("another customer canceled the order")
		}
	})
}

// TestLinkOrderRemindersAndExpiry moves the clock over an unopened
// order's 72 hours: a reminder at 24 and at 48 hours, each sent once on
// each channel, then the expiry, its webhook, and a link that says the
// order expired.
func TestLinkOrderRemindersAndExpiry(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, rcv := orderFixture(t, db)
		tz := zoneAt(f.clock.Now(), 10, 15)
		o := f.post("/v1/link_orders", orderBody("reminded-user", tz, bothChannels)).data(t)
		id, link := o["id"].(string), o["url"].(string)
		waitFor(t, "the link", func() bool { return len(sender.messages()) == 2 })
		reminders := func() (n int) {
			for _, m := range sender.messages() {
				if strings.Contains(m.Text, "eminder") {
					n++
				}
			}
			return n
		}
		f.clock.advance(23 * time.Hour)
		time.Sleep(400 * time.Millisecond) // several sweeps: nothing is due yet
		if n := reminders(); n != 0 {
			t.Fatalf("%d reminders before their time", n)
		}
		f.clock.advance(time.Hour + time.Second)
		waitFor(t, "the first reminder on both channels", func() bool { return reminders() == 2 })
		if got := f.order(id)["reminders_left"]; got != float64(1) {
			t.Errorf("reminders_left %v after one", got)
		}
		f.clock.advance(24 * time.Hour)
		waitFor(t, "the second reminder", func() bool { return reminders() == 4 })
		time.Sleep(400 * time.Millisecond) // more sweeps: none sends a reminder twice
		if n := reminders(); n != 4 {
			t.Errorf("%d reminder messages, want 2 on each channel", n)
		}
		if got := f.order(id)["reminders_left"]; got != float64(0) {
			t.Errorf("reminders_left %v after both", got)
		}
		for _, m := range sender.messages() {
			if strings.Contains(m.Text, "eminder") && (!strings.Contains(m.Text, link) || strings.Contains(m.Text, "lt_")) {
				t.Errorf("reminder %q", m.Text)
			}
		}
		f.clock.advance(24 * time.Hour)
		waitFor(t, "the expiry", func() bool { return f.order(id)["status"] == "expired" })
		waitFor(t, "the expired webhook", func() bool { return len(orderEvents(t, rcv, id)) == 2 })
		if got := fmt.Sprint(sorted(orderEvents(t, rcv, id))); got != "[link_order.expired link_order.sent]" {
			t.Errorf("events %s", got)
		}
		if st, _, page := follow(t, link); st != http.StatusGone || !strings.Contains(page, "This link has expired") {
			t.Errorf("expired link: %d %s", st, page)
		}
		if len(sender.messages()) != 6 {
			t.Errorf("%d messages, want the link and two reminders on two channels", len(sender.messages()))
		}
	})
}

// TestLinkOrderCancelStopsReminders: a canceled order sends nothing more,
// and its link says it was canceled.
func TestLinkOrderCancelStopsReminders(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, rcv := orderFixture(t, db)
		tz := zoneAt(f.clock.Now(), 10, 15)
		o := f.post("/v1/link_orders", orderBody("canceled-user", tz, `, "delivery": {"email": "c@example.com"}, "reminders": 3`)).data(t)
		id, link := o["id"].(string), o["url"].(string)
		waitFor(t, "the link", func() bool { return len(sender.messages()) == 1 })
		c := f.post("/v1/link_orders/"+id+"/cancel", ``)
		if c.status != 200 || c.data(t)["status"] != "canceled" || c.data(t)["reminders_left"] != float64(0) {
			t.Fatalf("cancel: %d %s", c.status, c.raw)
		}
		if again := f.post("/v1/link_orders/"+id+"/cancel", ``); again.status != 200 || again.data(t)["status"] != "canceled" {
			t.Errorf("second cancel: %d %s", again.status, again.raw)
		}
		f.post("/v1/link_orders/"+id+"/resend", ``).wantError(t, 400, typeInvalid, domain.CodeLinkOrderClosed)
		f.clock.advance(19 * time.Hour)
		time.Sleep(500 * time.Millisecond)
		if n := len(sender.messages()); n != 1 {
			t.Errorf("%d messages after the cancel", n-1)
		}
		if st, _, page := follow(t, link); st != http.StatusGone || !strings.Contains(page, "canceled") {
			t.Errorf("canceled link: %d %s", st, page)
		}
		waitFor(t, "the canceled webhook", func() bool { return len(orderEvents(t, rcv, id)) == 2 })
		if got := fmt.Sprint(sorted(orderEvents(t, rcv, id))); got != "[link_order.canceled link_order.sent]" {
			t.Errorf("events %s", got)
		}
		if list := f.get("/v1/link_orders?status=canceled").list(t); len(list) != 1 || list[0]["id"] != id {
			t.Errorf("status=canceled lists %v", list)
		}
	})
}

// TestLinkOrderQuietHours: an order made at night in its time zone sends
// nothing until 08:00 there.
func TestLinkOrderQuietHours(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, _ := orderFixture(t, db)
		now := f.clock.Now()
		tz := zoneAt(now, 2, 2) // 02:xx there: six hours of quiet left
		o := f.post("/v1/link_orders", orderBody("night-user", tz, `, "delivery": {"email": "n@example.com"}`)).data(t)
		id := o["id"].(string)
		time.Sleep(500 * time.Millisecond)
		if n := len(sender.messages()); n != 0 {
			t.Fatalf("%d messages sent in the quiet hours", n)
		}
		if got := f.order(id); got["status"] != "created" || got["deliveries"].([]any)[0].(map[string]any)["status"] != "queued" {
			t.Errorf("at night: %v", got)
		}
		f.clock.advance(5 * time.Hour) // 07:xx: still quiet
		time.Sleep(500 * time.Millisecond)
		if n := len(sender.messages()); n != 0 {
			t.Fatalf("%d messages sent at 07:00", n)
		}
		f.clock.advance(time.Hour) // 08:xx
		waitFor(t, "the link at 08:00", func() bool { return len(sender.messages()) == 1 })
		loc, _ := time.LoadLocation(tz)
		if h := f.clock.Now().In(loc).Hour(); h < 8 || h >= 21 {
			t.Errorf("sent at %d:00 local", h)
		}
		waitFor(t, "status sent", func() bool { return f.order(id)["status"] == "sent" })
	})
}

// TestLinkOrderDeliveryFailures: a refusal for good shows on its channel
// at once with the reason; a failure that may pass is tried a few times,
// then shows; the other channel is sent all the same.
func TestLinkOrderDeliveryFailures(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, _ := orderFixture(t, db)
		var smsTries int
		sender.setRefuse(func(m domain.OutboundMessage) error {
			if m.Channel == domain.ChannelEmail {
				return fmt.Errorf("550 mailbox unavailable: %w", domain.ErrDeliveryRefused)
			}
			smsTries++
			return errors.New("provider answered 503")
		})
		tz := zoneAt(f.clock.Now(), 10, 15)
		id := f.post("/v1/link_orders", orderBody("failing-user", tz, bothChannels)).data(t)["id"].(string)
		byChannel := func() map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, d := range f.order(id)["deliveries"].([]any) {
				d := d.(map[string]any)
				out[d["channel"].(string)] = d
			}
			return out
		}
		waitFor(t, "both channels to fail", func() bool {
			d := byChannel()
			return d["email"]["status"] == "failed" && d["sms"]["status"] == "failed"
		})
		d := byChannel()
		if !strings.Contains(fmt.Sprint(d["email"]["failure_reason"]), "550 mailbox unavailable") ||
			!strings.Contains(fmt.Sprint(d["sms"]["failure_reason"]), "provider answered 503") {
			t.Errorf("reasons %v", d)
		}
		sender.mu.Lock()
		tries := smsTries
		sender.mu.Unlock()
		if tries != 4 {
			t.Errorf("the text was tried %d times, want 4", tries)
		}
		if got := f.order(id)["status"]; got != "created" {
			t.Errorf("status %v with nothing delivered", got)
		}
		// A resend after the fix goes through on both.
		sender.setRefuse(nil)
		f.post("/v1/link_orders/"+id+"/resend", ``)
		waitFor(t, "both channels sent", func() bool {
			d := byChannel()
			return d["email"]["status"] == "sent" && d["sms"]["status"] == "sent" && d["email"]["failure_reason"] == nil
		})
	})
}

// TestLinkOrderQRCode decodes the order's QR code with zbarimg (Debian's
// zbar-tools) back to the order's link; the SVG is the same symbol drawn
// as paths.
func TestLinkOrderQRCode(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, _, _ := orderFixture(t, db)
		o := f.post("/v1/link_orders", orderBody("qr-user", "America/New_York", `, "delivery": {"email": "q@example.com"}`)).data(t)
		link, qrURL := o["url"].(string), o["qr_code_url"].(string)
		get := func(u string) (*http.Response, []byte) {
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp, b
		}
		resp, png := get(qrURL)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(string(png), "\x89PNG") {
			t.Fatalf("PNG: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		resp, svg := get(qrURL + "?format=svg")
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(string(svg), "<svg") {
			t.Errorf("SVG: %d %s %.40s", resp.StatusCode, resp.Header.Get("Content-Type"), svg)
		}
		if resp, _ := get(f.http.URL + "/o/AAAAAAAAAAAAAAAAAAAAAA/qr"); resp.StatusCode != 404 {
			t.Errorf("unknown link's code: %d", resp.StatusCode)
		}
		bin := "/usr/bin/zbarimg"
		if _, err := os.Stat(bin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("zbarimg (zbar-tools) is missing: %v", err)
			}
			t.Skip("zbarimg (zbar-tools) is not installed")
		}
		path := filepath.Join(t.TempDir(), "order.png")
		if err := os.WriteFile(path, png, 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(bin, "--quiet", "--raw", path).Output()
		if err != nil {
			t.Fatalf("zbarimg: %v", err)
		}
		if got := strings.TrimSpace(string(out)); got != link {
			t.Errorf("the QR code reads %q, want %q", got, link)
		}
	})
}

// TestLinkOrdersGraphQL: linkOrderCreate and linkOrderCancel with their
// payloads and userErrors, and the linkOrders connection, over the same
// service as REST.
func TestLinkOrdersGraphQL(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, sender, _ := orderFixture(t, db)
		const create = `mutation($input: LinkOrderCreateInput!) { linkOrderCreate(input: $input) {
			linkOrder { id status endUserId url qrCodeUrl remindersLeft timeZone accountId deliveries { channel to status sentAt failureReason } }
			userErrors { field message code } clientMutationId } }`
		refused := f.gql(create, map[string]any{"input": map[string]any{"orgName": "Acme Lending", "endUserId": "gql-user",
			"phone": "+15552011234", "clientMutationId": "m1"}}).ok(t)["linkOrderCreate"].(map[string]any)
		errs := refused["userErrors"].([]any)
		if refused["linkOrder"] != nil || len(errs) != 1 || fmt.Sprint(errs[0].(map[string]any)["field"]) != "[input smsConsent]" ||
			errs[0].(map[string]any)["code"] != domain.CodeInvalidFields || refused["clientMutationId"] != "m1" {
			t.Errorf("a text without consent: %v", refused)
		}
		refused = f.gql(create, map[string]any{"input": map[string]any{"orgName": "Acme Lending", "endUserId": "gql-user",
			"email": "nope@"}}).ok(t)["linkOrderCreate"].(map[string]any)
		if errs := refused["userErrors"].([]any); len(errs) != 1 || fmt.Sprint(errs[0].(map[string]any)["field"]) != "[input email]" {
			t.Errorf("a bad e-mail: %v", refused)
		}
		tz := zoneAt(f.clock.Now(), 10, 15)
		made := f.gql(create, map[string]any{"input": map[string]any{"orgName": "Acme Lending", "endUserId": "gql-user",
			"features": []string{"income"}, "email": "gql@example.com", "reminders": 1, "timeZone": tz}}).ok(t)["linkOrderCreate"].(map[string]any)
		o, _ := made["linkOrder"].(map[string]any)
		if o == nil || o["status"] != "created" || o["remindersLeft"] != float64(1) || o["accountId"] != nil ||
			fmt.Sprint(o["deliveries"]) != "[map[channel:email failureReason:<nil> sentAt:<nil> status:queued to:g***@example.com]]" {
			t.Fatalf("created %v", made)
		}
		id := o["id"].(string)
		if rest := f.order(id); rest["url"] != o["url"] || rest["qr_code_url"] != o["qrCodeUrl"] {
			t.Errorf("REST shows %v, GraphQL %v", rest, o)
		}
		waitFor(t, "the e-mail", func() bool { return len(sender.messages()) == 1 })
		waitFor(t, "status sent", func() bool { return f.order(id)["status"] == "sent" })
		list := f.gql(`{ linkOrders(first: 10, endUserId: "gql-user", status: sent) { edges { cursor node { id status } } pageInfo { hasNextPage } } }`, nil)
		edges := list.ok(t)["linkOrders"].(map[string]any)["edges"].([]any)
		if len(edges) != 1 || edges[0].(map[string]any)["node"].(map[string]any)["id"] != id {
			t.Errorf("linkOrders %s", list.raw)
		}
		const cancel = `mutation($id: ID!) { linkOrderCancel(input: {id: $id}) { linkOrder { id status remindersLeft } userErrors { field code } } }`
		done := f.gql(cancel, map[string]any{"id": id}).ok(t)["linkOrderCancel"].(map[string]any)
		if done["linkOrder"].(map[string]any)["status"] != "canceled" || len(done["userErrors"].([]any)) != 0 {
			t.Errorf("cancel %v", done)
		}
		missing := f.gql(cancel, map[string]any{"id": domain.NewID()}).ok(t)["linkOrderCancel"].(map[string]any)
		if errs := missing["userErrors"].([]any); missing["linkOrder"] != nil || len(errs) != 1 || errs[0].(map[string]any)["code"] != domain.CodeLinkOrderNotFound {
			t.Errorf("cancel of no order: %v", missing)
		}
		if got := f.gql(`query($id: ID!) { linkOrder(id: $id) { status } }`, map[string]any{"id": id}).ok(t)["linkOrder"]; fmt.Sprint(got) != "map[status:canceled]" {
			t.Errorf("linkOrder %v", got)
		}
	})
}

// TestLinkOrderReminderOnceUnderConcurrentSweeps: sweeps racing each
// other (as on several instances, or a sweep retried after a crash) queue
// a due reminder once: the order's version admits one writer, and the
// message job's arguments are unique.
func TestLinkOrderReminderOnceUnderConcurrentSweeps(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		sender := &recordingSender{}
		f := newFixture(t, db, func(s *fixtureSetup) { s.sender = sender }) // the queue's own sweep: once a minute
		tz := zoneAt(f.clock.Now(), 10, 15)
		id := f.post("/v1/link_orders", orderBody("raced-user", tz, bothChannels)).data(t)["id"].(string)
		waitFor(t, "the link", func() bool { return len(sender.messages()) == 2 })
		f.clock.advance(24*time.Hour + time.Second)
		var wg sync.WaitGroup
		errs := make(chan error, 6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := f.orders.Sweep(context.Background()); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("sweep: %v", err)
		}
		var jobs int
		if err := db.Get(&jobs, `SELECT COUNT(*) FROM river_job WHERE kind = 'link_order_message'`); err != nil {
			t.Fatal(err)
		}
		if jobs != 4 {
			t.Errorf("%d message jobs, want the link and one reminder on each of two channels", jobs)
		}
		waitFor(t, "the reminders", func() bool { return len(sender.messages()) == 4 })
		time.Sleep(300 * time.Millisecond)
		if n := len(sender.messages()); n != 4 {
			t.Errorf("%d messages", n)
		}
		if got := f.order(id)["reminders_left"]; got != float64(1) {
			t.Errorf("reminders_left %v", got)
		}
	})
}

// TestLinkOrderCompletesWithDocuments: documents submitted in Link for
// the order's end user complete it too, with no account.
func TestLinkOrderCompletesWithDocuments(t *testing.T) {
	pdf, _ := testPaystubPDF(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f, _, rcv := orderFixture(t, db)
		o := f.post("/v1/link_orders", orderBody("uploader", "America/New_York", `, "delivery": {"email": "u@example.com"}`)).data(t)
		id, link := o["id"].(string), o["url"].(string)
		_, loc, _ := follow(t, link)
		token := tokenOf(t, loc)
		if status, out := f.upload(token, "paystub", uploadFile{"march.pdf", pdf}); status != 200 {
			t.Fatalf("upload: %d %v", status, out)
		}
		done := f.order(id)
		if done["status"] != "completed" || done["account_id"] != nil {
			t.Errorf("after the upload: %v", done)
		}
		waitFor(t, "the completed webhook", func() bool { return slices.Contains(orderEvents(t, rcv, id), "link_order.completed") })
		if st, _, page := follow(t, link); st != 200 || !strings.Contains(page, "all set") {
			t.Errorf("the completed link: %d %s", st, page)
		}
	})
}
