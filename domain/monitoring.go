package domain

import (
	"context"
	"fmt"
	"log/slog"
)

// MonitoringService refreshes the data of monitored accounts: connected,
// with monitoring_status active. Refreshes are jobs with Monitoring set,
// which GET /jobs does not list.
type MonitoringService struct {
	tx        Transactor
	jobs      *JobService
	connector Connector
	clock     Clock
	log       *slog.Logger
}

// NewMonitoringService wires monitoring.
func NewMonitoringService(tx Transactor, jobs *JobService, connector Connector, clock Clock, log *slog.Logger) *MonitoringService {
	return &MonitoringService{tx: tx, jobs: jobs, connector: connector, clock: clock, log: log}
}

// RefreshAll refreshes every monitored account and returns how many it
// refreshed. One account's failure is logged and does not stop the rest.
func (m *MonitoringService) RefreshAll(ctx context.Context) (int, error) {
	n, after := 0, ""
	for {
		batch, err := m.tx.Accounts().MonitoredAccounts(ctx, 200, after)
		if err != nil {
			return n, err
		}
		for _, a := range batch {
			if err := m.Refresh(ctx, a); err != nil {
				m.log.ErrorContext(ctx, "monitoring refresh failed", slog.String("account_id", a.ID), slog.Any("error", err))
				continue
			}
			n++
		}
		if len(batch) < 200 {
			return n, nil
		}
		after = batch[len(batch)-1].ID
	}
}

// Refresh re-reads every product an account has. data_refreshed_at moves
// for each; new paystubs are stored with a monitoring paystubs job and its
// paystubs.added event, and move data_updated_at.
func (m *MonitoringService) Refresh(ctx context.Context, a Account) error {
	if !a.Connected || a.MonitoringStatus != MonitoringActive {
		return nil
	}
	sc, now := a.Scope(), m.clock.Now()
	for product := range a.DataRefreshedAt {
		f, err := m.jobs.fetch(ctx, sc, a, product, now, nil)
		if err != nil {
			return fmt.Errorf("refresh %s: %w", product, err)
		}
		if product == ProductPaystubs {
			latest, err := m.tx.Data().LatestPayDate(ctx, sc, a.ID)
			if err != nil {
				return err
			}
			var fresh []Paystub
			for _, s := range f.Paystubs {
				if s.PayDate > latest {
					fresh = append(fresh, s)
				}
			}
			f.Paystubs = fresh
		}
		err = m.tx.InTx(ctx, func(tx Tx) error {
			if err := storeFetched(ctx, tx, sc, a.ID, product, f, now); err != nil {
				return err
			}
			if product != ProductPaystubs || len(f.Paystubs) == 0 {
				return nil
			}
			j := Job{ID: NewID(), CustomerID: a.CustomerID, Mode: a.Mode, AccountID: a.ID, PlatformID: a.PlatformID,
				EndUserID: a.EndUserID, LinkTokenID: a.LinkTokenID, Name: JobPaystubs, CreatedAt: now, Timestamp: &now,
				Outcome: OutcomeSuccess, Monitoring: true}
			if err := tx.Jobs().CreateJob(ctx, sc, j); err != nil {
				return err
			}
			return PublishEvent(ctx, tx, sc, "paystubs.added", now, JobEventPayload(j))
		})
		if err != nil {
			return err
		}
	}
	return nil
}
