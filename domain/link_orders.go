package domain

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	_ "time/tzdata" // quiet hours read customers' time zones whatever the host has installed
	"unicode"
)

// A Link order sends Link to a person (by e-mail, by text, or printed as a
// QR code) instead of the integrator embedding it in its own page at the
// moment the person is there: Payline keeps the order's short link, sends
// it, reminds the person, opens Link when the link is followed, and
// closes the order when Link completes, the window ends, or the customer
// cancels it (docs/link-orders.md).

// LinkOrderStatus is where an order stands. created → sent → opened →
// completed | expired | canceled; an order can be opened before any
// message reached the person (a printed QR code), and it can complete,
// expire or be canceled from any open status.
type LinkOrderStatus string

// The statuses of a Link order.
const (
	OrderCreated   LinkOrderStatus = "created"
	OrderSent      LinkOrderStatus = "sent"
	OrderOpened    LinkOrderStatus = "opened"
	OrderCompleted LinkOrderStatus = "completed"
	OrderExpired   LinkOrderStatus = "expired"
	OrderCanceled  LinkOrderStatus = "canceled"
)

// LinkOrderStatuses lists every status in the order of the machine.
var LinkOrderStatuses = []LinkOrderStatus{OrderCreated, OrderSent, OrderOpened, OrderCompleted, OrderExpired, OrderCanceled}

// orderTransitions is the state machine: what each status may become.
// Terminal statuses become nothing.
var orderTransitions = map[LinkOrderStatus][]LinkOrderStatus{
	OrderCreated: {OrderSent, OrderOpened, OrderCompleted, OrderExpired, OrderCanceled},
	OrderSent:    {OrderOpened, OrderCompleted, OrderExpired, OrderCanceled},
	OrderOpened:  {OrderCompleted, OrderExpired, OrderCanceled},
}

// Terminal reports whether the order is closed for good.
func (s LinkOrderStatus) Terminal() bool {
	return s == OrderCompleted || s == OrderExpired || s == OrderCanceled
}

// CanBecome reports whether the machine allows s → next.
func (s LinkOrderStatus) CanBecome(next LinkOrderStatus) bool {
	return slices.Contains(orderTransitions[s], next)
}

// ParseLinkOrderStatus validates a status name.
func ParseLinkOrderStatus(s string) (LinkOrderStatus, bool) {
	st := LinkOrderStatus(s)
	return st, slices.Contains(LinkOrderStatuses, st)
}

// The order's webhook events, one per status after created.
const (
	EventLinkOrderSent      = "link_order.sent"
	EventLinkOrderOpened    = "link_order.opened"
	EventLinkOrderCompleted = "link_order.completed"
	EventLinkOrderExpired   = "link_order.expired"
	EventLinkOrderCanceled  = "link_order.canceled"
)

// LinkOrderEvents lists the order events a webhook can enable.
var LinkOrderEvents = []string{EventLinkOrderSent, EventLinkOrderOpened, EventLinkOrderCompleted, EventLinkOrderExpired, EventLinkOrderCanceled}

// Bounds of an order's window and reminders.
const (
	DefaultOrderHours     = 72
	MaxOrderHours         = 720
	DefaultOrderReminders = 2
	MaxOrderReminders     = 3
	// DefaultOrderTimeZone is where quiet hours are counted when the order
	// names no time zone.
	DefaultOrderTimeZone = "America/New_York"
	// QuietFrom and QuietUntil bound the quiet hours, local time: no
	// message leaves between 21:00 and 08:00.
	QuietFrom  = 21
	QuietUntil = 8
	// OrderTokenMargin is the least time a link token must have left to
	// be handed out again when the order's link is opened; one closer to
	// its end is replaced, so nobody starts Link with minutes to finish.
	OrderTokenMargin = 15 * time.Minute
)

// MessageStatus is where the message of one channel stands.
type MessageStatus string

// Delivery statuses: queued (waiting for its job, for the end of quiet
// hours, or for a retry after a failure that may pass: FailureReason then
// says why), sent (the channel took the latest message), failed (the
// channel refused it for good or every try failed: FailureReason says
// why), skipped (the order closed before the message left).
const (
	MessageQueued  MessageStatus = "queued"
	MessageSent    MessageStatus = "sent"
	MessageFailed  MessageStatus = "failed"
	MessageSkipped MessageStatus = "skipped"
)

