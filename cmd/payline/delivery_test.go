package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"payline/domain"
	"payline/notify/twilio"
)

const (
	testTwilioSID   = "AC0123456789abcdef0123456789abcdef"
	testTwilioToken = "9f86d081884c7d659a2feaa0c55ad015"
)

// startDeliveryMain starts the service in the sandbox with the delivery
// configuration given.
func startDeliveryMain(t *testing.T, dbURL string, d DeliveryConfig) (*Main, string) {
	t.Helper()
	var out bytes.Buffer
	m := &Main{
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: dbURL, Mode: domain.ModeSandbox, PublicURL: "http://payline.test", Delivery: d},
		Stdout: &out, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey, "PAYLINE_TWILIO_AUTH_TOKEN", testTwilioToken),
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = m.Close(context.Background()) })
	match := secretLine.FindStringSubmatch(out.String())
	if match == nil {
		t.Fatalf("no secret printed:\n%s", out.String())
	}
	return m, match[1]
}

// TestTwilioHookThroughServer: people's STOP and START reach the server
// signed as Twilio signs them, and the sender the server builds honours
// them; an unsigned delivery is refused in the spec's error body.
func TestTwilioHookThroughServer(t *testing.T) {
	eachDatabase(t, func(t *testing.T, dbURL string) {
		var texts atomic.Int32
		api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			texts.Add(1)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{"sid": "SM0123456789abcdef0123456789abcdef", "status": "queued"}`)
		}))
		defer api.Close()
		m, _ := startDeliveryMain(t, dbURL, DeliveryConfig{TwilioAccountSID: testTwilioSID, TwilioFrom: "+15005550006", TwilioBaseURL: api.URL})
		const person = "+15558675310"
		hook := func(body string, signed bool) (*http.Response, []byte) {
			t.Helper()
			form := url.Values{"MessageSid": {"SM1"}, "AccountSid": {testTwilioSID}, "From": {person}, "To": {"+15005550006"},
				"Body": {body}, "SmsStatus": {"received"}}
			req, _ := http.NewRequest("POST", "http://"+m.Addr()+"/v1/hooks/twilio/inbound", strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if signed {
				// Twilio signs the URL it was given: the server's public one.
				req.Header.Set("X-Twilio-Signature", twilio.Signature(testTwilioToken, "http://payline.test/v1/hooks/twilio/inbound", form))
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			return resp, b
		}
		resp, body := hook("STOP", false)
		var e struct {
			Error struct {
				Type, Code string
				StatusCode int `json:"status_code"`
			}
		}
		if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 401 || e.Error.Code != "INVALID_WEBHOOK_SIGNATURE" || e.Error.StatusCode != 401 {
			t.Fatalf("unsigned: %d %s", resp.StatusCode, body)
		}
		resp, body = hook("STOP", true)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/xml") || !strings.Contains(string(body), "<Response></Response>") {
			t.Fatalf("signed STOP: %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		d, err := m.newMessageDelivery(domain.SystemClock{})
		if err != nil {
			t.Fatal(err)
		}
		msg := domain.OutboundMessage{Channel: domain.ChannelSMS, To: person, Text: "Acme: https://payline.test/l/x", CustomerID: "c1", Mode: domain.ModeSandbox}
		if _, err := d.Sender.Send(context.Background(), msg); !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "replied STOP") {
			t.Fatalf("after STOP: err = %v", err)
		}
		if texts.Load() != 0 {
			t.Fatal("a text went to Twilio after STOP")
		}
		if resp, body = hook("start", true); resp.StatusCode != 200 {
			t.Fatalf("signed START: %d %s", resp.StatusCode, body)
		}
		if _, err := d.Sender.Send(context.Background(), msg); err != nil || texts.Load() != 1 {
			t.Fatalf("after START: err = %v, %d texts", err, texts.Load())
		}
	})
}

// TestSandboxOutboxThroughGraphQL: without SMTP or Twilio the sandbox
// keeps messages, and each customer reads its own through /graphql.
func TestSandboxOutboxThroughGraphQL(t *testing.T) {
	eachDatabase(t, func(t *testing.T, dbURL string) {
		m, secret := startDeliveryMain(t, dbURL, DeliveryConfig{})
		var customer string
		if err := m.db.GetContext(context.Background(), &customer, `SELECT customer_id FROM api_keys`); err != nil {
			t.Fatal(err)
		}
		d, err := m.newMessageDelivery(domain.SystemClock{})
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range []domain.OutboundMessage{
			{Channel: domain.ChannelEmail, To: "jordan@example.com", FromName: "Acme Lending", Subject: "Connect your payroll",
				Text: "Hello Jordan,\n\nOpen https://payline.test/l/AbC to start.", CustomerID: customer, Mode: domain.ModeSandbox, Ref: "order-1"},
			{Channel: domain.ChannelEmail, To: "someone@example.com", Subject: "another customer's", Text: "not yours",
				CustomerID: "another-customer", Mode: domain.ModeSandbox},
		} {
			if _, err := d.Sender.Send(context.Background(), msg); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.Sender.Send(context.Background(), domain.OutboundMessage{Channel: domain.ChannelSMS, To: "+15558675310",
			Text: "Acme Lending: https://payline.test/l/AbC", CustomerID: customer, Mode: domain.ModeSandbox}); err != nil {
			t.Fatal(err)
		}
		q := `{"query":"{ outboxMessages(first: 10) { nodes { channel recipient fromName subject text html ref } pageInfo { hasNextPage } } }"}`
		req, _ := http.NewRequest("POST", "http://"+m.Addr()+"/graphql", strings.NewReader(q))
		req.Header.Set("x-api-secret", secret)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got struct {
			Data struct {
				OutboxMessages struct {
					Nodes []struct {
						Channel, Recipient, FromName, Text, Ref string
						Subject, HTML                           *string
					}
				}
			}
			Errors []any
		}
		if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || len(got.Errors) > 0 {
			t.Fatalf("graphql: %v %v", err, got.Errors)
		}
		nodes := got.Data.OutboxMessages.Nodes
		if len(nodes) != 2 {
			t.Fatalf("the outbox shows %d messages, want this customer's 2: %+v", len(nodes), nodes)
		}
		text, mail := nodes[0], nodes[1] // newest first
		if text.Channel != "sms" || text.Recipient != "***-***-5310" || text.Subject != nil || text.HTML != nil {
			t.Errorf("the text: %+v", text)
		}
		if mail.Channel != "email" || mail.Recipient != "j***@example.com" || mail.Subject == nil || *mail.Subject != "Connect your payroll" ||
			mail.HTML == nil || !strings.Contains(*mail.HTML, `href="https://payline.test/l/AbC"`) || mail.Ref != "order-1" {
			t.Errorf("the e-mail: %+v", mail)
		}
	})
}
