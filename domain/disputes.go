package domain

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Disputes (docs/disputes.md): a person disputes the completeness or
// accuracy of an item Payline holds or reported about them, as the Fair
// Credit Reporting Act lets a consumer. The law's clocks run from the
// dispute's receipt: the reinvestigation is due in 30 days (45 when the
// person brings new information during the period), and the furnisher of
// the item is told within 5 business days.

// ListDisputes is the disputes list's name, for its cursors.
const ListDisputes = "disputes"

// The law's clocks.
const (
	// DisputeDays is the reinvestigation period from receipt.
	DisputeDays = 30
	// DisputeExtendedDays is the period when the person supplies new
	// information during it (15 U.S.C. 1681i(a)(1)(B)).
	DisputeExtendedDays = 45
	// FurnisherNoticeBusinessDays bounds the notice to the furnisher
	// (15 U.S.C. 1681i(a)(2)).
	FurnisherNoticeBusinessDays = 5
)

// MaxDisputeNote bounds a dispute's note and a resolution's reason, in
// characters.
const MaxDisputeNote = 4000

// DisputeStatus is where a dispute stands: open → investigating →
// resolved.
type DisputeStatus string

// The statuses of a dispute.
const (
	DisputeOpen          DisputeStatus = "open"
	DisputeInvestigating DisputeStatus = "investigating"
	DisputeResolved      DisputeStatus = "resolved"
)

// disputeMoves is the state machine: the statuses each status may move
// to. Resolved is final.
var disputeMoves = map[DisputeStatus][]DisputeStatus{
	DisputeOpen:          {DisputeInvestigating},
	DisputeInvestigating: {DisputeResolved},
}

// CanMoveTo says whether a dispute in status s may move to next.
func (s DisputeStatus) CanMoveTo(next DisputeStatus) bool {
	for _, m := range disputeMoves[s] {
		if m == next {
			return true
		}
	}
	return false
}

// ParseDisputeStatus reads a status filter: open, investigating,
// resolved, or "" for any.
func ParseDisputeStatus(s string) (DisputeStatus, error) {
	switch st := DisputeStatus(s); st {
	case "", DisputeOpen, DisputeInvestigating, DisputeResolved:
		return st, nil
	}
	return "", Errorf(KindInvalid, CodeInvalidFields, "status: must be open, investigating or resolved, got %q", s)
}

// DisputeOutcome is how a reinvestigation ended.
type DisputeOutcome string

// The outcomes of a resolved dispute: the item was corrected, verified as
// it stands, or deleted.
const (
	DisputeCorrected DisputeOutcome = "corrected"
	DisputeVerified  DisputeOutcome = "verified"
	DisputeDeleted   DisputeOutcome = "deleted"
)

// The kinds of item a person disputes.
const (
	// DisputedPaystub is one paystub (Item.ID its id), a figure of it when
	// Field is set ("net_pay_amount").
	DisputedPaystub = "paystub"
	// DisputedEmployment is an employment (Item.ID the account id).
	DisputedEmployment = "employment"
	// DisputedReportField is a field of a report (Item.ReportType voie or
	// voe, Field required; Item.ID, optional, the account it is about).
	DisputedReportField = "report_field"
	// DisputedDocument is an uploaded document (Item.ID the document id):
	// the person is its source.
	DisputedDocument = "document"
)

// DisputeItem is what is disputed.
type DisputeItem struct {
	Type       string `json:"type"`
	ID         string `json:"id,omitempty"`
	Field      string `json:"field,omitempty"`
	ReportType string `json:"report_type,omitempty"`
	// AccountID is the connection the item came from, found when the
	// dispute is opened ("" for a document or a report field about no
	// one connection).
	AccountID string `json:"account_id,omitempty"`
}

// Furnisher notice statuses.
const (
	// NoticePending: the notice is queued or being retried.
	NoticePending = "pending"
	// NoticeAcknowledged: the source acknowledged it (NotifiedAt).
	NoticeAcknowledged = "acknowledged"
	// NoticeNotSent: the route has no way to take it; Reason says why.
	NoticeNotSent = "not_sent"
	// NoticeNoFurnisher: the item has no furnisher (the person uploaded
	// it, or Payline computed it); Reason says which.
	NoticeNoFurnisher = "no_furnisher"
)

