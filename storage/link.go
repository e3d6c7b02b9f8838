package storage

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"time"

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
	return &Transactor{db: db, queue: queue, stores: stores{q: db.DB}}
}

// InTx runs fn in one transaction. Under SQLite's single connection fn
// must use only the tx it is given, which the domain's Tx guarantees.
func (t *Transactor) InTx(ctx context.Context, fn func(domain.Tx) error) error {
	return t.db.inTx(ctx, func(tx *sqlx.Tx) error {
		return fn(&txStores{stores: stores{q: tx}, tx: tx.Tx, queue: t.queue})
	})
}

// EnqueueJobRun outside a transaction queues at once.
func (t *Transactor) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	return t.queue.insert(ctx, nil, r)
}

// EnqueueDelivery outside a transaction queues at once.
func (t *Transactor) EnqueueDelivery(ctx context.Context, r domain.DeliveryRun) error {
	return t.queue.insertDelivery(ctx, nil, r)
}

type txStores struct {
	stores
	tx    *sql.Tx
	queue *Queue
}

func (t *txStores) EnqueueJobRun(ctx context.Context, r domain.JobRun) error {
	return t.queue.insert(ctx, t.tx, r)
}

func (t *txStores) EnqueueDelivery(ctx context.Context, r domain.DeliveryRun) error {
	return t.queue.insertDelivery(ctx, t.tx, r)
}

// stores runs the queries of the tenant-owned Link tables on q, the
// database or a transaction.
type stores struct {
	q sqlx.ExtContext
}

func (s stores) LinkTokens() domain.LinkTokenStore { return s }
func (s stores) Accounts() domain.AccountStore     { return s }
func (s stores) Jobs() domain.JobStore             { return s }
func (s stores) Events() domain.EventStore         { return s }
func (s stores) Webhooks() domain.WebhookStore     { return s }
func (s stores) Data() domain.DataStore            { return s }

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
	Amount                        *float64   `db:"amount"`
	SkipIntroScreen               bool       `db:"skip_intro_screen"`
	DisableDirectDepositSplitting bool       `db:"disable_direct_deposit_splitting"`
	Language                      string     `db:"language"`
	SealedAllocation              []byte     `db:"sealed_allocation"`
	SealedMatching                []byte     `db:"sealed_matching"`
}

const linkTokenColumns = `id, customer_id, mode, token_hash, created_at, expires, used_at, api_version, org_name,
	end_user_id, solution, features, required_jobs, employer_id, platform_id, account_id, amount, skip_intro_screen,
	disable_direct_deposit_splitting, language, sealed_allocation, sealed_matching`

func (r linkTokenRow) domain() (domain.LinkToken, error) {
	hash, _ := hex.DecodeString(r.TokenHash)
	t := domain.LinkToken{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), TokenHash: hash, CreatedAt: r.CreatedAt.UTC(),
		Expires: r.Expires.UTC(), UsedAt: utcPtr(r.UsedAt), APIVersion: r.APIVersion, OrgName: r.OrgName,
		EndUserID: r.EndUserID, Solution: r.Solution, EmployerID: deref(r.EmployerID), PlatformID: deref(r.PlatformID),
		AccountID: deref(r.AccountID), Amount: r.Amount, SkipIntroScreen: r.SkipIntroScreen,
		DisableDirectDepositSplitting: r.DisableDirectDepositSplitting, Language: r.Language,
	}
	if err := json.Unmarshal([]byte(r.Features), &t.Features); err != nil {
		return t, err
	}
	return t, json.Unmarshal([]byte(r.RequiredJobs), &t.RequiredJobs)
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
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		t.ID, sc.CustomerID, string(sc.Mode), hex.EncodeToString(t.TokenHash), t.CreatedAt, t.Expires, t.UsedAt,
		t.APIVersion, t.OrgName, t.EndUserID, t.Solution, jsonText(orEmpty(t.Features)), jsonText(orEmpty(t.RequiredJobs)),
		nullable(t.EmployerID), nullable(t.PlatformID), nullable(t.AccountID), t.Amount, t.SkipIntroScreen,
		t.DisableDirectDepositSplitting, t.Language, alloc, matching)
	return translate(err)
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
	Connection       string    `db:"connection"`
}

