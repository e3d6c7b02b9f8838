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

// inFlight counts each holder's requests in flight on this instance: a
// credential's, or a client address's at the door (admission.go).
type inFlight struct {
	max    int // zero or less: no cap
	refuse func(max int) error

	mu sync.Mutex
	n  map[string]int
}

func newInFlight(max int, refuse func(max int) error) *inFlight {
	return &inFlight{max: max, refuse: refuse, n: map[string]int{}}
}

// tooManyForKey is the refusal of a credential's cap.
func tooManyForKey(max int) error {
	return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeTooManyConcurrent, RetryAfter: time.Second,
		Message: fmt.Sprintf("this key already has %d requests in flight on this server; wait for some to finish, then retry with backoff", max)}
}

// tooManyFromAddress is the refusal of a client address's cap.
func tooManyFromAddress(max int) error {
	return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeTooManyFromAddress, RetryAfter: time.Second,
		Message: fmt.Sprintf("your address already has %d requests on this server that have not yet shown a credential or sent their whole body; wait for some to finish, then retry with backoff", max)}
}

// tooManyUnvouched is the refusal of a client address's cap on the
// requests it has at work without a credential.
func tooManyUnvouched(max int) error {
	return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeTooManyFromAddress, RetryAfter: time.Second,
		Message: fmt.Sprintf("your address already has %d requests without a credential (sign-ins, Link, downloads) being served by this server; wait for some to finish, then retry with backoff", max)}
}

// take holds one of the holder's places until release is called, or
// refuses (refuse) when it holds them all (release is then a no-op, so
// callers may defer it either way).
func (f *inFlight) take(holder string) (release func(), err error) {
	if f.max <= 0 {
		return func() {}, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[holder] >= f.max {
		return func() {}, f.refuse(f.max)
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