// LinkOrderDelivery is one channel of an order: where its messages go and
// how the latest fared. To is the plain address (sealed at rest); answers
// show MaskedTo.
type LinkOrderDelivery struct {
	Channel       MessageChannel
	To            string
	Status        MessageStatus
	SentAt        *time.Time
	FailureReason string
	// Attempts counts the tries of the latest message; Messages the
	// messages the channel took (the link, resends and reminders).
	Attempts int
	Messages int
}

// MaskedTo shows enough of the address for a person to recognise it:
// j***@example.com, ***-***-1234.
func (d LinkOrderDelivery) MaskedTo() string { return MaskAddress(d.Channel, d.To) }

// MaskAddress masks an e-mail address or a phone number for answers.
func MaskAddress(ch MessageChannel, to string) string {
	if ch == ChannelEmail {
		at := strings.LastIndexByte(to, '@')
		if at <= 0 {
			return "***"
		}
		first := []rune(to[:at])[0]
		return string(first) + "***" + to[at:]
	}
	digits := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return r
		}
		return -1
	}, to)
	if len(digits) < 4 {
		return "***"
	}
	return "***-***-" + digits[len(digits)-4:]
}

// LinkOrder is an order to send Link to a person. Request is what the
// link tokens it mints take (sealed at rest: it may hold deposit
// accounts); Code is the random code of its short link (stored as a hash
// to find it by, and sealed to show it again); LinkTokenValue is the
// token the link opens now (sealed), replaced when it nears its end.
type LinkOrder struct {
	ID         string
	CustomerID string
	Mode       Mode
	Status     LinkOrderStatus
	EndUserID  string
	OrgName    string
	APIVersion string
	Request    LinkTokenRequest
	Code       string
	CodeHash   []byte
	Deliveries []LinkOrderDelivery
	SMSConsent bool
	TimeZone   string
	// Reminders is how many reminders the order asked for; RemindersSent
	// how many left. NextReminderAt is when the next is due (nil: none).
	Reminders      int
	RemindersSent  int
	NextReminderAt *time.Time
	// SendDueAt is when the link (first sent or resent) is due to leave,
	// while quiet hours hold it back; nil when nothing waits.
	SendDueAt *time.Time
	// MessagesQueued numbers the order's messages: each queued message
	// takes the next, which makes its job unique.
	MessagesQueued   int
	ExpiresAt        time.Time
	LinkTokenID      string
	LinkTokenExpires *time.Time
	LinkTokenValue   string
	// AccountID is the account Link connected when it completed the
	// order ("" for documents, or before).
	AccountID string
	CreatedAt time.Time
	UpdatedAt time.Time
	OpenedAt  *time.Time
	ClosedAt  *time.Time
	// Version counts the order's writes; an update names the version it
	// read, so two writers never both win.
	Version int
}

// Scope is the order's tenant.
func (o LinkOrder) Scope() Scope { return Scope{CustomerID: o.CustomerID, Mode: o.Mode} }

// RemindersLeft is how many reminders may still be sent.
func (o LinkOrder) RemindersLeft() int {
	if o.Status.Terminal() || o.NextReminderAt == nil {
		return 0
	}
	return max(0, o.Reminders-o.RemindersSent)
}

// Delivery returns the order's delivery of a channel.
func (o *LinkOrder) Delivery(ch MessageChannel) *LinkOrderDelivery {
	for i := range o.Deliveries {
		if o.Deliveries[i].Channel == ch {
			return &o.Deliveries[i]
		}
	}
	return nil
}

// Location is the order's time zone (DefaultOrderTimeZone when it names
// none or an unknown one).
func (o LinkOrder) Location() *time.Location {
	if loc, err := time.LoadLocation(o.TimeZone); err == nil && o.TimeZone != "" {
		return loc
	}
	loc, _ := time.LoadLocation(DefaultOrderTimeZone) // embedded (time/tzdata)
	return loc
}

// LinkOrderFilter narrows a list of orders.
type LinkOrderFilter struct {
	EndUserID string
	Status    LinkOrderStatus
}

// ListLinkOrders is the cursor list name of orders, newest first.
const ListLinkOrders = "link_orders"

// DueLinkOrder names an open order with something due: a message held by
// quiet hours, a reminder, or its expiry.
type DueLinkOrder struct {
	Scope Scope
	ID    string
}

