package domain

import (
	"context"
	"encoding/json"
)

// JobWatch narrows a live view of jobs; empty fields match every job.
type JobWatch struct {
	AccountID   string
	EndUserID   string
	LinkTokenID string
}

// accountEvents change what an account shows: it was added, its
// monitoring status moved, or one of its jobs finished.
func accountEvent(name string) bool {
	return name == "account.added" || name == "account.monitoring_status.updated" || EventResource(name) == ResourceJob
}

func matches(want, got string) bool { return want == "" || want == got }

// WatchJobs sends each of the scope's jobs whose outcome changes (every
// <job>.added event, as it commits), until ctx ends; then the channel
// closes. Errors: INVALID_FIELDS for a malformed id.
func (s *WatchService) WatchJobs(ctx context.Context, sc Scope, w JobWatch) (<-chan Job, error) {
	for field, id := range map[string]string{"accountId": w.AccountID, "linkTokenId": w.LinkTokenID} {
		if id != "" {
			if err := CheckID(field, id); err != nil {
				return nil, err
			}
		}
	}
	events := s.tx.Subscribe(ctx, sc)
	out := make(chan Job)
	go func() {
		defer close(out)
		for e := range events {
			if EventResource(e.Name) != ResourceJob {
				continue
			}
			var p struct {
				ID          string `json:"id"`
				AccountID   string `json:"account_id"`
				EndUserID   string `json:"end_user_id"`
				LinkTokenID string `json:"link_token_id"`
			}
			if json.Unmarshal(e.Payload, &p) != nil || !matches(w.AccountID, p.AccountID) || !matches(w.EndUserID, p.EndUserID) ||
				!matches(w.LinkTokenID, p.LinkTokenID) {
				continue
			}
			j, err := s.tx.Jobs().Job(ctx, sc, p.ID)
			if err != nil {
				continue // gone, or the context ended
			}
			select {
			case out <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// WatchAccounts sends each of the scope's accounts (of one end user, when
// endUserID is set) when it is added, its monitoring status changes or a
// job of it finishes, until ctx ends; then the channel closes.
func (s *WatchService) WatchAccounts(ctx context.Context, sc Scope, endUserID string) (<-chan Account, error) {
	events := s.tx.Subscribe(ctx, sc)
	out := make(chan Account)
	go func() {
		defer close(out)
		for e := range events {
			if !accountEvent(e.Name) {
				continue
			}
			var p struct {
				AccountID string `json:"account_id"`
				EndUserID string `json:"end_user_id"`
			}
			if json.Unmarshal(e.Payload, &p) != nil || p.AccountID == "" || !matches(endUserID, p.EndUserID) {
				continue
			}
			a, err := s.tx.Accounts().Account(ctx, sc, p.AccountID)
			if err != nil {
				continue
			}
			select {
			case out <- a:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
