package domain

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"
)

// LinkOrderService implements Link orders: creating, reading, resending
// and canceling them (REST and GraphQL call it alike), opening their
// short link, and the queue's work: sending their messages, reminding,
// and expiring them. Its clock decides every due time, so tests move it
// instead of waiting.
type LinkOrderService struct {
	tx     Transactor
	link   *LinkService
	sender MessageSender
	clock  Clock
	// base is where people reach this server (--public-url), without a
	// trailing slash: an order's link is base + "/o/" + code.
	base string
}

// NewLinkOrderService wires Link orders: link validates requests and
// mints the link tokens the orders open; sender carries their messages;
// publicURL is the server's address as people reach it.
func NewLinkOrderService(tx Transactor, link *LinkService, sender MessageSender, clock Clock, publicURL string) *LinkOrderService {
	return &LinkOrderService{tx: tx, link: link, sender: sender, clock: clock, base: strings.TrimRight(publicURL, "/")}
}

// OrderLinkPath is the path of the short links: /o/<code>.
const OrderLinkPath = "/o/"

// Now is the service's time, which decides every due time.
func (s *LinkOrderService) Now() time.Time { return s.clock.Now() }

// URL is the order's short link.
func (s *LinkOrderService) URL(o LinkOrder) string { return s.base + OrderLinkPath + o.Code }

// QRCodeURL is where the order's link is drawn as a QR code (a PNG;
// ?format=svg for an SVG).
func (s *LinkOrderService) QRCodeURL(o LinkOrder) string { return s.URL(o) + "/qr" }

// orderNotFound answers an id the scope has no order with.
func orderNotFound(id string) error {
	return Errorf(KindNotFound, CodeLinkOrderNotFound, "no link order with id %s", id)
}

// Create validates an order and stores it; its link leaves at once, or
// at the end of the quiet hours it was made in. Errors: MISSING_FIELDS
// and INVALID_FIELDS, those of the link token's own rules included.
func (s *LinkOrderService) Create(ctx context.Context, sc Scope, r LinkOrderRequest, apiVersion string) (LinkOrder, error) {
	var p Problems
	deliveries, hours, reminders, tz := checkOrderFields(&p, r)
	checkLinkTokenFields(&p, r.Link, apiVersion)
	if err := p.Err(); err != nil {
		return LinkOrder{}, err
	}
	if err := s.link.checkTokenReferences(ctx, sc, r.Link, apiVersion); err != nil {
		return LinkOrder{}, err
	}
	raw, err := RandomBytes(16)
	if err != nil {
		return LinkOrder{}, err
	}
	code := base64.RawURLEncoding.EncodeToString(raw)
	hash := sha256.Sum256([]byte(code))
	now := s.clock.Now()
	o := LinkOrder{
		ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, Status: OrderCreated, EndUserID: r.Link.EndUserID,
		OrgName: r.Link.OrgName, APIVersion: apiVersion, Request: r.Link, Code: code, CodeHash: hash[:],
		Deliveries: deliveries, SMSConsent: r.SMSConsent, TimeZone: tz, Reminders: reminders,
		ExpiresAt: now.Add(time.Duration(hours) * time.Hour), CreatedAt: now, UpdatedAt: now,
	}
	o.scheduleReminder()
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := queueMessages(ctx, tx, &o, now, false); err != nil {
			return err
		}
		return tx.LinkOrders().CreateLinkOrder(ctx, sc, o)
	})
	if err != nil {
		return LinkOrder{}, err
	}
	return o, nil
}

// queueMessages queues the order's link (reminder false: its first
// sending or a resend) or a reminder on each of its channels, in tx. The
// link waits for the end of quiet hours when they hold (SendDueAt); a
// reminder is only queued outside them (advance). A reminder skips the
// channels whose last message failed for good.
func queueMessages(ctx context.Context, tx LinkOrderTx, o *LinkOrder, now time.Time, reminder bool) error {
	if end, quiet := quietEnd(now, o.Location()); quiet && !reminder {
		o.SendDueAt = &end
		for i := range o.Deliveries {
			o.Deliveries[i].Status, o.Deliveries[i].Attempts, o.Deliveries[i].FailureReason = MessageQueued, 0, ""
		}
		return nil
	}
	o.SendDueAt = nil
	for i := range o.Deliveries {
		d := &o.Deliveries[i]
		if reminder && d.Status == MessageFailed {
			continue
		}
		o.MessagesQueued++
		d.Status, d.Attempts, d.FailureReason = MessageQueued, 0, ""
		if err := tx.EnqueueLinkOrderMessage(ctx, LinkOrderMessageRun{Scope: o.Scope(), OrderID: o.ID, Channel: d.Channel,
			Seq: o.MessagesQueued, Reminder: reminder}); err != nil {
			return err
		}
	}
	return nil
}

