package domain

import (
	"context"
	"errors"
	"slices"
)

// AccountService reads accounts, their jobs and data for API callers, and
// runs the account lifecycle.
type AccountService struct {
	tx       Transactor
	clock    Clock
	reporter Reporter
	upstream Upstream // nil unless this mode relays to one
}

// RelayTo makes account actions take effect at the upstream first.
func (s *AccountService) RelayTo(u Upstream) { s.upstream = u }

// NewAccountService wires the account use cases; reporter renders and
// links documents (nil leaves documents without download links).
func NewAccountService(tx Transactor, clock Clock, reporter Reporter) *AccountService {
	return &AccountService{tx: tx, clock: clock, reporter: reporter}
}

// Account returns one of the scope's accounts. Errors: INVALID_FIELDS for
// a malformed id, ACCOUNT_NOT_FOUND when the scope has none with it.
func (s *AccountService) Account(ctx context.Context, sc Scope, id string) (Account, error) {
	if err := CheckID("account_id", id); err != nil {
		return Account{}, err
	}
	a, err := s.tx.Accounts().Account(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Account{}, Errorf(KindNotFound, CodeAccountNotFound, "no account with id %s", id)
	}
	return a, err
}

// Accounts pages the scope's accounts, newest first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *AccountService) Accounts(ctx context.Context, sc Scope, f AccountFilter, p PageRequest) (Page[Account], error) {
	if err := f.check(); err != nil {
		return Page[Account]{}, err
	}
	return s.tx.Accounts().FindAccounts(ctx, sc, f, p)
}

// Jobs pages the scope's completed Link jobs, newest first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *AccountService) Jobs(ctx context.Context, sc Scope, f JobFilter, p PageRequest) (Page[Job], error) {
	if err := f.check(); err != nil {
		return Page[Job]{}, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().FindJobs(ctx, sc, f, p)
}

