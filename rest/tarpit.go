package rest

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"payline/domain"
)

// A flood of requests an instance refuses still costs it: each refusal is
// read, routed and answered, and a closed-loop client sends its next the
// moment it has the last, so a flood answered in microseconds is sent
// thousands of times a second and takes the cores every tenant's calls
// need (issue 46's sign-in flood: ~20,000 refusals a second, another
// tenant's p99 above a second). The tarpit slows what a flooding
// address sends instead of answering it faster: once an address has been
// refused without a credential far more often than any client that
// reads its Retry-After is (floodRule), each of its requests waits
// FloodDelay before it is looked at, holding no place and no slot, only
// its connection. A flood then goes at the pace of its connections, one
// request a FloodDelay each, and the instance's cores stay with the
// tenants. The requests held are bounded instance-wide (tarpitPlaces):
// past that, a flooding address's request is refused at once and its
// connection closed.

// floodRule is how many refusals without a credential (401s and 429s
// with no API key vouched) an address may be answered before it counts
// as flooding: 256 at once, then 100 a second. A browser, a Link
// session or a dashboard that honours Retry-After stays far below it.
var floodRule = domain.ThrottleRule{Burst: 256, Every: 10 * time.Millisecond}

// DefaultFloodDelay is how long a flooding address's requests wait.
const DefaultFloodDelay = time.Second

// tarpitPlaces is how many requests the tarpit holds at once on an
// instance: each is a goroutine and a connection's buffers (about 20 KB).
const tarpitPlaces = 2 * DefaultMaxConcurrent

type tarpit struct {
	delay    time.Duration // 0: off
	refusals *keyLimiter   // per address
	places   chan struct{}
}

// newTarpit makes the tarpit; a zero rule is floodRule.
func newTarpit(delay time.Duration, rule domain.ThrottleRule) *tarpit {
	if delay < 0 {
		return &tarpit{}
	}
	if delay == 0 {
		delay = DefaultFloodDelay
	}
	if rule == (domain.ThrottleRule{}) {
		rule = floodRule
	}
	// Real traffic in real time, whatever clock the rate limit is given.
	return &tarpit{delay: delay, refusals: newRuleLimiter(rule, domain.SystemClock{}), places: make(chan struct{}, tarpitPlaces)}
}

// refused notes a refusal answered to addr without a credential.
func (tp *tarpit) refused(addr string) {
	if tp.delay > 0 {
		tp.refusals.allow(context.Background(), addressKey(addr))
	}
}

// flooding reports whether addr has spent its refusals.
func (tp *tarpit) flooding(addr string) bool {
	if tp.delay == 0 {
		return false
	}
	st, ok := tp.refusals.status(context.Background(), addressKey(addr))
	return ok && st.Remaining == 0
}

// hold makes a flooding address's request wait the delay (or until the
// client hangs up), and reports false when the tarpit is full: the
// request is then to be refused at once, its connection closed.
func (tp *tarpit) hold(ctx context.Context) bool {
	select {
	case tp.places <- struct{}{}:
	default:
		return false
	}
	defer func() { <-tp.places }()
	t := time.NewTimer(tp.delay)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
	return true
}

// slowFlood holds the request when its address is flooding; it reports
// false when it answered the request itself (the tarpit was full, or the
// client hung up while held).
func (s *Server) slowFlood(w http.ResponseWriter, r *http.Request) bool {
	addr := domain.ClientAddress(r.Context())
	if isWebsocket(r) || !s.tarpit.flooding(addr) {
		return true
	}
	if !s.tarpit.hold(r.Context()) {
		w.Header().Set("Connection", "close")
		w.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(w, r, &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeTooManyFromAddress, RetryAfter: s.tarpit.delay,
			Message: fmt.Sprintf("this address has been refused too often; send fewer requests at once and retry after %s, as Retry-After says", s.tarpit.delay)})
		return false
	}
	return r.Context().Err() == nil
}
