package outbound

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name, value string
		want        time.Duration
	}{
		{"seconds", "7", 7 * time.Second},
		{"http date", now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{"past date", now.Add(-time.Minute).Format(http.TimeFormat), 0},
		{"absent", "", 0},
		{"malformed", "soon", 0},
		{"zero", "0", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := RetryAfter(tc.value, now); got != tc.want {
				t.Errorf("RetryAfter(%q) = %v, want %v", tc.value, got, tc.want)
			}
		})
	}
}

func TestUnanswered(t *testing.T) {
	tests := []struct {
		name   string
		status int
		header string
		want   time.Duration // 0: no error
	}{
		{"ok", 200, "", 0},
		{"refused", 400, "", 0},
		{"rate limited with a hint", 429, "3", 3 * time.Second},
		{"server error without a hint", 502, "", DefaultRetry},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.header != "" {
				h.Set("Retry-After", tc.header)
			}
			err := Unanswered(Response{Status: tc.status, Header: h}, "GET /x")
			var u *Unreachable
			switch {
			case tc.want == 0 && err != nil:
				t.Errorf("%d: %v, want nil", tc.status, err)
			case tc.want != 0 && (!errors.As(err, &u) || u.RetryAfter != tc.want):
				t.Errorf("%d: %v, want Unreachable retrying after %v", tc.status, err, tc.want)
			}
		})
	}
}

// A service that keeps not answering opens the circuit: the calls after
// BreakAfter fail at once, UPSTREAM_UNAVAILABLE with the cooldown as the
// hint, without reaching it; refusals never open it.
func TestCircuitOpensOnlyWhenUnreachable(t *testing.T) {
	var hits atomic.Int32
	status := atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	c := New(Config{Service: "the test service", HTTP: srv.Client(), BreakAfter: 2, Cooldown: time.Hour})
	call := func() error {
		_, err := c.Do(context.Background(), func(ctx context.Context) (*http.Request, error) {
			return http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
		}, func(r Response) error {
			if err := Unanswered(r, "GET /"); err != nil {
				return err
			}
			if r.Status >= 400 {
				return errors.New("refused")
			}
			return nil
		})
		return err
	}
	status.Store(400)
	for range 3 {
		if err := call(); err == nil || err.Error() != "refused" {
			t.Fatalf("a refusal: %v", err)
		}
	}
	status.Store(503)
	for range 2 {
		var de *domain.Error
		if err := call(); !errors.As(err, &de) || de.Code != domain.CodeUpstreamUnavailable || de.RetryAfter != DefaultRetry {
			t.Fatalf("a 503: %v", err)
		}
	}
	before := hits.Load()
	var de *domain.Error
	if err := call(); !errors.As(err, &de) || de.Code != domain.CodeUpstreamUnavailable || de.RetryAfter != time.Hour {
		t.Fatalf("with the circuit open: %v", err)
	}
	if hits.Load() != before {
		t.Errorf("a call with the circuit open reached the service")
	}
}
