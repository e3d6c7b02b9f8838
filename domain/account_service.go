package domain

import (
	"context"
	"errors"
)

// AccountService reads accounts for API callers and runs the account
// lifecycle (monitoring, disconnection). Jobs, data products, documents,
// end users and their earnings streams and bill navigator, the overview
// and subscriptions are services of their own below, which it embeds.
type AccountService struct {
	tx    Transactor
	clock Clock
	relay Relay // NoRelay unless this mode relays to upstreams

	// The services of the concepts around an account, each a type of
	// its own with only the dependencies it uses. The adapters (REST,
	// GraphQL) hold each one they call; they are embedded here because
	// one constructor wires them over the same transactor, clock and
	// relay, and the domain's tests reach them through one value.
	*AccountJobService
	*ProductService
	*DocumentService
	*EndUserService
	*OverviewService
	*WatchService
}

// AccountJobService reads an account's, a token's or a batch's jobs
// (account_jobs.go).
type AccountJobService struct{ tx Transactor }

// ProductService reads an account's data products, paystubs and records
// (account_products.go).
type ProductService struct {
	tx       Transactor
	accounts *AccountService
}

// DocumentService reads an end user's documents and tax forms, with
// their download links (account_documents.go).
type DocumentService struct {
	tx       Transactor
	reporter Reporter
	accounts *AccountService
	endUsers *EndUserService
}

// EndUserService reads end users and their earnings streams, and takes
// their bill navigator actions (end_users.go).
type EndUserService struct {
	tx    Transactor
	clock Clock
	relay Relay
}

// OverviewService answers the dashboard's overview (overview.go).
type OverviewService struct {
	tx    Transactor
	clock Clock
}

// WatchService streams job and account changes to subscriptions
// (watch.go).
type WatchService struct{ tx Transactor }

// NewAccountService wires the account use cases and those of the
// concepts around an account; reporter renders and links documents (nil
// leaves documents without download links); relay takes account actions
// to the upstream that holds a relayed account first (NoRelay: there is
// none).
func NewAccountService(tx Transactor, clock Clock, reporter Reporter, relay Relay) *AccountService {
	s := &AccountService{tx: tx, clock: clock, relay: relay}
	s.AccountJobService = &AccountJobService{tx: tx}
	s.ProductService = &ProductService{tx: tx, accounts: s}
	s.EndUserService = &EndUserService{tx: tx, clock: clock, relay: relay}
	s.DocumentService = &DocumentService{tx: tx, reporter: reporter, accounts: s, endUsers: s.EndUserService}
	s.OverviewService = &OverviewService{tx: tx, clock: clock}
	s.WatchService = &WatchService{tx: tx}
	return s
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

// setMonitoring changes an account in a transaction and writes
// account.monitoring_status.updated when its status changes.
func (s *AccountService) setMonitoring(ctx context.Context, sc Scope, id, action string, change func(a *Account)) error {
	a, err := s.Account(ctx, sc, id)
	if err != nil {
		return err
	}
	if action != "" {
		// A relayed account: the upstream holds the connection, so the
		// action takes effect there first (an upstream that is away fails
		// it and nothing changes), and its own events come back through
		// ingest.
		l, err := s.tx.Upstream().UpstreamLink(ctx, sc, a.LinkTokenID)
		switch {
		case err == nil:
			if err := s.relay.Act(ctx, l.Source, id, action); err != nil {
				return err
			}
		case !errors.Is(err, ErrNoRows):
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
