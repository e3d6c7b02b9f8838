package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Consent taken back on the person's page (issue 50): the account is
// disconnected by end_user at its source and here, its data deleted, and
// what the law keeps recorded with the reason.

// reportsKeptReason is why reports built before a revocation stay: the
// law's reason, recorded with each revocation.
const reportsKeptReason = "consumer reports already furnished to the customer are kept, as the Fair Credit Reporting Act " +
	"requires a consumer reporting agency to be able to reinvestigate a disputed report and to account for what it " +
	"furnished; their earlier versions are deleted after the report retention period (25 months by default)"

// Revoke takes back the session's person's consent to one account
// (accountID) or to every account at the customer (accountID ""): for
// each account still connected, the source is told through the route
// that made the connection (tellSource: an upstream through the relay, a
// connector through the protocol's disconnect, the sandbox), then in one
// transaction the account is disconnected by end_user (refreshes stop:
// monitoring serves connected accounts only, and its jobs end without
// asking the source), its data is deleted and the connection state Payline
// held emptied, the revocation recorded with what was kept and why, and
// the customer sent consent.revoked. Errors: ACCOUNT_NOT_FOUND for an
// account that is not the person's; a source that is away or refuses
// (nothing changes for that account and those after it).
func (s *PortalService) Revoke(ctx context.Context, sess PortalSession, accountID string) ([]ConsentRevocation, error) {
	sc := sess.Scope()
	var targets []Account
	if accountID != "" {
		if err := CheckID("account_id", accountID); err != nil {
			return nil, err
		}
		a, err := s.tx.Accounts().Account(ctx, sc, accountID)
		if errors.Is(err, ErrNoRows) || (err == nil && a.EndUserID != sess.EndUserID) {
			return nil, Errorf(KindNotFound, CodeAccountNotFound, "no account with id %s", accountID)
		}
		if err != nil {
			return nil, err
		}
		targets = []Account{a}
	} else {
		all, err := s.accountsOf(ctx, sc, sess.EndUserID)
		if err != nil {
			return nil, err
		}
		targets = all
	}
	var out []ConsentRevocation
	for _, a := range targets {
		if a.DisconnectedBy == DisconnectedByEndUser {
			continue
		}
		r, err := s.revokeOne(ctx, sc, a)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// revokeOne tells an account's source and then, in one transaction,
// disconnects it, deletes its data and records the revocation.
func (s *PortalService) revokeOne(ctx context.Context, sc Scope, a Account) (ConsentRevocation, error) {
	told, err := s.tellSource(ctx, sc, a)
	if err != nil {
		return ConsentRevocation{}, err
	}
	now := s.clock.Now()
	r := ConsentRevocation{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, EndUserID: a.EndUserID, AccountID: a.ID,
		RevokedAt: now, SourceTold: told, KeptReason: reportsKeptReason}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		a, err := tx.Accounts().AccountForUpdate(ctx, sc, a.ID)
		if err != nil {
			return err
		}
		before := a.MonitoringStatus
		a.Connected, a.MonitoringStatus, a.DisconnectedBy, a.Connection = false, MonitoringUnavailable, DisconnectedByEndUser, ""
		if err := tx.Accounts().UpdateAccount(ctx, sc, a); err != nil {
			return err
		}
		d, err := tx.Portal().DeleteAccountData(ctx, sc, a.ID)
		if err != nil {
			return err
		}
		r.Deleted = fmt.Sprintf("%d data products, %d paystubs and %d tax forms, shifts or documents read from this account",
			d.Products, d.Paystubs, d.Records)
		kept, err := s.keptReports(ctx, tx, sc, a.EndUserID)
		if err != nil {
			return err
		}
		r.Kept = kept
		if kept == "" {
			r.Kept, r.KeptReason = "nothing", ""
		}
		if err := tx.Portal().PutConsentRevocation(ctx, sc, r); err != nil {
			return err
		}
		if err := tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, "end_user", AuditConsentRevoked, a.ID, now)); err != nil {
			return err
		}
		if before != a.MonitoringStatus {
			if err := PublishEvent(ctx, tx, sc, "account.monitoring_status.updated", now, map[string]any{
				"account_id": a.ID, "end_user_id": a.EndUserID, "monitoring_status": a.MonitoringStatus, "previous_monitoring_status": before,
			}); err != nil {
				return err
			}
		}
		return PublishEvent(ctx, tx, sc, EventConsentRevoked, now, map[string]any{
			"account_id": a.ID, "end_user_id": a.EndUserID, "revoked_at": Timestamp(now), "disconnected_by": DisconnectedByEndUser,
			"data_deleted": r.Deleted, "kept": r.Kept, "kept_reason": r.KeptReason,
		})
	})
	return r, err
}

// tellSource tells the route that made the account's connection, in
// the words the record keeps: an upstream through the relay, any other
// source through its route (a connector's disconnect, the sandbox). A
// route without a disconnect is recorded as such; Payline deletes the
// connection state it holds either way. An account already disconnected
// is not told again.
func (s *PortalService) tellSource(ctx context.Context, sc Scope, a Account) (string, error) {
	if !a.Connected {
		return "the connection had already ended", nil
	}
	l, err := s.tx.Upstream().UpstreamLink(ctx, sc, a.LinkTokenID)
	switch {
	case err == nil:
		if err := s.relay.Act(ctx, l.Source, a.ID, ActionDisconnect); err != nil {
			return "", err
		}
		return "the payroll data service that made the connection (" + l.Source + ") was told to disconnect it", nil
	case !errors.Is(err, ErrNoRows):
		return "", err
	}
	said, err := s.sources.DisconnectSource(ctx, a)
	var none *NoDisconnectChannelError
	switch {
	case errors.As(err, &none):
		return "the source that made the connection (" + none.Route + ") could not be told (" + none.Reason +
			"); Payline deleted the connection it held", nil
	case err != nil:
		return "", err
	}
	return said + "; Payline deleted the connection it held", nil
}

// keptReports names the reports built about the end user that stay.
func (s *PortalService) keptReports(ctx context.Context, tx Tx, sc Scope, endUserID string) (string, error) {
	var kept []string
	for _, typ := range []string{ReportVOIE, ReportVOE} {
		got, err := tx.Reports().ReportsOf(ctx, sc, []string{endUserID}, typ)
		if err != nil {
			return "", err
		}
		if r, ok := got[endUserID]; ok {
			kept = append(kept, fmt.Sprintf("the %s report built %s", strings.ToUpper(typ), r.RefreshedAt.UTC().Format("January 2, 2006")))
		}
	}
	return strings.Join(kept, " and "), nil
}
