package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

type jobRow struct {
	ID           string     `db:"id"`
	CustomerID   string     `db:"customer_id"`
	Mode         string     `db:"mode"`
	AccountID    string     `db:"account_id"`
	PlatformID   string     `db:"platform_id"`
	PlatformName string     `db:"platform_name"`
	EndUserID    string     `db:"end_user_id"`
	LinkTokenID  string     `db:"link_token_id"`
	Name         string     `db:"name"`
	CreatedAt    time.Time  `db:"created_at"`
	CompletedAt  *time.Time `db:"completed_at"`
	Outcome      *string    `db:"outcome"`
	ErrorCode    *string    `db:"error_code"`
	ErrorType    *string    `db:"error_type"`
	Params       string     `db:"params"`
	Monitoring   bool       `db:"monitoring"`
	SwitchTarget string     `db:"switch_target"`
}

const jobColumns = `id, customer_id, mode, account_id, platform_id, platform_name, end_user_id, link_token_id, name,
	created_at, completed_at, outcome, error_code, error_type, params, monitoring, switch_target`

// storedJobParams is the stored form of domain.JobParams (the jobs.params
// column): its own type, so that the API's JSON shape can change without
// changing what stored rows mean. Amounts are cents.
type storedJobParams struct {
	Action     string               `json:"action,omitempty"`
	Allocation *storedJobAllocation `json:"allocation,omitempty"`
	Read       *storedReadParams    `json:"read,omitempty"`
	Bill       *storedBillParams    `json:"bill,omitempty"`
}

type storedBillParams struct {
	Type    string             `json:"type,omitempty"`
	Payment *storedBillPayment `json:"payment,omitempty"`
}

type storedBillPayment struct {
	CardName           string `json:"card_name,omitempty"`
	LastFourCardNumber string `json:"last_four_card,omitempty"`
	AccountName        string `json:"account_name,omitempty"`
	AccountType        string `json:"account_type,omitempty"`
	LastFourAccount    string `json:"last_four_account,omitempty"`
}

type storedReadParams struct {
	Count        int    `json:"count"`
	FromPayDate  string `json:"from_pay_date,omitempty"`
	ToPayDate    string `json:"to_pay_date,omitempty"`
	SyncStatus   string `json:"sync_status,omitempty"`
	Year         int    `json:"year,omitempty"`
	DocumentType string `json:"document_type,omitempty"`
}

type storedJobAllocation struct {
	Type        string          `json:"type,omitempty"`
	AmountCents *int64          `json:"amount_cents,omitempty"`
	Percentage  *int            `json:"percentage,omitempty"`
	Target      storedJobTarget `json:"target"`
}

type storedJobTarget struct {
	AccountName string `json:"account_name,omitempty"`
	AccountType string `json:"account_type"`
	LastFour    string `json:"last_four,omitempty"`
}

func jobParamsText(p domain.JobParams) string {
	s := storedJobParams{Action: p.Action}
	if r := p.Read; r != nil {
		s.Read = (*storedReadParams)(r)
	}
	if b := p.Bill; b != nil {
		s.Bill = &storedBillParams{Type: b.Type, Payment: (*storedBillPayment)(b.Payment)}
	}
	if a := p.Allocation; a != nil {
		s.Allocation = &storedJobAllocation{Type: a.Type, Target: storedJobTarget(a.Target)}
		switch a.Type {
		case domain.AllocationAmount:
			s.Allocation.AmountCents = &a.Amount.Amount
		case domain.AllocationPercentage:
			s.Allocation.Percentage = &a.Percentage
		}
	}
	return jsonText(s)
}

func parseJobParams(text string) (domain.JobParams, error) {
	var s storedJobParams
	if err := json.Unmarshal([]byte(text), &s); err != nil {
		return domain.JobParams{}, fmt.Errorf("jobs.params: %w", err)
	}
	p := domain.JobParams{Action: s.Action, Read: (*domain.ReadParams)(s.Read)}
	if b := s.Bill; b != nil {
		p.Bill = &domain.BillParams{Type: b.Type, Payment: (*domain.BillPayment)(b.Payment)}
	}
	if a := s.Allocation; a != nil {
		p.Allocation = &domain.JobParamsAllocation{Split: domain.Split{Type: a.Type}, Target: domain.JobParamsTarget(a.Target)}
		if a.AmountCents != nil {
			p.Allocation.Amount = domain.USD(*a.AmountCents)
		}
		if a.Percentage != nil {
			p.Allocation.Percentage = *a.Percentage
		}
	}
	return p, nil
}

// storedSwitchTarget is the stored form of domain.SwitchTarget (the
// jobs.switch_target column).
type storedSwitchTarget struct {
	Name          string `json:"name,omitempty"`
	Type          string `json:"type"`
	LastFour      string `json:"last_four"`
	RoutingNumber string `json:"routing_number"`
}

