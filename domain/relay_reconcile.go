package domain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// ReconcilePass is where reconciliation with an upstream stands, stored
// after every page so a pass that stops (a restart, its time up)
// resumes where it stopped, never from the start and never discarded.
type ReconcilePass struct {
	// Running is true while a pass is under way: it lists the accounts
	// created at or after Since, newest first, from Cursor ("" for the
	// first page); Started is when it began.
	Running bool
	Since   time.Time
	Cursor  string
	Started time.Time
	// Listed and Ingested count the pass's accounts so far: every one
	// listed, and those that needed an ingest.
	Listed, Ingested int
	// Through is when the last complete pass started: the next one lists
	// the accounts created since then, less ReconcileOverlap.
	Through time.Time
}

// ReconcileWindow is how far back the first pass looks; ReconcileOverlap
// how far before the last complete pass's start each later pass begins,
// for an account whose creation raced that pass.
const (
	ReconcileWindow  = 48 * time.Hour
	ReconcileOverlap = 5 * time.Minute
)

// settleAfter is how old an account may be with a job its token asked
// for still missing before reconciliation stops reading it again (a
// platform that does not run that job).
const settleAfter = 10 * time.Minute

// Reconcile runs reconciliation until its pass is complete or ctx ends,
// whichever is first, and returns where it stands (Running: more to do).
// A pass lists the upstream's accounts created since the last complete
// pass began (ReconcileWindow back for the first), page by page, and
// ingests each one this service does not hold settled: missing here, a
// job not final here, or a job its token asked for missing. What webhooks
// missed (this service down, a delivery lost) arrives so. Listing costs
// one request per hundred accounts; accounts of other clients of the
// upstream cost nothing more. Upstream calls go at PriorityReconcile and
// wait out the upstream's rate limit, so a pass is never discarded.
func (s *RelayService) Reconcile(ctx context.Context) (ReconcilePass, error) {
	ctx = WithUpstreamPriority(ctx, PriorityReconcile)
	store := s.tx.Upstream()
	st, err := store.ReconcilePass(ctx, s.name)
	if err != nil {
		return st, err
	}
	now := s.clock.Now()
	if !st.Running {
		since := now.Add(-ReconcileWindow)
		if t := st.Through.Add(-ReconcileOverlap); !st.Through.IsZero() && t.After(since) {
			since = t
		}
		st = ReconcilePass{Running: true, Since: since, Started: now, Through: st.Through}
	}
	for ctx.Err() == nil {
		accounts, next, err := s.upstream.Accounts(ctx, st.Since, st.Cursor)
		var de *Error
		if st.Cursor != "" && errors.As(err, &de) && de.Kind == KindInvalid {
			st.Cursor = "" // the upstream no longer takes the cursor: list the pass again
			continue
		}
		if err != nil {
			return st, fmt.Errorf("list the upstream's accounts: %w", err)
		}
		for _, ua := range accounts {
			settled, err := s.settled(ctx, ua, st.Started)
			if err != nil {
				return st, err
			}
			if settled {
				continue
			}
			switch err := s.Ingest(ctx, ua.ID); {
			case errors.Is(err, ErrNotOurs):
			case err != nil:
				return st, fmt.Errorf("ingest upstream account %s: %w", ua.ID, err)
			default:
				st.Ingested++
			}
		}
		st.Listed += len(accounts)
		st.Cursor = next
		if next == "" {
			st.Running, st.Through = false, st.Started
		}
		if err := store.PutReconcilePass(ctx, s.name, st); err != nil {
			return st, err
		}
		if !st.Running {
			return st, nil
		}
	}
	return st, nil
}

// settled reports whether an upstream account needs no reading: another
// client's, or held here with every job final and every job its token
// asked for present (or missing for longer than settleAfter).
func (s *RelayService) settled(ctx context.Context, ua UpstreamAccount, now time.Time) (bool, error) {
	t, err := s.tx.Upstream().LinkTokenByUpstream(ctx, ua.LinkTokenID)
	if errors.Is(err, ErrNoRows) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	if _, err := s.tx.Accounts().Account(ctx, t.Scope(), ua.ID); errors.Is(err, ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	page, err := s.tx.Jobs().FindJobs(ctx, t.Scope(), JobFilter{AccountID: ua.ID, IncludeUnrun: true}, PageRequest{Limit: 100})
	if err != nil {
		return false, err
	}
	var have []JobType
	for _, j := range page.Items {
		if j.Outcome != OutcomeSuccess && j.Outcome != OutcomeError {
			return false, nil
		}
		have = append(have, j.Name)
	}
	if now.Sub(ua.CreatedAt) > settleAfter {
		return true, nil
	}
	for _, want := range t.Jobs() {
		if slices.Contains(JobTypes, want) && !slices.Contains(have, want) {
			return false, nil
		}
	}
	return true, nil
}
