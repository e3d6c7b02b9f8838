package storage

import (
	"context"
	"log/slog"
	"strings"
)

// riverLog is the handler River logs through: the server's, except that
// an error River's own services log with their context already ended
// and because of it ("context canceled" while the queue stops, as the
// periodic job enqueuer does when a graceful shutdown finds it
// mid-insert) is a DEBUG line, not an ERROR: a shutdown is not a
// failure. Any other error River logs stays an ERROR.
type riverLog struct{ slog.Handler }

func newRiverLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return nil
	}
	return slog.New(riverLog{l.Handler()})
}

func (h riverLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError && ctx.Err() != nil && endedWithContext(r) {
		stopped := slog.NewRecord(r.Time, slog.LevelDebug, r.Message, r.PC)
		r.Attrs(func(a slog.Attr) bool { stopped.AddAttrs(a); return true })
		if !h.Handler.Enabled(ctx, slog.LevelDebug) {
			return nil
		}
		return h.Handler.Handle(ctx, stopped)
	}
	return h.Handler.Handle(ctx, r)
}

func (h riverLog) Enabled(ctx context.Context, level slog.Level) bool {
	// An ERROR may be let through to be lowered, whatever the level.
	return level >= slog.LevelError || h.Handler.Enabled(ctx, level)
}

func (h riverLog) WithAttrs(attrs []slog.Attr) slog.Handler {
	return riverLog{h.Handler.WithAttrs(attrs)}
}

func (h riverLog) WithGroup(name string) slog.Handler { return riverLog{h.Handler.WithGroup(name)} }

// endedWithContext reports whether the record's error is a context's end.
func endedWithContext(r slog.Record) bool {
	ended := false
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "error" || a.Key == "err" {
			s := a.Value.String()
			ended = strings.Contains(s, "context canceled") || strings.Contains(s, "context deadline exceeded")
		}
		return !ended
	})
	return ended
}
