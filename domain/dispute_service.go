package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// DisputeService keeps disputes: a person opens one (through their page,
// or a customer on their behalf), the customer investigates and resolves
// it, a job tells the item's source, and a sweep raises dispute.overdue
// once for a dispute past its due time.
type DisputeService struct {
	items    DisputeItems
	disputes DisputeStore
	tx       DisputeTransactor
	notifier FurnisherNotifier
	clock    Clock
}

// NewDisputeService wires the dispute use cases: items reads what a
// dispute names, disputes reads disputes outside a transaction, tx writes
// them with their audit entries, events and notice jobs, notifier tells
// sources through their routes.
func NewDisputeService(items DisputeItems, disputes DisputeStore, tx DisputeTransactor, notifier FurnisherNotifier, clock Clock) *DisputeService {
	return &DisputeService{items: items, disputes: disputes, tx: tx, notifier: notifier, clock: clock}
}

// Why an item has no furnisher, as the dispute records it.
const (
	reasonPersonIsSource = "the person uploaded this document: they are its source, so there is no furnisher to notify; " +
		"the reinvestigation reviews the document itself"
	reasonPayLineComputed = "this report field is Payline's own computation over the person's connections, not one source's " +
		"figure: there is no furnisher to notify; name the account (item.id) to dispute the figures it furnished"
)

// OpenDispute files a person's dispute of one of their items at this
// customer: received now, due in 30 days, its source to be told within 5
// business days. The dispute, its audit entry, dispute.opened and the
// notice's job commit together. by names who filed it: "end_user" from
// the person's own page, the API key of a customer filing on their
// behalf. Errors: MISSING_FIELDS, INVALID_FIELDS; DISPUTE_ITEM_NOT_FOUND
// when the item is not the end user's at this customer (another tenant's
// included); DOCUMENT_NOT_FOUND for a document_id not theirs.
func (s *DisputeService) OpenDispute(ctx context.Context, sc Scope, endUserID string, r DisputeRequest, by string) (Dispute, error) {
	if err := CheckIDText("end_user_id", endUserID); err != nil {
		return Dispute{}, err
	}
	r.Note = strings.TrimSpace(r.Note)
	if err := r.check(); err != nil {
		return Dispute{}, err
	}
	item, notice, err := s.source(ctx, sc, endUserID, r.Item)
	if err != nil {
		return Dispute{}, err
	}
	if r.DocumentID != "" {
		if _, err := s.endUserDocument(ctx, sc, endUserID, r.DocumentID, "document_id"); err != nil {
			return Dispute{}, err
		}
	}
	now := s.clock.Now()
	due, noticeDue := DisputeClocks(now)
	notice.DueAt = noticeDue
	d := Dispute{ID: NewID(), Scope: sc, EndUserID: endUserID, Item: item, Note: r.Note, DocumentID: r.DocumentID,
		Status: DisputeOpen, ReceivedAt: now, DueAt: due, Notice: notice, UpdatedAt: now, Version: 1,
		Steps: []DisputeStep{{Status: DisputeOpen, By: by, At: now}}}
	err = s.tx.InDisputeTx(ctx, func(ctx context.Context, tx DisputeTx) error {
		if err := tx.Disputes().CreateDispute(ctx, d); err != nil {
			return err
		}
		if err := tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, by, AuditDisputeOpened, d.ID, now)); err != nil {
			return err
		}
		if d.Notice.Status == NoticePending {
			if err := tx.EnqueueDisputeNotice(ctx, DisputeNoticeRun{Scope: sc, ID: d.ID}); err != nil {
				return err
			}
		}
		return PublishEvent(ctx, tx, sc, EventDisputeOpened, now, DisputePayload(d))
	})
	if err != nil {
		return Dispute{}, err
	}
	return d, nil
}