// LinkOrderStore holds Link orders. Addresses, the token request, the
// link's code and the current link token are sealed at rest, bound to
// the order.
type LinkOrderStore interface {
	CreateLinkOrder(ctx context.Context, s Scope, o LinkOrder) error
	// LinkOrder returns ErrNoRows when the scope has no such order.
	LinkOrder(ctx context.Context, s Scope, id string) (LinkOrder, error)
	// LinkOrderForUpdate is LinkOrder that, in a transaction, locks the
	// row until it ends.
	LinkOrderForUpdate(ctx context.Context, s Scope, id string) (LinkOrder, error)
	// LinkOrderByCodeHash finds an order by its link's code, in any
	// tenant: the link is how its opener learns the tenant.
	LinkOrderByCodeHash(ctx context.Context, hash []byte) (LinkOrder, error)
	// LinkOrderByLinkToken finds the order a link token was minted for;
	// ErrNoRows when none was.
	LinkOrderByLinkToken(ctx context.Context, s Scope, linkTokenID string) (LinkOrder, error)
	// FindLinkOrders pages the scope's orders, newest first.
	FindLinkOrders(ctx context.Context, s Scope, f LinkOrderFilter, p PageRequest) (Page[LinkOrder], error)
	// UpdateLinkOrder writes the order's changing fields if its stored
	// version is still o.Version, and raises the version; ErrNoRows when
	// another write came first.
	UpdateLinkOrder(ctx context.Context, s Scope, o LinkOrder) error
	// AddLinkOrderToken records that a link token was minted for an order.
	AddLinkOrderToken(ctx context.Context, s Scope, orderID, linkTokenID string) error
	// DueLinkOrders lists, across every tenant, up to limit open orders
	// whose expiry, next reminder or held message is at or before now.
	DueLinkOrders(ctx context.Context, now time.Time, limit int) ([]DueLinkOrder, error)
}

// LinkOrderMessageRun is the queued job that sends one message of an
// order on one channel: Seq is the order's message number (unique per
// order and channel, so a message is queued once); Reminder tells the
// link's first sending (or a resend) from a reminder.
type LinkOrderMessageRun struct {
	Scope    Scope
	OrderID  string
	Channel  MessageChannel
	Seq      int
	Reminder bool
}

// LinkOrderTx is what an order's changes write in one transaction: the
// order, its events and webhooks, and its queued messages.
type LinkOrderTx interface {
	EventTx
	LinkOrders() LinkOrderStore
	// EnqueueLinkOrderMessage queues a message job, visible once the
	// transaction commits; a job with the same order, channel and
	// sequence is queued once.
	EnqueueLinkOrderMessage(ctx context.Context, r LinkOrderMessageRun) error
}

// LinkOrderRequest is a POST /link_orders body after decoding: what a
// link token takes, where to send it, for how long, and how often to
// remind.
type LinkOrderRequest struct {
	Link           LinkTokenRequest
	Email          string
	Phone          string
	SMSConsent     bool
	ExpiresInHours *int
	Reminders      *int
	TimeZone       string
}

// checkOrderFields applies the order's own rules (the link token's are
// LinkService's) and returns the deliveries, the window and the reminder
// count.
func checkOrderFields(p *Problems, r LinkOrderRequest) (deliveries []LinkOrderDelivery, hours, reminders int, tz string) {
	email, phone := strings.TrimSpace(r.Email), strings.TrimSpace(r.Phone)
	if email == "" && phone == "" {
		p.Missing("delivery.email or delivery.phone")
	}
	if email != "" {
		if !ValidEmail(email) || len(email) > 254 {
			p.Invalid("delivery.email", "%q is not a valid e-mail address with a valid domain", email)
		} else {
			deliveries = append(deliveries, LinkOrderDelivery{Channel: ChannelEmail, To: email, Status: MessageQueued})
		}
	}
	if phone != "" {
		e164, ok := NormalizePhone(phone)
		switch {
		case !ok:
			p.Invalid("delivery.phone", "must be a phone number in E.164 form such as +15551234567 (or 10 US digits), got %q", phone)
		case !r.SMSConsent:
			p.Invalid("sms_consent", "texts are sent only to people who agreed to receive them: set sms_consent to true to assert that this person consented to a text from you, or leave delivery.phone out")
		default:
			deliveries = append(deliveries, LinkOrderDelivery{Channel: ChannelSMS, To: e164, Status: MessageQueued})
		}
	}
	hours = DefaultOrderHours
	if r.ExpiresInHours != nil {
		hours = *r.ExpiresInHours
		if hours < 1 || hours > MaxOrderHours {
			p.Invalid("expires_in_hours", "must be from 1 to %d (30 days), got %d", MaxOrderHours, hours)
		}
	}
	reminders = DefaultOrderReminders
	if r.Reminders != nil {
		reminders = *r.Reminders
		if reminders < 0 || reminders > MaxOrderReminders {
			p.Invalid("reminders", "must be from 0 to %d, got %d", MaxOrderReminders, reminders)
		}
	}
	tz = DefaultOrderTimeZone
	if r.TimeZone != "" {
		if _, err := time.LoadLocation(r.TimeZone); err != nil || r.TimeZone == "Local" || len(r.TimeZone) > 64 {
			p.Invalid("time_zone", "must be an IANA time zone such as America/Chicago, got %q", r.TimeZone)
		} else {
			tz = r.TimeZone
		}
	}
	if r.Link.AccountID != "" {
		p.Invalid("account_id", "a Link order connects a new account; send an On Demand Update's link token yourself")
	}
	if r.Link.PlatformMatching != nil {
		p.Invalid("end_user.platform_matching", "is not kept for the days an order waits; use a link token")
	}
	if r.Link.Site != nil || r.Link.Amount != nil {
		p.Invalid("amount", "belongs to the legacy link token form, which an order does not take")
	}
	return deliveries, hours, reminders, tz
}

