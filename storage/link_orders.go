package storage

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) LinkOrders() domain.LinkOrderStore { return s }

type linkOrderRow struct {
	ID               string     `db:"id"`
	CustomerID       string     `db:"customer_id"`
	Mode             string     `db:"mode"`
	Status           string     `db:"status"`
	EndUserID        string     `db:"end_user_id"`
	OrgName          string     `db:"org_name"`
	APIVersion       string     `db:"api_version"`
	CodeHash         string     `db:"code_hash"`
	SealedCode       []byte     `db:"sealed_code"`
	SealedRequest    []byte     `db:"sealed_request"`
	SealedContacts   []byte     `db:"sealed_contacts"`
	Deliveries       string     `db:"deliveries"`
	SMSConsent       bool       `db:"sms_consent"`
	TimeZone         string     `db:"time_zone"`
	Reminders        int        `db:"reminders"`
	RemindersSent    int        `db:"reminders_sent"`
	NextReminderAt   *time.Time `db:"next_reminder_at"`
	SendDueAt        *time.Time `db:"send_due_at"`
	MessagesQueued   int        `db:"messages_queued"`
	ExpiresAt        time.Time  `db:"expires_at"`
	LinkTokenID      *string    `db:"link_token_id"`
	LinkTokenExpires *time.Time `db:"link_token_expires"`
	SealedLinkToken  []byte     `db:"sealed_link_token"`
	AccountID        *string    `db:"account_id"`
	CreatedAt        time.Time  `db:"created_at"`
	UpdatedAt        time.Time  `db:"updated_at"`
	OpenedAt         *time.Time `db:"opened_at"`
	ClosedAt         *time.Time `db:"closed_at"`
	Version          int        `db:"version"`
}

const linkOrderColumns = `id, customer_id, mode, status, end_user_id, org_name, api_version, code_hash, sealed_code,
	sealed_request, sealed_contacts, deliveries, sms_consent, time_zone, reminders, reminders_sent, next_reminder_at,
	send_due_at, messages_queued, expires_at, link_token_id, link_token_expires, sealed_link_token, account_id,
	created_at, updated_at, opened_at, closed_at, version`

var linkOrdersNewest = keyset[domain.LinkOrder]{list: domain.ListLinkOrders, column: "created_at", desc: true, byTime: true,
	key: func(o domain.LinkOrder) keyValue { return keyValue{o.CreatedAt, o.ID} }}

// The stored forms of an order's parts: types of their own, so renaming a
// domain field never changes what a stored order opens to.

// storedDelivery is one channel of the deliveries column (no address).
type storedDelivery struct {
	Channel       string     `json:"channel"`
	Status        string     `json:"status"`
	SentAt        *time.Time `json:"sent_at,omitempty"`
	FailureReason string     `json:"failure_reason,omitempty"`
	Attempts      int        `json:"attempts,omitempty"`
	Messages      int        `json:"messages,omitempty"`
}

// sealedContacts are the addresses, by channel.
type sealedContacts map[string]string

// sealedOrderRequest is the link token request an order mints its tokens
// from.
type sealedOrderRequest struct {
	OrgName                       string            `json:"org_name"`
	EndUserID                     string            `json:"end_user_id"`
	Solution                      string            `json:"solution,omitempty"`
	Features                      []string          `json:"features,omitempty"`
	RequiredJobs                  []string          `json:"required_jobs,omitempty"`
	EmployerID                    string            `json:"employer_id,omitempty"`
	PlatformID                    string            `json:"platform_id,omitempty"`
	SkipIntroScreen               bool              `json:"skip_intro_screen,omitempty"`
	DisableDirectDepositSplitting bool              `json:"disable_direct_deposit_splitting,omitempty"`
	Language                      string            `json:"language,omitempty"`
	Allocation                    *sealedOrderAlloc `json:"allocation,omitempty"`
}

type sealedOrderAlloc struct {
	Type    string         `json:"type,omitempty"`
	Value   *string        `json:"value,omitempty"` // the literal as the customer wrote it
	Targets []sealedTarget `json:"targets,omitempty"`
}