// source checks the item is the end user's and finds who furnished it:
// the item with its account, and the notice it calls for (pending for a
// connection's item, no_furnisher with the reason otherwise).
func (s *DisputeService) source(ctx context.Context, sc Scope, endUserID string, it DisputeItem) (DisputeItem, FurnisherNotice, error) {
	notFound := Errorf(KindNotFound, CodeDisputeItemNotFound, "end user %q has no %s %s here", endUserID, it.Type, it.ID)
	accountOf := func(id string) error {
		a, err := s.items.Account(ctx, sc, id)
		if errors.Is(err, ErrNoRows) || (err == nil && a.EndUserID != endUserID) {
			return notFound
		}
		if err != nil {
			return err
		}
		it.AccountID = a.ID
		return nil
	}
	switch it.Type {
	case DisputedPaystub:
		p, err := s.items.PaystubByID(ctx, sc, it.ID)
		if errors.Is(err, ErrNoRows) {
			return it, FurnisherNotice{}, notFound
		}
		if err != nil {
			return it, FurnisherNotice{}, err
		}
		if err := accountOf(p.AccountID); err != nil {
			return it, FurnisherNotice{}, err
		}
	case DisputedEmployment:
		if err := accountOf(it.ID); err != nil {
			return it, FurnisherNotice{}, err
		}
	case DisputedReportField:
		if it.ID == "" {
			return it, FurnisherNotice{Status: NoticeNoFurnisher, Route: "payline", Reason: reasonPayLineComputed}, nil
		}
		if err := accountOf(it.ID); err != nil {
			return it, FurnisherNotice{}, err
		}
	case DisputedDocument:
		if _, err := s.endUserDocument(ctx, sc, endUserID, it.ID, "item.id"); err != nil {
			if IsKind(err, KindNotFound) {
				return it, FurnisherNotice{}, notFound
			}
			return it, FurnisherNotice{}, err
		}
		return it, FurnisherNotice{Status: NoticeNoFurnisher, Route: "end_user", Reason: reasonPersonIsSource}, nil
	}
	return it, FurnisherNotice{Status: NoticePending}, nil
}

// endUserDocument is one of the end user's uploaded documents. Errors:
// DOCUMENT_NOT_FOUND.
func (s *DisputeService) endUserDocument(ctx context.Context, sc Scope, endUserID, id, field string) (Record, error) {
	r, err := s.items.Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) || (err == nil && (r.EndUserID != endUserID || r.Document == nil)) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "%s: end user %q has no document %s", field, endUserID, id)
	}
	return r, err
}

// Dispute reads one of the scope's disputes. Errors: INVALID_FIELDS,
// DISPUTE_NOT_FOUND (another tenant's included).
func (s *DisputeService) Dispute(ctx context.Context, sc Scope, id string) (Dispute, error) {
	if err := CheckID("dispute_id", id); err != nil {
		return Dispute{}, err
	}
	d, err := s.disputes.Dispute(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Dispute{}, disputeNotFound(id)
	}
	return d, err
}

// EndUserDispute is Dispute for the person's page: a dispute of another
// end user answers DISPUTE_NOT_FOUND.
func (s *DisputeService) EndUserDispute(ctx context.Context, sc Scope, endUserID, id string) (Dispute, error) {
	d, err := s.Dispute(ctx, sc, id)
	if err == nil && d.EndUserID != endUserID {
		return Dispute{}, disputeNotFound(id)
	}
	return d, err
}

// Disputes pages the scope's disputes, newest receipt first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *DisputeService) Disputes(ctx context.Context, sc Scope, f DisputeFilter, p PageRequest) (Page[Dispute], error) {
	if f.EndUserID != "" {
		if err := CheckIDText("end_user_id", f.EndUserID); err != nil {
			return Page[Dispute]{}, err
		}
	}
	if _, err := ParseDisputeStatus(string(f.Status)); err != nil {
		return Page[Dispute]{}, err
	}
	if f.Overdue && f.Status == DisputeResolved {
		return Page[Dispute]{}, Errorf(KindInvalid, CodeInvalidFields, "overdue: a resolved dispute is never overdue")
	}
	f.Now = s.clock.Now()
	return s.disputes.FindDisputes(ctx, sc, f, p)
}

// OpenDisputesOf lists an end user's unresolved disputes, for reports.
func (s *DisputeService) OpenDisputesOf(ctx context.Context, sc Scope, endUserID string) ([]Dispute, error) {
	return s.disputes.OpenDisputesOf(ctx, sc, endUserID)
}

// Now is the service's clock's time (the dashboard marks overdue
// disputes by it).
func (s *DisputeService) Now() time.Time { return s.clock.Now() }

// update changes one dispute in one transaction under its version: fn
// applies the change to d and says which event and audit action record it
// ("" for none), or answers errUnchanged (link_order_service.go's) to write nothing.
func (s *DisputeService) update(ctx context.Context, sc Scope, id, endUserID string,
	fn func(d *Dispute, now time.Time) (event, action string, err error)) (Dispute, error) {
	if err := CheckID("dispute_id", id); err != nil {
		return Dispute{}, err
	}
	var out Dispute
	err := s.tx.InDisputeTx(ctx, func(ctx context.Context, tx DisputeTx) error {
		d, err := tx.Disputes().DisputeForUpdate(ctx, sc, id)
		if errors.Is(err, ErrNoRows) || (err == nil && endUserID != "" && d.EndUserID != endUserID) {
			return disputeNotFound(id)
		}
		if err != nil {
			return err
		}
		now := s.clock.Now()
		event, action, err := fn(&d, now)
		if errors.Is(err, errUnchanged) {
			out = d
			return nil // nothing to write: no version spent
		}
		if err != nil {
			return err
		}
		d.UpdatedAt = now
		d.Version++
		if err := tx.Disputes().UpdateDispute(ctx, d); err != nil {
			return err
		}
		out = d
		if action != "" {
			if err := tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, ActorOf(ctx), action, d.ID, now)); err != nil {
				return err
			}
		}
		if event == "" {
			return nil
		}
		return PublishEvent(ctx, tx, sc, event, now, DisputePayload(d))
	})
	return out, err
}

