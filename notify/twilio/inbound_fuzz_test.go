package twilio_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"payline/domain"
	"payline/notify/twilio"
)

// FuzzInbound: whatever body and signature arrive at the hook, it never
// panics, an unsigned or wrongly signed delivery changes nothing, and a
// signed one is applied or refused with the API's errors.
func FuzzInbound(f *testing.F) {
	f.Add("From=%2B15558675310&Body=STOP", "")
	f.Add("From=%2B15558675310&Body=START&OptOutType=START", "bad")
	f.Add("MessageStatus=undelivered&ErrorCode=21610&To=%2B15558675310", "")
	f.Add("%zz=&&=;", "x")
	f.Add("Body="+url.QueryEscape("\x00\xff STOP"), "")
	f.Fuzz(func(t *testing.T, body, signature string) {
		o := &optOuts{}
		in := twilio.NewInbound(token, o, domain.ModeProduction, nil)
		h := http.Header{}
		h.Set("X-Twilio-Signature", signature)
		if err := in.ReceiveInbound(context.Background(), hookURL, h.Get, []byte(body)); err == nil {
			form, perr := url.ParseQuery(body)
			if perr != nil || twilio.Signature(token, hookURL, form) != signature {
				t.Fatalf("accepted %q signed %q", body, signature)
			}
		} else if e := domain.AsError(err); e == nil {
			t.Fatalf("an error outside the API's: %v", err)
		}
		if len(o.out) != 0 && signature == "" {
			t.Fatal("an unsigned delivery changed the opt-outs")
		}
		// Signed as Twilio signs it, the same body is taken.
		form, perr := url.ParseQuery(body)
		if perr != nil {
			return
		}
		h.Set("X-Twilio-Signature", twilio.Signature(token, hookURL, form))
		if err := in.ReceiveInbound(context.Background(), hookURL, h.Get, []byte(body)); err != nil {
			t.Fatalf("a signed delivery %q refused: %v", body, err)
		}
	})
}
