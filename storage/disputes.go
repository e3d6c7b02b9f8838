package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// Disputes is the disputes store, on the stores' database or transaction.
func (s stores) Disputes() domain.DisputeStore { return s }

type disputeRow struct {
	ID                  string     `db:"id"`
	CustomerID          string     `db:"customer_id"`
	Mode                string     `db:"mode"`
	EndUserID           string     `db:"end_user_id"`
	Status              string     `db:"status"`
	ItemType            string     `db:"item_type"`
	AccountID           *string    `db:"account_id"`
	Body                string     `db:"body"`
	SealedDetail        []byte     `db:"sealed_detail"`
	ReceivedAt          time.Time  `db:"received_at"`
	DueAt               time.Time  `db:"due_at"`
	NoticeStatus        string     `db:"notice_status"`
	NoticeDueAt         time.Time  `db:"notice_due_at"`
	FurnisherNotifiedAt *time.Time `db:"furnisher_notified_at"`
	OverdueAt           *time.Time `db:"overdue_at"`
	ResolvedAt          *time.Time `db:"resolved_at"`
	UpdatedAt           time.Time  `db:"updated_at"`
	Version             int        `db:"version"`
}

const disputeColumns = `id, customer_id, mode, end_user_id, status, item_type, account_id, body, sealed_detail, received_at,
	due_at, notice_status, notice_due_at, furnisher_notified_at, overdue_at, resolved_at, updated_at, version`

var disputesNewest = keyset[domain.Dispute]{list: domain.ListDisputes, column: "received_at", desc: true, byTime: true,
	key: func(d domain.Dispute) keyValue { return keyValue{d.ReceivedAt, d.ID} }}

// The stored forms of a dispute's parts: types of their own, so renaming
// a domain field never changes what a stored dispute opens to.

// storedDisputeBody is the body column: what is not the person's words.
type storedDisputeBody struct {
	Item       storedDisputeItem   `json:"item"`
	Outcome    string              `json:"outcome,omitempty"`
	Reason     string              `json:"reason,omitempty"`
	ExtendedAt *time.Time          `json:"extended_at,omitempty"`
	Notice     storedNotice        `json:"notice"`
	Steps      []storedDisputeStep `json:"steps"`
}

type storedDisputeItem struct {
	Type       string `json:"type"`
	ID         string `json:"id,omitempty"`
	Field      string `json:"field,omitempty"`
	ReportType string `json:"report_type,omitempty"`
	AccountID  string `json:"account_id,omitempty"`
}

type storedNotice struct {
	Route     string `json:"route,omitempty"`
	Reference string `json:"reference,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Attempts  int    `json:"attempts,omitempty"`
}

type storedDisputeStep struct {
	Status  string    `json:"status"`
	Outcome string    `json:"outcome,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
}

// sealedDisputeDetail is the sealed_detail column: the person's words and
// documents.
type sealedDisputeDetail struct {
	Note        string             `json:"note"`
	DocumentID  string             `json:"document_id,omitempty"`
	Information []storedDisputeNew `json:"information,omitempty"`
}

type storedDisputeNew struct {
	Note       string    `json:"note"`
	DocumentID string    `json:"document_id,omitempty"`
	At         time.Time `json:"at"`
}

// disputeDetailAD binds a dispute's sealed detail to its row.
func disputeDetailAD(id string) []byte { return []byte("dispute_detail:" + id) }

func disputeBody(d domain.Dispute) string {
	b := storedDisputeBody{Item: storedDisputeItem(d.Item), Outcome: string(d.Outcome), Reason: d.Reason,
		ExtendedAt: utcPtr(d.ExtendedAt), Notice: storedNotice{Route: d.Notice.Route, Reference: d.Notice.Reference,
			Reason: d.Notice.Reason, Attempts: d.Notice.Attempts}, Steps: make([]storedDisputeStep, len(d.Steps))}
	for i, st := range d.Steps {
		b.Steps[i] = storedDisputeStep{Status: string(st.Status), Outcome: string(st.Outcome), By: st.By, At: st.At.UTC(), Reason: st.Reason}
	}
	return jsonText(b)
}

func (s stores) sealDisputeDetail(d domain.Dispute) ([]byte, error) {
	det := sealedDisputeDetail{Note: d.Note, DocumentID: d.DocumentID}
	for _, in := range d.Information {
		det.Information = append(det.Information, storedDisputeNew{Note: in.Note, DocumentID: in.DocumentID, At: in.At.UTC()})
	}
	return s.boxSeal([]byte(jsonText(det)), disputeDetailAD(d.ID))
}