const accountColumns = `id, customer_id, mode, created_at, link_token_id, platform_id, employer_id, end_user_id,
	connected, monitoring_status, data_updated_at, data_refreshed_at, connection, employer_name`

func (r accountRow) domain() (domain.Account, error) {
	a := domain.Account{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(),
		LinkTokenID: r.LinkTokenID, PlatformID: r.PlatformID, EmployerID: deref(r.EmployerID), EndUserID: r.EndUserID,
		EmployerName: r.EmployerName, Connected: r.Connected, MonitoringStatus: domain.MonitoringStatus(r.MonitoringStatus), Connection: r.Connection,
	}
	if err := json.Unmarshal([]byte(r.DataUpdatedAt), &a.DataUpdatedAt); err != nil {
		return a, err
	}
	return a, json.Unmarshal([]byte(r.DataRefreshedAt), &a.DataRefreshedAt)
}

func timeMap(m map[string]time.Time) string {
	if m == nil {
		m = map[string]time.Time{}
	}
	return jsonText(m)
}

func (s stores) CreateAccount(ctx context.Context, sc domain.Scope, a domain.Account) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO accounts (`+accountColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		a.ID, sc.CustomerID, string(sc.Mode), a.CreatedAt, a.LinkTokenID, a.PlatformID, nullable(a.EmployerID), a.EndUserID,
		a.Connected, string(a.MonitoringStatus), timeMap(a.DataUpdatedAt), timeMap(a.DataRefreshedAt), a.Connection, a.EmployerName)
	return translate(err)
}

func (s stores) Account(ctx context.Context, sc domain.Scope, id string) (domain.Account, error) {
	var r accountRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Account{}, translate(err)
	}
	return r.domain()
}

// AccountForUpdate locks the row on PostgreSQL with FOR NO KEY UPDATE,
// which, unlike FOR UPDATE, does not conflict with the KEY SHARE locks that
// inserts of rows referencing the account take (FOR UPDATE deadlocks
// there). SQLite's write transactions begin IMMEDIATE and already exclude
// each other.
func (s stores) AccountForUpdate(ctx context.Context, sc domain.Scope, id string) (domain.Account, error) {
	lock := ""
	if s.q.DriverName() == "postgres" {
		lock = " FOR NO KEY UPDATE"
	}
	var r accountRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+accountColumns+` FROM accounts
		WHERE id = ? AND customer_id = ? AND mode = ?`+lock), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Account{}, translate(err)
	}
	return r.domain()
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
	if p.Cursor != nil {
		at, err := cursorTime(p.Cursor)
		if err != nil {
			return domain.Page[domain.Account]{}, err
		}
		q.where("(created_at < ? OR (created_at = ? AND id < ?))", at, at, p.Cursor.ID)
	}
	var rows []accountRow
	query := `SELECT ` + accountColumns + ` FROM accounts` + q.clause() + ` ORDER BY created_at DESC, id DESC LIMIT ?`
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(query), append(q.args, p.Limit+1)...); err != nil {
		return domain.Page[domain.Account]{}, translate(err)
	}
	items, err := convertAll(rows, accountRow.domain)
	if err != nil {
		return domain.Page[domain.Account]{}, err
	}
	return domain.PageOf(domain.ListAccounts, items, p.Limit, func(a domain.Account) (string, string) {
		return a.CreatedAt.Format(time.RFC3339Nano), a.ID
	}), nil
}

func (s stores) UpdateAccount(ctx context.Context, sc domain.Scope, a domain.Account) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE accounts SET connected = ?, monitoring_status = ?,
		data_updated_at = ?, data_refreshed_at = ?, connection = ? WHERE id = ? AND customer_id = ? AND mode = ?`),
		a.Connected, string(a.MonitoringStatus), timeMap(a.DataUpdatedAt), timeMap(a.DataRefreshedAt), a.Connection,
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

func (r jobRow) domain() (domain.Job, error) {
	j := domain.Job{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), AccountID: r.AccountID, PlatformID: r.PlatformID,
		PlatformName: r.PlatformName, EndUserID: r.EndUserID, LinkTokenID: r.LinkTokenID, Name: domain.JobType(r.Name),
		CreatedAt: r.CreatedAt.UTC(), Timestamp: utcPtr(r.CompletedAt), Outcome: domain.Outcome(deref(r.Outcome)),
		ErrorCode: deref(r.ErrorCode), ErrorType: deref(r.ErrorType), Monitoring: r.Monitoring,
	}
	if r.SwitchTarget != "" {
		j.Target = &domain.SwitchTarget{}
		if err := json.Unmarshal([]byte(r.SwitchTarget), j.Target); err != nil {
			return j, err
		}
	}
	return j, json.Unmarshal([]byte(r.Params), &j.Params)
}

