package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Outcome is the result of a job.
type Outcome string

// The outcomes of the spec.
const (
	OutcomeSuccess Outcome = "success"
	OutcomePending Outcome = "pending"
	OutcomeError   Outcome = "error"
)

// PendingWindow is how long a pending job keeps being retried.
const PendingWindow = 24 * time.Hour

// Job is one payroll job run for an account. Outcome is empty until the
// first attempt completes; only jobs with an outcome are listed.
type Job struct {
	ID           string
	CustomerID   string
	Mode         Mode
	AccountID    string
	PlatformID   string
	PlatformName string
	EndUserID    string
	LinkTokenID  string
	Name         JobType
	CreatedAt    time.Time
	Timestamp    *time.Time // completion (or pending) time
	Outcome      Outcome
	ErrorCode    string
	ErrorType    string
	Params       JobParams
	// Monitoring marks refresh jobs, which GET /jobs does not list.
	Monitoring bool
	// Target is where a switch sent pay (internal, never rendered).
	Target *SwitchTarget
	// PaymentCard is a bill switch's card number (internal, never
	// rendered; storage seals it at rest, bound to the job).
	PaymentCard string
}

// Scope is the job's tenant.
func (j Job) Scope() Scope { return Scope{CustomerID: j.CustomerID, Mode: j.Mode} }

// JobParams are a job's inputs and results. For a switch: action and
// allocation; both absent for platform-matching switches.
type JobParams struct {
	Action     string
	Allocation *JobParamsAllocation
	// Read says what a read job (identity, paystubs, tax_forms, ...)
	// fetched, as the vendor's job params do; nil for other jobs.
	Read *ReadParams
	// Bill is what a bill switch set (nil for other jobs).
	Bill *BillParams
}

// ReadParams is what a successful read job fetched.
type ReadParams struct {
	// Count is how many data objects the job fetched.
	Count int
	// FromPayDate and ToPayDate bound the paystubs a paystubs job read.
	FromPayDate, ToPayDate string
	// SyncStatus is complete once every object was read (Payline reads
	// in one pass, so always complete).
	SyncStatus string
	// Year is the newest tax year a tax_forms job read; DocumentType the
	// form it read ("W-2").
	Year         int
	DocumentType string
}

// JobParamsAllocation is the allocation a switch applied.
type JobParamsAllocation struct {
	Split
	Target JobParamsTarget
}

// JobParamsTarget names the target account without its number: only its
// last four digits, as the vendor's jobs show them.
type JobParamsTarget struct {
	AccountName string
	AccountType string
	LastFour    string
}

// jobParamsJSON is the API shape of params: allocation.value is dollars
// for an amount and the percentage for a percentage, absent otherwise.
type jobParamsJSON struct {
	Action       string                   `json:"action,omitempty"`
	Allocation   *jobParamsAllocationJSON `json:"allocation,omitempty"`
	Count        *int                     `json:"count,omitempty"`
	FromPayDate  string                   `json:"from_pay_date,omitempty"`
	ToPayDate    string                   `json:"to_pay_date,omitempty"`
	SyncStatus   string                   `json:"sync_status,omitempty"`
	Year         int                      `json:"year,omitempty"`
	DocumentType string                   `json:"document_type,omitempty"`
	Type         string                   `json:"type,omitempty"`
	Payment      *billPaymentJSON         `json:"payment,omitempty"`
}

type billPaymentJSON struct {
	CardName           string `json:"card_name,omitempty"`
	LastFourCardNumber string `json:"last_four_card_number,omitempty"`
	AccountName        string `json:"account_name,omitempty"`
	AccountType        string `json:"account_type,omitempty"`
	LastFourAccount    string `json:"last_four_account_number,omitempty"`
}

type jobParamsAllocationJSON struct {
	Type   string              `json:"type,omitempty"`
	Value  Number              `json:"value,omitempty"`
	Target jobParamsTargetJSON `json:"target"`
}

type jobParamsTargetJSON struct {
	AccountName string `json:"account_name,omitempty"`
	AccountType string `json:"account_type"`
	// Absent only on switches recorded before Payline kept it.
	LastFour string `json:"last_four_account_number,omitempty"`
}

