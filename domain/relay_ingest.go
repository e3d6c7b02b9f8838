package domain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// RelayService turns the upstream's accounts and jobs into this
// service's own: the webhook endpoint that receives the upstream's events,
// the follow-ups and reconciliation all end in the same ingest, so none
// can miss what another saw. One transaction per account, idempotent by
// the upstream's ids (this service's account and job ids are the
// upstream's) under concurrency, so a replayed, duplicated or concurrent
// event changes nothing and fails nothing.
type RelayService struct {
	tx        Transactor
	name      string // the upstream's, among the mode's upstreams
	upstream  Upstream
	directory *DirectoryService
	clock     Clock
	log       *slog.Logger

	followUps []time.Duration // see DefaultIngestFollowUps

	syncing sync.Mutex // one directory sync at a time in this process

	// ingesting serialises deliveries for one account: while one is
	// applied, later ones queue behind it.
	mu        sync.Mutex
	ingesting map[string]*ingestPass
}

// ingestPass is an ingest running for an account, and the deliveries
// for it that came meanwhile, to apply after it.
type ingestPass struct{ queued []func() error }

// NewRelayService builds the relay use cases of the upstream named
// source; log (slog's default when nil) hears the deliveries acknowledged
// without change.
func NewRelayService(tx Transactor, source string, upstream Upstream, directory *DirectoryService, clock Clock, log *slog.Logger) *RelayService {
	if log == nil {
		log = slog.Default()
	}
	return &RelayService{tx: tx, name: source, upstream: upstream, directory: directory, clock: clock, log: log, followUps: DefaultIngestFollowUps,
		ingesting: map[string]*ingestPass{}}
}

// HandleWebhook verifies an upstream delivery and brings what it
// describes here. It answers the upstream without an error whenever
// nothing more can come of the delivery (so the upstream does not retry
// it forever): a replay of an event already handled within
// WebhookTolerance (no upstream read), an account the upstream does not
// have or that belongs to another client of it (logged at INFO with the
// event id), and an upstream that is away or rate limiting, whose ingest
// is queued to run when it can. Errors: 401 INVALID_WEBHOOK_SIGNATURE
// (nothing read or changed), 400 for a body that is not an event, and
// this service's own failures (its database), for the upstream to retry.
func (s *RelayService) HandleWebhook(ctx context.Context, header func(string) string, body []byte) error {
	if err := s.upstream.VerifyWebhook(header, body, s.clock.Now()); err != nil {
		return err
	}
	return s.handleVerified(ctx, body)
}

// handleVerified is HandleWebhook for a delivery whose signature is
// checked.
func (s *RelayService) handleVerified(ctx context.Context, body []byte) error {
	now := s.clock.Now()
	e, err := s.upstream.ParseWebhook(body)
	if err != nil {
		return err
	}
	if e.AccountID == "" {
		return nil
	}
	ctx = WithUpstreamPriority(ctx, PriorityIngest)
	store := s.tx.Upstream()
	window := now.Add(-WebhookTolerance)
	if e.EventID != "" {
		if seen, err := store.UpstreamEventSeen(ctx, e.EventID, window); err != nil || seen {
			return err
		}
	}
	err = s.coalesce(ctx, e.AccountID, func() error {
		// A queued delivery runs after its request was answered: its own
		// bound, not the request's.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliveryBound)
		defer cancel()
		return s.deliver(ctx, e)
	})
	var de *Error
	switch {
	case err == nil:
	case errors.Is(err, ErrNotOurs):
		s.log.InfoContext(ctx, "upstream delivery acknowledged without change: the account is not this relay's",
			slog.String("event", e.Event), slog.String("event_id", e.EventID), slog.Any("reason", err))
	case errors.As(err, &de) && de.Kind == KindUnavailable || ctx.Err() != nil:
		// The upstream is away or its budget spent: the ingest runs later
		// from the queue, which this acknowledgement does not lose.
		retry := max(time.Second, errRetryAfter(err))
		if qerr := s.tx.EnqueueIngest(context.WithoutCancel(ctx), IngestRun{Source: s.name, AccountID: e.AccountID, At: now.Add(retry)}); qerr != nil {
			return qerr
		}
		s.log.InfoContext(ctx, "upstream delivery queued: the upstream cannot be read now",
			slog.String("event", e.Event), slog.String("event_id", e.EventID), slog.Duration("retry_in", retry))
	default:
		return err
	}
	if e.EventID == "" {
		return nil
	}
	return store.RememberUpstreamEvent(context.WithoutCancel(ctx), e.EventID, now, window)
}

// deliveryBound bounds applying one delivery (its reads wait for the
// upstream's budget).
const deliveryBound = time.Minute

