package main

import (
	"flag"
	"fmt"

	"payline/domain"
	"payline/notify"
	"payline/notify/twilio"
	"payline/storage"
)

// DeliveryConfig is how messages to people leave Payline
// (docs/delivery.md): SMTP for e-mail, Twilio for texts, the sandbox's
// outbox for either when it is not configured. Twilio's auth token is
// read from PAYLINE_TWILIO_AUTH_TOKEN when the server starts, never from
// a flag (flags show in process lists), and neither it nor the SMTP
// password is stored or logged.
type DeliveryConfig struct {
	// SMTPURL is smtp://USER:PASSWORD@HOST:587 (STARTTLS) or
	// smtps://USER:PASSWORD@HOST:465; SMTPFrom the address mail is sent
	// from; SMTPCAFile extra CAs for a relay with a private certificate.
	SMTPURL, SMTPFrom, SMTPCAFile string
	// TwilioAccountSID turns texts on; TwilioFrom or
	// TwilioMessagingServiceSID is who they come from. TwilioBaseURL is
	// Twilio's API (tests point it elsewhere).
	TwilioAccountSID, TwilioFrom, TwilioMessagingServiceSID, TwilioBaseURL string
}

// addDeliveryFlags declares the delivery flags of payline serve.
func (e environment) addDeliveryFlags(fs *flag.FlagSet) *DeliveryConfig {
	d := &DeliveryConfig{}
	fs.StringVar(&d.SMTPURL, "smtp-url", e.getenv("PAYLINE_SMTP_URL"),
		"send e-mail (Link orders) through this SMTP server: smtp://USER:PASSWORD@HOST:587 (STARTTLS) or smtps://USER:PASSWORD@HOST:465 (PAYLINE_SMTP_URL, which keeps the password out of process lists; docs/delivery.md); without it the sandbox keeps e-mail in its outbox and other modes refuse it")
	fs.StringVar(&d.SMTPFrom, "smtp-from", e.getenv("PAYLINE_SMTP_FROM"),
		"the address e-mail is sent from, shown with the customer's name (PAYLINE_SMTP_FROM)")
	fs.StringVar(&d.SMTPCAFile, "smtp-ca-file", e.getenv("PAYLINE_SMTP_CA_FILE"),
		"PEM bundle of CAs trusted for an SMTP server with a private certificate (PAYLINE_SMTP_CA_FILE)")
	fs.StringVar(&d.TwilioAccountSID, "twilio-account-sid", e.getenv("PAYLINE_TWILIO_ACCOUNT_SID"),
		"send texts through this Twilio account, its auth token in PAYLINE_TWILIO_AUTH_TOKEN (PAYLINE_TWILIO_ACCOUNT_SID; docs/delivery.md); without it the sandbox keeps texts in its outbox and other modes refuse them")
	fs.StringVar(&d.TwilioFrom, "twilio-from", e.getenv("PAYLINE_TWILIO_FROM"),
		"the Twilio number texts come from, in E.164 form such as +15005550006 (PAYLINE_TWILIO_FROM)")
	fs.StringVar(&d.TwilioMessagingServiceSID, "twilio-messaging-service-sid", e.getenv("PAYLINE_TWILIO_MESSAGING_SERVICE_SID"),
		"send texts through this Twilio Messaging Service (MG...) instead of --twilio-from (PAYLINE_TWILIO_MESSAGING_SERVICE_SID)")
	fs.StringVar(&d.TwilioBaseURL, "twilio-base-url", e.envOr("PAYLINE_TWILIO_BASE_URL", twilio.DefaultBaseURL),
		"Twilio's API (PAYLINE_TWILIO_BASE_URL)")
	return d
}

// messageDelivery is what Link orders send through and what hears back
// from the SMS provider.
type messageDelivery struct {
	// Sender carries messages to people (notify.NewSender).
	Sender domain.MessageSender
	// Inbound takes the SMS provider's webhook; nil without a provider.
	Inbound domain.InboundMessageHook
	// Outbox lists the sandbox's kept messages for the dashboard.
	Outbox *domain.OutboxService
}

// newMessageDelivery builds the message sender, the SMS provider's
// webhook and the outbox from the delivery configuration, over this
// database's outbox and opt-outs.
func (m *Main) newMessageDelivery(clock domain.Clock) (messageDelivery, error) {
	d := m.Config.Delivery
	store := storage.NewMessageStore(m.db)
	cfg := notify.Config{Mode: m.Config.Mode, SMTPURL: d.SMTPURL, SMTPFrom: d.SMTPFrom, SMTPCAFile: d.SMTPCAFile,
		Outbox: store, OptOuts: store, Now: clock.Now}
	if d.TwilioAccountSID != "" {
		cfg.Twilio = twilio.Config{AccountSID: d.TwilioAccountSID, AuthToken: m.envValue("PAYLINE_TWILIO_AUTH_TOKEN"),
			From: d.TwilioFrom, MessagingServiceSID: d.TwilioMessagingServiceSID, BaseURL: d.TwilioBaseURL}
		if m.Config.PublicURL != "" {
			cfg.Twilio.StatusCallback = m.Config.PublicURL + "/v1/hooks/twilio/inbound"
		}
	}
	sender, err := notify.NewSender(cfg)
	if err != nil {
		return messageDelivery{}, fmt.Errorf("message delivery: %w", err)
	}
	return messageDelivery{Sender: sender, Inbound: notify.NewInboundHook(cfg), Outbox: domain.NewOutboxService(store)}, nil
}

// envValue reads an environment variable through Getenv, "" without one.
func (m *Main) envValue(name string) string {
	if m.Getenv == nil {
		return ""
	}
	return m.Getenv(name)
}
