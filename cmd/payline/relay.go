package main

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"payline/domain"
	"payline/storage"
)

// DefaultReconcileInterval is how often a relayed mode reconciles with
// its upstream.
const DefaultReconcileInterval = 2 * time.Minute

// reconcileInterval is how often a mode with upstreams (relayed)
// reconciles; zero without one, which schedules no reconciliation or
// directory sync.
func (m *Main) reconcileInterval(relayed bool) time.Duration {
	if !relayed {
		return 0
	}
	if m.Config.ReconcileInterval > 0 {
		return m.Config.ReconcileInterval
	}
	return DefaultReconcileInterval
}

// registerUpstreamWebhook points the upstream's webhook at this relay
// once it serves (idempotent: every instance may do it), retrying with
// backoff until it succeeds or the process stops. Until it does, the
// reconciliation finds what the webhook would have delivered.
func (m *Main) registerUpstreamWebhook(ctx context.Context, up namedUpstream) {
	url := strings.TrimRight(m.Config.PublicURL, "/") + "/v1/upstream/webhooks"
	ctx = domain.WithUpstreamPriority(ctx, domain.PriorityIngest)
	for wait := time.Second; ; wait = min(2*wait, time.Minute) {
		err := up.client.EnsureWebhook(ctx, url)
		if err == nil {
			m.Logger.Info("the upstream delivers its events here", slog.String("upstream", up.name), slog.String("url", url))
			return
		}
		m.Logger.Warn("register the webhook at the upstream; retrying", slog.String("upstream", up.name), slog.Duration("retry_in", wait), slog.Any("error", err))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// syncDirectory is the directory sync's River pass, over every upstream.
func (m *Main) syncDirectory(relays domain.Relays) storage.PassFunc {
	return func(ctx context.Context) (bool, error) {
		more, err := relays.SyncDirectory(ctx)
		status, serr := relays.DirectoryStatus(context.WithoutCancel(ctx))
		if serr != nil {
			status = "unknown: " + serr.Error() // the status only colours the log line below
		}
		if err != nil {
			logPassError(ctx, m.Logger, "sync the upstream's directory; it resumes where it stopped", err, slog.String("status", status))
			return more, err
		}
		if !more {
			m.Logger.Info("synced the upstream's directory", slog.String("status", status))
		}
		return more, nil
	}
}

// reconciler is reconciliation's River pass: the upstream's accounts
// created since the last pass that are not settled here are ingested.
func (m *Main) reconciler(relays domain.Relays) storage.PassFunc {
	return func(ctx context.Context) (bool, error) {
		more, err := relays.Reconcile(ctx)
		if err != nil {
			logPassError(ctx, m.Logger, "reconcile with the upstream; it resumes where it stopped", err)
			return more, err
		}
		if !more {
			m.Logger.Debug("reconciled with the upstream")
		}
		return more, nil
	}
}

// logPassError logs what stopped a pass (a directory sync, a
// reconciliation). A pass its chunk's time or the server's shutdown
// stopped (ctx ended) is normal work, resumed where it stood: DEBUG.
// Anything else, the upstream away included, is a WARN.
func logPassError(ctx context.Context, log *slog.Logger, msg string, err error, attrs ...slog.Attr) {
	level := slog.LevelWarn
	if ctx.Err() != nil {
		level = slog.LevelDebug
	}
	log.LogAttrs(context.WithoutCancel(ctx), level, msg, append(attrs, slog.Any("error", err))...)
}
