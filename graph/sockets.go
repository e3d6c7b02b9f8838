package graph

import (
	"context"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"payline/domain"
)

// Limits of websockets on one instance. A credential is an API key, or a
// member's session; a dashboard tab holds one socket with a handful of
// subscriptions.
const (
	// MaxSubscriptionsPerSocket bounds the live subscriptions of one socket.
	MaxSubscriptionsPerSocket = 20
	// MaxSubscriptionsPerCredential bounds them across one credential's
	// sockets.
	MaxSubscriptionsPerCredential = 100
	// MaxSocketsPerCredential bounds one credential's open sockets.
	MaxSocketsPerCredential = 50
	// DefaultRecheckEvery is how often a socket's credential is checked
	// again between operations, for what no notice announces (a key that
	// expires) or a notice that was lost. Revoked keys and ended member
	// sessions close their sockets at once, on every instance.
	DefaultRecheckEvery = 5 * time.Second
	// MessagesPerSecond paces the messages one credential's sockets send,
	// together, with a burst of MessageBurst: a socket reads its next
	// message only when the pace allows, so a client writing faster than
	// that fills its own TCP window instead of this instance's CPU (each
	// message becomes an operation, parsed and validated before the rate
	// limit can refuse it). Far above the tenant's request rate, so a
	// client within its rate never waits.
	MessagesPerSecond = 50
	MessageBurst      = 100
)

// Websocket close codes beyond RFC 6455's, as graphql-transport-ws uses
// them.
const (
	closeForbidden       = 4403
	closeTooManySockets  = 4429
	closeReasonForbidden = "Forbidden"
)

type socketCtxKey struct{}

// socket is one GraphQL websocket: its connection (set when accepted),
// the credential that opened it, and what it holds.
type socket struct {
	reg *sockets

	mu     sync.Mutex
	conn   *wsConn
	cred   domain.Credential
	ctx    context.Context // the operations' context, from open
	cancel context.CancelFunc
	pace   *rate.Limiter
	subs   int
	ended  bool
}

func socketFrom(ctx context.Context) (*socket, bool) {
	s, ok := ctx.Value(socketCtxKey{}).(*socket)
	return s, ok
}

func (s *socket) attach(c *wsConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.conn = c
	c.sock = s
}

// paced waits until the socket's credential may send another message,
// and reports false if the socket ended first.
func (s *socket) paced() bool {
	s.mu.Lock()
	pace, ctx := s.pace, s.ctx
	s.mu.Unlock()
	return pace == nil || pace.Wait(ctx) == nil
}

// end closes the socket with a code and reason the client reads, and
// ends every operation on it.
func (s *socket) end(code int, reason string) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	conn, cancel := s.conn, s.cancel
	s.mu.Unlock()
	if conn != nil {
		// Ending a socket: a peer already gone cannot take the close
		// frame, and the connection is closed either way.
		_ = conn.WriteClose(code, reason)
	}
	if cancel != nil {
		cancel()
	}
}

// sockets are this instance's authenticated websockets by credential.
type sockets struct {
	recheck time.Duration
	pace    rate.Limit // MessagesPerSecond, but for tests
	burst   int

	mu      sync.Mutex
	holders map[string]*holderUse
}

type holderUse struct {
	sockets map[*socket]struct{}
	subs    int
	pace    *rate.Limiter
}

func newSockets(keys *domain.KeyService, recheck time.Duration) *sockets {
	r := &sockets{recheck: recheck, pace: MessagesPerSecond, burst: MessageBurst, holders: map[string]*holderUse{}}
	if keys != nil {
		keys.OnRevoked(r.revoked)
		keys.OnSessionsEnded(r.sessionsEnded)
	}
	return r
}

// open registers an authenticated socket under its credential and
// returns the context its operations run in, which ends when the socket
// does or when the credential stops working. Errors:
// TOO_MANY_CONNECTIONS over MaxSocketsPerCredential.
func (r *sockets) open(ctx context.Context, s *socket, cred domain.Credential) (context.Context, error) {
	r.mu.Lock()
	h := r.holders[cred.Holder]
	if h == nil {
		h = &holderUse{sockets: map[*socket]struct{}{}, pace: rate.NewLimiter(r.pace, r.burst)}
		r.holders[cred.Holder] = h
	}
	if len(h.sockets) >= MaxSocketsPerCredential {
		r.mu.Unlock()
		return ctx, domain.Errorf(domain.KindRateLimited, domain.CodeTooManyConnections,
			"this credential already has %d GraphQL websockets open on this server; close one, or run several subscriptions on one socket",
			MaxSocketsPerCredential)
	}
	h.sockets[s] = struct{}{}
	r.mu.Unlock()

	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.reg, s.cred, s.ctx, s.cancel, s.pace = r, cred, ctx, cancel, h.pace
	s.mu.Unlock()
	context.AfterFunc(ctx, func() { r.close(s) })
	go r.watch(ctx, s)
	return ctx, nil
}

