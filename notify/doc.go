// Package notify carries messages to people: e-mail through SMTP
// (notify/smtp), texts through an SMS provider (notify/sms, one provider
// in notify/twilio), and in the sandbox an outbox the dashboard shows.
// NewSender builds the domain's MessageSender from configuration; it
// routes each message by its channel. notify is an adapter like
// connectors: it depends on domain only, and cmd/payline wires it.
package notify
