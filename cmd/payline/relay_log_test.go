package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// TestPassErrorsLogged: a pass (directory sync, reconciliation) stopped
// by its chunk's end or the server's shutdown is normal work, logged at
// DEBUG; any other failure, such as the upstream away, is a WARN.
func TestPassErrorsLogged(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))

	ended, cancel := context.WithCancel(context.Background())
	cancel()
	logPassError(ended, log, "sync the upstream's directory", errors.New("UPSTREAM_UNAVAILABLE: context canceled"), slog.String("status", "syncing"))
	if got := buf.String(); !strings.Contains(got, "level=DEBUG") || !strings.Contains(got, "status=syncing") {
		t.Errorf("a pass its context ended: %q; want a DEBUG line with its status", got)
	}

	buf.Reset()
	logPassError(context.Background(), log, "reconcile with the upstream", errors.New("UPSTREAM_UNAVAILABLE: connection refused"))
	if got := buf.String(); !strings.Contains(got, "level=WARN") || !strings.Contains(got, "connection refused") {
		t.Errorf("a pass the upstream stopped: %q; want a WARN line with the error", got)
	}
}