// errUnchanged ends an update that found nothing to change.
var errUnchanged = errors.New("unchanged")

// update changes one order in a transaction: fn sees it locked, with the
// clock's time, and may publish events in tx; the order is written back
// unless fn returns errUnchanged. A write that lost to another (the
// version moved) is tried again once.
func (s *LinkOrderService) update(ctx context.Context, sc Scope, id string, fn func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error) (LinkOrder, error) {
	var out LinkOrder
	var err error
	for try := 0; try < 2; try++ {
		err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
			o, err := tx.LinkOrders().LinkOrderForUpdate(ctx, sc, id)
			if errors.Is(err, ErrNoRows) {
				return orderNotFound(id)
			}
			if err != nil {
				return err
			}
			now := s.clock.Now()
			if err := fn(ctx, tx, &o, now); errors.Is(err, errUnchanged) {
				out = o
				return nil
			} else if err != nil {
				return err
			}
			o.UpdatedAt = now
			if err := tx.LinkOrders().UpdateLinkOrder(ctx, sc, o); err != nil {
				return err
			}
			o.Version++
			out = o
			return nil
		})
		if !errors.Is(err, ErrNoRows) {
			break
		}
	}
	if errors.Is(err, ErrNoRows) {
		return LinkOrder{}, fmt.Errorf("link order %s changed under two writes in a row: %w", id, err)
	}
	return out, err
}

// LinkOrder returns one of the scope's orders. Errors: INVALID_FIELDS,
// LINK_ORDER_NOT_FOUND (another tenant's order too).
func (s *LinkOrderService) LinkOrder(ctx context.Context, sc Scope, id string) (LinkOrder, error) {
	if err := CheckID("link_order_id", id); err != nil {
		return LinkOrder{}, err
	}
	o, err := s.tx.LinkOrders().LinkOrder(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return LinkOrder{}, orderNotFound(id)
	}
	return o, err
}

// LinkOrders pages the scope's orders, newest first.
func (s *LinkOrderService) LinkOrders(ctx context.Context, sc Scope, f LinkOrderFilter, p PageRequest) (Page[LinkOrder], error) {
	if f.EndUserID != "" {
		if err := CheckIDText("end_user_id", f.EndUserID); err != nil {
			return Page[LinkOrder]{}, err
		}
	}
	if f.Status != "" {
		if _, ok := ParseLinkOrderStatus(string(f.Status)); !ok {
			return Page[LinkOrder]{}, Errorf(KindInvalid, CodeInvalidFields, "status must be one of %s, got %q", joinStatuses(), f.Status)
		}
	}
	return s.tx.LinkOrders().FindLinkOrders(ctx, sc, f, p)
}

func joinStatuses() string {
	names := make([]string, len(LinkOrderStatuses))
	for i, st := range LinkOrderStatuses {
		names[i] = string(st)
	}
	return strings.Join(names, ", ")
}

// closedError refuses a change to a closed order, saying which way it
// closed.
func closedError(o LinkOrder, what string) error {
	return Errorf(KindConflict, CodeLinkOrderClosed, "link order %s is %s; it cannot be %s (create a new order)", o.ID, o.Status, what)
}

// Resend sends the order's link again on every channel now (or when the
// quiet hours end), whatever the earlier messages' fate; reminders keep
// their schedule. Errors: LINK_ORDER_NOT_FOUND, LINK_ORDER_CLOSED.
func (s *LinkOrderService) Resend(ctx context.Context, sc Scope, id string) (LinkOrder, error) {
	if err := CheckID("link_order_id", id); err != nil {
		return LinkOrder{}, err
	}
	return s.update(ctx, sc, id, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
		if o.Status.Terminal() {
			return closedError(*o, "resent")
		}
		if !now.Before(o.ExpiresAt) {
			return s.expire(ctx, tx, o, now)
		}
		return queueMessages(ctx, tx, o, now, false)
	})
}