// NormalizePhone reads a phone number as E.164: "+" and 8 to 15 digits,
// or 10 digits read as a US number. Spaces, dots, dashes and brackets
// are ignored.
func NormalizePhone(s string) (string, bool) {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '+' && i == 0:
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == ' ' || r == '-' || r == '.' || r == '(' || r == ')':
		default:
			return "", false
		}
	}
	n := b.String()
	if strings.HasPrefix(n, "+") {
		d := n[1:]
		if len(d) < 8 || len(d) > 15 || d[0] == '0' {
			return "", false
		}
		return n, true
	}
	if len(n) == 11 && n[0] == '1' {
		n = n[1:]
	}
	if len(n) != 10 || n[0] == '0' || n[0] == '1' {
		return "", false
	}
	return "+1" + n, true
}

// quietEnd says whether t falls in the quiet hours of loc, and when they
// end (08:00 local).
func quietEnd(t time.Time, loc *time.Location) (time.Time, bool) {
	l := t.In(loc)
	h := l.Hour()
	if h >= QuietUntil && h < QuietFrom {
		return t, false
	}
	day := l
	if h >= QuietFrom {
		day = l.AddDate(0, 0, 1)
	}
	end := time.Date(day.Year(), day.Month(), day.Day(), QuietUntil, 0, 0, 0, loc)
	return end.UTC(), true
}

// outsideQuiet is t, or the end of the quiet hours it falls in.
func outsideQuiet(t time.Time, loc *time.Location) time.Time {
	end, _ := quietEnd(t, loc)
	return end
}

// reminderAt is when reminder n (1-based) of an order is due before quiet
// hours: the window split in reminders+1 equal parts.
func (o LinkOrder) reminderAt(n int) time.Time {
	window := o.ExpiresAt.Sub(o.CreatedAt)
	return o.CreatedAt.Add(window * time.Duration(n) / time.Duration(o.Reminders+1))
}

// scheduleReminder sets the next reminder after sent of them: its time,
// moved out of quiet hours, or none when none is left or it would fall
// at or after the expiry.
func (o *LinkOrder) scheduleReminder() {
	o.NextReminderAt = nil
	if o.RemindersSent >= o.Reminders || o.Status.Terminal() {
		return
	}
	at := outsideQuiet(o.reminderAt(o.RemindersSent+1), o.Location())
	if at.Before(o.ExpiresAt) {
		o.NextReminderAt = &at
	}
}

// close ends an open order with a terminal status.
func (o *LinkOrder) close(st LinkOrderStatus, now time.Time) error {
	if !o.Status.CanBecome(st) {
		return fmt.Errorf("link order %s cannot go from %s to %s", o.ID, o.Status, st)
	}
	o.Status, o.ClosedAt, o.NextReminderAt, o.SendDueAt = st, &now, nil, nil
	for i := range o.Deliveries {
		if o.Deliveries[i].Status == MessageQueued {
			o.Deliveries[i].Status = MessageSkipped
		}
	}
	return nil
}

// linkOrderPayload is the payload of every link_order.* event.
func linkOrderPayload(o LinkOrder) map[string]any {
	var account any
	if o.AccountID != "" {
		account = o.AccountID
	}
	return map[string]any{"link_order_id": o.ID, "end_user_id": o.EndUserID, "status": o.Status,
		"expires_at": APITime(o.ExpiresAt), "account_id": account}
}
