package rest

import (
	"fmt"
	"sync"
	"time"

	"payline/domain"
)

// DefaultMaxConcurrentPerKey is the requests one credential (an API key,
// or a member's session) may have in flight on one instance: an eighth of
// DefaultMaxConcurrent, so a key that floods the instance with slow
// requests leaves the rest to everyone else.
const DefaultMaxConcurrentPerKey = DefaultMaxConcurrent / 8

// inFlight counts each credential's requests in flight on this instance.
type inFlight struct {
	max int // zero or less: no cap

	mu sync.Mutex
	n  map[string]int
}

func newInFlight(max int) *inFlight { return &inFlight{max: max, n: map[string]int{}} }

// take holds one of the credential's places until release is called, or
// refuses with TOO_MANY_CONCURRENT_REQUESTS when it holds them all
// (release is then a no-op, so callers may defer it either way).
func (f *inFlight) take(holder string) (release func(), err error) {
	if f.max <= 0 {
		return func() {}, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[holder] >= f.max {
		return func() {}, &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeTooManyConcurrent, RetryAfter: time.Second,
			Message: fmt.Sprintf("this key already has %d requests in flight on this server; wait for some to finish, then retry with backoff", f.max)}
	}
	f.n[holder]++
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.n[holder]--; f.n[holder] == 0 {
				delete(f.n, holder)
			}
		})
	}, nil
}