func (r jobRow) domain() (domain.Job, error) {
	j := domain.Job{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), AccountID: r.AccountID, PlatformID: r.PlatformID,
		PlatformName: r.PlatformName, EndUserID: r.EndUserID, LinkTokenID: r.LinkTokenID, Name: domain.JobType(r.Name),
		CreatedAt: r.CreatedAt.UTC(), Timestamp: utcPtr(r.CompletedAt), Outcome: domain.Outcome(deref(r.Outcome)),
		ErrorCode: deref(r.ErrorCode), ErrorType: deref(r.ErrorType), Monitoring: r.Monitoring,
	}
	if r.SwitchTarget != "" {
		var st storedSwitchTarget
		if err := json.Unmarshal([]byte(r.SwitchTarget), &st); err != nil {
			return j, fmt.Errorf("jobs.switch_target: %w", err)
		}
		target := domain.SwitchTarget(st)
		j.Target = &target
	}
	var err error
	j.Params, err = parseJobParams(r.Params)
	return j, err
}

func (s stores) CreateJob(ctx context.Context, sc domain.Scope, j domain.Job) error {
	var card []byte
	if j.PaymentCard != "" {
		box := s.seal.box.Load()
		if box == nil {
			return errNoMasterKey
		}
		var err error
		if card, err = box.Seal([]byte(j.PaymentCard), BillCardAD(j.ID)); err != nil {
			return fmt.Errorf("seal card of job %s: %w", j.ID, err)
		}
	}
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO jobs (`+jobColumns+`, sealed_payment)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		j.ID, sc.CustomerID, string(sc.Mode), j.AccountID, j.PlatformID, j.PlatformName, j.EndUserID, j.LinkTokenID,
		string(j.Name), j.CreatedAt, j.Timestamp, nullable(string(j.Outcome)), nullable(j.ErrorCode), nullable(j.ErrorType),
		jobParamsText(j.Params), j.Monitoring, targetText(j.Target), card)
	return translate(err)
}

func targetText(t *domain.SwitchTarget) string {
	if t == nil {
		return ""
	}
	return jsonText(storedSwitchTarget(*t))
}

func (s stores) Job(ctx context.Context, sc domain.Scope, id string) (domain.Job, error) {
	var r jobRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+jobColumns+` FROM jobs
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Job{}, translate(err)
	}
	return r.domain()
}

// UpdateJobOutcome writes only over an unset or pending outcome, so of two
// runs of one job only the first to commit a final outcome writes it.
func (s stores) UpdateJobOutcome(ctx context.Context, sc domain.Scope, j domain.Job) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE jobs SET completed_at = ?, outcome = ?, error_code = ?,
		error_type = ?, params = ? WHERE id = ? AND customer_id = ? AND mode = ? AND (outcome IS NULL OR outcome = ?)`),
		j.Timestamp, nullable(string(j.Outcome)), nullable(j.ErrorCode), nullable(j.ErrorType), jobParamsText(j.Params),
		j.ID, sc.CustomerID, string(sc.Mode), string(domain.OutcomePending)))
}

func (s stores) FindJobs(ctx context.Context, sc domain.Scope, f domain.JobFilter, p domain.PageRequest) (domain.Page[domain.Job], error) {
	q, order, err := jobQuery(sc, f)
	if err != nil {
		return domain.Page[domain.Job]{}, err
	}
	return selectPage(ctx, s.q, order, `SELECT `+jobColumns+` FROM jobs`, q, p, jobRow.domain)
}

// jobQuery is the conditions of a job filter and the order it lists in.
func jobQuery(sc domain.Scope, f domain.JobFilter) (sqlBuilder, keyset[domain.Job], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND monitoring = ?", sc.CustomerID, string(sc.Mode), false)
	if !f.IncludeUnrun {
		q.where("outcome IS NOT NULL")
	}
	if len(f.JobTypes) > 0 {
		names := make([]string, len(f.JobTypes))
		for i, j := range f.JobTypes {
			names[i] = string(j)
		}
		if err := byIDs(&q, "name", names); err != nil {
			return q, jobsCompletedFirst, err
		}
	}
	if f.LinkTokenID != "" {
		q.where("link_token_id = ?", f.LinkTokenID)
	}
	if f.AccountID != "" {
		q.where("account_id = ?", f.AccountID)
	}
	if f.Outcome != "" {
		q.where("outcome = ?", string(f.Outcome))
	}
	if f.From != nil {
		q.where("completed_at > ?", *f.From)
	}
	if f.To != nil {
		q.where("completed_at < ?", *f.To)
	}
	if f.IncludeUnrun {
		return q, jobsCreatedFirst, nil
	}
	return q, jobsCompletedFirst, nil
}