// errRetryAfter is the Retry-After an error carries, zero when none.
func errRetryAfter(err error) time.Duration {
	var de *Error
	if errors.As(err, &de) {
		return de.RetryAfter
	}
	return 0
}

// deliver ingests what one delivery describes, reading the upstream only
// for what the payload lacks: an account.added that carries the account
// creates it with no read, a job's event for an account already here
// records the job with no read (and tells the connector its outcome, so
// running it reads only its data); anything else ingests the whole
// account.
func (s *RelayService) deliver(ctx context.Context, e UpstreamDelivery) error {
	if e.Event == "account.added" {
		if ua := e.Account; ua != nil {
			t, err := s.ourToken(ctx, ua.LinkTokenID)
			if err != nil {
				return err
			}
			return s.ingest(ctx, t, *ua, nil)
		}
		return s.Ingest(ctx, e.AccountID)
	}
	if e.Job == nil {
		return s.Ingest(ctx, e.AccountID)
	}
	uj := *e.Job
	s.upstream.Learned(uj)
	t, err := s.ourToken(ctx, e.LinkTokenID)
	if err != nil {
		return err
	}
	a, err := s.tx.Accounts().Account(ctx, t.Scope(), uj.AccountID)
	if errors.Is(err, ErrNoRows) {
		// The job came before account.added: read the account (one
		// request; the other jobs come with their own deliveries).
		ua, err := s.upstream.Account(ctx, uj.AccountID)
		if errors.Is(err, ErrNoRows) {
			return fmt.Errorf("the upstream has no account %s: %w", uj.AccountID, ErrNotOurs)
		}
		if err != nil {
			return err
		}
		return s.ingest(ctx, t, ua, []UpstreamJob{uj})
	}
	if err != nil {
		return err
	}
	p2, err := s.directory.Platform(ctx, a.PlatformID)
	if err != nil {
		return err
	}
	return s.retryDuplicate(ctx, func(ctx context.Context, tx Tx) error {
		return s.ingestJob(ctx, tx, t, a, p2, uj, s.clock.Now())
	})
}

// coalesce runs fn for an account unless an ingest of it is already
// running in this process; then fn waits in that ingest's queue, which
// runs it once the ingest before it is done, and coalesce returns at
// once (the delivery is acknowledged). Deliveries for one account are so
// applied one at a time, in order, each from its own payload, with no
// race between them and no read repeated. A queued delivery that fails
// is queued again as a full ingest of the account (IngestRun), so an
// acknowledged delivery is never lost.
func (s *RelayService) coalesce(ctx context.Context, accountID string, fn func() error) error {
	s.mu.Lock()
	if p, ok := s.ingesting[accountID]; ok {
		p.queued = append(p.queued, fn)
		s.mu.Unlock()
		return nil
	}
	p := &ingestPass{}
	s.ingesting[accountID] = p
	s.mu.Unlock()
	err := fn()
	for {
		s.mu.Lock()
		if len(p.queued) == 0 {
			delete(s.ingesting, accountID)
			s.mu.Unlock()
			return err
		}
		next := p.queued[0]
		p.queued = p.queued[1:]
		s.mu.Unlock()
		if qerr := next(); qerr != nil && !errors.Is(qerr, ErrNotOurs) {
			s.deferIngest(ctx, accountID, qerr)
		}
	}
}