// CreateDispute implements domain.DisputeStore.
func (s stores) CreateDispute(ctx context.Context, d domain.Dispute) error {
	detail, err := s.sealDisputeDetail(d)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO disputes (`+disputeColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		d.ID, d.Scope.CustomerID, string(d.Scope.Mode), d.EndUserID, string(d.Status), d.Item.Type, nullable(d.Item.AccountID),
		disputeBody(d), detail, d.ReceivedAt.UTC(), d.DueAt.UTC(), d.Notice.Status, d.Notice.DueAt.UTC(), utcPtr(d.Notice.NotifiedAt),
		utcPtr(d.OverdueAt), utcPtr(d.ResolvedAt), d.UpdatedAt.UTC(), d.Version)
	return translate(err)
}

func (s stores) getDispute(ctx context.Context, where string, args ...any) (domain.Dispute, error) {
	var r disputeRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+disputeColumns+` FROM disputes WHERE `+where), args...); err != nil {
		return domain.Dispute{}, translate(err)
	}
	return s.dispute(r)
}

// Dispute implements domain.DisputeStore.
func (s stores) Dispute(ctx context.Context, sc domain.Scope, id string) (domain.Dispute, error) {
	return s.getDispute(ctx, `id = ? AND customer_id = ? AND mode = ?`, id, sc.CustomerID, string(sc.Mode))
}

// DisputeForUpdate implements domain.DisputeStore: the row is locked on
// PostgreSQL; SQLite's write transactions already exclude each other.
func (s stores) DisputeForUpdate(ctx context.Context, sc domain.Scope, id string) (domain.Dispute, error) {
	return s.getDispute(ctx, `id = ? AND customer_id = ? AND mode = ?`+rowLock(s.q, "FOR UPDATE"), id, sc.CustomerID, string(sc.Mode))
}

// UpdateDispute implements domain.DisputeStore.
func (s stores) UpdateDispute(ctx context.Context, d domain.Dispute) error {
	detail, err := s.sealDisputeDetail(d)
	if err != nil {
		return err
	}
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE disputes SET status = ?, body = ?, sealed_detail = ?, due_at = ?,
		notice_status = ?, furnisher_notified_at = ?, overdue_at = ?, resolved_at = ?, updated_at = ?, version = ?
		WHERE id = ? AND customer_id = ? AND mode = ? AND version = ?`),
		string(d.Status), disputeBody(d), detail, d.DueAt.UTC(), d.Notice.Status, utcPtr(d.Notice.NotifiedAt), utcPtr(d.OverdueAt),
		utcPtr(d.ResolvedAt), d.UpdatedAt.UTC(), d.Version, d.ID, d.Scope.CustomerID, string(d.Scope.Mode), d.Version-1))
}

// FindDisputes implements domain.DisputeStore.
func (s stores) FindDisputes(ctx context.Context, sc domain.Scope, f domain.DisputeFilter, p domain.PageRequest) (domain.Page[domain.Dispute], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if f.EndUserID != "" {
		q.where("end_user_id = ?", f.EndUserID)
	}
	if f.Status != "" {
		q.where("status = ?", string(f.Status))
	}
	if f.Overdue {
		q.where("status <> ? AND due_at <= ?", string(domain.DisputeResolved), f.Now.UTC())
	}
	return selectPage(ctx, s.q, disputesNewest, `SELECT `+disputeColumns+` FROM disputes`, q, p, s.dispute)
}

