package rest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"payline/domain"
)

// DefaultMaxConcurrentPerAddress is the requests one client address may
// have at an instance's door, before a credential is checked or a body
// has arrived: an eighth of DefaultMaxConcurrent, far above what a
// browser or an office's shared address has waiting at once.
const DefaultMaxConcurrentPerAddress = DefaultMaxConcurrent / 8

// DefaultMaxConnsPerAddress is the connections one peer address may hold
// open to an instance (LimitConnsPerAddress): half of DefaultMaxConcurrent,
// room for several services of one customer behind one address, each
// with its pool of kept-alive connections.
const DefaultMaxConnsPerAddress = DefaultMaxConcurrent / 2

// A request passes the instance's caps in two steps, so that nobody can
// take the slots tenants' work runs in without a credential or a body:
//
//   - At the door, once its headers are read, it takes a place of its
//     client address (MaxConcurrentPerAddress). Public routes (health
//     probes, the OpenAPI document, Link's and the dashboard's pages) need
//     nothing more and keep the place to the end.
//   - To do work it takes one of the instance's slots (MaxConcurrent) and
//     gives the address's place back: an API or member route once the
//     credential has been checked (its body is read after, in the slot,
//     under the credential's own cap); a route that no credential guards
//     (sign-in, the upstream's webhooks, Link's API, signed downloads)
//     once its whole body has arrived, and then only while its address
//     has fewer than MaxConcurrentPerAddress such requests at work: a
//     stranger's requests are capped by the address they come from, as
//     a credential's are by the credential, so one address can never
//     hold more than its share of the slots, and a customer's backend
//     behind that address, which shows its key, is not counted with it.
//
// Bodies are paced (pacedBody), so the door holds nobody for long, and a
// slot is never held waiting for a stranger's bytes; nor does anything
// wait in a slot for a stranger's sake (a slowed sign-in is told when to
// come back, domain.SignInEmailBackoff). Websockets take neither: they
// live long, and their credential caps them.
type admission struct {
	freeAddress  func() // nil once given back, or never taken
	freeStranger func() // nil unless an unvouched request at work
	slot         bool
	body         *pacedBody // nil for a request without a body
}

type admissionKey struct{}

func admissionOf(ctx context.Context) *admission {
	a, _ := ctx.Value(admissionKey{}).(*admission)
	return a
}

// admit takes the request's place at the door, or refuses it with
// TOO_MANY_CONCURRENT_FROM_ADDRESS.
func (s *Server) admit(r *http.Request, a *admission) error {
	if isWebsocket(r) {
		return nil
	}
	free, err := s.perAddress.take(addressKey(domain.ClientAddress(r.Context())))
	if err != nil {
		return err
	}
	a.freeAddress = free
	return nil
}

// enter takes one of the instance's slots for a request about to do
// work, or refuses it with SERVER_BUSY, and gives its address's place
// back: the request has left the door.
func (s *Server) enter(r *http.Request) error {
	a := admissionOf(r.Context())
	if a == nil {
		return nil
	}
	if s.slots != nil && !a.slot {
		select {
		case s.slots <- struct{}{}:
			a.slot = true
		default:
			return &domain.Error{Kind: domain.KindRateLimited, Code: domain.CodeServerBusy, RetryAfter: time.Second,
				Message: fmt.Sprintf("this instance is serving %d requests at once; retry after 1 second with exponential backoff", cap(s.slots))}
		}
	}
	if a.freeAddress != nil {
		a.freeAddress()
		a.freeAddress = nil
	}
	return nil
}

// enterUnvouched takes a place among the requests its address has at
// work without a credential, or refuses it with
// TOO_MANY_CONCURRENT_FROM_ADDRESS, then a slot as enter does.
func (s *Server) enterUnvouched(r *http.Request) error {
	a := admissionOf(r.Context())
	if a == nil {
		return nil
	}
	if a.freeStranger == nil {
		free, err := s.strangers.take(addressKey(domain.ClientAddress(r.Context())))
		if err != nil {
			return err
		}
		a.freeStranger = free
	}
	return s.enter(r)
}

// leave gives back what the request held, when it is done.
func (s *Server) leave(a *admission) {
	if a.body != nil {
		a.body.settle()
	}
	if a.slot {
		<-s.slots
	}
	if a.freeAddress != nil {
		a.freeAddress()
	}
	if a.freeStranger != nil {
		a.freeStranger()
	}
}

// unvouched puts a route no credential guards behind its door: the whole
// body is read first, at the paced rate and while the request holds only
// its address's place, and only then is a slot taken for the work, with
// a place among its address's requests at work (enterUnvouched). The
// handler reads the body as it arrived, a read error (too large, too
// slow) included, and answers that in its own words.
func (s *Server) unvouched(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		r.Body = &replayedBody{Reader: bytes.NewReader(body), err: err}
		if err := s.enterUnvouched(r); err != nil {
			w.Header().Set("Service-Version", domain.LatestVersion)
			s.writeError(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// replayedBody is a body read ahead: its bytes, then the error that
// ended the reading (io.EOF when none did).
type replayedBody struct {
	*bytes.Reader
	err error
}

func (b *replayedBody) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF && b.err != nil {
		err = b.err
	}
	return n, err
}

func (b *replayedBody) Close() error { return nil }

// saturated reports whether nearly every slot is taken (all but a
// sixteenth): /readyz then answers 503, so a load balancer sends new
// requests to another instance before this one refuses them.
func (s *Server) saturated() (inUse, of int, full bool) {
	if s.slots == nil {
		return 0, 0, false
	}
	inUse, of = len(s.slots), cap(s.slots)
	return inUse, of, inUse >= of-of/16
}

// addressKey is what the per-address caps count by: an IPv4 address, or
// an IPv6 address's /64, which one subscriber usually holds whole and
// can pick addresses from at will.
func addressKey(addr string) string {
	ip := net.ParseIP(addr)
	if ip == nil {
		return addr
	}
	if v4 := ip.To4(); v4 != nil {
		return v4.String()
	}
	return (&net.IPNet{IP: ip.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
}

func isWebsocket(r *http.Request) bool {
	return strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}
