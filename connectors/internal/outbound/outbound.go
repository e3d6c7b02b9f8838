// Package outbound is what Payline's clients of other services (the
// upstream relay and the connector protocol) do alike when they send a
// request: bound it by a timeout, read a bounded answer, tell a service
// that did not answer from one that refused, read its Retry-After, and
// stop calling a service that keeps not answering (a circuit breaker),
// mapping each of those onto the domain's UPSTREAM_UNAVAILABLE in one
// place. What a service's answer means is each client's own.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/sony/gobreaker/v2"

	"payline/domain"
)

// Defaults of Config's zero values.
const (
	// DefaultRetry is the retry hint of a service that did not answer, or
	// answered 429 or 5XX without a Retry-After.
	DefaultRetry = 5 * time.Second
	// DefaultTimeout bounds one request.
	DefaultTimeout = 10 * time.Second
	// DefaultBreakAfter is how many calls in a row that find the service
	// unreachable open its circuit.
	DefaultBreakAfter = 5
	// DefaultCooldown is how long an open circuit fails calls at once.
	DefaultCooldown = 30 * time.Second
	// DefaultMaxBody is the most of an answer read.
	DefaultMaxBody = 32 << 20
)

// Config is how a Client reaches one service.
type Config struct {
	// Service names the service in errors ("the payroll connector").
	Service string
	// HTTP sends the requests.
	HTTP *http.Client
	// Timeout bounds one request (DefaultTimeout when zero).
	Timeout time.Duration
	// MaxBody is the most of an answer read (DefaultMaxBody when zero).
	MaxBody int64
	// BreakAfter calls in a row that find the service unreachable open its
	// circuit for Cooldown, during which calls fail at once
	// (DefaultBreakAfter and DefaultCooldown when zero).
	BreakAfter uint32
	Cooldown   time.Duration
}

// Client sends requests to one service.
type Client struct {
	service  string
	http     *http.Client
	timeout  time.Duration
	maxBody  int64
	cooldown time.Duration
	breaker  *gobreaker.CircuitBreaker[Response]
}

// New returns a Client for cfg.
func New(cfg Config) *Client {
	c := &Client{service: cfg.Service, http: cfg.HTTP, timeout: cfg.Timeout, maxBody: cfg.MaxBody, cooldown: cfg.Cooldown}
	if c.http == nil {
		c.http = http.DefaultClient
	}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.maxBody <= 0 {
		c.maxBody = DefaultMaxBody
	}
	if c.cooldown <= 0 {
		c.cooldown = DefaultCooldown
	}
	breakAfter := cfg.BreakAfter
	if breakAfter == 0 {
		breakAfter = DefaultBreakAfter
	}
	c.breaker = gobreaker.NewCircuitBreaker[Response](gobreaker.Settings{
		Name: cfg.Service, MaxRequests: 1, Timeout: c.cooldown,
		ReadyToTrip: func(n gobreaker.Counts) bool { return n.ConsecutiveFailures >= breakAfter },
		// Only an unreachable service counts against it; a refusal (bad
		// credentials, a 404, a rate limit) is the service answering.
		IsSuccessful: func(err error) bool { return !errors.As(err, new(*Unreachable)) },
	})
	return c
}

// Timeout is how long one request may take.
func (c *Client) Timeout() time.Duration { return c.timeout }

// Response is a service's answer, read in full (up to MaxBody).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Unreachable is the error of a call the service did not answer: a
// network error, a timeout, a body cut short, or (Unanswered) a 429 or
// 5XX. RetryAfter is when to try again.
type Unreachable struct {
	Err        error
	RetryAfter time.Duration
}

func (e *Unreachable) Error() string { return e.Err.Error() }
func (e *Unreachable) Unwrap() error { return e.Err }

// Do sends one request through the circuit breaker, within the timeout:
// build makes it with the context that carries the deadline, and judge
// says what the answer means (nil for one to use; Unanswered for the
// usual reading of 429 and 5XX). Errors: UPSTREAM_UNAVAILABLE naming the
// service, with a retry hint, for an open circuit or an Unreachable
// call; build's and judge's other errors as they are.
func (c *Client) Do(ctx context.Context, build func(ctx context.Context) (*http.Request, error), judge func(Response) error) (Response, error) {
	resp, err := c.breaker.Execute(func() (Response, error) {
		ctx, cancel := context.WithTimeout(ctx, c.timeout)
		defer cancel()
		req, err := build(ctx)
		if err != nil {
			return Response{}, err
		}
		hr, err := c.http.Do(req)
		if err != nil {
			return Response{}, &Unreachable{Err: err, RetryAfter: DefaultRetry}
		}
		defer hr.Body.Close()
		body, err := io.ReadAll(io.LimitReader(hr.Body, c.maxBody))
		if err != nil {
			return Response{}, &Unreachable{Err: err, RetryAfter: DefaultRetry}
		}
		r := Response{Status: hr.StatusCode, Header: hr.Header, Body: body}
		return r, judge(r)
	})
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return resp, domain.UpstreamUnavailable(c.service, c.cooldown, err)
	}
	var u *Unreachable
	if errors.As(err, &u) {
		return resp, domain.UpstreamUnavailable(c.service, u.RetryAfter, err)
	}
	return resp, err
}

// Unanswered is the usual reading of a 429 or 5XX: the service did not
// answer the request, and says when to try again in Retry-After
// (DefaultRetry when it does not). Any other status is nil. what names
// the request in the error ("GET /v1/jobs").
func Unanswered(r Response, what string) error {
	if r.Status != http.StatusTooManyRequests && r.Status < 500 {
		return nil
	}
	wait := RetryAfter(r.Header.Get("Retry-After"), time.Now())
	if wait <= 0 {
		wait = DefaultRetry
	}
	return &Unreachable{Err: fmt.Errorf("%s: %d", what, r.Status), RetryAfter: wait}
}

// RetryAfter parses a Retry-After value, delay seconds or an HTTP date,
// as a wait from now; zero when it is absent, malformed or past.
func RetryAfter(v string, now time.Time) time.Duration {
	if s, err := strconv.Atoi(v); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