// The bindings of an order's sealed values: each names its table and
// part, so no value opens as another's.
func orderCodeAD(id string) []byte     { return []byte("link_order_code:" + id) }
func orderRequestAD(id string) []byte  { return []byte("link_order_request:" + id) }
func orderContactsAD(id string) []byte { return []byte("link_order_contacts:" + id) }
func orderTokenAD(id string) []byte    { return []byte("link_order_token:" + id) }

func sealRequest(r domain.LinkTokenRequest) []byte {
	s := sealedOrderRequest{OrgName: r.OrgName, EndUserID: r.EndUserID, Solution: r.Solution, Features: r.Features,
		RequiredJobs: r.RequiredJobs, EmployerID: r.EmployerID, PlatformID: r.PlatformID, SkipIntroScreen: r.SkipIntroScreen,
		DisableDirectDepositSplitting: r.DisableDirectDepositSplitting, Language: r.Language}
	if a := r.Allocation; a != nil {
		s.Allocation = &sealedOrderAlloc{Type: a.Type}
		if a.Value != nil {
			v := string(*a.Value)
			s.Allocation.Value = &v
		}
		for _, t := range a.Targets {
			s.Allocation.Targets = append(s.Allocation.Targets, sealedTarget(t))
		}
	}
	b, _ := json.Marshal(s) // strings and bools always marshal
	return b
}

func openRequest(b []byte) (domain.LinkTokenRequest, error) {
	var s sealedOrderRequest
	if err := json.Unmarshal(b, &s); err != nil {
		return domain.LinkTokenRequest{}, err
	}
	r := domain.LinkTokenRequest{OrgName: s.OrgName, EndUserID: s.EndUserID, Solution: s.Solution, Features: s.Features,
		RequiredJobs: s.RequiredJobs, EmployerID: s.EmployerID, PlatformID: s.PlatformID, SkipIntroScreen: s.SkipIntroScreen,
		DisableDirectDepositSplitting: s.DisableDirectDepositSplitting, Language: s.Language}
	if a := s.Allocation; a != nil {
		r.Allocation = &domain.AllocationRequest{Type: a.Type}
		if a.Value != nil {
			v := domain.Number(*a.Value)
			r.Allocation.Value = &v
		}
		for _, t := range a.Targets {
			r.Allocation.Targets = append(r.Allocation.Targets, domain.AllocationTarget(t))
		}
	}
	return r, nil
}

func (s stores) boxSeal(plain, ad []byte) ([]byte, error) {
	box := s.seal.box.Load()
	if box == nil {
		return nil, errNoMasterKey
	}
	return box.Seal(plain, ad)
}

func (s stores) boxOpen(sealed, ad []byte) ([]byte, error) {
	box := s.seal.box.Load()
	if box == nil {
		return nil, errNoMasterKey
	}
	return box.Open(sealed, ad)
}

func storedDeliveries(ds []domain.LinkOrderDelivery) string {
	out := make([]storedDelivery, len(ds))
	for i, d := range ds {
		out[i] = storedDelivery{Channel: string(d.Channel), Status: string(d.Status), SentAt: utcPtr(d.SentAt),
			FailureReason: d.FailureReason, Attempts: d.Attempts, Messages: d.Messages}
	}
	return jsonText(out)
}

