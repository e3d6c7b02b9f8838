package domain

import (
	"context"
	"errors"
	"slices"
	"time"
)

// The reads GraphQL resolvers and its batch loaders make. Each validates
// what it is given and answers the scope's data only; the batch forms
// return results in the order of their keys, with a not-found error in the
// slot of an id the scope does not have.

// inOrder arranges found items in the order of ids.
func inOrder[T any](ids []string, found []T, idOf func(T) string, notFound func(id string) error) ([]T, []error) {
	byID := make(map[string]T, len(found))
	for _, f := range found {
		byID[idOf(f)] = f
	}
	out, errs := make([]T, len(ids)), make([]error, len(ids))
	for i, id := range ids {
		v, ok := byID[id]
		if !ok {
			errs[i] = notFound(id)
		}
		out[i] = v
	}
	return out, errs
}

// failAll puts one error in every slot.
func failAll[T any](n int, err error) ([]T, []error) {
	errs := make([]error, n)
	for i := range errs {
		errs[i] = err
	}
	return make([]T, n), errs
}

// check applies the rules of GET /v1/jobs to a job filter.
func (f JobFilter) check() error {
	var p Problems
	for field, id := range map[string]string{"account_id": f.AccountID, "link_token_id": f.LinkTokenID} {
		if id != "" && !ValidID(id) {
			p.Invalid(field, "%q is not a UUID", id)
		}
	}
	if f.Outcome != "" && !slices.Contains([]Outcome{OutcomeSuccess, OutcomePending, OutcomeError}, f.Outcome) {
		p.Invalid("outcome", "must be success, pending or error")
	}
	for _, j := range f.JobTypes {
		if _, ok := ParseJobType(string(j)); !ok {
			p.Invalid("job_types", "%q is not a job type", j)
		}
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		p.Invalid("to_timestamp", "must be after from_timestamp")
	}
	return p.Err()
}

// check applies the rules of GET /v1/accounts to an account filter.
func (f AccountFilter) check() error {
	var p Problems
	if f.MonitoringStatus != "" && !slices.Contains(MonitoringStatuses, f.MonitoringStatus) {
		p.Invalid("monitoring_status", "must be one of active, degraded, user_action_required, customer_disabled, unavailable")
	}
	if f.PlatformID != "" && !ValidID(f.PlatformID) {
		p.Invalid("platform_id", "%q is not a UUID", f.PlatformID)
	}
	if f.EndUserID != "" && (len(f.EndUserID) > 255 || !storable(f.EndUserID)) {
		p.Invalid("end_user_id", "must be 1 to 255 characters of text")
	}
	return p.Err()
}

// EndUser returns one of the scope's end users. Errors: INVALID_FIELDS,
// END_USER_NOT_FOUND.
func (s *AccountService) EndUser(ctx context.Context, sc Scope, id string) (EndUser, error) {
	accounts, err := EndUserAccounts(ctx, s.tx.Accounts(), sc, id)
	if err != nil {
		return EndUser{}, err
	}
	u := EndUser{ID: id, Accounts: len(accounts), FirstConnected: accounts[0].CreatedAt}
	for _, a := range accounts {
		if a.CreatedAt.Before(u.FirstConnected) {
			u.FirstConnected = a.CreatedAt
		}
	}
	return u, nil
}

// EndUsers pages the scope's end users by id.
func (s *AccountService) EndUsers(ctx context.Context, sc Scope, p PageRequest) (Page[EndUser], error) {
	return s.tx.Accounts().FindEndUsers(ctx, sc, p)
}

// AccountsByID loads accounts for a batch loader.
func (s *AccountService) AccountsByID(ctx context.Context, sc Scope, ids []string) ([]Account, []error) {
	found, err := s.tx.Accounts().AccountsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Account](len(ids), err)
	}
	return inOrder(ids, found, func(a Account) string { return a.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeAccountNotFound, "no account with id %s", id)
	})
}

// AccountsOfEndUsers pages each end user's accounts, newest first.
func (s *AccountService) AccountsOfEndUsers(ctx context.Context, sc Scope, endUserIDs []string, p PageRequest) (map[string]Page[Account], error) {
	return s.tx.Accounts().AccountsOfEndUsers(ctx, sc, endUserIDs, p)
}

// Job returns one of the scope's jobs. Errors: INVALID_FIELDS,
// JOB_NOT_FOUND.
func (s *AccountService) Job(ctx context.Context, sc Scope, id string) (Job, error) {
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
func (s *AccountService) JobsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, f JobFilter, p PageRequest) (map[string]Page[Job], error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().JobsOfAccounts(ctx, sc, accountIDs, f, p)
}

// ProductsOfAccounts reads one product of many accounts.
func (s *AccountService) ProductsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, product string) (map[string]StoredProduct, error) {
	return s.tx.Data().ProductsOfAccounts(ctx, sc, accountIDs, product)
}

// PaystubsOfAccounts pages each account's paystubs, newest pay date first;
// from (YYYY-MM-DD) keeps stubs paid on or after it.
func (s *AccountService) PaystubsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, from string, p PageRequest) (map[string]Page[Paystub], error) {
	if err := checkFromPayDate(from); err != nil {
		return nil, err
	}
	return s.tx.Data().PaystubsOfAccounts(ctx, sc, accountIDs, from, p)
}

