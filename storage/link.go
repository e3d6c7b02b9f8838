package storage

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// Transactor implements domain.Transactor: the Link, account, job and
// event stores, run on the database or inside one transaction, with job
// runs queued through River in the same transaction.
type Transactor struct {
	db    *DB
	queue *Queue
	stores
}

// NewTransactor binds the stores to db and queued runs to queue.
func NewTransactor(db *DB, queue *Queue) *Transactor {
	return &Transactor{db: db, queue: queue, stores: stores{q: db, feed: db.feed, seal: &db.sealer}}
}

// InTx runs fn in one transaction; see domain.Transactor. Events it
// writes reach the feed's subscribers once it commits.
func (t *Transactor) InTx(ctx context.Context, fn func(context.Context, domain.Tx) error) error {
	var pending []published
	err := t.db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		st := &txStores{stores: stores{q: tx, feed: t.db.feed, pending: &pending, seal: &t.db.sealer}, tx: tx.Tx, queue: t.queue,
			hooks: map[hookKey][]domain.Webhook{}}
		if err := fn(ctx, st); err != nil {
			return err
		}
		return st.flush(ctx)
	})
	if err == nil && t.db.Dialect == SQLite {
		for _, p := range pending {
			t.db.feed.deliver(p.scope, p.event)
		}
	}
	return err
}

// Subscribe implements domain.Transactor with the database's feed.
func (t *Transactor) Subscribe(ctx context.Context, sc domain.Scope) <-chan domain.Event {
	return t.db.feed.Subscribe(ctx, sc)
}

// EnqueueJobRun outside a transaction queues at once.
func (t *Transactor) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	checkOutside(ctx)
	return t.queue.insert(ctx, nil, r)
}

// EnqueueDelivery outside a transaction queues at once.
func (t *Transactor) EnqueueDelivery(ctx context.Context, r domain.DeliveryRun) error {
	checkOutside(ctx)
	return t.queue.insertDelivery(ctx, nil, r)
}

// EnqueueRefresh outside a transaction queues at once.
func (t *Transactor) EnqueueRefresh(ctx context.Context, r domain.RefreshRun) error {
	checkOutside(ctx)
	return t.queue.insertRefresh(ctx, nil, r)
}

// EnqueueIngest outside a transaction queues at once.
func (t *Transactor) EnqueueIngest(ctx context.Context, r domain.IngestRun) error {
	checkOutside(ctx)
	return t.queue.insertIngest(ctx, nil, r)
}

// txStores are the stores of one transaction. Events published in it
// cost one statement each: the fan-out lookup is memoised, and their
// delivery jobs and feed notifications are written once, just before the
// commit (flush).
type txStores struct {
	stores
	tx         *sql.Tx
	queue      *Queue
	hooks      map[hookKey][]domain.Webhook
	deliveries []domain.DeliveryRun
}

type hookKey struct {
	scope domain.Scope
	event string
}

// Webhooks memoises ActiveWebhooksFor for the transaction; a webhook
// change made in it forgets what was memoised.
func (t *txStores) Webhooks() domain.WebhookStore { return memoWebhooks{stores: t.stores, t: t} }

type memoWebhooks struct {
	stores
	t *txStores
}

func (m memoWebhooks) ActiveWebhooksFor(ctx context.Context, sc domain.Scope, event string) ([]domain.Webhook, error) {
	k := hookKey{sc, event}
	if hooks, ok := m.t.hooks[k]; ok {
		return hooks, nil
	}
	hooks, err := m.stores.ActiveWebhooksFor(ctx, sc, event)
	if err == nil {
		m.t.hooks[k] = hooks
	}
	return hooks, err
}

func (m memoWebhooks) CreateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	clear(m.t.hooks)
	return m.stores.CreateWebhook(ctx, sc, w)
}

func (m memoWebhooks) UpdateWebhook(ctx context.Context, sc domain.Scope, w domain.Webhook) error {
	clear(m.t.hooks)
	return m.stores.UpdateWebhook(ctx, sc, w)
}

func (m memoWebhooks) DeleteWebhook(ctx context.Context, sc domain.Scope, id string) error {
	clear(m.t.hooks)
	return m.stores.DeleteWebhook(ctx, sc, id)
}

// flush writes what the transaction deferred: its deliveries in one
// River insert, and on PostgreSQL the feed's notifications, several
// events per NOTIFY (delivered at commit, as each would be).
func (t *txStores) flush(ctx context.Context) error {
	if len(t.deliveries) > 0 {
		if err := t.queue.insertDeliveries(ctx, t.tx, t.deliveries); err != nil {
			return translate(err)
		}
	}
	if t.feed != nil && t.feed.db.Dialect == Postgres && t.pending != nil && len(*t.pending) > 0 {
		if err := t.feed.notifyMany(ctx, t.stores, *t.pending); err != nil {
			return err
		}
	}
	return nil
}