// Cancel closes the order: its link then says it was canceled and no
// reminder follows. Canceling a canceled order answers it as it is.
// Errors: LINK_ORDER_NOT_FOUND, LINK_ORDER_CLOSED (completed or expired).
func (s *LinkOrderService) Cancel(ctx context.Context, sc Scope, id string) (LinkOrder, error) {
	if err := CheckID("link_order_id", id); err != nil {
		return LinkOrder{}, err
	}
	return s.update(ctx, sc, id, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
		switch {
		case o.Status == OrderCanceled:
			return errUnchanged
		case o.Status.Terminal():
			return closedError(*o, "canceled")
		}
		if err := o.close(OrderCanceled, now); err != nil {
			return err
		}
		return PublishEvent(ctx, tx, sc, EventLinkOrderCanceled, now, linkOrderPayload(*o))
	})
}

// expire closes an open order whose window has passed, with its event.
func (s *LinkOrderService) expire(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
	if err := o.close(OrderExpired, now); err != nil {
		return err
	}
	return PublishEvent(ctx, tx, o.Scope(), EventLinkOrderExpired, now, linkOrderPayload(*o))
}

// OrderLink is what the order's short link opens: the order (its status
// says what the page shows) and, while it is open, the link token whose
// Link session the page starts.
type OrderLink struct {
	Order     LinkOrder
	LinkToken string
}

// Open follows an order's short link. An open order hands out its
// current link token, or mints a fresh one when it has none or the one
// it has is used or near its end, so the link opened again, on this
// device or another, resumes the same order; the first opening moves the
// order to opened. A closed order (or one whose window has just passed,
// which this closes) is returned without a token. Errors:
// LINK_ORDER_NOT_FOUND for a code no order has; those of CreateLinkToken.
func (s *LinkOrderService) Open(ctx context.Context, code string) (OrderLink, error) {
	notFound := Errorf(KindNotFound, CodeLinkOrderNotFound, "this link is not valid: check that it was copied whole")
	if code == "" || len(code) > 64 {
		return OrderLink{}, notFound
	}
	hash := sha256.Sum256([]byte(code))
	o, err := s.tx.LinkOrders().LinkOrderByCodeHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) {
		return OrderLink{}, notFound
	}
	if err != nil {
		return OrderLink{}, err
	}
	sc := o.Scope()
	if o.Status.Terminal() {
		return OrderLink{Order: o}, nil
	}
	now := s.clock.Now()
	if !now.Before(o.ExpiresAt) {
		o, err = s.update(ctx, sc, o.ID, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
			if o.Status.Terminal() {
				return errUnchanged
			}
			return s.expire(ctx, tx, o, now)
		})
		return OrderLink{Order: o}, err
	}
	reuse, err := s.reusable(ctx, o, now)
	if err != nil {
		return OrderLink{}, err
	}
	var minted LinkToken
	var value string
	if !reuse {
		// A token for the order, minted as POST /v1/link_tokens would
		// (outside the transaction: a relayed mode asks its upstream).
		if minted, value, err = s.link.CreateLinkToken(ctx, sc, o.Request, o.APIVersion); err != nil {
			return OrderLink{}, err
		}
	}
	seen := o.LinkTokenID
	o, err = s.update(ctx, sc, o.ID, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
		if o.Status.Terminal() {
			return errUnchanged
		}
		changed := false
		if !reuse && o.LinkTokenID == seen { // another opening may have minted first: its token wins
			exp := minted.Expires
			o.LinkTokenID, o.LinkTokenValue, o.LinkTokenExpires = minted.ID, value, &exp
			if err := tx.LinkOrders().AddLinkOrderToken(ctx, sc, o.ID, minted.ID); err != nil {
				return err
			}
			changed = true
		}
		if o.Status == OrderCreated || o.Status == OrderSent {
			o.Status, o.OpenedAt = OrderOpened, &now
			if err := PublishEvent(ctx, tx, sc, EventLinkOrderOpened, now, linkOrderPayload(*o)); err != nil {
				return err
			}
			changed = true
		}
		if !changed {
			return errUnchanged
		}
		return nil
	})
	if err != nil {
		return OrderLink{}, err
	}
	if o.Status.Terminal() {
		return OrderLink{Order: o}, nil
	}
	return OrderLink{Order: o, LinkToken: o.LinkTokenValue}, nil
}

// ByCode finds an order by its link's code, in any tenant, changing
// nothing (its QR code). Errors: LINK_ORDER_NOT_FOUND.
func (s *LinkOrderService) ByCode(ctx context.Context, code string) (LinkOrder, error) {
	if code == "" || len(code) > 64 {
		return LinkOrder{}, Errorf(KindNotFound, CodeLinkOrderNotFound, "this link is not valid")
	}
	hash := sha256.Sum256([]byte(code))
	o, err := s.tx.LinkOrders().LinkOrderByCodeHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) {
		return LinkOrder{}, Errorf(KindNotFound, CodeLinkOrderNotFound, "this link is not valid")
	}
	return o, err
}

