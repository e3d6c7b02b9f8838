package domain

import (
	"context"
	"errors"
)

// AccountService reads accounts and jobs for API callers.
type AccountService struct {
	tx Transactor
}

// NewAccountService wires the account use cases.
func NewAccountService(tx Transactor) *AccountService { return &AccountService{tx: tx} }

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

// Accounts pages the scope's accounts, newest first.
func (s *AccountService) Accounts(ctx context.Context, sc Scope, f AccountFilter, p PageRequest) (Page[Account], error) {
	return s.tx.Accounts().FindAccounts(ctx, sc, f, p)
}

// Jobs pages the scope's completed Link jobs, newest first.
func (s *AccountService) Jobs(ctx context.Context, sc Scope, f JobFilter, p PageRequest) (Page[Job], error) {
	f.IncludeUnrun = false
	return s.tx.Jobs().FindJobs(ctx, sc, f, p)
}

// SimulateMonitoringStatus is the sandbox helper that breaks (or mends) an
// account's connection. Errors: SANDBOX_ONLY outside the sandbox (404),
// INVALID_FIELDS for a status that cannot be simulated.
func (s *AccountService) SimulateMonitoringStatus(ctx context.Context, sc Scope, id string, status MonitoringStatus) (Account, error) {
	if sc.Mode != ModeSandbox {
		return Account{}, Errorf(KindNotFound, CodeNotSandbox, "sandbox helpers exist only in the sandbox mode")
	}
	switch status {
	case MonitoringActive, MonitoringDegraded, MonitoringUserActionRequired, MonitoringUnavailable:
	default:
		return Account{}, Errorf(KindInvalid, CodeInvalidFields,
			"monitoring_status: must be active, degraded, user_action_required or unavailable (customer_disabled comes from POST /accounts/{id}/disable_monitoring)")
	}
	a, err := s.Account(ctx, sc, id)
	if err != nil {
		return Account{}, err
	}
	a.MonitoringStatus = status
	return a, s.tx.Accounts().UpdateAccount(ctx, sc, a)
}

// NoConnector stands in for real payroll connectors in development and
// production modes, which do not ship yet: it says so instead of
// pretending.
type NoConnector struct{}
