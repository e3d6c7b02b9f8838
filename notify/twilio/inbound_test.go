package twilio_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"payline/domain"
	"payline/notify/twilio"
)

// The example of Twilio's webhook security documentation: its auth
// token, URL and parameters, and the signature it gives.
func TestSignatureMatchesTwilioDocs(t *testing.T) {
	form := url.Values{
		"CallSid": {"CA1234567890ABCDE"}, "Caller": {"+12349013030"}, "Digits": {"1234"},
		"From": {"+12349013030"}, "To": {"+18005551212"},
	}
	got := twilio.Signature("12345", "https://mycompany.com/myapp.php?foo=1&bar=2", form)
	if want := "0/KCTR6DLpKmkAf8muzZqo1nDgQ="; got != want {
		t.Errorf("Signature = %s, want %s", got, want)
	}
}

const hookURL = "https://payline.example/v1/hooks/twilio/inbound"

func deliver(t *testing.T, in *twilio.Inbound, form url.Values, signWith string) error {
	t.Helper()
	h := http.Header{}
	h.Set("X-Twilio-Signature", twilio.Signature(signWith, hookURL, form))
	return in.ReceiveInbound(context.Background(), hookURL, h.Get, []byte(form.Encode()))
}

// reply is an inbound message as Twilio posts it.
func reply(fromNumber, body string) url.Values {
	return url.Values{"MessageSid": {"SM0123456789abcdef0123456789abcdef"}, "SmsSid": {"SM0123456789abcdef0123456789abcdef"},
		"AccountSid": {sid}, "MessagingServiceSid": {""}, "From": {fromNumber}, "To": {from}, "Body": {body},
		"NumMedia": {"0"}, "NumSegments": {"1"}, "SmsStatus": {"received"}, "ApiVersion": {"2010-04-01"}}
}

func TestInboundStopAndStart(t *testing.T) {
	const person = "+15558675310"
	o := &optOuts{}
	in := twilio.NewInbound(token, o, domain.ModeProduction, nil)
	isOut := func() bool {
		out, _ := o.OptedOut(context.Background(), domain.ModeProduction, person)
		return out
	}
	stops := []string{"STOP", "stopall", " Unsubscribe ", "CANCEL", "end", "Quit"}
	starts := []string{"START", "unstop"}
	for i, word := range stops {
		if err := deliver(t, in, reply(person, word), token); err != nil {
			t.Fatalf("%q: %v", word, err)
		}
		if !isOut() {
			t.Errorf("%q did not opt out", word)
		}
		if err := deliver(t, in, reply(person, "what is this?"), token); err != nil || !isOut() {
			t.Errorf("another reply changed the opt-out (err %v)", err)
		}
		back := starts[i%len(starts)]
		if err := deliver(t, in, reply(person, back), token); err != nil {
			t.Fatalf("%q: %v", back, err)
		}
		if isOut() {
			t.Errorf("%q did not opt back in", back)
		}
	}
	// Twilio's Advanced Opt-Out names the kind itself, whatever the words.
	f := reply(person, "please stop texting me")
	f.Set("OptOutType", "STOP")
	if err := deliver(t, in, f, token); err != nil || !isOut() {
		t.Errorf("OptOutType STOP: err %v, opted out %v", err, isOut())
	}
}

func TestInboundStatusCallbackOptOut(t *testing.T) {
	const person = "+15558675311"
	o := &optOuts{}
	in := twilio.NewInbound(token, o, domain.ModeProduction, nil)
	status := url.Values{"MessageSid": {"SM0123456789abcdef0123456789abcdef"}, "AccountSid": {sid}, "From": {from}, "To": {person},
		"MessageStatus": {"delivered"}, "ApiVersion": {"2010-04-01"}}
	if err := deliver(t, in, status, token); err != nil {
		t.Fatal(err)
	}
	if out, _ := o.OptedOut(context.Background(), domain.ModeProduction, person); out {
		t.Fatal("a delivered status opted the person out")
	}
	status.Set("MessageStatus", "undelivered")
	status.Set("ErrorCode", "21610")
	if err := deliver(t, in, status, token); err != nil {
		t.Fatal(err)
	}
	if out, _ := o.OptedOut(context.Background(), domain.ModeProduction, person); !out {
		t.Error("an undelivered status with 21610 was not recorded as an opt-out")
	}
}

func TestInboundRefusesBadSignature(t *testing.T) {
	const person = "+15558675312"
	o := &optOuts{}
	in := twilio.NewInbound(token, o, domain.ModeProduction, nil)
	for name, send := range map[string]func() error{
		"another token": func() error { return deliver(t, in, reply(person, "STOP"), "another token") },
		"no signature": func() error {
			return in.ReceiveInbound(context.Background(), hookURL, http.Header{}.Get, []byte(reply(person, "STOP").Encode()))
		},
		"body changed after signing": func() error {
			h := http.Header{}
			h.Set("X-Twilio-Signature", twilio.Signature(token, hookURL, reply(person, "hello")))
			return in.ReceiveInbound(context.Background(), hookURL, h.Get, []byte(reply(person, "STOP").Encode()))
		},
		"signed for another URL": func() error {
			h := http.Header{}
			h.Set("X-Twilio-Signature", twilio.Signature(token, "https://elsewhere.example/hook", reply(person, "STOP")))
			return in.ReceiveInbound(context.Background(), hookURL, h.Get, []byte(reply(person, "STOP").Encode()))
		},
	} {
		err := send()
		if e := domain.AsError(err); e == nil || e.Kind != domain.KindUnauthorized || e.Code != domain.CodeInvalidWebhookSignature {
			t.Errorf("%s: err = %v, want INVALID_WEBHOOK_SIGNATURE", name, err)
		}
	}
	if out, _ := o.OptedOut(context.Background(), domain.ModeProduction, person); out {
		t.Error("an unsigned STOP was recorded")
	}
}