// Investigate moves an open dispute to investigating, recording who (the
// caller's key or member) and when. Errors: DISPUTE_NOT_FOUND,
// DISPUTE_STATUS_CONFLICT, DISPUTE_RESOLVED.
func (s *DisputeService) Investigate(ctx context.Context, sc Scope, id string) (Dispute, error) {
	return s.update(ctx, sc, id, "", func(d *Dispute, now time.Time) (string, string, error) {
		if !d.Status.CanMoveTo(DisputeInvestigating) {
			return "", "", moveError(*d, DisputeInvestigating)
		}
		d.Status = DisputeInvestigating
		d.Steps = append(d.Steps, DisputeStep{Status: DisputeInvestigating, By: ActorOf(ctx), At: now})
		return "", AuditDisputeInvestigating, nil
	})
}

// Resolve ends a dispute under investigation with its outcome (corrected,
// verified or deleted) and the reason, sending dispute.resolved. Errors:
// MISSING_FIELDS, INVALID_FIELDS, DISPUTE_NOT_FOUND,
// DISPUTE_STATUS_CONFLICT (an open dispute is investigated first),
// DISPUTE_RESOLVED.
func (s *DisputeService) Resolve(ctx context.Context, sc Scope, id string, r ResolveRequest) (Dispute, error) {
	r.Reason = strings.TrimSpace(r.Reason)
	if err := r.check(); err != nil {
		return Dispute{}, err
	}
	return s.update(ctx, sc, id, "", func(d *Dispute, now time.Time) (string, string, error) {
		if !d.Status.CanMoveTo(DisputeResolved) {
			return "", "", moveError(*d, DisputeResolved)
		}
		d.Status, d.Outcome, d.Reason, d.ResolvedAt = DisputeResolved, r.Outcome, r.Reason, &now
		d.Steps = append(d.Steps, DisputeStep{Status: DisputeResolved, Outcome: r.Outcome, By: ActorOf(ctx), At: now, Reason: r.Reason})
		return EventDisputeResolved, AuditDisputeResolved, nil
	})
}

// AddInformation records new information the person brings to their
// unresolved dispute (a note, a document). The first that arrives during
// the period extends it to 45 days from receipt, once, recorded with when;
// later information, or information after the due time, extends nothing.
// Errors: MISSING_FIELDS, INVALID_FIELDS, DISPUTE_NOT_FOUND (another end
// user's included), DOCUMENT_NOT_FOUND, DISPUTE_RESOLVED.
func (s *DisputeService) AddInformation(ctx context.Context, sc Scope, endUserID, id, note, documentID string) (Dispute, error) {
	note = strings.TrimSpace(note)
	var p Problems
	checkNote(&p, "note", note, true)
	if documentID != "" && CheckID("document_id", documentID) != nil {
		p.Invalid("document_id", "must be the UUID of an uploaded document")
	}
	if err := p.Err(); err != nil {
		return Dispute{}, err
	}
	if documentID != "" {
		if _, err := s.endUserDocument(ctx, sc, endUserID, documentID, "document_id"); err != nil {
			return Dispute{}, err
		}
	}
	return s.update(ctx, sc, id, endUserID, func(d *Dispute, now time.Time) (string, string, error) {
		if d.Status == DisputeResolved {
			return "", "", moveError(*d, d.Status)
		}
		d.Information = append(d.Information, DisputeInformation{Note: note, DocumentID: documentID, At: now})
		if d.ExtendedAt != nil || !now.Before(d.DueAt) {
			return "", "", nil
		}
		d.ExtendedAt, d.DueAt = &now, d.ReceivedAt.AddDate(0, 0, DisputeExtendedDays)
		return "", AuditDisputeExtended, nil
	})
}

