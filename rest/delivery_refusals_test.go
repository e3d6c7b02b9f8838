package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/notify"
	"payline/notify/twilio"
	"payline/storage"
	"payline/storage/storagetest"
)

// refusingTwilio speaks Twilio's Messages API and refuses as its
// documentation says: +15005550001 is not a valid number (21211),
// +15005550004 replied STOP (21610); others are queued.
type refusingTwilio struct {
	*httptest.Server
	sid, token string
	mu         sync.Mutex
	asked      []string // the To of every request
}

func newRefusingTwilio(t *testing.T) *refusingTwilio {
	a := &refusingTwilio{sid: "AC" + strings.Repeat("fedcba9876543210", 2), token: "refusals-auth-token"}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if u, p, ok := r.BasicAuth(); !ok || u != a.sid || p != a.token || r.URL.Path != "/2010-04-01/Accounts/"+a.sid+"/Messages.json" {
			w.WriteHeader(401)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": 20003, "message": "Authentication Error - invalid username",
				"more_info": "https://www.twilio.com/docs/errors/20003", "status": 401})
			return
		}
		_ = r.ParseForm()
		to := r.PostForm.Get("To")
		a.mu.Lock()
		a.asked = append(a.asked, to)
		a.mu.Unlock()
		refuse := func(code int, message string) {
			w.WriteHeader(400)
			_ = json.NewEncoder(w).Encode(map[string]any{"code": code, "message": message,
				"more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", code), "status": 400})
		}
		switch to {
		case "+15005550001":
			refuse(21211, "The 'To' number "+to+" is not a valid phone number.")
		case "+15005550004":
			refuse(21610, "Attempt to send to unsubscribed recipient")
		default:
			w.WriteHeader(201)
			_ = json.NewEncoder(w).Encode(map[string]any{"sid": "SM" + strings.Repeat("0", 32), "status": "queued", "to": to})
		}
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *refusingTwilio) askedFor(to string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, x := range a.asked {
		if x == to {
			n++
		}
	}
	return n
}

// TestDeliveryRefusalsShowOnOrder (issue 48's done-when: "a wrong SMTP
// password or an SMS refusal shows on the order with a reason, and
// nothing else fails"), both databases, against the real SMTP server
// (aiosmtpd, refusing the password with 535) and a server speaking
// Twilio's API: each refusal shows on its order's channel in words a
// customer can read, the number masked; Twilio's 21610 is remembered, so
// the next order to that number is refused without asking Twilio; and
// the API goes on answering.
func TestDeliveryRefusalsShowOnOrder(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		smtpd := startMailServer(t)
		api := newRefusingTwilio(t)
		store := storage.NewMessageStore(db)
		sender, err := notify.NewSender(notify.Config{Mode: domain.ModeSandbox,
			SMTPURL:  fmt.Sprintf("smtp://payline:not-the-password@127.0.0.1:%d", smtpd.port),
			SMTPFrom: "links@payline.example",
			Twilio:   twilio.Config{AccountSID: api.sid, AuthToken: api.token, From: "+15005550006", BaseURL: api.URL},
			Outbox:   store, OptOuts: store})
		if err != nil {
			t.Fatal(err)
		}
		f := newFixture(t, db, func(s *fixtureSetup) { s.sender, s.orderSweep = sender, 100*time.Millisecond })
		tz := zoneAt(f.clock.Now(), 10, 15)
		byChannel := func(id string) map[string]map[string]any {
			out := map[string]map[string]any{}
			for _, d := range f.order(id)["deliveries"].([]any) {
				d := d.(map[string]any)
				out[d["channel"].(string)] = d
			}
			return out
		}
		failed := func(id string, channels ...string) map[string]map[string]any {
			t.Helper()
			waitFor(t, fmt.Sprint(channels, " to fail"), func() bool {
				d := byChannel(id)
				for _, c := range channels {
					if d[c]["status"] != "failed" {
						return false
					}
				}
				return true
			})
			return byChannel(id)
		}

		id := f.post("/v1/link_orders", orderBody("refused-user", tz,
			`, "delivery": {"email": "sam.rivera@example.com", "phone": "+15005550001"}, "sms_consent": true`)).data(t)["id"].(string)
		d := failed(id, "email", "sms")
		if r := fmt.Sprint(d["email"]["failure_reason"]); !strings.Contains(r, "the SMTP server refused the login: 535") {
			t.Errorf("e-mail's reason %q, want the server's 535", r)
		}
		if r := fmt.Sprint(d["sms"]["failure_reason"]); !strings.Contains(r, "is not a valid phone number") || !strings.Contains(r, "21211") ||
			strings.Contains(r, "+15005550001") {
			t.Errorf("text's reason %q, want Twilio's 21211 with the number masked", r)
		}
		if n := len(smtpd.mails(t)); n != 0 {
			t.Errorf("%d mails arrived without a login", n)
		}

		id = f.post("/v1/link_orders", orderBody("stopped-user", tz, `, "delivery": {"phone": "+15005550004"}, "sms_consent": true`)).data(t)["id"].(string)
		if r := fmt.Sprint(failed(id, "sms")["sms"]["failure_reason"]); !strings.Contains(r, "replied STOP") {
			t.Errorf("21610's reason %q", r)
		}
		asked := api.askedFor("+15005550004")
		id = f.post("/v1/link_orders", orderBody("stopped-again", tz, `, "delivery": {"phone": "+15005550004"}, "sms_consent": true`)).data(t)["id"].(string)
		if r := fmt.Sprint(failed(id, "sms")["sms"]["failure_reason"]); !strings.Contains(r, "replied STOP") {
			t.Errorf("the remembered opt-out's reason %q", r)
		}
		if api.askedFor("+15005550004") != asked {
			t.Error("Twilio was asked again for a number that had opted out")
		}

		// Nothing else fails: the API and another order go on.
		if res := f.get("/v1/link_orders?limit=5"); res.status != 200 {
			t.Errorf("listing orders: %d %s", res.status, res.raw)
		}
		id = f.post("/v1/link_orders", orderBody("fine-user", tz, `, "delivery": {"phone": "+15552019876"}, "sms_consent": true`)).data(t)["id"].(string)
		waitFor(t, "a good number's text sent", func() bool { return byChannel(id)["sms"]["status"] == "sent" })
	})
}
