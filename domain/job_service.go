package domain

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"
)

// JobService runs queued payroll jobs through the connector.
type JobService struct {
	tx        Transactor
	connector Connector
	clock     Clock
	observer  Observer
	log       *slog.Logger
}

// Observe sends each job outcome to o (metrics).
func (s *JobService) Observe(o Observer) { s.observer = o }

// Log sends warnings (a source's invalid data) to l.
func (s *JobService) Log(l *slog.Logger) { s.log = l }

// NewJobService wires the job runner.
func NewJobService(tx Transactor, connector Connector, clock Clock) *JobService {
	return &JobService{tx: tx, connector: connector, clock: clock, observer: noObserver{}, log: slog.New(slog.DiscardHandler)}
}

// MinPendingRetry is the shortest wait between attempts at a pending job.
const MinPendingRetry = time.Second

// Run makes one attempt at a job. It returns how long to wait before the
// next attempt while the job stays pending, and zero once it is final.
// Each change of outcome is written with its <job>.added event in one
// transaction; a pending job that is still pending writes nothing. After
// PendingWindow a pending job ends in error. An upstream that is away or
// rate limiting (UPSTREAM_UNAVAILABLE with a Retry-After) is waited out
// the same way, by a wait and no error, until PendingWindow has passed;
// after that its error is returned for the queue to retry as any failure.
func (s *JobService) Run(ctx context.Context, r JobRun) (time.Duration, error) {
	// Behind an upstream, a job's reads wait after an end user's and a
	// delivery's (nothing else reads a priority).
	ctx = WithUpstreamPriority(ctx, PriorityData)
	j, err := s.tx.Jobs().Job(ctx, r.Scope, r.JobID)
	if errors.Is(err, ErrNoRows) {
		return 0, nil // nothing left to run
	}
	if err != nil {
		return 0, err
	}
	if j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError {
		return 0, nil // already final: a duplicate run is harmless
	}
	a, err := s.tx.Accounts().Account(ctx, r.Scope, j.AccountID)
	if err != nil {
		return 0, fmt.Errorf("account of job %s: %w", j.ID, err)
	}
	now := s.clock.Now()
	res, err := s.attempt(ctx, j, a, now)
	if wait, ok := waitOutUpstream(err, j.CreatedAt, now); ok {
		return wait, nil
	}
	if err != nil {
		return 0, fmt.Errorf("run job %s: %w", j.ID, err)
	}
	if res.Outcome == OutcomePending && now.Sub(j.CreatedAt) >= PendingWindow {
		res = JobResult{Outcome: OutcomeError, ErrorType: ErrorTypePlatform, ErrorCode: CodePendingTimeout}
	}
	var fetched Fetched
	var invalid []string
	product := ProductOf(j.Name)
	if res.Outcome == OutcomeSuccess && product != "" {
		// Read the product before the transaction: a real connector does
		// network I/O here, which must not hold a database transaction.
		var bad *InvalidDataError
		fetched, err = s.fetch(ctx, r.Scope, a, product, now, &j)
		switch {
		case errors.As(err, &bad):
			// Nothing of a product that fails its rules is stored: the
			// previous good data stays served, and the job and its event
			// name the fields (never their values).
			res = JobResult{Outcome: OutcomeError, ErrorType: ErrorTypePlatform, ErrorCode: CodeInvalidConnectorData}
			invalid = bad.Fields
		case err != nil:
			if wait, ok := waitOutUpstream(err, j.CreatedAt, now); ok {
				return wait, nil
			}
			return 0, fmt.Errorf("fetch %s for job %s: %w", product, j.ID, err)
		default:
			j.Params.Read = readParams(j.Name, fetched)
		}
	}
	wait := time.Duration(0)
	if res.Outcome == OutcomePending {
		wait = max(res.RetryAfter, MinPendingRetry)
		if j.Outcome == OutcomePending {
			return wait, nil
		}
	}
	at := now
	if !res.At.IsZero() {
		at = res.At
	}
	j.Outcome, j.Timestamp, j.ErrorCode, j.ErrorType = res.Outcome, &at, res.ErrorCode, res.ErrorType
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Jobs().UpdateJobOutcome(ctx, r.Scope, j); errors.Is(err, ErrNoRows) {
			return errJobFinal
		} else if err != nil {
			return err
		}
		payload := JobEventPayload(j)
		if invalid != nil {
			payload["invalid_fields"] = invalid
		}
		if err := PublishEvent(ctx, tx, r.Scope, string(j.Name)+".added", now, payload); err != nil {
			return err
		}
		if res.Outcome != OutcomeSuccess || product == "" {
			return nil
		}
		return storeFetched(ctx, tx, r.Scope, j.AccountID, product, fetched, now)
	})
	if errors.Is(err, errJobFinal) {
		return 0, nil // another run of the same job got there first; its event stands alone
	}
	if err == nil {
		observerOr(s.observer).JobFinished(j.Name, res.Outcome)
	}
	return wait, err
}