func (s stores) CreateLinkOrder(ctx context.Context, sc domain.Scope, o domain.LinkOrder) error {
	code, err := s.boxSeal([]byte(o.Code), orderCodeAD(o.ID))
	if err != nil {
		return err
	}
	req, err := s.boxSeal(sealRequest(o.Request), orderRequestAD(o.ID))
	if err != nil {
		return err
	}
	contacts := sealedContacts{}
	for _, d := range o.Deliveries {
		contacts[string(d.Channel)] = d.To
	}
	sealedTo, err := s.boxSeal([]byte(jsonText(contacts)), orderContactsAD(o.ID))
	if err != nil {
		return err
	}
	token, err := s.sealOrderToken(o)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO link_orders (`+linkOrderColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		o.ID, sc.CustomerID, string(sc.Mode), string(o.Status), o.EndUserID, o.OrgName, o.APIVersion, hex.EncodeToString(o.CodeHash),
		code, req, sealedTo, storedDeliveries(o.Deliveries), o.SMSConsent, o.TimeZone, o.Reminders, o.RemindersSent,
		o.NextReminderAt, o.SendDueAt, o.MessagesQueued, o.ExpiresAt, nullable(o.LinkTokenID), o.LinkTokenExpires, token,
		nullable(o.AccountID), o.CreatedAt, o.UpdatedAt, o.OpenedAt, o.ClosedAt, o.Version)
	return translate(err)
}

func (s stores) sealOrderToken(o domain.LinkOrder) ([]byte, error) {
	if o.LinkTokenValue == "" {
		return nil, nil
	}
	return s.boxSeal([]byte(o.LinkTokenValue), orderTokenAD(o.ID))
}

// order converts a row, opening its sealed parts.
func (s stores) order(r linkOrderRow) (domain.LinkOrder, error) {
	hash, err := hex.DecodeString(r.CodeHash)
	if err != nil {
		return domain.LinkOrder{}, fmt.Errorf("link order %s: stored code_hash is not hex: %w", r.ID, err)
	}
	o := domain.LinkOrder{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), Status: domain.LinkOrderStatus(r.Status),
		EndUserID: r.EndUserID, OrgName: r.OrgName, APIVersion: r.APIVersion, CodeHash: hash, SMSConsent: r.SMSConsent,
		TimeZone: r.TimeZone, Reminders: r.Reminders, RemindersSent: r.RemindersSent, NextReminderAt: utcPtr(r.NextReminderAt),
		SendDueAt: utcPtr(r.SendDueAt), MessagesQueued: r.MessagesQueued, ExpiresAt: r.ExpiresAt.UTC(), LinkTokenID: deref(r.LinkTokenID),
		LinkTokenExpires: utcPtr(r.LinkTokenExpires), AccountID: deref(r.AccountID), CreatedAt: r.CreatedAt.UTC(),
		UpdatedAt: r.UpdatedAt.UTC(), OpenedAt: utcPtr(r.OpenedAt), ClosedAt: utcPtr(r.ClosedAt), Version: r.Version}
	code, err := s.boxOpen(r.SealedCode, orderCodeAD(r.ID))
	if err != nil {
		return o, fmt.Errorf("open link order %s's code: %w", r.ID, err)
	}
	o.Code = string(code)
	req, err := s.boxOpen(r.SealedRequest, orderRequestAD(r.ID))
	if err != nil {
		return o, fmt.Errorf("open link order %s's request: %w", r.ID, err)
	}
	if o.Request, err = openRequest(req); err != nil {
		return o, fmt.Errorf("link order %s's request: %w", r.ID, err)
	}
	plain, err := s.boxOpen(r.SealedContacts, orderContactsAD(r.ID))
	if err != nil {
		return o, fmt.Errorf("open link order %s's addresses: %w", r.ID, err)
	}
	var contacts sealedContacts
	if err := json.Unmarshal(plain, &contacts); err != nil {
		return o, err
	}
	var ds []storedDelivery
	if err := json.Unmarshal([]byte(r.Deliveries), &ds); err != nil {
		return o, fmt.Errorf("link order %s's deliveries: %w", r.ID, err)
	}
	for _, d := range ds {
		o.Deliveries = append(o.Deliveries, domain.LinkOrderDelivery{Channel: domain.MessageChannel(d.Channel), To: contacts[d.Channel],
			Status: domain.MessageStatus(d.Status), SentAt: utcPtr(d.SentAt), FailureReason: d.FailureReason, Attempts: d.Attempts, Messages: d.Messages})
	}
	if r.SealedLinkToken != nil {
		v, err := s.boxOpen(r.SealedLinkToken, orderTokenAD(r.ID))
		if err != nil {
			return o, fmt.Errorf("open link order %s's link token: %w", r.ID, err)
		}
		o.LinkTokenValue = string(v)
	}
	return o, nil
}

func (s stores) getOrder(ctx context.Context, where string, args ...any) (domain.LinkOrder, error) {
	var r linkOrderRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkOrderColumns+` FROM link_orders WHERE `+where), args...); err != nil {
		return domain.LinkOrder{}, translate(err)
	}
	return s.order(r)
}

func (s stores) LinkOrder(ctx context.Context, sc domain.Scope, id string) (domain.LinkOrder, error) {
	return s.getOrder(ctx, `id = ? AND customer_id = ? AND mode = ?`, id, sc.CustomerID, string(sc.Mode))
}

func (s stores) LinkOrderForUpdate(ctx context.Context, sc domain.Scope, id string) (domain.LinkOrder, error) {
	return s.getOrder(ctx, `id = ? AND customer_id = ? AND mode = ?`+rowLock(s.q, "FOR UPDATE"), id, sc.CustomerID, string(sc.Mode))
}

func (s stores) LinkOrderByCodeHash(ctx context.Context, hash []byte) (domain.LinkOrder, error) {
	return s.getOrder(ctx, `code_hash = ?`, hex.EncodeToString(hash))
}

func (s stores) LinkOrderByLinkToken(ctx context.Context, sc domain.Scope, linkTokenID string) (domain.LinkOrder, error) {
	return s.getOrder(ctx, `id = (SELECT link_order_id FROM link_order_tokens WHERE link_token_id = ? AND customer_id = ? AND mode = ?)
		AND customer_id = ? AND mode = ?`, linkTokenID, sc.CustomerID, string(sc.Mode), sc.CustomerID, string(sc.Mode))
}

func (s stores) FindLinkOrders(ctx context.Context, sc domain.Scope, f domain.LinkOrderFilter, p domain.PageRequest) (domain.Page[domain.LinkOrder], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if f.EndUserID != "" {
		q.where("end_user_id = ?", f.EndUserID)
	}
	if f.Status != "" {
		q.where("status = ?", string(f.Status))
	}
	return selectPage(ctx, s.q, linkOrdersNewest, `SELECT `+linkOrderColumns+` FROM link_orders`, q, p, s.order)
}

func (s stores) UpdateLinkOrder(ctx context.Context, sc domain.Scope, o domain.LinkOrder) error {
	token, err := s.sealOrderToken(o)
	if err != nil {
		return err
	}
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_orders SET status = ?, deliveries = ?, reminders_sent = ?,
		next_reminder_at = ?, send_due_at = ?, messages_queued = ?, link_token_id = ?, link_token_expires = ?, sealed_link_token = ?,
		account_id = ?, updated_at = ?, opened_at = ?, closed_at = ?, version = version + 1
		WHERE id = ? AND customer_id = ? AND mode = ? AND version = ?`),
		string(o.Status), storedDeliveries(o.Deliveries), o.RemindersSent, o.NextReminderAt, o.SendDueAt, o.MessagesQueued,
		nullable(o.LinkTokenID), o.LinkTokenExpires, token, nullable(o.AccountID), o.UpdatedAt, o.OpenedAt, o.ClosedAt,
		o.ID, sc.CustomerID, string(sc.Mode), o.Version))
}

func (s stores) AddLinkOrderToken(ctx context.Context, sc domain.Scope, orderID, linkTokenID string) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO link_order_tokens (link_token_id, link_order_id, customer_id, mode)
		VALUES (?, ?, ?, ?)`), linkTokenID, orderID, sc.CustomerID, string(sc.Mode))
	return translate(err)
}

func (s stores) DueLinkOrders(ctx context.Context, now time.Time, limit int) ([]domain.DueLinkOrder, error) {
	var rows []struct {
		ID         string `db:"id"`
		CustomerID string `db:"customer_id"`
		Mode       string `db:"mode"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT id, customer_id, mode FROM link_orders
		WHERE status IN (?, ?, ?) AND (expires_at <= ? OR next_reminder_at <= ? OR send_due_at <= ?)
		ORDER BY id LIMIT ?`), string(domain.OrderCreated), string(domain.OrderSent), string(domain.OrderOpened), now, now, now, limit); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.DueLinkOrder, len(rows))
	for i, r := range rows {
		out[i] = domain.DueLinkOrder{Scope: domain.Scope{CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode)}, ID: r.ID}
	}
	return out, nil
}