// TokenJobs lists the finished jobs (success or error) a link token
// started, oldest first: the deprecated GET /link_tokens/{id}/jobs.
// Errors: INVALID_FIELDS, LINK_TOKEN_NOT_FOUND.
func (s *AccountService) TokenJobs(ctx context.Context, sc Scope, tokenID string) ([]Job, error) {
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

// SimulateMonitoringStatus is the sandbox helper that breaks (or mends) an
// account's connection. Errors: SANDBOX_ONLY outside the sandbox (404),
// INVALID_FIELDS for a status that cannot be simulated.
func (s *AccountService) SimulateMonitoringStatus(ctx context.Context, sc Scope, id string, status MonitoringStatus) (Account, error) {
	if err := sandboxOnly(sc); err != nil {
		return Account{}, err
	}
	switch status {
	case MonitoringActive, MonitoringDegraded, MonitoringUserActionRequired, MonitoringUnavailable:
	default:
		return Account{}, Errorf(KindInvalid, CodeInvalidFields,
			"monitoring_status: must be active, degraded, user_action_required or unavailable (customer_disabled comes from POST /accounts/{id}/disable_monitoring)")
	}
	if err := s.setMonitoring(ctx, sc, id, "", func(a *Account) { a.MonitoringStatus = status }); err != nil {
		return Account{}, err
	}
	return s.Account(ctx, sc, id)
}

// NoConnector stands in for a payroll source in development and
// production modes without --upstream-url: it says so instead of
// pretending.
type NoConnector struct{}

// productJobs names the job that produces each product, for 404s.
var productJobs = map[string]JobType{
	ProductIdentity: JobIdentity, ProductEmployment: JobEmployment, ProductIncome: JobIncome,
	ProductAllocations: JobDirectDepositAllocations, ProductPaystubs: JobPaystubs,
}

func productNotFound(accountID, product string) error {
	return Errorf(KindNotFound, CodeProductNotFound,
		"account %s has no %s yet: the %s job produces it; create a link token whose required_jobs include %q (or an On Demand Update token with account_id)",
		accountID, product, productJobs[product], productJobs[product])
}

// Product returns a stored single-object product and its account (whose
// data_refreshed_at is the product's freshness). Errors: ACCOUNT_NOT_FOUND,
// PRODUCT_NOT_FOUND naming the job that produces it.
func (s *AccountService) Product(ctx context.Context, sc Scope, accountID, product string) (StoredProduct, Account, error) {
	a, err := s.Account(ctx, sc, accountID)
	if err != nil {
		return StoredProduct{}, Account{}, err
	}
	p, err := s.tx.Data().Product(ctx, sc, accountID, product)
	if errors.Is(err, ErrNoRows) {
		return StoredProduct{}, a, productNotFound(accountID, product)
	}
	return p, a, err
}

// Paystubs pages an account's paystubs, newest pay date first. from, when
// given, is a YYYY-MM-DD date: only stubs paid on or after it.
func (s *AccountService) Paystubs(ctx context.Context, sc Scope, accountID, from string, p PageRequest) (Page[Paystub], Account, error) {
	if err := checkFromPayDate(from); err != nil {
		return Page[Paystub]{}, Account{}, err
	}
	a, err := s.Account(ctx, sc, accountID)
	if err != nil {
		return Page[Paystub]{}, Account{}, err
	}
	if a.DataRefreshedAt[ProductPaystubs].IsZero() {
		return Page[Paystub]{}, a, productNotFound(accountID, ProductPaystubs)
	}
	page, err := s.tx.Data().FindPaystubs(ctx, sc, accountID, from, p)
	return page, a, err
}

// Paystub returns one paystub. Errors: INVALID_FIELDS, ACCOUNT_NOT_FOUND,
// RECORD_NOT_FOUND (PAYSTUB_NOT_FOUND).
func (s *AccountService) Paystub(ctx context.Context, sc Scope, accountID, id string) (Paystub, error) {
	if _, err := s.Account(ctx, sc, accountID); err != nil {
		return Paystub{}, err
	}
	if err := CheckID("paystub_id", id); err != nil {
		return Paystub{}, err
	}
	p, err := s.tx.Data().Paystub(ctx, sc, accountID, id)
	if errors.Is(err, ErrNoRows) {
		return Paystub{}, Errorf(KindNotFound, CodePaystubNotFound, "account %s has no paystub %s", accountID, id)
	}
	return p, err
}

// setMonitoring changes an account in a transaction and writes
// account.monitoring_status.updated when its status changes.
func (s *AccountService) setMonitoring(ctx context.Context, sc Scope, id, action string, change func(a *Account)) error {
	if _, err := s.Account(ctx, sc, id); err != nil {
		return err
	}
	if s.upstream != nil && action != "" {
		// The upstream holds the connection: the action takes effect there
		// first (an upstream that is away fails it and nothing changes),
		// and its own events come back through ingest.
		if err := s.upstream.Act(ctx, id, action); err != nil {
			return err
		}
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		a, err := tx.Accounts().AccountForUpdate(ctx, sc, id)
		if err != nil {
			return err
		}
		before := a.MonitoringStatus
		change(&a)
		if err := tx.Accounts().UpdateAccount(ctx, sc, a); err != nil {
			return err
		}
		if a.MonitoringStatus == before {
			return nil
		}
		return PublishEvent(ctx, tx, sc, "account.monitoring_status.updated", s.clock.Now(), map[string]any{
			"account_id": a.ID, "end_user_id": a.EndUserID, "monitoring_status": a.MonitoringStatus, "previous_monitoring_status": before,
		})
	})
}

// Disconnect ends an account's connection for good: connected becomes
// false and monitoring_status unavailable; data already read stays
// readable, and On Demand Updates are refused from then on. Repeating it
// changes nothing.
func (s *AccountService) Disconnect(ctx context.Context, sc Scope, id string) error {
	return s.setMonitoring(ctx, sc, id, ActionDisconnect, func(a *Account) {
		a.Connected, a.MonitoringStatus = false, MonitoringUnavailable
	})
}

// DisableMonitoring stops refreshes: monitoring_status becomes
// customer_disabled (a disconnected account stays unavailable).
func (s *AccountService) DisableMonitoring(ctx context.Context, sc Scope, id string) error {
	return s.setMonitoring(ctx, sc, id, ActionDisableMonitoring, func(a *Account) {
		if a.Connected {
			a.MonitoringStatus = MonitoringCustomerDisabled
		}
	})
}