// NotifyFurnisher runs the notice job of a dispute: the item's source is
// told through the route that made the connection, and the dispute
// records its acknowledgement (furnisher_notified_at), or why the route
// has no channel for it. Any other failure is returned for the queue to
// try again; final says this was the last attempt, and records it.
func (s *DisputeService) NotifyFurnisher(ctx context.Context, r DisputeNoticeRun, final bool) error {
	d, err := s.disputes.Dispute(ctx, r.Scope, r.ID)
	if errors.Is(err, ErrNoRows) {
		return nil // deleted with its end user: nothing left to tell
	}
	if err != nil {
		return err
	}
	if d.Notice.Status != NoticePending {
		return nil
	}
	a, err := s.items.Account(ctx, r.Scope, d.Item.AccountID)
	if errors.Is(err, ErrNoRows) {
		return s.recordNotice(ctx, d, func(n *FurnisherNotice, _ time.Time) {
			n.Status, n.Reason = NoticeNotSent, "the connection was deleted before its source could be told"
		})
	}
	if err != nil {
		return err
	}
	n := DisputeNotice{Version: DisputeNoticeVersion, DisputeID: d.ID, AccountID: a.ID, Item: d.Item, Note: d.Note,
		ReceivedAt: d.ReceivedAt, RespondBy: d.DueAt}
	ack, sendErr := s.notifier.NotifyDispute(ctx, a, n)
	var none *NoDisputeChannelError
	switch {
	case sendErr == nil:
		return s.recordNotice(ctx, d, func(n *FurnisherNotice, now time.Time) {
			n.Status, n.Route, n.Reference, n.NotifiedAt, n.Reason = NoticeAcknowledged, ack.Route, ack.Reference, &now, ""
			n.Attempts++
		})
	case errors.As(sendErr, &none):
		return s.recordNotice(ctx, d, func(n *FurnisherNotice, _ time.Time) {
			n.Status, n.Route, n.Reason = NoticeNotSent, none.Route, none.Reason
			n.Attempts++
		})
	}
	if err := s.recordNotice(ctx, d, func(n *FurnisherNotice, _ time.Time) {
		n.Attempts++
		n.Reason = "the source did not acknowledge yet; trying again"
		if final {
			n.Status, n.Reason = NoticeNotSent, "the source never acknowledged the notice: "+sendErr.Error()
		}
	}); err != nil {
		return err
	}
	if final {
		return nil
	}
	return fmt.Errorf("notify the source of dispute %s: %w", d.ID, sendErr)
}

// recordNotice writes a change of the notice's record, if the notice is
// still pending.
func (s *DisputeService) recordNotice(ctx context.Context, d Dispute, fn func(n *FurnisherNotice, now time.Time)) error {
	_, err := s.update(ctx, d.Scope, d.ID, "", func(d *Dispute, now time.Time) (string, string, error) {
		if d.Notice.Status != NoticePending {
			return "", "", errUnchanged
		}
		fn(&d.Notice, now)
		return "", "", nil
	})
	return err
}

// overdueBatch is how many overdue disputes one sweep step raises.
const overdueBatch = 100

// SweepOverdue raises dispute.overdue once for each unresolved dispute
// past its due time, in any tenant, and says whether more may be due
// than one step did.
func (s *DisputeService) SweepOverdue(ctx context.Context) (bool, error) {
	due, err := s.disputes.DueOverdue(ctx, s.clock.Now(), overdueBatch)
	if err != nil {
		return false, err
	}
	for _, ref := range due {
		if err := ctx.Err(); err != nil {
			return true, err
		}
		_, err := s.update(ctx, ref.Scope, ref.ID, "", func(d *Dispute, now time.Time) (string, string, error) {
			if d.OverdueAt != nil || !d.Overdue(now) {
				return "", "", errUnchanged
			}
			d.OverdueAt = &now
			return EventDisputeOverdue, "", nil
		})
		if err != nil && !IsKind(err, KindNotFound) {
			return true, err
		}
	}
	return len(due) == overdueBatch, nil
}

// ActorEndUser names the person as the actor of their own dispute's steps.
const ActorEndUser = "end_user"

// MaxPersonDisputes bounds the disputes the person's page lists at once.
const MaxPersonDisputes = 100

// OpenPersonDispute is OpenDispute from the person's own page: the
// session names the customer, mode and end user, and the person files it.
func (s *DisputeService) OpenPersonDispute(ctx context.Context, sess PortalSession, r DisputeRequest) (Dispute, error) {
	return s.OpenDispute(ctx, sess.Scope(), sess.EndUserID, r, ActorEndUser)
}

// PersonDisputes lists the person's disputes at the session's customer,
// newest first, each with every step, for their page.
func (s *DisputeService) PersonDisputes(ctx context.Context, sess PortalSession) ([]Dispute, error) {
	pg, err := s.disputes.FindDisputes(ctx, sess.Scope(), DisputeFilter{EndUserID: sess.EndUserID}, PageRequest{Limit: MaxPersonDisputes})
	return pg.Items, err
}

// AddPersonInformation is AddInformation from the person's own page.
func (s *DisputeService) AddPersonInformation(ctx context.Context, sess PortalSession, id, note, documentID string) (Dispute, error) {
	return s.AddInformation(ctx, sess.Scope(), sess.EndUserID, id, note, documentID)
}
