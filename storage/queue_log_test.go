package storage

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestRiverLogLowersShutdownErrors: an error River logs with its context
// ended and because of it (a graceful shutdown) is a DEBUG line; every
// other error stays an ERROR, its attributes kept.
func TestRiverLogLowersShutdownErrors(t *testing.T) {
	stopped, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		err   string
		level slog.Level // of the handler
		want  string     // "" for nothing logged
	}{
		{"shutdown, at INFO", stopped, "context canceled", slog.LevelInfo, ""},
		{"shutdown, at DEBUG", stopped, "context canceled", slog.LevelDebug, "level=DEBUG"},
		{"a failure while running", context.Background(), "context canceled", slog.LevelInfo, "level=ERROR"},
		{"another failure while stopping", stopped, "disk I/O error", slog.LevelInfo, "level=ERROR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := newRiverLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level}))).With("instance", "a")
			log.ErrorContext(tc.ctx, "PeriodicJobEnqueuer: Error inserting periodic jobs", "error", tc.err, "num_jobs", 2)
			got := buf.String()
			if tc.want == "" {
				if got != "" {
					t.Errorf("logged %q; want nothing", got)
				}
				return
			}
			if !strings.Contains(got, tc.want) || !strings.Contains(got, "num_jobs=2") || !strings.Contains(got, "instance=a") {
				t.Errorf("logged %q; want %s with its attributes", got, tc.want)
			}
		})
	}
}