func (s stores) CreateJob(ctx context.Context, sc domain.Scope, j domain.Job) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO jobs (`+jobColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		j.ID, sc.CustomerID, string(sc.Mode), j.AccountID, j.PlatformID, j.PlatformName, j.EndUserID, j.LinkTokenID,
		string(j.Name), j.CreatedAt, j.Timestamp, nullable(string(j.Outcome)), nullable(j.ErrorCode), nullable(j.ErrorType),
		jsonText(j.Params), j.Monitoring, targetText(j.Target))
	return translate(err)
}

// cursorTime reads the time a keyset cursor of a time-ordered list holds.
func cursorTime(c *domain.Cursor) (time.Time, error) {
	at, err := time.Parse(time.RFC3339Nano, c.Key)
	if err != nil {
		return time.Time{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "cursor: not a cursor issued by this list")
	}
	return at, nil
}

func targetText(t *domain.SwitchTarget) string {
	if t == nil {
		return ""
	}
	return jsonText(t)
}

func (s stores) Job(ctx context.Context, sc domain.Scope, id string) (domain.Job, error) {
	var r jobRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT `+jobColumns+` FROM jobs
		WHERE id = ? AND customer_id = ? AND mode = ?`), id, sc.CustomerID, string(sc.Mode)); err != nil {
		return domain.Job{}, translate(err)
	}
	return r.domain()
}

func (s stores) UpdateJobOutcome(ctx context.Context, sc domain.Scope, j domain.Job) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE jobs SET completed_at = ?, outcome = ?, error_code = ?,
		error_type = ?, params = ? WHERE id = ? AND customer_id = ? AND mode = ?`),
		j.Timestamp, nullable(string(j.Outcome)), nullable(j.ErrorCode), nullable(j.ErrorType), jsonText(j.Params),
		j.ID, sc.CustomerID, string(sc.Mode)))
}

func (s stores) FindJobs(ctx context.Context, sc domain.Scope, f domain.JobFilter, p domain.PageRequest) (domain.Page[domain.Job], error) {
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
		in, args, err := sqlx.In("name IN (?)", names)
		if err != nil {
			return domain.Page[domain.Job]{}, err
		}
		q.where(in, args...)
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
	order := "completed_at"
	if f.IncludeUnrun {
		order = "created_at"
	}
	if p.Cursor != nil {
		at, err := cursorTime(p.Cursor)
		if err != nil {
			return domain.Page[domain.Job]{}, err
		}
		q.where("("+order+" < ? OR ("+order+" = ? AND id < ?))", at, at, p.Cursor.ID)
	}
	var rows []jobRow
	query := `SELECT ` + jobColumns + ` FROM jobs` + q.clause() + ` ORDER BY ` + order + ` DESC, id DESC LIMIT ?`
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(query), append(q.args, p.Limit+1)...); err != nil {
		return domain.Page[domain.Job]{}, translate(err)
	}
	items, err := convertAll(rows, jobRow.domain)
	if err != nil {
		return domain.Page[domain.Job]{}, err
	}
	return domain.PageOf(domain.ListJobs, items, p.Limit, func(j domain.Job) (string, string) {
		if f.IncludeUnrun || j.Timestamp == nil {
			return j.CreatedAt.Format(time.RFC3339Nano), j.ID
		}
		return j.Timestamp.Format(time.RFC3339Nano), j.ID
	}), nil
}

func (s stores) CreateEvent(ctx context.Context, sc domain.Scope, e domain.Event) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO events (id, customer_id, mode, name, created_at, payload)
		VALUES (?, ?, ?, ?, ?, ?)`), e.ID, sc.CustomerID, string(sc.Mode), e.Name, e.CreatedAt, string(e.Payload))
	return translate(err)
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
		out[i] = domain.Event{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC(), Payload: json.RawMessage(r.Payload)}
	}
	return out, nil
}