// deferIngest queues a full ingest of an account whose acknowledged
// delivery could not be applied now.
func (s *RelayService) deferIngest(ctx context.Context, accountID string, cause error) {
	retry := max(time.Second, errRetryAfter(cause))
	err := s.tx.EnqueueIngest(context.WithoutCancel(ctx), IngestRun{Source: s.name, AccountID: accountID, At: s.clock.Now().Add(retry)})
	level := slog.LevelInfo
	if err != nil {
		level = slog.LevelError // the delivery is lost until reconciliation finds the account
	}
	s.log.Log(ctx, level, "upstream delivery deferred", slog.String("account_id", accountID), slog.Any("cause", cause),
		slog.Duration("retry_in", retry), slog.Any("queue_error", err))
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

// IngestRun is a queued ingest of an upstream account: a delivery's that
// could not read the upstream at once (Attempt 0), or the attempt'th
// follow-up (from 1), due at At.
type IngestRun struct {
	// Source names the upstream that holds the account ("" for runs
	// queued before upstreams had names: the first).
	Source    string
	AccountID string
	Attempt   int
	At        time.Time
}

// FollowUp ingests the account again and queues the next follow-up, if
// any is left. An account that is not ours (any more) ends the chain.
func (s *RelayService) FollowUp(ctx context.Context, r IngestRun) error {
	ctx = WithUpstreamPriority(ctx, PriorityIngest)
	if err := s.Ingest(ctx, r.AccountID); errors.Is(err, ErrNotOurs) {
		return nil
	} else if err != nil {
		return err
	}
	if r.Attempt == 0 || r.Attempt >= len(s.followUps) {
		return nil
	}
	return s.tx.EnqueueIngest(ctx, IngestRun{Source: s.name, AccountID: r.AccountID, Attempt: r.Attempt + 1,
		At: s.clock.Now().Add(s.followUps[r.Attempt])})
}

// ErrNotOurs marks an upstream account no link token of this service
// created (another client of the same upstream), or one the upstream does
// not have: ingest skips it.
var ErrNotOurs = errors.New("the upstream account belongs to no link token of this service")

// Ingest brings one upstream account here, reading it and its jobs at
// the upstream: the account (account.added on first sight, with the
// customer's own end user and link token), each of its jobs (queued to
// run, which reads the upstream's outcome and data through the connector
// and emits the job's events), and a job that became final upstream
// while pending here runs again at once. Errors: ErrNotOurs, and upstream
// failures (UPSTREAM_UNAVAILABLE) for the caller to retry.
func (s *RelayService) Ingest(ctx context.Context, accountID string) error {
	ua, err := s.upstream.Account(ctx, accountID)
	if errors.Is(err, ErrNoRows) {
		return fmt.Errorf("the upstream has no account %s: %w", accountID, ErrNotOurs)
	}
	if err != nil {
		return err
	}
	t, err := s.ourToken(ctx, ua.LinkTokenID) // nothing more to read of another client's account
	if err != nil {
		return err
	}
	jobs, err := s.upstream.Jobs(ctx, ua.ID)
	if err != nil {
		return err
	}
	for _, j := range jobs {
		s.upstream.Learned(j)
	}
	if jobs == nil {
		jobs = []UpstreamJob{}
	}
	return s.ingest(ctx, t, ua, jobs)
}

// ourToken is this service's link token that made the upstream token,
// ErrNotOurs when none did (another client of the upstream).
func (s *RelayService) ourToken(ctx context.Context, upstreamTokenID string) (LinkToken, error) {
	t, err := s.tx.Upstream().LinkTokenByUpstream(ctx, upstreamTokenID)
	if errors.Is(err, ErrNoRows) {
		return LinkToken{}, fmt.Errorf("upstream link token %s: %w", upstreamTokenID, ErrNotOurs)
	}
	return t, err
}

// ingest stores an upstream account of link token t and the jobs given
// (none read when jobs is nil) in one transaction. Two ingests of one account at once
// (two instances, or a delivery and a follow-up) both succeed: the one
// whose insert loses sees the winner's rows and goes again.
func (s *RelayService) ingest(ctx context.Context, t LinkToken, ua UpstreamAccount, jobs []UpstreamJob) error {
	p, err := s.directory.Platform(ctx, ua.PlatformID)
	if err != nil {
		return fmt.Errorf("platform %s of upstream account %s: %w", ua.PlatformID, ua.ID, err)
	}
	sc := t.Scope()
	created := false
	err = s.retryDuplicate(ctx, func(ctx context.Context, tx Tx) error {
		now := s.clock.Now()
		created = false
		a, err := tx.Accounts().AccountForUpdate(ctx, sc, ua.ID)
		switch {
		case errors.Is(err, ErrNoRows):
			if a, err = s.addAccount(ctx, tx, t, p, ua, now); err != nil {
				return err
			}
			created = true
		case err != nil:
			return err
		default:
			if a.Connected && !ua.Connected && jobs != nil { // a payload's connected is as of the account's creation
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
	if err != nil || !created {
		return err
	}
	// A new account at the token's employer says which platform that
	// employer's staff log in to, which the upstream's directory does not.
	if lerr := s.directory.LearnEmployerPlatform(ctx, t.EmployerID, p.ID); lerr != nil {
		s.log.Warn("record an employer's platform", slog.String("employer_id", t.EmployerID), slog.Any("error", lerr))
	}
	return nil
}

// retryDuplicate runs fn in a transaction, and once more when a
// concurrent ingest inserted the same account or job first (the second
// run finds it and changes only what is left to change).
func (s *RelayService) retryDuplicate(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error {
	err := s.tx.InTx(ctx, fn)
	for range 2 {
		if !errors.Is(err, ErrDuplicate) {
			return err
		}
		err = s.tx.InTx(ctx, fn)
	}
	return err
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
		if err := tx.EnqueueIngest(ctx, IngestRun{Source: s.name, AccountID: a.ID, Attempt: 1, At: now.Add(s.followUps[0])}); err != nil {
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
