package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

// TestRunMemosStayBounded: the answers kept for retried attempts are
// forgotten after memoFor, and never exceed maxMemos, oldest first; a
// repeated key within them gets the first answer.
func TestRunMemosStayBounded(t *testing.T) {
	clock := &stepClock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	s := NewServer("sandbox", sandbox.Connector{}, nil, "secret", clock, slog.New(slog.NewTextHandler(io.Discard, nil)))
	run := func(key string) {
		body, _ := json.Marshal(RunRequest{IdempotencyKey: key, Job: Job{ID: "j", Name: "paystubs"},
			Account: Account{ID: "a", Connection: "good"}, Now: clock.now})
		if _, err := s.run(context.Background(), body); err != nil {
			t.Fatal(err)
		}
	}
	for i := range maxMemos + 50 {
		run(fmt.Sprint("key-", i))
	}
	run("key-again")
	if n := len(s.runs); n > maxMemos+1 || len(s.order) != n {
		t.Errorf("%d answers kept (%d in order), at most %d", n, len(s.order), maxMemos+1)
	}
	if _, ok := s.runs["key-0"]; ok {
		t.Error("the oldest answer was kept past the bound")
	}
	clock.now = clock.now.Add(memoFor + time.Second)
	run("after")
	if n := len(s.runs); n != 1 {
		t.Errorf("%d answers kept after memoFor, want only the new one", n)
	}
	var _ domain.Clock = clock
}
