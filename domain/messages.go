package domain

import (
	"context"
	"errors"
	"time"
)

// MessageChannel is how a message reaches a person: e-mail or a text.
type MessageChannel string

const (
	ChannelEmail MessageChannel = "email"
	ChannelSMS   MessageChannel = "sms"
)

// OutboundMessage is one message Payline sends to a person on a
// customer's behalf (a Link order's link, its reminders, a receipt). To
// is an e-mail address or an E.164 phone number, by Channel. Text is the
// plain body (the whole text message for SMS); HTML, for e-mail only, is
// the same words marked up, without tracking pixels or remote assets.
// FromName is the customer's name as the person knows it.
type OutboundMessage struct {
	Channel  MessageChannel
	To       string
	Subject  string
	Text     string
	HTML     string
	FromName string
	// CustomerID and Mode say whose message it is, so a sandbox outbox
	// shows each customer only its own.
	CustomerID string
	Mode       Mode
	// Ref names what the message is about (a Link order's id), for the
	// outbox and the provider's metadata; it is never a secret.
	Ref string
}

// SentMessage is what the channel said when it took a message: the
// provider's id for it (an SMTP queue id, an SMS provider's message id,
// an outbox row's id) and when.
type SentMessage struct {
	ProviderID string
	SentAt     time.Time
}

// MessageSender is the port to the channels that carry messages to
// people (SMTP, an SMS provider's API, the sandbox outbox). Send returns
// an error wrapping ErrDeliveryRefused when the channel refused the
// message for good (a wrong password, an invalid number, an opted-out
// recipient): retrying cannot help, and the error's text is the reason
// shown on whatever the message was for. Any other error may pass on a
// later try.
type MessageSender interface {
	Send(ctx context.Context, m OutboundMessage) (SentMessage, error)
}

// ErrDeliveryRefused marks a message a channel refused for good.
var ErrDeliveryRefused = errors.New("delivery refused")