// FurnisherNotice is what the dispute records of telling the source of
// the item.
type FurnisherNotice struct {
	Status string `json:"status"`
	// Route names the source the notice goes through (the sandbox, a
	// connector's or an upstream's name).
	Route string `json:"route,omitempty"`
	// DueAt is 5 business days after receipt.
	DueAt time.Time `json:"due_at"`
	// NotifiedAt is when the source acknowledged.
	NotifiedAt *time.Time `json:"notified_at,omitempty"`
	// Reference is the source's own reference of the notice.
	Reference string `json:"reference,omitempty"`
	// Reason says why no notice was or will be sent.
	Reason   string `json:"reason,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
}

// DisputeStep is one change of a dispute: who moved it (end_user,
// member:<email>, key:<id>, system), when, to what, and why.
type DisputeStep struct {
	Status  DisputeStatus  `json:"status"`
	Outcome DisputeOutcome `json:"outcome,omitempty"`
	By      string         `json:"by"`
	At      time.Time      `json:"at"`
	Reason  string         `json:"reason,omitempty"`
}

// DisputeInformation is new information the person supplied during the
// period, which extended it to 45 days the first time.
type DisputeInformation struct {
	Note       string    `json:"note"`
	DocumentID string    `json:"document_id,omitempty"`
	At         time.Time `json:"at"`
}

// Dispute is a person's dispute of an item, with its clocks.
type Dispute struct {
	ID        string
	Scope     Scope
	EndUserID string
	Item      DisputeItem
	// Note is the person's words; DocumentID an uploaded document they
	// sent with it. Both are sealed at rest.
	Note        string
	DocumentID  string
	Information []DisputeInformation
	Status      DisputeStatus
	Outcome     DisputeOutcome
	// Reason is the resolution's.
	Reason     string
	ReceivedAt time.Time
	// DueAt is 30 days after receipt, 45 once ExtendedAt is set.
	DueAt      time.Time
	ExtendedAt *time.Time
	Notice     FurnisherNotice
	// OverdueAt is when dispute.overdue was raised (once).
	OverdueAt  *time.Time
	ResolvedAt *time.Time
	Steps      []DisputeStep
	UpdatedAt  time.Time
	// Version counts writes: an update names the version it read.
	Version int
}

// Overdue says whether the dispute is past its due time unresolved.
func (d Dispute) Overdue(now time.Time) bool {
	return d.Status != DisputeResolved && !now.Before(d.DueAt)
}

// DisputeClocks are a dispute's clocks from its receipt.
func DisputeClocks(received time.Time) (due, noticeDue time.Time) {
	return received.AddDate(0, 0, DisputeDays), AddBusinessDays(received, FurnisherNoticeBusinessDays)
}

// DisputeFilter narrows the disputes list.
type DisputeFilter struct {
	EndUserID string
	Status    DisputeStatus
	// Overdue keeps unresolved disputes past their due time at Now.
	Overdue bool
	Now     time.Time
}

// DisputeRef names a dispute of a tenant, for the jobs that act on it.
type DisputeRef struct {
	Scope Scope
	ID    string
}

// DisputeNoticeRun is the River job that tells an item's source of a
// dispute.
type DisputeNoticeRun = DisputeRef

// DisputeStore keeps disputes.
type DisputeStore interface {
	CreateDispute(ctx context.Context, d Dispute) error
	// Dispute returns ErrNoRows when the scope has none with the id.
	Dispute(ctx context.Context, s Scope, id string) (Dispute, error)
	// DisputeForUpdate is Dispute, holding the row until the transaction
	// ends.
	DisputeForUpdate(ctx context.Context, s Scope, id string) (Dispute, error)
	// UpdateDispute writes d when its stored version is d.Version-1;
	// ErrNoRows otherwise.
	UpdateDispute(ctx context.Context, d Dispute) error
	// FindDisputes pages the scope's disputes, newest receipt first.
	FindDisputes(ctx context.Context, s Scope, f DisputeFilter, p PageRequest) (Page[Dispute], error)
	// OpenDisputesOf lists an end user's unresolved disputes (reports
	// note them).
	OpenDisputesOf(ctx context.Context, s Scope, endUserID string) ([]Dispute, error)
	// OpenDisputesOfEndUsers lists end users' unresolved disputes in one
	// query, by end user, oldest receipt first.
	OpenDisputesOfEndUsers(ctx context.Context, s Scope, endUserIDs []string) (map[string][]Dispute, error)
	// DueOverdue lists up to limit unresolved disputes of any tenant due
	// by now whose dispute.overdue was not raised.
	DueOverdue(ctx context.Context, now time.Time, limit int) ([]DisputeRef, error)
}

// DisputeItems reads what a dispute names, to check it is the end user's
// and find its source.
type DisputeItems interface {
	// Account returns ErrNoRows when the scope has none with the id.
	Account(ctx context.Context, s Scope, id string) (Account, error)
	// PaystubByID returns ErrNoRows when no account of the scope has it.
	PaystubByID(ctx context.Context, s Scope, id string) (Paystub, error)
	// Record returns ErrNoRows when the scope has no such record.
	Record(ctx context.Context, s Scope, kind, id string) (Record, error)
}

// DisputeTx is what a dispute's use cases change in one transaction: the
// dispute, the audit log, the notice's job and the events with their
// deliveries.
type DisputeTx interface {
	EventTx
	Disputes() DisputeStore
	Audit() AuditStore
	// EnqueueDisputeNotice queues the furnisher notice once per dispute,
	// visible once the transaction commits.
	EnqueueDisputeNotice(ctx context.Context, r DisputeNoticeRun) error
}

// DisputeTransactor runs a dispute's use case in one transaction.
type DisputeTransactor interface {
	InDisputeTx(ctx context.Context, fn func(ctx context.Context, tx DisputeTx) error) error
}

// DisputeNotice is what a source is told: the versioned notice of the
// connector protocol (docs/connectors.md, "Dispute notices").
type DisputeNotice struct {
	// Version is the notice's format, DisputeNoticeVersion.
	Version    string
	DisputeID  string
	AccountID  string
	Item       DisputeItem
	Note       string
	ReceivedAt time.Time
	// RespondBy is the reinvestigation's due time.
	RespondBy time.Time
}

// DisputeNoticeVersion is the dispute notice's format version.
const DisputeNoticeVersion = "2026-11-28"

// DisputeAck is a source's acknowledgement of a notice.
type DisputeAck struct {
	// Route names the source that acknowledged.
	Route     string
	Reference string
}

// NoDisputeChannelError says a route has no way to take a dispute
// notice: the dispute records Reason and the notice is not retried.
type NoDisputeChannelError struct{ Route, Reason string }

func (e *NoDisputeChannelError) Error() string { return "no dispute channel: " + e.Reason }

// FurnisherNotifier tells the source of an account's data of a dispute,
// through the route that made the connection.
type FurnisherNotifier interface {
	// NotifyDispute sends the notice and returns the source's
	// acknowledgement. Errors: *NoDisputeChannelError when the route has
	// no dispute channel (final); any other error is tried again.
	NotifyDispute(ctx context.Context, a Account, n DisputeNotice) (DisputeAck, error)
}

// Events of disputes (docs/webhooks.md).
const (
	EventDisputeOpened   = "dispute.opened"
	EventDisputeResolved = "dispute.resolved"
	EventDisputeOverdue  = "dispute.overdue"
)

// FlagItemDisputed is the point to review a report raises for each of
// the person's open disputes, next to the disputed item.
const FlagItemDisputed = "ITEM_DISPUTED"

// DisputeEvents are the dispute events a webhook can enable.
var DisputeEvents = []string{EventDisputeOpened, EventDisputeResolved, EventDisputeOverdue}

// Audit actions of disputes.
const (
	AuditDisputeOpened        = "dispute.opened"
	AuditDisputeInvestigating = "dispute.investigating"
	AuditDisputeResolved      = "dispute.resolved"
	AuditDisputeExtended      = "dispute.extended"
)

// DisputePayload is a dispute event's payload: the dispute's state and
// clocks, without the person's note.
func DisputePayload(d Dispute) map[string]any {
	var resolved, notified any
	if d.ResolvedAt != nil {
		resolved = APITime(*d.ResolvedAt)
	}
	if d.Notice.NotifiedAt != nil {
		notified = APITime(*d.Notice.NotifiedAt)
	}
	p := map[string]any{"dispute_id": d.ID, "end_user_id": d.EndUserID, "item": d.Item, "status": d.Status,
		"received_at": APITime(d.ReceivedAt), "due_at": APITime(d.DueAt), "furnisher_notified_at": notified,
		"resolved_at": resolved}
	if d.Outcome != "" {
		p["outcome"] = d.Outcome
	}
	return p
}

// DisputeRequest is a person's dispute as they file it.
type DisputeRequest struct {
	Item       DisputeItem
	Note       string
	DocumentID string
}

// checkNote validates a note or reason of a dispute.
func checkNote(p *Problems, field, note string, required bool) {
	switch {
	case required && strings.TrimSpace(note) == "":
		p.Missing(field)
	case utf8.RuneCountInString(note) > MaxDisputeNote:
		p.Invalid(field, "must be at most %d characters", MaxDisputeNote)
	case !storable(note):
		p.Invalid(field, "must be text (valid UTF-8 without NUL characters)")
	}
}

// check validates the request's shape before anything is read.
func (r DisputeRequest) check() error {
	var p Problems
	it := r.Item
	switch it.Type {
	case DisputedPaystub, DisputedEmployment, DisputedDocument:
		if it.ID == "" {
			p.Missing("item.id")
		} else if CheckID("item.id", it.ID) != nil {
			p.Invalid("item.id", "must be a UUID")
		}
	case DisputedReportField:
		if it.ReportType != ReportVOIE && it.ReportType != ReportVOE {
			p.Invalid("item.report_type", "must be %s or %s, got %q", ReportVOIE, ReportVOE, it.ReportType)
		}
		if it.Field == "" {
			p.Missing("item.field")
		}
		if it.ID != "" && CheckID("item.id", it.ID) != nil {
			p.Invalid("item.id", "must be the UUID of the account the field is about")
		}
	case "":
		p.Missing("item.type")
	default:
		p.Invalid("item.type", "must be paystub, employment, report_field or document, got %q", it.Type)
	}
	if len(it.Field) > 100 || !storable(it.Field) {
		p.Invalid("item.field", "must be a field name of at most 100 characters")
	}
	checkNote(&p, "note", r.Note, true)
	if r.DocumentID != "" && CheckID("document_id", r.DocumentID) != nil {
		p.Invalid("document_id", "must be the UUID of an uploaded document")
	}
	return p.Err()
}

// ResolveRequest is a resolution: its outcome and reason.
type ResolveRequest struct {
	Outcome DisputeOutcome
	Reason  string
}

func (r ResolveRequest) check() error {
	var p Problems
	switch r.Outcome {
	case DisputeCorrected, DisputeVerified, DisputeDeleted:
	case "":
		p.Missing("outcome")
	default:
		p.Invalid("outcome", "must be corrected, verified or deleted, got %q", r.Outcome)
	}
	checkNote(&p, "reason", r.Reason, true)
	return p.Err()
}

// disputeNotFound answers a dispute id the scope has none with.
func disputeNotFound(id string) error {
	return Errorf(KindNotFound, CodeDisputeNotFound, "no dispute with id %s", id)
}

// moveError refuses a transition the state machine does not allow.
func moveError(d Dispute, to DisputeStatus) error {
	if d.Status == DisputeResolved {
		return Errorf(KindConflict, CodeDisputeResolved, "dispute %s was resolved (%s) on %s; a resolved dispute does not change",
			d.ID, d.Outcome, APITime(*d.ResolvedAt))
	}
	return Errorf(KindConflict, CodeDisputeStatusConflict, "dispute %s is %s: it can move only to %s, not %s",
		d.ID, d.Status, joinStatusList(disputeMoves[d.Status]), to)
}

func joinStatusList(ss []DisputeStatus) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return strings.Join(out, " or ")
}

// NotifyDispute implements FurnisherNotifier: without a payroll source
// there is no route to tell.
func (NoConnector) NotifyDispute(context.Context, Account, DisputeNotice) (DisputeAck, error) {
	return DisputeAck{}, &NoDisputeChannelError{Route: "none", Reason: "this server has no payroll source in this mode, so no route to the furnisher"}
}
