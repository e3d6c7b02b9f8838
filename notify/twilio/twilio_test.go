package twilio_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/notify/sms"
	"payline/notify/twilio"
)

const (
	sid   = "AC0123456789abcdef0123456789abcdef"
	token = "9f86d081884c7d659a2feaa0c55ad015"
	from  = "+15005550006"
)

// fakeTwilio speaks the requests and answers of Twilio's Messages
// resource as its documentation gives them: basic auth with the account
// SID and auth token, a form body, 201 with the Message resource, and
// error bodies with code, message, more_info and status. Numbers it
// refuses are those Twilio's documentation and test credentials use:
// +15005550001 is invalid (21211), +15005550004 has replied STOP (21610).
type fakeTwilio struct {
	*httptest.Server
	mu       sync.Mutex
	requests []url.Values
	down     bool
}

func newFakeTwilio(t *testing.T) *fakeTwilio {
	f := &fakeTwilio{}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func (f *fakeTwilio) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func twilioError(w http.ResponseWriter, status, code int, message string) {
	writeJSON(w, status, map[string]any{"code": code, "message": message,
		"more_info": fmt.Sprintf("https://www.twilio.com/docs/errors/%d", code), "status": status})
}

func (f *fakeTwilio) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/2010-04-01/Accounts/"+sid+"/Messages.json" {
		twilioError(w, 404, 20404, "The requested resource "+r.URL.Path+" was not found")
		return
	}
	if u, p, ok := r.BasicAuth(); !ok || u != sid || p != token {
		writeJSON(w, 401, map[string]any{"code": 20003, "detail": "Your AccountSid or AuthToken was incorrect.",
			"message": "Authentication Error - invalid username", "more_info": "https://www.twilio.com/docs/errors/20003", "status": 401})
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		twilioError(w, 400, 20001, "unexpected Content-Type "+ct)
		return
	}
	body, _ := io.ReadAll(r.Body)
	form, err := url.ParseQuery(string(body))
	if err != nil {
		twilioError(w, 400, 20001, "malformed form")
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, form)
	down := f.down
	f.mu.Unlock()
	to := form.Get("To")
	switch {
	case down:
		twilioError(w, 503, 20500, "Service Unavailable")
	case to == "":
		twilioError(w, 400, 21604, "A 'To' phone number is required.")
	case form.Get("From") == "" && form.Get("MessagingServiceSid") == "":
		twilioError(w, 400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message")
	case form.Get("Body") == "":
		twilioError(w, 400, 21602, "Message body is required.")
	case to == "+15005550001":
		twilioError(w, 400, 21211, "The 'To' number "+to+" is not a valid phone number.")
	case to == "+15005550004":
		twilioError(w, 400, 21610, "Attempt to send to unsubscribed recipient")
	default:
		now := time.Now().UTC().Format(time.RFC1123Z)
		msid := "SM" + strings.Repeat("a", 31) + fmt.Sprint(len(f.requests)%10)
		writeJSON(w, 201, map[string]any{
			"account_sid": sid, "api_version": "2010-04-01", "body": form.Get("Body"), "date_created": now, "date_sent": nil,
			"date_updated": now, "direction": "outbound-api", "error_code": nil, "error_message": nil, "from": form.Get("From"),
			"messaging_service_sid": nil, "num_media": "0", "num_segments": "1", "price": nil, "price_unit": "USD",
			"sid": msid, "status": "queued", "to": to,
			"uri": "/2010-04-01/Accounts/" + sid + "/Messages/" + msid + ".json",
		})
	}
}

// optOuts is an in-memory domain.MessageOptOuts (storage's is tested
// with storage).
type optOuts struct {
	mu  sync.Mutex
	out map[string]bool
}

func (o *optOuts) OptedOut(_ context.Context, mode domain.Mode, phone string) (bool, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.out[string(mode)+phone], nil
}

func (o *optOuts) SetOptedOut(_ context.Context, mode domain.Mode, phone string, out bool, _ domain.OptOutSource, _ time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.out == nil {
		o.out = map[string]bool{}
	}
	o.out[string(mode)+phone] = out
	return nil
}

func client(t *testing.T, f *fakeTwilio, authToken string) *twilio.Client {
	t.Helper()
	c, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: authToken, From: from,
		StatusCallback: "https://payline.example/v1/hooks/twilio/inbound", BaseURL: f.URL})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func text(to string) domain.OutboundMessage {
	return domain.OutboundMessage{Channel: domain.ChannelSMS, To: to, Text: "Acme Lending asks you to connect your payroll: https://payline.example/l/AbC123 Reply STOP to opt out.",
		FromName: "Acme Lending", CustomerID: "c1", Mode: domain.ModeProduction, Ref: "lo_1"}
}