// checkFromPayDate is the one rule for from_pay_date, which REST's
// paystub list and GraphQL's paystubs(fromPayDate:) both take: empty, or
// a date in YYYY-MM-DD form.
func checkFromPayDate(from string) error {
	if from == "" {
		return nil
	}
	if _, err := time.Parse(time.DateOnly, from); err != nil || !dateOnly.MatchString(from) {
		return Errorf(KindInvalid, CodeInvalidFields, "from_pay_date: must be a date in YYYY-MM-DD form, got %q", from)
	}
	return nil
}

// PaystubByID returns a paystub of any of the scope's accounts. Errors:
// INVALID_FIELDS, PAYSTUB_NOT_FOUND.
func (s *AccountService) PaystubByID(ctx context.Context, sc Scope, id string) (Paystub, error) {
	if err := CheckID("paystub_id", id); err != nil {
		return Paystub{}, err
	}
	p, err := s.tx.Data().PaystubByID(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Paystub{}, Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	}
	return p, err
}

// DocumentByID returns one of the scope's documents, whichever end user's,
// with a fresh download link. Errors: INVALID_FIELDS, DOCUMENT_NOT_FOUND.
func (s *AccountService) DocumentByID(ctx context.Context, sc Scope, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	}
	if err != nil {
		return Record{}, err
	}
	return r, s.link(ctx, sc, &r)
}

// LinkToken returns one of the scope's link tokens, without its sealed
// parts. Errors: INVALID_FIELDS, LINK_TOKEN_NOT_FOUND.
func (s *LinkService) LinkToken(ctx context.Context, sc Scope, id string) (LinkToken, error) {
	if err := CheckID("link_token_id", id); err != nil {
		return LinkToken{}, err
	}
	t, err := s.tx.LinkTokens().LinkToken(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return LinkToken{}, Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", id)
	}
	return t, err
}

// LinkTokensByID loads link tokens for a batch loader.
func (s *LinkService) LinkTokensByID(ctx context.Context, sc Scope, ids []string) ([]LinkToken, []error) {
	found, err := s.tx.LinkTokens().LinkTokensByID(ctx, sc, ids)
	if err != nil {
		return failAll[LinkToken](len(ids), err)
	}
	return inOrder(ids, found, func(t LinkToken) string { return t.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", id)
	})
}

// DeliveriesOfWebhooks pages each webhook's delivery attempts, newest first.
func (s *WebhookService) DeliveriesOfWebhooks(ctx context.Context, sc Scope, ids []string, p PageRequest) (map[string]Page[Delivery], error) {
	return s.tx.Webhooks().DeliveriesOfWebhooks(ctx, sc, ids, p)
}

// JobsByID loads jobs for a batch read.
func (s *AccountService) JobsByID(ctx context.Context, sc Scope, ids []string) ([]Job, []error) {
	found, err := s.tx.Jobs().JobsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Job](len(ids), err)
	}
	return inOrder(ids, found, func(j Job) string { return j.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeJobNotFound, "no job with id %s", id)
	})
}

// PaystubsByID loads paystubs of any of the scope's accounts for a batch
// read.
func (s *AccountService) PaystubsByID(ctx context.Context, sc Scope, ids []string) ([]Paystub, []error) {
	found, err := s.tx.Data().PaystubsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Paystub](len(ids), err)
	}
	return inOrder(ids, found, func(p Paystub) string { return p.ID }, func(id string) error {
		return Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	})
}

// DocumentsByID loads documents of any of the scope's end users for a
// batch read, each with a fresh download link.
func (s *AccountService) DocumentsByID(ctx context.Context, sc Scope, ids []string) ([]Record, []error) {
	found, err := s.tx.Records().RecordsByID(ctx, sc, RecordDocument, ids)
	if err != nil {
		return failAll[Record](len(ids), err)
	}
	for i := range found {
		if err := s.link(ctx, sc, &found[i]); err != nil {
			return failAll[Record](len(ids), err)
		}
	}
	return inOrder(ids, found, func(r Record) string { return r.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	})
}

// EndUsersByID loads end users for a batch read: an id with no account is
// END_USER_NOT_FOUND in its slot.
func (s *AccountService) EndUsersByID(ctx context.Context, sc Scope, ids []string) ([]EndUser, []error) {
	found, err := s.tx.Accounts().EndUsersByID(ctx, sc, ids)
	if err != nil {
		return failAll[EndUser](len(ids), err)
	}
	return inOrder(ids, found, func(u EndUser) string { return u.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeEndUserNotFound, "no end user with id %q", id)
	})
}

// WebhooksByID loads webhooks for a batch read.
func (s *WebhookService) WebhooksByID(ctx context.Context, sc Scope, ids []string) ([]Webhook, []error) {
	found, err := s.tx.Webhooks().WebhooksByID(ctx, sc, ids)
	if err != nil {
		return failAll[Webhook](len(ids), err)
	}
	return inOrder(ids, found, func(w Webhook) string { return w.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeWebhookNotFound, "no webhook with id %s", id)
	})
}
