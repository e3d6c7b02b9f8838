package notify

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"time"

	"payline/domain"
	"payline/notify/sms"
	"payline/notify/smtp"
	"payline/notify/twilio"
)

// Config is how messages leave Payline: the flags of payline serve
// (docs/delivery.md) and the stores delivery keeps.
type Config struct {
	// Mode is the mode the process serves: only the sandbox keeps
	// messages in an outbox when a channel is not configured.
	Mode domain.Mode
	// SMTPURL (smtp:// or smtps://, notify/smtp.Config) and SMTPFrom send
	// e-mail; SMTPCAFile is a PEM bundle the server's certificate may
	// chain to instead of the system's CAs.
	SMTPURL, SMTPFrom, SMTPCAFile string
	// Twilio sends texts when its AccountSID is set.
	Twilio twilio.Config
	// Outbox keeps the sandbox's messages; OptOuts the numbers that
	// replied STOP. Both are required.
	Outbox  domain.OutboxStore
	OptOuts domain.MessageOptOuts
	// Now dates what is sent, outbox messages and opt-outs (time.Now
	// when nil): the service's clock.
	Now func() time.Time
}

// Router is the domain's MessageSender: each message goes to the sender
// of its channel.
type Router struct {
	Email, SMS domain.MessageSender
}

// Send hands m to its channel's sender.
func (r Router) Send(ctx context.Context, m domain.OutboundMessage) (domain.SentMessage, error) {
	switch m.Channel {
	case domain.ChannelEmail:
		return r.Email.Send(ctx, m)
	case domain.ChannelSMS:
		return r.SMS.Send(ctx, m)
	}
	return domain.SentMessage{}, fmt.Errorf("%w: Payline sends no %q messages", domain.ErrDeliveryRefused, m.Channel)
}

// NewSender builds the MessageSender the configuration describes: e-mail
// through SMTP when SMTPURL is set, texts through Twilio when its account
// is, and otherwise, in the sandbox only, the outbox the dashboard shows.
// Outside the sandbox a channel that is not configured refuses every
// message with a reason that says so, which the message's order shows.
// An error is a configuration that cannot work (a malformed URL, a
// missing sender address), said in the flags' words.
func NewSender(cfg Config) (domain.MessageSender, error) {
	if cfg.Outbox == nil || cfg.OptOuts == nil {
		return nil, errors.New("notify: the outbox and opt-out stores are required")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	outbox := Outbox{Store: cfg.Outbox, Now: cfg.Now}
	var r Router
	switch {
	case cfg.SMTPURL != "":
		c := smtp.Config{URL: cfg.SMTPURL, From: cfg.SMTPFrom, Now: cfg.Now}
		if cfg.SMTPCAFile != "" {
			pool, err := readPool(cfg.SMTPCAFile)
			if err != nil {
				return nil, err
			}
			c.RootCAs = pool
		}
		s, err := smtp.New(c)
		if err != nil {
			return nil, err
		}
		r.Email = s
	case cfg.Mode == domain.ModeSandbox:
		r.Email = outbox
	default:
		r.Email = refusing("no SMTP server is configured (payline serve --smtp-url)")
	}
	switch {
	case cfg.Twilio.AccountSID != "":
		tc := cfg.Twilio
		if tc.Now == nil {
			tc.Now = cfg.Now
		}
		c, err := twilio.New(tc)
		if err != nil {
			return nil, err
		}
		r.SMS = sms.NewSender(c, cfg.OptOuts, cfg.Now)
	case cfg.Mode == domain.ModeSandbox:
		r.SMS = sms.NewSender(outboxTexts{outbox}, cfg.OptOuts, cfg.Now)
	default:
		r.SMS = refusing("no SMS provider is configured (payline serve --twilio-account-sid)")
	}
	return r, nil
}

// NewInboundHook is the receiver of the SMS provider's webhook
// (people's STOP and START, its status callbacks), or nil when no
// provider is configured and so none calls.
func NewInboundHook(cfg Config) domain.InboundMessageHook {
	if cfg.Twilio.AccountSID == "" || cfg.OptOuts == nil {
		return nil
	}
	return twilio.NewInbound(cfg.Twilio.AuthToken, cfg.OptOuts, cfg.Mode, cfg.Now)
}

func readPool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--smtp-ca-file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--smtp-ca-file %s holds no PEM certificate", file)
	}
	return pool, nil
}

// refusing is a channel that is not configured: every message is refused
// for good, with the reason.
type refusing string

func (r refusing) Send(context.Context, domain.OutboundMessage) (domain.SentMessage, error) {
	return domain.SentMessage{}, fmt.Errorf("%w: %s", domain.ErrDeliveryRefused, string(r))
}
