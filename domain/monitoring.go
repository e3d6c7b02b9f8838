package domain

import (
	"context"
	"errors"
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

// MonitoringBatch is how many accounts one scheduling step queues.
const MonitoringBatch = 500

// RefreshRun is a queued refresh of one monitored account.
type RefreshRun struct {
	Scope     Scope
	AccountID string
}

// Schedule queues a refresh of each monitored account whose id sorts
// after after, up to MonitoringBatch of them, and returns the last id
// when more may follow ("" when it reached the end). Each step is short,
// so no job runs long enough to look stuck; the queue keeps one refresh
// per account per monitoring period.
func (m *MonitoringService) Schedule(ctx context.Context, after string) (string, error) {
	batch, err := m.tx.Accounts().MonitoredAccounts(ctx, MonitoringBatch, after)
	if err != nil {
		return "", err
	}
	for _, a := range batch {
		if err := m.tx.EnqueueRefresh(ctx, RefreshRun{Scope: a.Scope(), AccountID: a.ID}); err != nil {
			return "", err
		}
	}
	if len(batch) < MonitoringBatch {
		return "", nil
	}
	return batch[len(batch)-1].ID, nil
}

// RefreshAccount runs one queued refresh; an account gone or no longer
// monitored is skipped.
func (m *MonitoringService) RefreshAccount(ctx context.Context, r RefreshRun) error {
	a, err := m.tx.Accounts().Account(ctx, r.Scope, r.AccountID)
	if errors.Is(err, ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := m.Refresh(ctx, a); err != nil {
		m.log.ErrorContext(ctx, "monitoring refresh failed", slog.String("account_id", a.ID), slog.Any("error", err))
		return err
	}
	return nil
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
		var bad *InvalidDataError
		if errors.As(err, &bad) {
			continue // logged; the stored product stays as it was
		}
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
		err = m.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
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
