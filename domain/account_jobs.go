package domain

import (
	"context"
	"errors"
	"slices"
)

// Jobs pages the scope's completed Link jobs, newest first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *AccountJobService) Jobs(ctx context.Context, sc Scope, f JobFilter, p PageRequest) (Page[Job], error) {
	if err := f.check(); err != nil {
		return Page[Job]{}, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().FindJobs(ctx, sc, f, p)
}

// TokenJobs lists the finished jobs (success or error) a link token
// started, oldest first: the deprecated GET /link_tokens/{id}/jobs.
// Errors: INVALID_FIELDS, LINK_TOKEN_NOT_FOUND.
func (s *AccountJobService) TokenJobs(ctx context.Context, sc Scope, tokenID string) ([]Job, error) {
	if err := CheckID("token_id", tokenID); err != nil {
		return nil, err
	}
	if _, err := s.tx.LinkTokens().LinkToken(ctx, sc, tokenID); errors.Is(err, ErrNoRows) {
		return nil, Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", tokenID)
	} else if err != nil {
		return nil, err
	}
	var out []Job
	p := PageRequest{Limit: MaxPageLimit}
	for {
		page, err := s.tx.Jobs().FindJobs(ctx, sc, JobFilter{LinkTokenID: tokenID}, p)
		if err != nil {
			return nil, err
		}
		for _, j := range page.Items {
			if j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError {
				out = append(out, j)
			}
		}
		if page.Next == nil {
			break
		}
		p.Cursor = page.Next
	}
	slices.Reverse(out) // the list is newest first
	return out, nil
}

// Job returns one of the scope's jobs. Errors: INVALID_FIELDS,
// JOB_NOT_FOUND.
func (s *AccountJobService) Job(ctx context.Context, sc Scope, id string) (Job, error) {
	if err := CheckID("job_id", id); err != nil {
		return Job{}, err
	}
	j, err := s.tx.Jobs().Job(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Job{}, Errorf(KindNotFound, CodeJobNotFound, "no job with id %s", id)
	}
	return j, err
}

// JobsOfAccounts pages each account's completed jobs, newest first, by the
// rules of GET /v1/jobs.
func (s *AccountJobService) JobsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, f JobFilter, p PageRequest) (map[string]Page[Job], error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().JobsOfAccounts(ctx, sc, accountIDs, f, p)
}

// JobsByID loads jobs for a batch read.
func (s *AccountJobService) JobsByID(ctx context.Context, sc Scope, ids []string) ([]Job, []error) {
	found, err := s.tx.Jobs().JobsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Job](len(ids), err)
	}
	return inOrder(ids, found, func(j Job) string { return j.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeJobNotFound, "no job with id %s", id)
	})
}