// attempt asks the connector to do the job, unless the person took back
// their consent to the account: then the job ends in error without the
// source being asked, and nothing more is read for the customer.
func (s *JobService) attempt(ctx context.Context, j Job, a Account, now time.Time) (JobResult, error) {
	if a.DisconnectedBy == DisconnectedByEndUser {
		return JobResult{Outcome: OutcomeError, ErrorType: ErrorTypePlatform, ErrorCode: CodeAccountDisconnected}, nil
	}
	return s.connector.Run(ctx, j, a, j.CreatedAt, now)
}

// waitOutUpstream says how long to wait before the next attempt when err
// is an upstream saying when to come back (UPSTREAM_UNAVAILABLE with a
// Retry-After) and the job created at createdAt is still inside
// PendingWindow at now; waiting spends no attempt of the queue's.
func waitOutUpstream(err error, createdAt, now time.Time) (time.Duration, bool) {
	var de *Error
	if errors.As(err, &de) && de.Code == CodeUpstreamUnavailable && de.RetryAfter > 0 && now.Sub(createdAt) < PendingWindow {
		return de.RetryAfter, true
	}
	return 0, false
}

// errJobFinal rolls back a run that found its job already final.
var errJobFinal = errors.New("job already has a final outcome")

// putW2s stores each W-2 as a tax form of the account and a document of
// its end user, with the parsed data, no warnings and fraud not suspected,
// and the form's file where the connector read one (else the document is
// rendered from its parsed data on first download). A file already stored
// is kept.
func putW2s(ctx context.Context, tx Tx, sc Scope, a Account, w2s []DatedW2, now time.Time) (bool, error) {
	var rs []Record
	for _, w := range w2s {
		w2 := w.W2
		rs = append(rs,
			Record{ID: w.TaxFormID, Kind: RecordTaxForm, AccountID: a.ID, EndUserID: a.EndUserID, SortKey: w.TaxYear, CreatedAt: now,
				TaxForm: &TaxForm{Year: w.TaxYear, FormType: DocumentW2, DocumentID: w.DocumentID, ParsedData: w2}},
			Record{ID: w.DocumentID, Kind: RecordDocument, AccountID: a.ID, EndUserID: a.EndUserID, DocumentType: DocumentW2, SortKey: w.TaxYear, CreatedAt: now,
				Document: &DocumentBody{DocumentType: DocumentW2, AccountID: &a.ID, Document: &DocumentRef{ID: w.DocumentID},
					ParsedData: ParsedDocument{W2: &w2}, Warnings: []DocumentWarning{}, Fraud: DocumentFraud{Status: "not_suspected"}}})
	}
	added, err := tx.Records().PutRecords(ctx, sc, rs)
	if err != nil {
		return false, err
	}
	for _, w := range w2s {
		if w.File == nil {
			continue
		}
		sum := sha256.Sum256(w.File.Body)
		ext := map[string]string{"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg"}[w.File.ContentType]
		f := File{ID: w.DocumentID, Kind: DocumentW2, Filename: fmt.Sprintf("w2-%s.%s", w.TaxYear, ext), ContentType: w.File.ContentType,
			SHA256: hex.EncodeToString(sum[:]), CreatedAt: now, Body: w.File.Body}
		if err := tx.Reports().PutFile(ctx, sc, f); err != nil {
			return false, err
		}
	}
	return added > 0, nil
}

// successfulSwitches are every successful switch of the account, newest
// first, read through tx.
func successfulSwitches(ctx context.Context, tx interface{ Jobs() JobStore }, sc Scope, accountID string) ([]Job, error) {
	return ReadAll(ctx, func(ctx context.Context, p PageRequest) (Page[Job], error) {
		return tx.Jobs().FindJobs(ctx, sc, JobFilter{AccountID: accountID, JobTypes: []JobType{JobDirectDepositSwitch}, Outcome: OutcomeSuccess}, p)
	})
}

// fetch reads one product of an account through the connector, giving it
// the account's successful switches so allocations can reflect them;
// current is a switch succeeding now, not yet recorded as such.
func (s *JobService) fetch(ctx context.Context, sc Scope, a Account, product string, now time.Time, current *Job) (Fetched, error) {
	req := FetchRequest{Account: a, Product: product, Since: now.Add(-PaystubHistory), Now: now}
	if product == ProductAllocations {
		done, err := successfulSwitches(ctx, s.tx, sc, a.ID)
		if err != nil {
			return Fetched{}, err
		}
		for i := len(done) - 1; i >= 0; i-- { // oldest first
			req.Switches = append(req.Switches, done[i])
		}
		if current != nil && current.Name == JobDirectDepositSwitch {
			req.Switches = append(req.Switches, *current)
		}
	}
	f, err := s.connector.Fetch(ctx, req)
	if err != nil {
		return Fetched{}, err
	}
	f.switches = len(req.Switches)
	f.ownedBy(a.ID, now)
	if problems := f.Validate(product); len(problems) > 0 {
		bad := &InvalidDataError{Product: product, Fields: ProblemFields(problems)}
		s.log.WarnContext(ctx, "a source sent invalid data: nothing of it is stored",
			slog.String("account_id", a.ID), slog.String("platform_id", a.PlatformID), slog.String("product", product),
			slog.Any("invalid_fields", bad.Fields))
		return Fetched{}, bad
	}
	return f, nil
}

