package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
)

// DefaultReconcileInterval is how often a relayed mode reconciles with
// its upstream; ReconcileWindow is how far back each pass looks.
const (
	DefaultReconcileInterval = 2 * time.Minute
	ReconcileWindow          = 48 * time.Hour
	directorySyncEvery       = time.Hour
)

func (m *Main) reconcileInterval() time.Duration {
	if m.Config.UpstreamURL == "" {
		return 0
	}
	if m.Config.ReconcileInterval > 0 {
		return m.Config.ReconcileInterval
	}
	return DefaultReconcileInterval
}

// startUpstream checks the upstream answers and takes the secret, and
// registers the webhook that delivers its events here. Each failure stops
// serve with one line.
func (m *Main) startUpstream(ctx context.Context) (*upstream.Client, error) {
	secret := ""
	if m.Getenv != nil {
		secret = m.Getenv("PAYLINE_UPSTREAM_SECRET")
	}
	up, err := upstream.New(upstream.Config{URL: m.Config.UpstreamURL, Secret: secret, Version: m.Config.UpstreamVersion,
		LinkJS: m.Config.UpstreamLinkJS, CAFile: m.Config.UpstreamCAFile})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := up.Verify(ctx); err != nil {
		return nil, err
	}
	public := strings.TrimRight(m.Config.PublicURL, "/")
	if public == "" {
		return nil, fmt.Errorf("--public-url is needed with --upstream-url: the upstream delivers its events to {public-url}/v1/upstream/webhooks")
	}
	if err := up.EnsureWebhook(ctx, public+"/v1/upstream/webhooks"); err != nil {
		return nil, err
	}
	return up, nil
}

// syncDirectory makes the upstream's platforms and employers this
// directory's, so their ids are the upstream's.
func (m *Main) syncDirectory(ctx context.Context, relay *domain.RelayService) error {
	platforms, employers, err := relay.SyncDirectory(ctx)
	if err != nil {
		return err
	}
	m.Logger.Info("synced the upstream's directory", slog.Int("platforms", platforms), slog.Int("employers", employers))
	return nil
}

// reconciler is the periodic reconciliation: the upstream's accounts of
// the last ReconcileWindow are ingested (what is already here changes
// nothing), and the directory is synced again hourly.
func (m *Main) reconciler(relay *domain.RelayService) func(ctx context.Context) error {
	var mu sync.Mutex
	synced := time.Now()
	return func(ctx context.Context) error {
		mu.Lock()
		due := time.Since(synced) > directorySyncEvery
		mu.Unlock()
		if due {
			if err := m.syncDirectory(ctx, relay); err != nil {
				return err
			}
			mu.Lock()
			synced = time.Now()
			mu.Unlock()
		}
		n, err := relay.Reconcile(ctx, time.Now().Add(-ReconcileWindow))
		if err != nil {
			m.Logger.Warn("reconcile with the upstream", slog.Int("accounts", n), slog.Any("error", err))
			return err
		}
		m.Logger.Debug("reconciled with the upstream", slog.Int("accounts", n))
		return nil
	}
}

// upstreamLinkOrigin is where the upstream's Link SDK loads from, "" when
// nothing is relayed.
func upstreamLinkOrigin(up *upstream.Client) string {
	if up == nil {
		return ""
	}
	return up.LinkOrigin()
}