func (t *txStores) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	return t.queue.insert(ctx, t.tx, r)
}

func (t *txStores) EnqueueDelivery(_ context.Context, r domain.DeliveryRun) error {
	t.deliveries = append(t.deliveries, r)
	return nil
}

func (t *txStores) EnqueueRefresh(ctx context.Context, r domain.RefreshRun) error {
	return t.queue.insertRefresh(ctx, t.tx, r)
}

func (t *txStores) EnqueueIngest(ctx context.Context, r domain.IngestRun) error {
	return t.queue.insertIngest(ctx, t.tx, r)
}

// stores runs the queries of the tenant-owned Link tables on q, the
// database or a transaction. Events written go to feed; inside a
// transaction on SQLite they wait in pending for the commit.
type stores struct {
	q       sqlx.ExtContext
	feed    *Feed
	pending *[]published
	seal    *sealer
}

func (s stores) LinkTokens() domain.LinkTokenStore { return s }
func (s stores) Accounts() domain.AccountStore     { return s }
func (s stores) Jobs() domain.JobStore             { return s }
func (s stores) Events() domain.EventStore         { return s }
func (s stores) Webhooks() domain.WebhookStore     { return s }
func (s stores) Data() domain.DataStore            { return s }
func (s stores) Audit() domain.AuditStore          { return s }

// AppendAudit adds an entry to the audit log, in the stores' transaction.
func (s stores) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	return appendAudit(ctx, s.q, e)
}

// AuditLog lists the scope's entries, newest first.
func (s stores) AuditLog(ctx context.Context, sc domain.Scope, limit int) ([]domain.AuditEntry, error) {
	return auditLog(ctx, s.q, sc, limit)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v) // the domain values stored as JSON always marshal
	return string(b)
}

type linkTokenRow struct {
	ID                            string     `db:"id"`
	CustomerID                    string     `db:"customer_id"`
	Mode                          string     `db:"mode"`
	TokenHash                     string     `db:"token_hash"`
	CreatedAt                     time.Time  `db:"created_at"`
	Expires                       time.Time  `db:"expires"`
	UsedAt                        *time.Time `db:"used_at"`
	APIVersion                    string     `db:"api_version"`
	OrgName                       string     `db:"org_name"`
	EndUserID                     string     `db:"end_user_id"`
	Solution                      string     `db:"solution"`
	Features                      string     `db:"features"`
	RequiredJobs                  string     `db:"required_jobs"`
	EmployerID                    *string    `db:"employer_id"`
	PlatformID                    *string    `db:"platform_id"`
	AccountID                     *string    `db:"account_id"`
	AmountCents                   *int64     `db:"amount_cents"`
	SkipIntroScreen               bool       `db:"skip_intro_screen"`
	DisableDirectDepositSplitting bool       `db:"disable_direct_deposit_splitting"`
	Language                      string     `db:"language"`
	SealedAllocation              []byte     `db:"sealed_allocation"`
	SealedMatching                []byte     `db:"sealed_matching"`
	RedirectURL                   *string    `db:"redirect_url"`
}

const linkTokenColumns = `id, customer_id, mode, token_hash, created_at, expires, used_at, api_version, org_name,
	end_user_id, solution, features, required_jobs, employer_id, platform_id, account_id, amount_cents, skip_intro_screen,
	disable_direct_deposit_splitting, language, sealed_allocation, sealed_matching, redirect_url`

