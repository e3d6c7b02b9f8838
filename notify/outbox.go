package notify

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"time"

	"payline/domain"
	"payline/notify/sms"
	"payline/notify/smtp"
)

// Outbox is the sandbox's channel when no SMTP server or SMS provider is
// configured: each message is kept, per customer, exactly as the person
// would have received it (an e-mail's HTML as SMTP would send it), and
// the dashboard shows it. Its refusals are those of the real channels
// (an address that is not one, a number not in E.164), so a developer
// meets them in the sandbox first.
type Outbox struct {
	Store domain.OutboxStore
	Now   func() time.Time
}

// Send keeps m in its customer's outbox; the provider id is the outbox
// message's id.
func (o Outbox) Send(ctx context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	if m.CustomerID == "" {
		return domain.SentMessage{}, errors.New("notify: a message without its customer cannot go to an outbox")
	}
	html := ""
	switch m.Channel {
	case domain.ChannelEmail:
		if _, err := mail.ParseAddress(m.To); err != nil {
			return domain.SentMessage{}, fmt.Errorf("%w: the recipient is not a valid e-mail address", domain.ErrDeliveryRefused)
		}
		html = m.HTML
		if html == "" {
			html = smtp.HTMLFromText(m.FromName, m.Text)
		} else if what := smtp.RemoteContent(html); what != "" {
			return domain.SentMessage{}, fmt.Errorf("%w: the message's HTML has %s, and Payline's mail carries no remote content or tracking", domain.ErrDeliveryRefused, what)
		}
	case domain.ChannelSMS:
		if !sms.ValidNumber(m.To) {
			return domain.SentMessage{}, fmt.Errorf("%w: the phone number is not in E.164 form (+15555550123)", domain.ErrDeliveryRefused)
		}
	default:
		return domain.SentMessage{}, fmt.Errorf("%w: Payline sends no %q messages", domain.ErrDeliveryRefused, m.Channel)
	}
	now := o.Now().UTC()
	kept := domain.OutboxMessage{ID: domain.NewID(), Channel: m.Channel, To: m.To, ToMasked: domain.MaskAddress(m.Channel, m.To),
		FromName: m.FromName, Subject: m.Subject, Text: m.Text, HTML: html, Ref: m.Ref, CreatedAt: now}
	if err := o.Store.AddOutboxMessage(ctx, domain.Scope{CustomerID: m.CustomerID, Mode: m.Mode}, kept); err != nil {
		return domain.SentMessage{}, fmt.Errorf("notify: keep the message in the outbox: %w", err)
	}
	return domain.SentMessage{ProviderID: kept.ID, SentAt: now}, nil
}

// outboxTexts is the outbox as an SMS provider, so a sandbox text meets
// the same opt-out rules as a real one.
type outboxTexts struct{ outbox Outbox }

func (o outboxTexts) SendText(ctx context.Context, t sms.Text) (domain.SentMessage, error) {
	return o.outbox.Send(ctx, t.Message)
}
