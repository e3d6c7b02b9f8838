package twilio

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"payline/domain"
	"payline/notify/sms"
)

// Inbound receives Twilio's webhooks about Payline's texts: a person's
// reply (STOP and its synonyms opt out, START and UNSTOP opt back in,
// and Twilio's Advanced Opt-Out says so in OptOutType) and the status
// callback of a text Twilio refused because its recipient had opted out
// (ErrorCode 21610). It implements domain.InboundMessageHook.
type Inbound struct {
	authToken string
	optOuts   domain.MessageOptOuts
	mode      domain.Mode
	now       func() time.Time
}

// NewInbound checks deliveries with authToken and records opt-outs in
// optOuts for mode; now dates them (time.Now when nil).
func NewInbound(authToken string, optOuts domain.MessageOptOuts, mode domain.Mode, now func() time.Time) *Inbound {
	if now == nil {
		now = time.Now
	}
	return &Inbound{authToken: authToken, optOuts: optOuts, mode: mode, now: now}
}

var _ domain.InboundMessageHook = (*Inbound)(nil)

// Signature is Twilio's X-Twilio-Signature of a form POST to fullURL:
// base64 of HMAC-SHA1, keyed with the auth token, over the URL followed
// by each parameter's name and value, sorted by name.
func Signature(authToken, fullURL string, form url.Values) string {
	names := make([]string, 0, len(form))
	for k := range form {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(fullURL)
	for _, k := range names {
		vs := append([]string(nil), form[k]...)
		sort.Strings(vs)
		for _, v := range vs {
			b.WriteString(k)
			b.WriteString(v)
		}
	}
	m := hmac.New(sha1.New, []byte(authToken))
	m.Write([]byte(b.String()))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

// ReceiveInbound checks the signature, then records what the delivery
// says. A reply that is no keyword, and a status that is no opt-out,
// change nothing.
func (in *Inbound) ReceiveInbound(ctx context.Context, fullURL string, header func(string) string, body []byte) error {
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "the body is not a form (application/x-www-form-urlencoded), as Twilio sends")
	}
	got := header("X-Twilio-Signature")
	want := Signature(in.authToken, fullURL, form)
	if got == "" || !hmac.Equal([]byte(got), []byte(want)) {
		return domain.Errorf(domain.KindUnauthorized, domain.CodeInvalidWebhookSignature,
			"X-Twilio-Signature does not match this request under the configured Twilio auth token and the server's --public-url")
	}
	if form.Has("MessageStatus") && !form.Has("Body") {
		return in.status(ctx, form)
	}
	return in.reply(ctx, form)
}

// reply applies a person's text back: Twilio's OptOutType when Advanced
// Opt-Out is on, else the keyword itself.
func (in *Inbound) reply(ctx context.Context, form url.Values) error {
	from := form.Get("From")
	if from == "" {
		return nil
	}
	r := sms.Keyword(form.Get("Body"))
	switch strings.ToUpper(form.Get("OptOutType")) {
	case "STOP":
		r = sms.ReplyStop
	case "START":
		r = sms.ReplyStart
	}
	switch r {
	case sms.ReplyStop:
		return in.optOuts.SetOptedOut(ctx, in.mode, from, true, domain.OptOutReply, in.now())
	case sms.ReplyStart:
		return in.optOuts.SetOptedOut(ctx, in.mode, from, false, domain.OptOutReply, in.now())
	}
	return nil
}

// status records the opt-out a failed text's status callback reports.
func (in *Inbound) status(ctx context.Context, form url.Values) error {
	code, _ := strconv.Atoi(form.Get("ErrorCode"))
	if code != codeUnsubscribed || form.Get("To") == "" {
		return nil
	}
	return in.optOuts.SetOptedOut(ctx, in.mode, form.Get("To"), true, domain.OptOutProvider, in.now())
}