func (r linkTokenRow) domain() (domain.LinkToken, error) {
	hash, err := hex.DecodeString(r.TokenHash)
	if err != nil {
		// Read as an empty hash, the token would open nothing, silently.
		return domain.LinkToken{}, fmt.Errorf("link token %s: stored token_hash is not hex: %w", r.ID, err)
	}
	t := domain.LinkToken{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), TokenHash: hash, CreatedAt: r.CreatedAt.UTC(),
		Expires: r.Expires.UTC(), UsedAt: utcPtr(r.UsedAt), APIVersion: r.APIVersion, OrgName: r.OrgName,
		EndUserID: r.EndUserID, Solution: r.Solution, EmployerID: deref(r.EmployerID), PlatformID: deref(r.PlatformID),
		AccountID: deref(r.AccountID), SkipIntroScreen: r.SkipIntroScreen,
		DisableDirectDepositSplitting: r.DisableDirectDepositSplitting, Language: r.Language, RedirectURL: deref(r.RedirectURL),
	}
	if r.AmountCents != nil {
		m := domain.USD(*r.AmountCents)
		t.Amount = &m
	}
	if err := json.Unmarshal([]byte(r.Features), &t.Features); err != nil {
		return t, err
	}
	err = json.Unmarshal([]byte(r.RequiredJobs), &t.RequiredJobs)
	return t, err
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (s stores) CreateLinkToken(ctx context.Context, sc domain.Scope, t domain.LinkToken, alloc, matching []byte) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO link_tokens (`+linkTokenColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		t.ID, sc.CustomerID, string(sc.Mode), hex.EncodeToString(t.TokenHash), t.CreatedAt, t.Expires, t.UsedAt,
		t.APIVersion, t.OrgName, t.EndUserID, t.Solution, jsonText(orEmpty(t.Features)), jsonText(orEmpty(t.RequiredJobs)),
		nullable(t.EmployerID), nullable(t.PlatformID), nullable(t.AccountID), amountCents(t.Amount), t.SkipIntroScreen,
		t.DisableDirectDepositSplitting, t.Language, alloc, matching, nullable(t.RedirectURL))
	return translate(err)
}

func amountCents(m *domain.Money) *int64 {
	if m == nil {
		return nil
	}
	return &m.Amount
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (s stores) LinkTokenByHash(ctx context.Context, hash []byte) (domain.LinkToken, []byte, []byte, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens WHERE token_hash = ?`),
		hex.EncodeToString(hash)); err != nil {
		return domain.LinkToken{}, nil, nil, translate(err)
	}
	t, err := r.domain()
	return t, r.SealedAllocation, r.SealedMatching, err
}

func (s stores) LinkToken(ctx context.Context, sc domain.Scope, id string) (domain.LinkToken, error) {
	var r linkTokenRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+linkTokenColumns+` FROM link_tokens
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.LinkToken{}, translate(err)
	}
	return r.domain()
}

func (s stores) MarkLinkTokenUsed(ctx context.Context, sc domain.Scope, id string, at time.Time) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_tokens SET used_at = ?
		WHERE id = ? AND customer_id = ? AND mode = ? AND used_at IS NULL`), at, id, sc.CustomerID, string(sc.Mode)))
}

func (s stores) ForgetPlatformMatching(ctx context.Context, sc domain.Scope, id string) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`UPDATE link_tokens SET sealed_matching = NULL
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode))
	return translate(err)
}

// expectOne turns an update that touched no row into domain.ErrNoRows.
func expectOne(res sql.Result, err error) error {
	if err != nil {
		return translate(err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return domain.ErrNoRows
	}
	return nil
}

type accountRow struct {
	ID               string    `db:"id"`
	CustomerID       string    `db:"customer_id"`
	Mode             string    `db:"mode"`
	CreatedAt        time.Time `db:"created_at"`
	LinkTokenID      string    `db:"link_token_id"`
	PlatformID       string    `db:"platform_id"`
	EmployerID       *string   `db:"employer_id"`
	EndUserID        string    `db:"end_user_id"`
	EmployerName     string    `db:"employer_name"`
	Connected        bool      `db:"connected"`
	MonitoringStatus string    `db:"monitoring_status"`
	DataUpdatedAt    string    `db:"data_updated_at"`
	DataRefreshedAt  string    `db:"data_refreshed_at"`
	Connection       []byte    `db:"connection"` // sealed
}

const accountColumns = `id, customer_id, mode, created_at, link_token_id, platform_id, employer_id, end_user_id,
	connected, monitoring_status, data_updated_at, data_refreshed_at, connection, employer_name`

// account reads a stored account, opening its connection.
func (s stores) account(r accountRow) (domain.Account, error) {
	conn, err := s.seal.open(r.Connection, "accounts", r.ID)
	if err != nil {
		return domain.Account{}, err
	}
	a := domain.Account{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(),
		LinkTokenID: r.LinkTokenID, PlatformID: r.PlatformID, EmployerID: deref(r.EmployerID), EndUserID: r.EndUserID,
		EmployerName: r.EmployerName, Connected: r.Connected, MonitoringStatus: domain.MonitoringStatus(r.MonitoringStatus), Connection: string(conn),
	}
	// JSON v2 reads the time maps in half the time of encoding/json, on
	// every account read (docs/benchmarks.md, request pipeline).
	if err := jsonv2.Unmarshal([]byte(r.DataUpdatedAt), &a.DataUpdatedAt); err != nil {
		return a, err
	}
	err = jsonv2.Unmarshal([]byte(r.DataRefreshedAt), &a.DataRefreshedAt)
	return a, err
}

func timeMap(m map[string]time.Time) string {
	if m == nil {
		m = map[string]time.Time{}
	}
	return jsonText(m)
}

func (s stores) CreateAccount(ctx context.Context, sc domain.Scope, a domain.Account) error {
	conn, err := s.seal.seal([]byte(a.Connection), "accounts", a.ID)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO accounts (`+accountColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		a.ID, sc.CustomerID, string(sc.Mode), a.CreatedAt, a.LinkTokenID, a.PlatformID, nullable(a.EmployerID), a.EndUserID,
		a.Connected, string(a.MonitoringStatus), timeMap(a.DataUpdatedAt), timeMap(a.DataRefreshedAt), conn, a.EmployerName)
	return translate(err)
}