// MarshalJSON writes the params in the API's shape (REST, webhooks, Link).
// Amounts are written from cents as a decimal literal, never a float.
func (p JobParams) MarshalJSON() ([]byte, error) {
	out := jobParamsJSON{Action: p.Action}
	if a := p.Allocation; a != nil {
		out.Allocation = &jobParamsAllocationJSON{Type: a.Type, Value: a.Split.ValueJSON(),
			Target: jobParamsTargetJSON(a.Target)}
	}
	if r := p.Read; r != nil {
		out.Count, out.FromPayDate, out.ToPayDate, out.SyncStatus = &r.Count, r.FromPayDate, r.ToPayDate, r.SyncStatus
		out.Year, out.DocumentType = r.Year, r.DocumentType
	}
	if b := p.Bill; b != nil {
		out.Type = b.Type
		if b.Payment != nil {
			out.Payment = (*billPaymentJSON)(b.Payment)
		}
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads params as MarshalJSON writes them (and as an
// upstream's jobs carry them): amounts from their text, never through a
// float.
func (p *JobParams) UnmarshalJSON(b []byte) error {
	var in jobParamsJSON
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	*p = JobParams{Action: in.Action}
	if a := in.Allocation; a != nil {
		alloc := &JobParamsAllocation{Split: Split{Type: a.Type},
			Target: JobParamsTarget{AccountName: a.Target.AccountName, AccountType: a.Target.AccountType, LastFour: a.Target.LastFour}}
		if a.Value != "" {
			switch a.Type {
			case AllocationAmount:
				m, err := ParseDollars(a.Value, UpToTwoPlaces)
				if err != nil {
					return fmt.Errorf("params.allocation.value: %w", err)
				}
				alloc.Amount = m
			case AllocationPercentage:
				n, err := ParsePercentage(a.Value)
				if err != nil {
					return fmt.Errorf("params.allocation.value: %w", err)
				}
				alloc.Percentage = n
			}
		}
		p.Allocation = alloc
	}
	if in.Count != nil || in.SyncStatus != "" {
		p.Read = &ReadParams{FromPayDate: in.FromPayDate, ToPayDate: in.ToPayDate, SyncStatus: in.SyncStatus, Year: in.Year,
			DocumentType: in.DocumentType}
		if in.Count != nil {
			p.Read.Count = *in.Count
		}
	}
	if in.Type != "" || in.Payment != nil {
		p.Bill = &BillParams{Type: in.Type}
		if in.Payment != nil {
			pay := BillPayment(*in.Payment)
			p.Bill.Payment = &pay
		}
	}
	return nil
}

// ValueJSON is the split's value as the API writes it: dollars for an
// amount (from cents, exactly), the whole percentage for a percentage,
// nil otherwise.
func (s Split) ValueJSON() Number {
	switch s.Type {
	case AllocationAmount:
		return Number(s.Amount.Decimal())
	case AllocationPercentage:
		return Number(strconv.Itoa(s.Percentage))
	}
	return ""
}

// JobFilter narrows GET /jobs.
type JobFilter struct {
	JobTypes    []JobType
	LinkTokenID string
	AccountID   string
	Outcome     Outcome
	From, To    *time.Time
	// IncludeUnrun also lists jobs whose first attempt has not completed
	// (Link uses it; GET /jobs does not).
	IncludeUnrun bool
}

// ListJobs is the cursor list name of jobs.
const ListJobs = "jobs"

// JobStore holds jobs.
type JobStore interface {
	CreateJob(ctx context.Context, s Scope, j Job) error
	// Job returns ErrNoRows when the scope has no such job.
	Job(ctx context.Context, s Scope, id string) (Job, error)
	// UpdateJobOutcome records an attempt's outcome, only over an outcome
	// that is unset or pending; ErrNoRows when the job is already final
	// (another run of it finished first).
	UpdateJobOutcome(ctx context.Context, s Scope, j Job) error
	// FindJobs pages jobs that have an outcome and are not monitoring
	// refreshes, by (timestamp, id), newest first.
	FindJobs(ctx context.Context, s Scope, f JobFilter, p PageRequest) (Page[Job], error)
	// JobsByID returns the scope's jobs with the given ids in one query;
	// unknown ids are left out.
	JobsByID(ctx context.Context, s Scope, ids []string) ([]Job, error)
	// JobsOfAccounts pages FindJobs per account, in one query.
	JobsOfAccounts(ctx context.Context, s Scope, accountIDs []string, f JobFilter, p PageRequest) (map[string]Page[Job], error)
}

// Event is a record of a change the spec ties to a webhook event, written
// in the same transaction as the change.
type Event struct {
	ID        string // event_id, unique
	Name      string // e.g. account.added, paystubs.added
	CreatedAt time.Time
	Payload   EventPayload
}

// EventPayload is an event's payload as JSON, serialized once when the
// event is published (in the transaction of its change) and delivered
// as written; it marshals as itself.
type EventPayload []byte

// MarshalJSON implements json.Marshaler.
func (p EventPayload) MarshalJSON() ([]byte, error) {
	if len(p) == 0 {
		return []byte("null"), nil
	}
	return p, nil
}

// EventStore holds events for delivery.
type EventStore interface {
	CreateEvent(ctx context.Context, s Scope, e Event) error
	// ListEvents lists the scope's events oldest first (for tests and delivery).
	ListEvents(ctx context.Context, s Scope) ([]Event, error)
}

// JobRun is a queued execution of a job.
type JobRun struct {
	Scope Scope
	JobID string
}

// Tx is one database transaction seen through the stores the domain
// writes; what is done through it commits or rolls back together,
// including the queued job runs (a transactional outbox).
type Tx interface {
	LinkTokens() LinkTokenStore
	// LinkHandoffs keeps Link sessions handed to another device.
	LinkHandoffs() LinkHandoffStore
	Accounts() AccountStore
	Jobs() JobStore
	Events() EventStore
	Webhooks() WebhookStore
	Data() DataStore
	Records() RecordStore
	Reports() ReportStore
	// Audit is the audit log, for changes recorded with their entry.
	Audit() AuditStore
	// Upstream ties link tokens to an upstream's, in relayed modes.
	Upstream() UpstreamStore
	// LinkOrders holds the orders that send Link to people.
	LinkOrders() LinkOrderStore
	// Portal keeps portal links and sessions, the address a person gave,
	// and consent taken back (the person's own page).
	Portal() PortalStore
	// EnqueueLinkOrderMessage queues one message of a Link order, once
	// per order, channel and sequence, visible once the transaction
	// commits.
	EnqueueLinkOrderMessage(ctx context.Context, r LinkOrderMessageRun) error
	// EnqueueJobRun queues a run of the job, visible once the transaction
	// commits.
	EnqueueJobRun(ctx context.Context, r JobRun) error
	// EnqueueDelivery queues a webhook delivery, visible once the
	// transaction commits.
	EnqueueDelivery(ctx context.Context, r DeliveryRun) error
	// EnqueueRefresh queues a monitoring refresh of an account, once per
	// account and monitoring period.
	EnqueueRefresh(ctx context.Context, r RefreshRun) error
	// EnqueueIngest queues a follow-up ingest of an upstream account at
	// r.At, visible once the transaction commits (relayed modes).
	EnqueueIngest(ctx context.Context, r IngestRun) error
}

// Transactor runs functions in transactions. Outside InTx its stores run
// each call on its own. Inside, fn gets a context and a Tx that reach only
// the transaction: the outer stores refuse a context that belongs to a
// transaction, so a use case can never wait on the (SQLite) connection it
// already holds. InTx rolls back when fn returns an error or panics.
type Transactor interface {
	Tx
	InTx(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// Subscribe returns the scope's events as they commit, from now on,
	// until ctx ends (then the channel closes). A subscriber that falls
	// far behind misses events; webhooks are the durable record.
	Subscribe(ctx context.Context, s Scope) <-chan Event
}
