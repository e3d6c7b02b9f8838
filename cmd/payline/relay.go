package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"payline/connectors/upstream"
	"payline/domain"
	"payline/storage"
)

// DefaultReconcileInterval is how often a relayed mode reconciles with
// its upstream.
const DefaultReconcileInterval = 2 * time.Minute

func (m *Main) reconcileInterval() time.Duration {
	if m.Config.UpstreamURL == "" {
		return 0
	}
	if m.Config.ReconcileInterval > 0 {
		return m.Config.ReconcileInterval
	}
	return DefaultReconcileInterval
}

// startUpstream checks the configuration and that the upstream answers
// and takes the secret: one request, whatever the size of its
// directory, which syncs in the background once the queue runs. Each
// failure stops serve with one line.
func (m *Main) startUpstream(ctx context.Context) (*upstream.Client, error) {
	secret := ""
	if m.Getenv != nil {
		secret = m.Getenv("PAYLINE_UPSTREAM_SECRET")
	}
	public := strings.TrimRight(m.Config.PublicURL, "/")
	if public == "" {
		return nil, fmt.Errorf("--public-url is needed with --upstream-url: the upstream delivers its events to {public-url}/v1/upstream/webhooks")
	}
	up, err := upstream.New(upstream.Config{URL: m.Config.UpstreamURL, Secret: secret, Version: m.Config.UpstreamVersion,
		LinkJS: m.Config.UpstreamLinkJS, CAFile: m.Config.UpstreamCAFile, Rate: m.Config.UpstreamRate})
	if err != nil {
		return nil, err
	}
	if err := up.Verify(ctx); err != nil {
		return nil, err
	}
	return up, nil
}

// registerUpstreamWebhook points the upstream's webhook at this relay
// once it serves (idempotent: every instance may do it), retrying with
// backoff until it succeeds or the process stops. Until it does, the
// reconciliation finds what the webhook would have delivered.
func (m *Main) registerUpstreamWebhook(ctx context.Context, up *upstream.Client) {
	url := strings.TrimRight(m.Config.PublicURL, "/") + "/v1/upstream/webhooks"
	ctx = domain.WithUpstreamPriority(ctx, domain.PriorityIngest)
	for wait := time.Second; ; wait = min(2*wait, time.Minute) {
		err := up.EnsureWebhook(ctx, url)
		if err == nil {
			m.Logger.Info("the upstream delivers its events here", slog.String("url", url))
			return
		}
		m.Logger.Warn("register the webhook at the upstream; retrying", slog.Duration("retry_in", wait), slog.Any("error", err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// syncDirectory is the directory sync's River pass.
func (m *Main) syncDirectory(relay *domain.RelayService) storage.PassFunc {
	return func(ctx context.Context) (bool, error) {
		st, err := relay.SyncDirectory(ctx)
		if err != nil {
			m.Logger.Warn("sync the upstream's directory; it resumes where it stopped", slog.String("status", st.Status()), slog.Any("error", err))
			return st.Running, err
		}
		if !st.Running {
			m.Logger.Info("synced the upstream's directory", slog.Int("employers", st.Read))
		}
		return st.Running, nil
	}
}

// reconciler is reconciliation's River pass: the upstream's accounts
// created since the last pass that are not settled here are ingested.
func (m *Main) reconciler(relay *domain.RelayService) storage.PassFunc {
	return func(ctx context.Context) (bool, error) {
		st, err := relay.Reconcile(ctx)
		if err != nil {
			m.Logger.Warn("reconcile with the upstream; it resumes where it stopped", slog.Int("listed", st.Listed), slog.Any("error", err))
			return st.Running, err
		}
		if !st.Running {
			m.Logger.Debug("reconciled with the upstream", slog.Int("listed", st.Listed), slog.Int("ingested", st.Ingested))
		}
		return st.Running, nil
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