func (s stores) Account(ctx context.Context, sc domain.Scope, id string) (domain.Account, error) {
	var r accountRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Account{}, translate(err)
	}
	return s.account(r)
}

// AccountForUpdate locks the row on PostgreSQL with FOR NO KEY UPDATE,
// which, unlike FOR UPDATE, does not conflict with the KEY SHARE locks that
// inserts of rows referencing the account take (FOR UPDATE deadlocks
// there). SQLite's write transactions begin IMMEDIATE and already exclude
// each other.
func (s stores) AccountForUpdate(ctx context.Context, sc domain.Scope, id string) (domain.Account, error) {
	var r accountRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE id = ? AND customer_id = ? AND mode = ?`+rowLock(s.q, "FOR NO KEY UPDATE")), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Account{}, translate(err)
	}
	return s.account(r)
}

func (s stores) FindAccounts(ctx context.Context, sc domain.Scope, f domain.AccountFilter, p domain.PageRequest) (domain.Page[domain.Account], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	if f.EndUserID != "" {
		q.where("end_user_id = ?", f.EndUserID)
	}
	if f.LinkTokenID != "" {
		q.where("link_token_id = ?", f.LinkTokenID)
	}
	if f.Connected != nil {
		q.where("connected = ?", *f.Connected)
	}
	if f.MonitoringStatus != "" {
		q.where("monitoring_status = ?", string(f.MonitoringStatus))
	}
	if f.PlatformID != "" {
		q.where("platform_id = ?", f.PlatformID)
	}
	return selectPage(ctx, s.q, accountsNewest, `SELECT `+accountColumns+` FROM accounts`, q, p, s.account)
}

func (s stores) UpdateAccount(ctx context.Context, sc domain.Scope, a domain.Account) error {
	conn, err := s.seal.seal([]byte(a.Connection), "accounts", a.ID)
	if err != nil {
		return err
	}
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE accounts SET connected = ?, monitoring_status = ?,
		data_updated_at = ?, data_refreshed_at = ?, connection = ? WHERE id = ? AND customer_id = ? AND mode = ?`),
		a.Connected, string(a.MonitoringStatus), timeMap(a.DataUpdatedAt), timeMap(a.DataRefreshedAt), conn,
		a.ID, sc.CustomerID, string(sc.Mode)))
}

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
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO jobs (`+jobColumns+`, sealed_payment)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		j.ID, sc.CustomerID, string(sc.Mode), j.AccountID, j.PlatformID, j.PlatformName, j.EndUserID, j.LinkTokenID,
		string(j.Name), j.CreatedAt, j.Timestamp, nullable(string(j.Outcome)), nullable(j.ErrorCode), nullable(j.ErrorType),
		jobParamsText(j.Params), j.Monitoring, targetText(j.Target), j.SealedPayment)
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

func (s stores) CreateEvent(ctx context.Context, sc domain.Scope, e domain.Event) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO events (id, customer_id, mode, name, created_at, payload)
		VALUES (?, ?, ?, ?, ?, ?)`), e.ID, sc.CustomerID, string(sc.Mode), e.Name, e.CreatedAt, string(e.Payload))
	if err != nil || s.feed == nil {
		return translate(err)
	}
	return s.feed.notify(ctx, s, sc, e)
}

func (s stores) ListEvents(ctx context.Context, sc domain.Scope) ([]domain.Event, error) {
	var rows []struct {
		ID        string    `db:"id"`
		Name      string    `db:"name"`
		CreatedAt time.Time `db:"created_at"`
		Payload   string    `db:"payload"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT id, name, created_at, payload FROM events
		WHERE customer_id = ? AND mode = ? ORDER BY created_at, id`), sc.CustomerID, string(sc.Mode)); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Event, len(rows))
	for i, r := range rows {
		out[i] = domain.Event{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC(), Payload: domain.EventPayload(r.Payload)}
	}
	return out, nil
}