// InvalidDataError is a product read from a source that fails its rules
// (Fetched.Validate): Fields name what is wrong, never the values.
type InvalidDataError struct {
	Product string
	Fields  []string
}

func (e *InvalidDataError) Error() string {
	return fmt.Sprintf("the source sent invalid %s: %s", e.Product, strings.Join(e.Fields, ", "))
}

// storeFetched writes a fetched product and the account's data times:
// data_refreshed_at always, data_updated_at when something changed. New
// paystubs that move the end user's estimated payouts emit
// earnings_stream.payouts.refreshed in the same transaction.
func storeFetched(ctx context.Context, tx Tx, sc Scope, accountID, product string, f Fetched, now time.Time) error {
	// Lock the account first: it orders concurrent writers of its data.
	a, err := tx.Accounts().AccountForUpdate(ctx, sc, accountID)
	if err != nil {
		return err
	}
	if a.DisconnectedBy == DisconnectedByEndUser {
		// The person took back their consent while this was read: what
		// was read after the revocation's deletion is not kept.
		return nil
	}
	changed, payoutsMoved := false, false
	switch product {
	case ProductIdentity:
		changed, err = tx.Data().PutProduct(ctx, sc, accountID, product, ProductData{Identity: f.Identity, Origin: f.Origin}, now)
	case ProductEmployment:
		changed, err = tx.Data().PutProduct(ctx, sc, accountID, product, ProductData{Employment: f.Employment, Origin: f.Origin}, now)
	case ProductIncome:
		changed, err = tx.Data().PutProduct(ctx, sc, accountID, product, ProductData{Income: f.Income, Origin: f.Origin}, now)
	case ProductAllocations:
		// Reads race with switches: one computed before a switch succeeded
		// must not overwrite one that includes it, whatever commits last.
		done, ferr := successfulSwitches(ctx, tx, sc, accountID)
		if ferr != nil {
			return ferr
		}
		if len(done) <= f.switches {
			changed, err = tx.Data().PutProduct(ctx, sc, accountID, product, ProductData{Allocations: &Allocations{Allocations: f.Allocations}, Origin: f.Origin}, now)
		}
	case ProductPaystubs:
		changed, payoutsMoved, err = putPaystubs(ctx, tx, sc, a, f.Paystubs)
	case ProductTaxForms:
		changed, err = putW2s(ctx, tx, sc, a, f.W2s, now)
	case ProductShifts:
		rs := make([]Record, len(f.Shifts))
		for i, s := range f.Shifts {
			rs[i] = Record{ID: s.ID, Kind: RecordShift, AccountID: accountID, EndUserID: a.EndUserID, SortKey: s.StartDate.String(), CreatedAt: now, Shift: &s.Shift}
		}
		var added int
		added, err = tx.Records().PutRecords(ctx, sc, rs)
		changed = added > 0
	}
	if err != nil {
		return err
	}
	// The source's own times where it keeps the record (an upstream): the
	// relay answers as its upstream does.
	a.DataRefreshedAt[product] = cmp.Or(f.Origin.RefreshedAt, now)
	if changed || a.DataUpdatedAt[product].IsZero() {
		a.DataUpdatedAt[product] = cmp.Or(f.Origin.UpdatedAt, now)
	}
	if err := tx.Accounts().UpdateAccount(ctx, sc, a); err != nil {
		return err
	}
	if !payoutsMoved {
		return nil
	}
	return PublishEvent(ctx, tx, sc, "earnings_stream.payouts.refreshed", now, map[string]any{
		"end_user_id": a.EndUserID, "account_id": a.ID, "refreshed_at": APITime(now), "updated_at": APITime(now),
	})
}

// putPaystubs stores an account's fetched paystubs and says whether any
// was new, and whether they moved the end user's estimated payouts: the
// account is connected and its share of the estimate (from its newest
// paystubs) differs after the write. Older paystubs filled in, or those of
// a disconnected account (the estimate leaves it out), move nothing.
func putPaystubs(ctx context.Context, tx Tx, sc Scope, a Account, stubs []Paystub) (changed, payoutsMoved bool, err error) {
	var before []PayoutEarning
	if a.Connected {
		if before, err = storedPayouts(ctx, tx, sc, a.ID); err != nil {
			return false, false, err
		}
	}
	added, err := tx.Data().PutPaystubs(ctx, sc, a.ID, stubs)
	if err != nil || added == 0 || !a.Connected {
		return added > 0, false, err
	}
	after, err := storedPayouts(ctx, tx, sc, a.ID)
	if err != nil {
		return true, false, err
	}
	return true, !slices.Equal(before, after), nil
}
