package domain

import (
	"context"
	"time"
)

// The ports beside MessageSender that delivery needs: the sandbox outbox
// a developer reads instead of a real inbox, the people who replied STOP
// to a text, and the provider's inbound webhook that tells Payline so.

// OutboxMessage is a message the sandbox kept instead of sending it: the
// developer sees in the dashboard exactly what the person would receive.
// To is the recipient in full (sealed at rest); ToMasked is how lists
// show it (MaskAddress).
type OutboxMessage struct {
	ID        string
	Channel   MessageChannel
	To        string
	ToMasked  string
	FromName  string
	Subject   string
	Text      string
	HTML      string
	Ref       string
	CreatedAt time.Time
}

// ListOutboxMessages is the cursor list name of the sandbox outbox.
const ListOutboxMessages = "outbox_messages"

// OutboxStore keeps the sandbox outbox, per tenant.
type OutboxStore interface {
	// AddOutboxMessage stores m (its ID and CreatedAt set by the caller).
	// Errors are the store's.
	AddOutboxMessage(ctx context.Context, sc Scope, m OutboxMessage) error
	// OutboxMessages pages the scope's outbox, newest first. Errors:
	// INVALID_FIELDS for a cursor of another list; otherwise the store's.
	OutboxMessages(ctx context.Context, sc Scope, p PageRequest) (Page[OutboxMessage], error)
}

// OutboxService reads the sandbox outbox for the dashboard.
type OutboxService struct {
	store OutboxStore
}

// NewOutboxService takes the store the outbox is kept in.
func NewOutboxService(store OutboxStore) *OutboxService { return &OutboxService{store: store} }

// Messages pages the scope's outbox, newest first. Outside the sandbox
// nothing is kept in an outbox, so the list is empty there.
func (s *OutboxService) Messages(ctx context.Context, sc Scope, p PageRequest) (Page[OutboxMessage], error) {
	if sc.Mode != ModeSandbox {
		return Page[OutboxMessage]{}, nil
	}
	return s.store.OutboxMessages(ctx, sc, p)
}

// OptOutSource says how Payline learned a person wants no more texts.
type OptOutSource string

const (
	// OptOutReply: the person answered STOP (or START again).
	OptOutReply OptOutSource = "reply"
	// OptOutProvider: the SMS provider refused to send because the
	// person had opted out with it.
	OptOutProvider OptOutSource = "provider"
)

// MessageOptOuts remembers the phone numbers whose owners asked for no
// more texts. Opting out belongs to the person, not to a customer: the
// texts of every customer come from the same sender, so a STOP covers
// them all within the mode. Numbers are kept as keyed hashes, never in
// the clear.
type MessageOptOuts interface {
	// OptedOut reports whether phone (E.164) opted out in mode. Errors
	// are the store's.
	OptedOut(ctx context.Context, mode Mode, phone string) (bool, error)
	// SetOptedOut records that phone opted out (out) or back in (!out) at
	// at, as source says. Errors are the store's.
	SetOptedOut(ctx context.Context, mode Mode, phone string, out bool, source OptOutSource, at time.Time) error
}

// InboundMessageHook takes the deliveries an SMS provider makes to
// Payline about its texts: people's replies (STOP, START) and the
// provider's status callbacks.
type InboundMessageHook interface {
	// ReceiveInbound checks the delivery's signature over url (as the
	// provider called it), header and the form-encoded body, then applies
	// it. Errors: UNAUTHORIZED_REQUEST/INVALID_WEBHOOK_SIGNATURE for a
	// signature that does not check out (nothing is changed);
	// INVALID_REQUEST_PARAMETERS for a body that is not a form; otherwise
	// the store's.
	ReceiveInbound(ctx context.Context, url string, header func(string) string, body []byte) error
}
