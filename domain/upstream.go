package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Upstream is the port to a payroll API this service relays to (any
// Pinwheel-compatible API: the vendor's own, or another Payline). The
// end user logs in through the upstream's own Link, so credentials never
// pass through here; the upstream's accounts, jobs and data come back
// through its webhooks and its REST API and are stored as this service's
// own. connectors/upstream implements it; its Connector half (Run,
// Fetch) serves JobService as the sandbox connector does.
type Upstream interface {
	Connector
	// CreateLinkToken creates the upstream's token matching r, for the
	// upstream end user endUser.
	CreateLinkToken(ctx context.Context, r LinkTokenRequest, endUser string) (UpstreamToken, error)
	// Account reads one upstream account; ErrNoRows when it has none.
	Account(ctx context.Context, id string) (UpstreamAccount, error)
	// Accounts pages the upstream's accounts created at or after since,
	// newest first; cursor "" starts, and next "" means the end.
	Accounts(ctx context.Context, since time.Time, cursor string) (accounts []UpstreamAccount, next string, err error)
	// Jobs lists every job of an upstream account.
	Jobs(ctx context.Context, accountID string) ([]UpstreamJob, error)
	// VerifyWebhook checks a delivery's signature with the upstream's
	// scheme; header reads the delivery's headers.
	VerifyWebhook(header func(name string) string, body []byte, now time.Time) error
	// Act relays an account action ("disconnect", "disable_monitoring")
	// to the upstream, where it takes effect.
	Act(ctx context.Context, accountID, action string) error
	// SetBillNavigatorStatus relays a bill navigator action for the
	// upstream end user.
	SetBillNavigatorStatus(ctx context.Context, endUser, action, reason string) error
	// Platforms reads the upstream's whole platform directory.
	Platforms(ctx context.Context) ([]Platform, error)
	// Employers reads the upstream's employers updated after the given
	// time, every one when it is zero. They may lack an EIN and a platform.
	Employers(ctx context.Context, updatedAfter time.Time) ([]Employer, error)
	// EmployerByEIN looks an employer up at the upstream; ErrNoRows when it
	// has none with that EIN.
	EmployerByEIN(ctx context.Context, ein string) (Employer, error)
}

// The account actions an upstream relays.
const (
	ActionDisconnect        = "disconnect"
	ActionDisableMonitoring = "disable_monitoring"
)

// WebhookTolerance is how far a delivery's x-timestamp may be from now
// before its signature is refused as stale (a replay).
const WebhookTolerance = 5 * time.Minute

// UpstreamEvent is a delivery from the upstream: which account it is about.
type UpstreamEvent struct {
	Event   string `json:"event"`
	EventID string `json:"event_id"`
	Payload struct {
		AccountID string `json:"account_id"`
	} `json:"payload"`
}

// HandleWebhook verifies an upstream delivery and ingests the account it
// names. A delivery about an account of another client of the upstream,
// or about no account, is acknowledged and changes nothing. Errors: 401
// INVALID_WEBHOOK_SIGNATURE (nothing read or changed), 400 for a body
// that is not an event, and Ingest's.
func (s *RelayService) HandleWebhook(ctx context.Context, header func(string) string, body []byte) error {
	if err := s.upstream.VerifyWebhook(header, body, s.clock.Now()); err != nil {
		return err
	}
	var e UpstreamEvent
	if err := json.Unmarshal(body, &e); err != nil || e.Event == "" {
		return Errorf(KindInvalid, CodeInvalidJSON, "the body is not an upstream event {event, event_id, payload}")
	}
	if e.Payload.AccountID == "" {
		return nil
	}
	if err := s.Ingest(ctx, e.Payload.AccountID); err != nil && !errors.Is(err, ErrNotOurs) {
		return err
	}
	return nil
}

// UpstreamToken is a link token created at the upstream: its id, the
// value the upstream's Link opens with, and the upstream's Link SDK.
type UpstreamToken struct {
	ID     string
	Token  string
	SDKURL string
}

// UpstreamLink ties one of this service's link tokens to the upstream's.
type UpstreamLink struct {
	LinkTokenID string
	UpstreamToken
}

// UpstreamAccount is an account as the upstream reports it.
type UpstreamAccount struct {
	ID               string
	LinkTokenID      string // the upstream's token
	EndUserID        string // the upstream's (namespaced) end user
	PlatformID       string
	CreatedAt        time.Time
	Connected        bool
	MonitoringStatus MonitoringStatus
}

// UpstreamJob is a job as the upstream reports it.
type UpstreamJob struct {
	ID        string
	AccountID string
	Name      JobType
	CreatedAt time.Time
	Outcome   Outcome
	ErrorCode string
	ErrorType string
	Params    JobParams
}

// Final reports whether the job's outcome will not change again.
func (j UpstreamJob) Final() bool { return j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError }

// UpstreamStore keeps which of this service's link tokens each upstream
// token belongs to, the token value sealed.
type UpstreamStore interface {
	// PutUpstreamLink records the upstream token of a link token.
	PutUpstreamLink(ctx context.Context, s Scope, l UpstreamLink, at time.Time) error
	// UpstreamLink returns a link token's upstream token; ErrNoRows if none.
	UpstreamLink(ctx context.Context, s Scope, linkTokenID string) (UpstreamLink, error)
	// LinkTokenByUpstream finds the link token of an upstream token id, in
	// any tenant (the upstream's events name only its own ids); ErrNoRows
	// if none.
	LinkTokenByUpstream(ctx context.Context, upstreamTokenID string) (LinkToken, error)
}

// UpstreamEndUser is the end user id this service gives the upstream for
// a customer's end user: namespaced by customer, so two customers of one
// relay never share an upstream end user (and their reports and payouts
// never mix), and opaque, so the upstream learns nothing of the tenant.
func UpstreamEndUser(customerID, endUserID string) string {
	return "payline-" + customerID + "-" + endUserID
}

// RelayService turns the upstream's accounts and jobs into this
// service's own: the webhook endpoint that receives the upstream's events
// and the reconciliation job both call Ingest, so neither can miss what
// the other saw. One transaction per account, idempotent by the
// upstream's ids (this service's account and job ids are the upstream's),
// so a replayed or duplicated event changes nothing.
type RelayService struct {
	tx        Transactor
	upstream  Upstream
	directory *DirectoryService
	clock     Clock

	followUps []time.Duration // see DefaultIngestFollowUps

	syncing sync.Mutex // one directory sync at a time
	// employersThrough is the newest last_updated of the upstream's
	// employers synced so far: later syncs read only what changed since.
	employersThrough time.Time
}

// NewRelayService builds the relay use cases.
func NewRelayService(tx Transactor, upstream Upstream, directory *DirectoryService, clock Clock) *RelayService {
	return &RelayService{tx: tx, upstream: upstream, directory: directory, clock: clock, followUps: DefaultIngestFollowUps}
}

// UpstreamEventlessJobs are the jobs the upstream sends no <job>.added
// event of (the spec's webhooks have none for them), so only polling
// learns their outcome.
var UpstreamEventlessJobs = []JobType{JobBillCancellation, JobDirectDepositPayment}

// DefaultIngestFollowUps are when an account whose link token asked for
// an eventless job is ingested again after its first sight: the upstream
// lists a job only once it has run, so one that runs just after the
// account.added delivery was read would otherwise wait for the next
// reconciliation. Each follow-up is cheap (two reads) and changes nothing
// when nothing changed.
var DefaultIngestFollowUps = []time.Duration{2 * time.Second, 8 * time.Second, 30 * time.Second}

// FollowUpAfter sets the follow-ups' delays, each after the one before
// (DefaultIngestFollowUps until set; tests shorten them).
func (s *RelayService) FollowUpAfter(delays ...time.Duration) { s.followUps = delays }

// IngestRun is a follow-up ingest of an upstream account: the
// attempt'th follow-up (from 1), due at At.
type IngestRun struct {
	AccountID string
	Attempt   int
	At        time.Time
}

// FollowUp ingests the account again and queues the next follow-up, if
// any is left. An account that is not ours (any more) ends the chain.
func (s *RelayService) FollowUp(ctx context.Context, r IngestRun) error {
	if err := s.Ingest(ctx, r.AccountID); errors.Is(err, ErrNotOurs) {
		return nil
	} else if err != nil {
		return err
	}
	if r.Attempt >= len(s.followUps) {
		return nil
	}
	return s.tx.EnqueueIngest(ctx, IngestRun{AccountID: r.AccountID, Attempt: r.Attempt + 1,
		At: s.clock.Now().Add(s.followUps[r.Attempt])})
}

// ErrNotOurs marks an upstream account no link token of this service
// created (another client of the same upstream): ingest skips it.
var ErrNotOurs = errors.New("the upstream account belongs to no link token of this service")

// Ingest brings one upstream account here: the account (account.added on
// first sight, with the customer's own end user and link token), each of
// its jobs (queued to run, which reads the upstream's outcome and data
// through the connector and emits the job's events), and a job that
// became final upstream while pending here runs again at once. It reads
// the upstream before its transaction. Errors: ErrNotOurs, and upstream
// failures (UPSTREAM_UNAVAILABLE) for the caller to retry.
func (s *RelayService) Ingest(ctx context.Context, accountID string) error {
	ua, err := s.upstream.Account(ctx, accountID)
	if err != nil {
		return err
	}
	t, err := s.tx.Upstream().LinkTokenByUpstream(ctx, ua.LinkTokenID)
	if errors.Is(err, ErrNoRows) {
		return ErrNotOurs
	}
	if err != nil {
		return err
	}
	jobs, err := s.upstream.Jobs(ctx, ua.ID)
	if err != nil {
		return err
	}
	p, err := s.directory.Platform(ctx, ua.PlatformID)
	if err != nil {
		return fmt.Errorf("platform %s of upstream account %s: %w", ua.PlatformID, ua.ID, err)
	}
	sc := t.Scope()
	now := s.clock.Now()
	return s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		a, err := tx.Accounts().AccountForUpdate(ctx, sc, ua.ID)
		switch {
		case errors.Is(err, ErrNoRows):
			if a, err = s.addAccount(ctx, tx, t, p, ua, now); err != nil {
				return err
			}
		case err != nil:
			return err
		default:
			if a.Connected && !ua.Connected {
				a.Connected, a.MonitoringStatus = false, MonitoringUnavailable
				if err := tx.Accounts().UpdateAccount(ctx, sc, a); err != nil {
					return err
				}
			}
		}
		for _, uj := range jobs {
			if err := s.ingestJob(ctx, tx, t, a, p, uj, now); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *RelayService) addAccount(ctx context.Context, tx Tx, t LinkToken, p Platform, ua UpstreamAccount, now time.Time) (Account, error) {
	if err := tx.LinkTokens().MarkLinkTokenUsed(ctx, t.Scope(), t.ID, now); err != nil && !errors.Is(err, ErrNoRows) {
		return Account{}, err
	}
	monitoring := ua.MonitoringStatus
	if monitoring == "" {
		monitoring = MonitoringActive
	}
	a := Account{ID: ua.ID, CustomerID: t.CustomerID, Mode: t.Mode, CreatedAt: ua.CreatedAt, LinkTokenID: t.ID,
		PlatformID: p.ID, EmployerID: t.EmployerID, EndUserID: t.EndUserID, EmployerName: p.Name, Connected: ua.Connected,
		MonitoringStatus: monitoring, DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}}
	if err := tx.Accounts().CreateAccount(ctx, t.Scope(), a); err != nil {
		return Account{}, err
	}
	eventless := slices.ContainsFunc(t.Jobs(), func(j JobType) bool { return slices.Contains(UpstreamEventlessJobs, j) })
	if eventless && len(s.followUps) > 0 {
		if err := tx.EnqueueIngest(ctx, IngestRun{AccountID: a.ID, Attempt: 1, At: now.Add(s.followUps[0])}); err != nil {
			return Account{}, err
		}
	}
	return a, PublishEvent(ctx, tx, t.Scope(), "account.added", now, accountAddedPayload(a))
}

// ingestJob creates a job the account lacks, queued to run; a job that
// is final upstream but not here is queued to run again now.
func (s *RelayService) ingestJob(ctx context.Context, tx Tx, t LinkToken, a Account, p Platform, uj UpstreamJob, now time.Time) error {
	if !slices.Contains(JobTypes, uj.Name) {
		return nil // a job this service does not know yet: nothing to show for it
	}
	j, err := tx.Jobs().Job(ctx, t.Scope(), uj.ID)
	switch {
	case errors.Is(err, ErrNoRows):
		j = Job{ID: uj.ID, CustomerID: t.CustomerID, Mode: t.Mode, AccountID: a.ID, PlatformID: p.ID, PlatformName: p.Name,
			EndUserID: a.EndUserID, LinkTokenID: t.ID, Name: uj.Name, CreatedAt: uj.CreatedAt, Params: uj.Params}
		if err := tx.Jobs().CreateJob(ctx, t.Scope(), j); err != nil {
			return err
		}
	case err != nil:
		return err
	case j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError:
		return nil
	}
	if j.Outcome == OutcomePending && !uj.Final() {
		return nil // its own retries will read the outcome
	}
	return tx.EnqueueJobRun(ctx, JobRun{Scope: t.Scope(), JobID: j.ID})
}

// Reconcile ingests every upstream account created since the given time,
// for what webhooks missed (this service down, a delivery lost). Accounts
// of other clients of the upstream are skipped; the first other error
// stops it, for the caller to retry later.
func (s *RelayService) Reconcile(ctx context.Context, since time.Time) (ingested int, err error) {
	cursor := ""
	for {
		accounts, next, err := s.upstream.Accounts(ctx, since, cursor)
		if err != nil {
			return ingested, err
		}
		for _, ua := range accounts {
			switch err := s.Ingest(ctx, ua.ID); {
			case errors.Is(err, ErrNotOurs):
			case err != nil:
				return ingested, fmt.Errorf("ingest upstream account %s: %w", ua.ID, err)
			default:
				ingested++
			}
		}
		if next == "" {
			return ingested, nil
		}
		cursor = next
	}
}

// employerSyncOverlap is how far before the newest employer already
// synced the next sync starts reading, so an employer updated within the
// same second is not missed (writing one twice changes nothing).
const employerSyncOverlap = time.Second

// SyncDirectory makes the upstream's platforms and employers this
// directory's, so their ids are the upstream's and search is served
// from this service's own index. The first sync reads every employer;
// later ones only those the upstream updated since. A directory row the
// upstream no longer lists stays (accounts may name it). An employer
// keeps an EIN or platform already known here when the upstream's copy
// has none.
func (s *RelayService) SyncDirectory(ctx context.Context) (platforms, employers int, err error) {
	s.syncing.Lock()
	defer s.syncing.Unlock()
	ps, err := s.upstream.Platforms(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read the upstream's platforms: %w", err)
	}
	since := s.employersThrough
	if !since.IsZero() {
		since = since.Add(-employerSyncOverlap)
	}
	es, err := s.upstream.Employers(ctx, since)
	if err != nil {
		return 0, 0, fmt.Errorf("read the upstream's employers: %w", err)
	}
	if err := s.directory.Seed(ctx, ps, es); err != nil {
		return 0, 0, err
	}
	for _, e := range es {
		if e.LastUpdated.After(s.employersThrough) {
			s.employersThrough = e.LastUpdated
		}
	}
	return len(ps), len(es), nil
}