// reusable reports whether the order's current token may be handed out
// again: it exists, is unused and has OrderTokenMargin left.
func (s *LinkOrderService) reusable(ctx context.Context, o LinkOrder, now time.Time) (bool, error) {
	if o.LinkTokenID == "" || o.LinkTokenValue == "" || o.LinkTokenExpires == nil || o.LinkTokenExpires.Sub(now) < OrderTokenMargin {
		return false, nil
	}
	t, err := s.tx.LinkTokens().LinkToken(ctx, o.Scope(), o.LinkTokenID)
	if errors.Is(err, ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return t.UsedAt == nil, nil
}

// completeLinkOrder marks the order a link token was minted for completed,
// with its event, in the transaction that spent the token (a login that
// connected an account, or documents submitted). A token no order
// minted, or an order already closed, changes nothing.
func completeLinkOrder(ctx context.Context, tx Tx, t LinkToken, accountID string, now time.Time) error {
	o, err := tx.LinkOrders().LinkOrderByLinkToken(ctx, t.Scope(), t.ID)
	if errors.Is(err, ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if o, err = tx.LinkOrders().LinkOrderForUpdate(ctx, t.Scope(), o.ID); err != nil {
		return err
	}
	if o.Status.Terminal() {
		return nil
	}
	if err := o.close(OrderCompleted, now); err != nil {
		return err
	}
	o.AccountID, o.UpdatedAt = accountID, now
	if err := tx.LinkOrders().UpdateLinkOrder(ctx, t.Scope(), o); err != nil {
		return err
	}
	return PublishEvent(ctx, tx, t.Scope(), EventLinkOrderCompleted, now, linkOrderPayload(o))
}

// sweepBatch is how many due orders one sweep step advances.
const sweepBatch = 200

// Sweep advances every open order with something due by the clock: it
// expires those past their window, queues the links quiet hours held
// and the reminders that are due. It runs on the queue's leader every
// minute (a River periodic job); each order's change and the messages it
// queues commit together, under the order's version, so two sweeps never
// queue one reminder twice. It says whether more was due than one step
// did.
func (s *LinkOrderService) Sweep(ctx context.Context) (bool, error) {
	due, err := s.tx.LinkOrders().DueLinkOrders(ctx, s.clock.Now(), sweepBatch)
	if err != nil {
		return false, err
	}
	for _, d := range due {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		if _, err := s.advance(ctx, d.Scope, d.ID); err != nil && !IsKind(err, KindNotFound) {
			return true, err
		}
	}
	return len(due) == sweepBatch, nil
}

// reminderGap is the least time between a reminder and the next when the
// next's own time has already passed (a server that was down, a moved
// clock): the person is not sent two at once.
const reminderGap = time.Hour

// advance does what is due for one order now.
func (s *LinkOrderService) advance(ctx context.Context, sc Scope, id string) (LinkOrder, error) {
	return s.update(ctx, sc, id, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
		if o.Status.Terminal() {
			return errUnchanged
		}
		if !now.Before(o.ExpiresAt) {
			return s.expire(ctx, tx, o, now)
		}
		changed := false
		loc := o.Location()
		if o.SendDueAt != nil && !now.Before(*o.SendDueAt) {
			if err := queueMessages(ctx, tx, o, now, false); err != nil {
				return err
			}
			changed = true
		}
		if o.NextReminderAt != nil && !now.Before(*o.NextReminderAt) {
			changed = true
			if end, quiet := quietEnd(now, loc); quiet {
				o.NextReminderAt = &end
				if !end.Before(o.ExpiresAt) {
					o.NextReminderAt = nil
				}
			} else {
				o.RemindersSent++
				if err := queueMessages(ctx, tx, o, now, true); err != nil {
					return err
				}
				o.scheduleReminder()
				if o.NextReminderAt != nil && o.NextReminderAt.Before(now.Add(reminderGap)) {
					next := outsideQuiet(now.Add(reminderGap), loc)
					o.NextReminderAt = &next
					if !next.Before(o.ExpiresAt) {
						o.NextReminderAt = nil
					}
				}
			}
		}
		if !changed {
			return errUnchanged
		}
		return nil
	})
}

// maxReason bounds a failure reason kept on a delivery.
const maxReason = 300

// SendMessage sends one queued message of an order (the queue's worker
// calls it). A message for a closed order is dropped; one that comes due
// in quiet hours asks to wait until they end (the wait it returns). A
// refusal for good (ErrDeliveryRefused), or the failure of the final
// attempt, is kept on the order's delivery with its reason and ends the
// job; another failure is noted and returned, for the queue to try again.
func (s *LinkOrderService) SendMessage(ctx context.Context, r LinkOrderMessageRun, final bool) (time.Duration, error) {
	o, err := s.tx.LinkOrders().LinkOrder(ctx, r.Scope, r.OrderID)
	if errors.Is(err, ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	d := o.Delivery(r.Channel)
	if d == nil || o.Status.Terminal() {
		return 0, nil
	}
	now := s.clock.Now()
	if end, quiet := quietEnd(now, o.Location()); quiet {
		return max(end.Sub(now), time.Second), nil
	}
	var sent SentMessage
	sendErr := fmt.Errorf("no message sender is configured: %w", ErrDeliveryRefused)
	if s.sender != nil {
		sent, sendErr = s.sender.Send(ctx, s.message(o, *d, r.Reminder))
	}
	_, err = s.update(ctx, r.Scope, r.OrderID, func(ctx context.Context, tx Tx, o *LinkOrder, now time.Time) error {
		d := o.Delivery(r.Channel)
		if d == nil {
			return errUnchanged
		}
		d.Attempts++
		if sendErr == nil {
			at := sent.SentAt
			if at.IsZero() {
				at = now
			}
			d.Status, d.SentAt, d.FailureReason = MessageSent, &at, ""
			d.Messages++
			if o.Status == OrderCreated {
				o.Status = OrderSent
				return PublishEvent(ctx, tx, r.Scope, EventLinkOrderSent, now, linkOrderPayload(*o))
			}
			return nil
		}
		reason := sendErr.Error()
		if len(reason) > maxReason {
			reason = reason[:maxReason] + "…"
		}
		d.FailureReason = reason
		if errors.Is(sendErr, ErrDeliveryRefused) || final {
			d.Status = MessageFailed
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if sendErr != nil && !errors.Is(sendErr, ErrDeliveryRefused) && !final {
		return 0, sendErr
	}
	return 0, nil
}

// message is what the person receives: the organisation's name, the
// order's link, and until when it works, in the order's time zone;
// texts end with how to opt out. No tracking of any kind.
func (s *LinkOrderService) message(o LinkOrder, d LinkOrderDelivery, reminder bool) OutboundMessage {
	url := s.URL(o)
	until := o.ExpiresAt.In(o.Location())
	m := OutboundMessage{Channel: d.Channel, To: d.To, FromName: o.OrgName, CustomerID: o.CustomerID, Mode: o.Mode, Ref: o.ID}
	if d.Channel == ChannelSMS {
		lead := "%s: connect your payroll account to continue: %s"
		if reminder {
			lead = "Reminder from %s: your payroll connection is still waiting: %s"
		}
		m.Text = fmt.Sprintf(lead+" (works until %s). Reply STOP to opt out.", o.OrgName, url, until.Format("Jan 2, 3:04 PM MST"))
		return m
	}
	m.Subject = fmt.Sprintf("%s asks you to connect your payroll account", o.OrgName)
	opening := fmt.Sprintf("%s asks you to connect your payroll account (or upload your pay documents) through Payline.", o.OrgName)
	if reminder {
		m.Subject = "Reminder: " + m.Subject
		opening = fmt.Sprintf("A reminder: %s is still waiting for you to connect your payroll account (or upload your pay documents) through Payline.", o.OrgName)
	}
	when := until.Format("Monday, January 2 at 3:04 PM MST")
	closing := "If you were not expecting this message, you can ignore it: nothing happens unless you open the link."
	m.Text = fmt.Sprintf("%s\n\nOpen this link on your phone or computer:\n\n%s\n\nThe link works until %s.\n\n%s\n", opening, url, when, closing)
	m.HTML = fmt.Sprintf(`<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#1a1a1a">`+
		`<p>%s</p><p><a href="%s" style="display:inline-block;padding:12px 20px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px">Connect your payroll account</a></p>`+
		`<p>Or copy this link: %s</p><p>The link works until %s.</p><p style="color:#555">%s</p></body></html>`,
		html.EscapeString(opening), html.EscapeString(url), html.EscapeString(url), html.EscapeString(when), html.EscapeString(closing))
	return m
}