// OpenDisputesOf implements domain.DisputeStore.
func (s stores) OpenDisputesOf(ctx context.Context, sc domain.Scope, endUserID string) ([]domain.Dispute, error) {
	var rows []disputeRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT `+disputeColumns+` FROM disputes
		WHERE customer_id = ? AND mode = ? AND end_user_id = ? AND status <> ? ORDER BY received_at, id`),
		sc.CustomerID, string(sc.Mode), endUserID, string(domain.DisputeResolved)); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Dispute, 0, len(rows))
	for _, r := range rows {
		d, err := s.dispute(r)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// OpenDisputesOfEndUsers implements domain.DisputeStore.
func (s stores) OpenDisputesOfEndUsers(ctx context.Context, sc domain.Scope, endUserIDs []string) (map[string][]domain.Dispute, error) {
	out := map[string][]domain.Dispute{}
	if len(endUserIDs) == 0 {
		return out, nil
	}
	in, args, err := sqlx.In(`SELECT `+disputeColumns+` FROM disputes WHERE customer_id = ? AND mode = ? AND status <> ?
		AND end_user_id IN (?) ORDER BY received_at, id`, sc.CustomerID, string(sc.Mode), string(domain.DisputeResolved), endUserIDs)
	if err != nil {
		return nil, err
	}
	var rows []disputeRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(in), args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		d, err := s.dispute(r)
		if err != nil {
			return nil, err
		}
		out[d.EndUserID] = append(out[d.EndUserID], d)
	}
	return out, nil
}

// DueOverdue implements domain.DisputeStore.
func (s stores) DueOverdue(ctx context.Context, now time.Time, limit int) ([]domain.DisputeRef, error) {
	var rows []struct {
		ID         string `db:"id"`
		CustomerID string `db:"customer_id"`
		Mode       string `db:"mode"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT id, customer_id, mode FROM disputes
		WHERE status IN (?, ?) AND due_at <= ? AND overdue_at IS NULL ORDER BY due_at, id LIMIT ?`),
		string(domain.DisputeOpen), string(domain.DisputeInvestigating), now.UTC(), limit); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.DisputeRef, len(rows))
	for i, r := range rows {
		out[i] = domain.DisputeRef{Scope: domain.Scope{CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode)}, ID: r.ID}
	}
	return out, nil
}

func (s stores) dispute(r disputeRow) (domain.Dispute, error) {
	var b storedDisputeBody
	if err := json.Unmarshal([]byte(r.Body), &b); err != nil {
		return domain.Dispute{}, fmt.Errorf("dispute %s's body: %w", r.ID, err)
	}
	d := domain.Dispute{ID: r.ID, Scope: domain.Scope{CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode)}, EndUserID: r.EndUserID,
		Item: domain.DisputeItem(b.Item), Status: domain.DisputeStatus(r.Status), Outcome: domain.DisputeOutcome(b.Outcome),
		Reason: b.Reason, ReceivedAt: r.ReceivedAt.UTC(), DueAt: r.DueAt.UTC(), ExtendedAt: utcPtr(b.ExtendedAt),
		Notice: domain.FurnisherNotice{Status: r.NoticeStatus, Route: b.Notice.Route, DueAt: r.NoticeDueAt.UTC(),
			NotifiedAt: utcPtr(r.FurnisherNotifiedAt), Reference: b.Notice.Reference, Reason: b.Notice.Reason, Attempts: b.Notice.Attempts},
		OverdueAt: utcPtr(r.OverdueAt), ResolvedAt: utcPtr(r.ResolvedAt), UpdatedAt: r.UpdatedAt.UTC(), Version: r.Version}
	for _, st := range b.Steps {
		d.Steps = append(d.Steps, domain.DisputeStep{Status: domain.DisputeStatus(st.Status), Outcome: domain.DisputeOutcome(st.Outcome),
			By: st.By, At: st.At.UTC(), Reason: st.Reason})
	}
	plain, err := s.boxOpen(r.SealedDetail, disputeDetailAD(r.ID))
	if err != nil {
		return d, fmt.Errorf("open dispute %s's detail: %w", r.ID, err)
	}
	var det sealedDisputeDetail
	if err := json.Unmarshal(plain, &det); err != nil {
		return d, fmt.Errorf("dispute %s's detail: %w", r.ID, err)
	}
	d.Note, d.DocumentID = det.Note, det.DocumentID
	for _, in := range det.Information {
		d.Information = append(d.Information, domain.DisputeInformation{Note: in.Note, DocumentID: in.DocumentID, At: in.At.UTC()})
	}
	return d, nil
}

// InDisputeTx implements domain.DisputeTransactor: InTx, reaching only
// what a dispute's use case changes.
func (t *Transactor) InDisputeTx(ctx context.Context, fn func(context.Context, domain.DisputeTx) error) error {
	return t.inTx(ctx, func(ctx context.Context, tx *txStores) error { return fn(ctx, tx) })
}

func (t *txStores) EnqueueDisputeNotice(ctx context.Context, r domain.DisputeNoticeRun) error {
	return t.queue.insertDisputeNotice(ctx, t.tx, r)
}

var (
	_ domain.DisputeStore      = stores{}
	_ domain.DisputeItems      = stores{}
	_ domain.DisputeTx         = (*txStores)(nil)
	_ domain.DisputeTransactor = (*Transactor)(nil)
)