func TestTwilioSendsText(t *testing.T) {
	f := newFakeTwilio(t)
	s := sms.NewSender(client(t, f, token), &optOuts{}, nil)
	sent, err := s.Send(context.Background(), text("+15558675310"))
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if !strings.HasPrefix(sent.ProviderID, "SM") || sent.SentAt.IsZero() {
		t.Errorf("sent = %+v, want Twilio's message sid", sent)
	}
	got := f.requests[0]
	want := url.Values{"To": {"+15558675310"}, "From": {from}, "Body": {text("").Text},
		"StatusCallback": {"https://payline.example/v1/hooks/twilio/inbound"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("form %v, want %v", got, want)
	}
}

func TestTwilioMessagingService(t *testing.T) {
	f := newFakeTwilio(t)
	c, err := twilio.New(twilio.Config{AccountSID: sid, AuthToken: token, MessagingServiceSID: "MG0123456789abcdef0123456789abcdef", BaseURL: f.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), sms.Text{To: "+15558675310", Body: "hi"}); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[0]; got.Get("MessagingServiceSid") == "" || got.Has("From") {
		t.Errorf("form %v, want MessagingServiceSid and no From", got)
	}
}

func TestTwilioRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, to, token string
		want            string
		optedOut        bool
	}{
		{"invalid number", "+15005550001", token, "is not a valid phone number (Twilio error 21211", false},
		{"unsubscribed", "+15005550004", token, "the person replied STOP", true},
		{"wrong auth token", "+15558675310", "not-the-token", "refused Payline's credentials (Twilio error 20003", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeTwilio(t)
			o := &optOuts{}
			s := sms.NewSender(client(t, f, tc.token), o, nil)
			_, err := s.Send(context.Background(), text(tc.to))
			if !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want a refusal with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), tc.to) || strings.Contains(err.Error(), tc.token) {
				t.Errorf("err names the number or the token: %v", err)
			}
			if out, _ := o.OptedOut(context.Background(), domain.ModeProduction, tc.to); out != tc.optedOut {
				t.Errorf("opted out = %v, want %v", out, tc.optedOut)
			}
			if !tc.optedOut {
				return
			}
			// Twilio's own 21610 was recorded: the next text is refused
			// without asking Twilio.
			before := f.count()
			if _, err := s.Send(context.Background(), text(tc.to)); !errors.Is(err, sms.ErrOptedOut) {
				t.Errorf("second send: err = %v, want ErrOptedOut", err)
			}
			if f.count() != before {
				t.Error("the opted-out number was sent to Twilio again")
			}
		})
	}
}

func TestTwilioUnavailableIsRetryable(t *testing.T) {
	f := newFakeTwilio(t)
	f.down = true
	_, err := sms.NewSender(client(t, f, token), &optOuts{}, nil).Send(context.Background(), text("+15558675310"))
	if err == nil || errors.Is(err, domain.ErrDeliveryRefused) {
		t.Fatalf("err = %v, want an error worth retrying", err)
	}
	f.Close()
	_, err = sms.NewSender(client(t, f, token), &optOuts{}, nil).Send(context.Background(), text("+15558675310"))
	if err == nil || errors.Is(err, domain.ErrDeliveryRefused) {
		t.Fatalf("server gone: err = %v, want an error worth retrying", err)
	}
}

func TestSenderRefusesOptedOutWithoutProvider(t *testing.T) {
	f := newFakeTwilio(t)
	o := &optOuts{}
	_ = o.SetOptedOut(context.Background(), domain.ModeProduction, "+15558675310", true, domain.OptOutReply, time.Now())
	_, err := sms.NewSender(client(t, f, token), o, nil).Send(context.Background(), text("+15558675310"))
	if !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "the person replied STOP") {
		t.Fatalf("err = %v, want the STOP refusal", err)
	}
	if _, err := sms.NewSender(client(t, f, token), o, nil).Send(context.Background(), text("555-0123")); !errors.Is(err, domain.ErrDeliveryRefused) {
		t.Errorf("a number not in E.164: err = %v, want a refusal", err)
	}
	if f.count() != 0 {
		t.Errorf("Twilio was called %d times", f.count())
	}
}

func TestTwilioConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  twilio.Config
		want string
	}{
		{twilio.Config{AccountSID: "nope", AuthToken: token, From: from}, "account SID"},
		{twilio.Config{AccountSID: sid, From: from}, "AUTH_TOKEN"},
		{twilio.Config{AccountSID: sid, AuthToken: token}, "one of"},
		{twilio.Config{AccountSID: sid, AuthToken: token, From: from, BaseURL: "ftp://x"}, "base URL"},
	} {
		if _, err := twilio.New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
