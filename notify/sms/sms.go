// Package sms sends texts through an SMS provider behind a small port
// (Provider; notify/twilio is one) and keeps people's opt-outs: a number
// whose owner replied STOP is refused before any provider is called, and
// a provider's own opt-out answer is remembered the same way.
package sms

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"payline/domain"
)

// Text is one text message for a provider.
type Text struct {
	// To is an E.164 number (+15555550123).
	To string
	// Body is the whole message.
	Body string
	// Ref names what the text is about (a Link order's id); never a
	// secret.
	Ref string
	// Message is the whole message the text was made from: whose it is
	// and in which mode, for a provider that keeps it (the sandbox
	// outbox).
	Message domain.OutboundMessage
}

// Provider is an SMS provider's API.
type Provider interface {
	// SendText hands the text to the provider. An error wrapping
	// domain.ErrDeliveryRefused is a refusal retrying cannot mend (its
	// text the reason, the number masked); one wrapping ErrOptedOut says
	// the provider refused because the person opted out. Any other error
	// may pass on a later try.
	SendText(ctx context.Context, t Text) (domain.SentMessage, error)
}

// ErrOptedOut is the refusal of a number whose owner asked for no more
// texts.
var ErrOptedOut = fmt.Errorf("%w: the person replied STOP to an earlier text and receives no more", domain.ErrDeliveryRefused)

// e164 is a phone number as providers take it.
var e164 = regexp.MustCompile(`^\+[1-9][0-9]{6,14}$`)

// ValidNumber reports whether to is a phone number in E.164 form.
func ValidNumber(to string) bool { return e164.MatchString(to) }

// Sender is the domain's MessageSender for texts: opt-outs first, then
// the provider.
type Sender struct {
	provider Provider
	optOuts  domain.MessageOptOuts
	now      func() time.Time
}

// NewSender sends through provider and keeps opt-outs in optOuts; now
// is the clock opt-outs are dated by (time.Now when nil).
func NewSender(provider Provider, optOuts domain.MessageOptOuts, now func() time.Time) *Sender {
	if now == nil {
		now = time.Now
	}
	return &Sender{provider: provider, optOuts: optOuts, now: now}
}

// Send refuses a number that is not E.164 or that opted out, without
// calling the provider; a provider's opt-out refusal is recorded before
// it is returned.
func (s *Sender) Send(ctx context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	if m.Channel != domain.ChannelSMS {
		return domain.SentMessage{}, fmt.Errorf("sms: a %s message is not a text", m.Channel)
	}
	if !ValidNumber(m.To) {
		return domain.SentMessage{}, fmt.Errorf("%w: the phone number is not in E.164 form (+15555550123)", domain.ErrDeliveryRefused)
	}
	out, err := s.optOuts.OptedOut(ctx, m.Mode, m.To)
	if err != nil {
		return domain.SentMessage{}, fmt.Errorf("sms: read opt-outs: %w", err)
	}
	if out {
		return domain.SentMessage{}, ErrOptedOut
	}
	sent, err := s.provider.SendText(ctx, Text{To: m.To, Body: m.Text, Ref: m.Ref, Message: m})
	if errors.Is(err, ErrOptedOut) {
		if rerr := s.optOuts.SetOptedOut(ctx, m.Mode, m.To, true, domain.OptOutProvider, s.now()); rerr != nil {
			return domain.SentMessage{}, errors.Join(err, fmt.Errorf("sms: record the opt-out: %w", rerr))
		}
	}
	return sent, err
}

// Reply is what a person's text back to Payline asks for.
type Reply int

const (
	// ReplyOther asks for nothing Payline acts on.
	ReplyOther Reply = iota
	// ReplyStop asks for no more texts.
	ReplyStop
	// ReplyStart asks for texts again after a stop.
	ReplyStart
)

// Keyword reads a reply the way carriers and providers do: the whole
// message, one word, any case. The words are those the providers honour
// by default (Twilio's: STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT;
// START and UNSTOP to come back).
func Keyword(body string) Reply {
	switch strings.ToUpper(strings.Trim(strings.TrimSpace(body), ".!")) {
	case "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE":
		return ReplyStop
	case "START", "UNSTOP":
		return ReplyStart
	}
	return ReplyOther
}