func (r *sockets) close(s *socket) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if h := r.holders[s.cred.Holder]; h != nil {
		delete(h.sockets, s)
		if len(h.sockets) == 0 && h.subs == 0 {
			delete(r.holders, s.cred.Holder)
		}
	}
}

// watch checks the socket's credential again when it expires and every
// recheck interval, and closes the socket once it no longer works.
func (r *sockets) watch(ctx context.Context, s *socket) {
	ticker := time.NewTicker(r.recheck)
	defer ticker.Stop()
	var expiry <-chan time.Time
	if !s.cred.ExpiresAt.IsZero() {
		t := time.NewTimer(time.Until(s.cred.ExpiresAt))
		defer t.Stop()
		expiry = t.C
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-expiry:
		}
		if !s.recheck(ctx) {
			return
		}
	}
}

// recheck checks the socket's credential again and closes the socket
// once the credential is refused; it reports whether the socket stays
// open. A store that cannot answer closes nothing: the next check asks
// again.
func (s *socket) recheck(ctx context.Context) bool {
	err := s.cred.Check(ctx)
	if err == nil || ctx.Err() != nil || domain.IsKind(err, domain.KindInternal) || domain.IsKind(err, domain.KindUnavailable) {
		return ctx.Err() == nil
	}
	s.end(closeForbidden, closeReasonForbidden+": "+domain.AsError(err).Message)
	return false
}

// revoked closes every socket a revoked key opened.
func (r *sockets) revoked(keyID string) {
	r.mu.Lock()
	var ending []*socket
	if h := r.holders["key:"+keyID]; h != nil {
		for s := range h.sockets {
			ending = append(ending, s)
		}
	}
	r.mu.Unlock()
	for _, s := range ending {
		s.end(closeForbidden, closeReasonForbidden+": this API key was revoked")
	}
}

// sessionsEnded checks again, at once, every socket a member's session
// opened, since some of the member's sessions ended: those whose session
// ended close, and a sign-out elsewhere leaves the others open. Each
// check is a query, so it runs off the ending goroutine.
func (r *sockets) sessionsEnded(memberID string) {
	r.mu.Lock()
	var checking []*socket
	if h := r.holders["member:"+memberID]; h != nil {
		for s := range h.sockets {
			checking = append(checking, s)
		}
	}
	r.mu.Unlock()
	for _, s := range checking {
		s.mu.Lock()
		ctx := s.ctx
		s.mu.Unlock()
		go s.recheck(ctx)
	}
}

// admit checks an operation arriving on the socket: its credential still
// works (a refusal also closes the socket), it fits the tenant's rate,
// and a subscription fits the socket's and the credential's limits. The
// returned release gives a subscription's place back.
func (s *socket) admit(ctx context.Context, subscription bool) (release func(), err error) {
	if err := s.cred.Check(ctx); err != nil {
		if e := domain.AsError(err); e.Kind == domain.KindUnauthorized {
			defer s.end(closeForbidden, closeReasonForbidden+": "+e.Message)
		}
		return nil, err
	}
	if limit, ok := domain.RateLimiterFrom(ctx); ok {
		if err := limit(ctx, domain.ScopeFrom(ctx)); err != nil {
			return nil, err
		}
	}
	if !subscription {
		return func() {}, nil
	}
	r := s.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.holders[s.cred.Holder]
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.subs >= MaxSubscriptionsPerSocket:
		return nil, domain.Errorf(domain.KindRateLimited, domain.CodeTooManySubscriptions,
			"this websocket already runs %d subscriptions; complete one first, or open another socket", MaxSubscriptionsPerSocket)
	case h == nil || h.subs >= MaxSubscriptionsPerCredential:
		return nil, domain.Errorf(domain.KindRateLimited, domain.CodeTooManySubscriptions,
			"this credential already runs %d subscriptions on this server; complete some first", MaxSubscriptionsPerCredential)
	}
	s.subs++
	h.subs++
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			s.mu.Lock()
			s.subs--
			s.mu.Unlock()
			h.subs--
			if len(h.sockets) == 0 && h.subs == 0 {
				delete(r.holders, s.cred.Holder)
			}
		})
	}, nil
}
