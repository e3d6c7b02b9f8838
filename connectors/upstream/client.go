// Package upstream relays to a Pinwheel-compatible payroll API (the
// vendor's own, or another Payline): its HTTP client and wire shapes,
// the directory sync, the link token relay, reading accounts, jobs and
// data products, and verifying its webhooks. It implements
// domain.Upstream; everything it reads becomes domain types here, so the
// rest of the service never sees the upstream's shapes.
package upstream

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"payline/connectors/internal/outbound"
	"payline/domain"
	"payline/internal/trust"
)

// DefaultVersion is the API version sent when none is configured.
const DefaultVersion = "2025-07-08"

// Config is how to reach the upstream.
type Config struct {
	// URL is the upstream's base URL, such as https://api.example.com:
	// https, or http to a loopback address only (the secret never crosses
	// a network in the clear).
	URL string
	// Secret is the upstream API secret (PAYLINE_UPSTREAM_SECRET).
	Secret string
	// Version is the API version to ask for (DefaultVersion when empty).
	Version string
	// LinkJS is the upstream's Link SDK, which the modal loads; default
	// {URL}/link/v1/link.js, right for a Payline upstream.
	LinkJS string
	// HTTP sends the requests (a client with a 15 s timeout when nil); a
	// copy of it is used that follows no redirect with the secret.
	HTTP *http.Client
	// RequestTimeout bounds one request (10 s when zero).
	RequestTimeout time.Duration
	// CAFile is a PEM bundle of extra CAs to trust for an upstream with a
	// private certificate (ignored when HTTP is set).
	CAFile string
	// Rate is the requests a second sent to the upstream, all of them
	// together (DefaultRate when zero): the budget every call waits for.
	Rate float64
	// Now is the budget's clock (time.Now when nil).
	Now func() time.Time
	// BudgetName names this upstream's budget where instances share it
	// (ShareBudget); its URL when empty.
	BudgetName string
	// BreakAfter requests in a row that find the upstream unreachable
	// open its circuit for Cooldown, during which requests fail at once
	// with UPSTREAM_UNAVAILABLE (5 and 2 s when zero: short, since an
	// upstream back from an outage must serve new tokens within seconds,
	// and the budget already paces what reaches it).
	BreakAfter uint32
	Cooldown   time.Duration
	// DocumentOrigins are origins ("https://files.example.com") besides
	// the upstream's own that a document's download_url, or a redirect
	// from one, may name: the upstream's file store. Any other is
	// refused before a connection is made, so an upstream cannot aim the
	// relay at an address only it can reach (169.254.169.254, a database
	// on its network).
	DocumentOrigins []string
}

// Client is the upstream's HTTP API.
type Client struct {
	base    *url.URL
	secret  string
	version string
	linkJS  string
	http    *http.Client // refuses redirects; the document store's client is a copy
	out     *outbound.Client
	store   *outbound.Client // the document store's
	budget  *budget
	learned *jobCache
	// docOrigins are the origins documents are downloaded from: the
	// upstream's and DocumentOrigins.
	docOrigins []string
}

// New checks the configuration and returns a client; it does not call
// the upstream (Verify does).
func New(cfg Config) (*Client, error) {
	u, err := trust.BaseURL(strings.TrimRight(cfg.URL, "/"), "--upstream-url", "the upstream secret travels with every request")
	if err != nil {
		return nil, err
	}
	if cfg.Secret == "" {
		return nil, errors.New("PAYLINE_UPSTREAM_SECRET is not set: the relay needs the upstream's API secret")
	}
	c := &Client{base: u, secret: cfg.Secret, version: cfg.Version, linkJS: cfg.LinkJS, http: cfg.HTTP, docOrigins: []string{origin(u)}}
	for _, o := range cfg.DocumentOrigins {
		d, err := url.Parse(o)
		if err != nil || d.Host == "" || (d.Scheme != "https" && !(d.Scheme == "http" && u.Scheme == "http")) || strings.Trim(d.Path, "/") != "" || d.RawQuery != "" || d.User != nil {
			return nil, fmt.Errorf("--upstream-document-origins %q: not an origin; give https://host[:port] and nothing more", o)
		}
		c.docOrigins = append(c.docOrigins, origin(d))
	}
	if c.version == "" {
		c.version = DefaultVersion
	}
	if c.linkJS == "" {
		c.linkJS = u.String() + "/link/v1/link.js"
	}
	if c.http == nil {
		transport, err := trust.Transport(cfg.CAFile, "--upstream-ca-file")
		if err != nil {
			return nil, err
		}
		c.http = &http.Client{Timeout: 15 * time.Second, Transport: transport}
	}
	c.http = trust.RefusingRedirects(c.http) // every request carries the secret
	c.out = outbound.New(outbound.Config{Service: "the upstream payroll API", HTTP: c.http, Timeout: cfg.RequestTimeout,
		BreakAfter: cfg.BreakAfter, Cooldown: cmp.Or(cfg.Cooldown, defaultCooldown)})
	c.store = outbound.New(outbound.Config{Service: "the upstream's document store", HTTP: c.downloads(), Timeout: cfg.RequestTimeout,
		MaxBody: maxDocument + 1, BreakAfter: cfg.BreakAfter, Cooldown: cmp.Or(cfg.Cooldown, defaultCooldown)})
	if cfg.Rate < 0 {
		return nil, fmt.Errorf("--upstream-rate %v: must be a positive number of requests a second", cfg.Rate)
	}
	c.budget = newBudget(cmp.Or(cfg.Rate, DefaultRate), cfg.Now)
	c.budget.name = cmp.Or(cfg.BudgetName, u.String())
	c.learned = newJobCache(learnedJobs)
	return c, nil
}

// LinkOrigin is the origin (scheme, host, port) of the upstream's Link
// SDK, which the modal loads and frames.
func (c *Client) LinkOrigin() string {
	u, err := url.Parse(c.linkJS)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// Verify asks the upstream for one platform: it says whether the URL
// answers and the secret is accepted, in one line for serve to print.
func (c *Client) Verify(ctx context.Context) error {
	var out paged
	err := c.do(ctx, "GET", "/v1/platforms?limit=1", nil, &out)
	var e *domain.Error
	if errors.As(err, &e) && e.Kind == domain.KindUnauthorized {
		return fmt.Errorf("the upstream at %s refused PAYLINE_UPSTREAM_SECRET: %s", c.base, e.Message)
	}
	if err != nil {
		return fmt.Errorf("the upstream at %s: %w", c.base, err)
	}
	return nil
}

// defaultCooldown is how long the upstream's open circuit fails requests
// at once (Config.Cooldown).
const defaultCooldown = 2 * time.Second

// ShareBudget makes the client's request budget one that every instance
// relaying to this upstream draws from (issue 47): shared keeps its slots
// and 429 pauses (Redis or the database the instances share), so N
// instances send the upstream what one would; this process still orders
// its own requests by priority. Called once, before the client serves.
func (c *Client) ShareBudget(shared domain.UpstreamBudgets) {
	c.budget.mu.Lock()
	defer c.budget.mu.Unlock()
	c.budget.shared = shared
}

// Stats is what the client's request budget has seen.
func (c *Client) Stats() BudgetStats { return c.budget.stats() }

// do sends one request through the budget and decodes the response's
// data into out. A 429 never reaches the caller while its context
// allows a wait: the budget pauses for the upstream's Retry-After, slows
// down, and the request is sent again at its turn. The context's
// priority (domain.UpstreamPriorityOf) orders the wait; an end user's
// request waits at most the request timeout in all, background work as
// long as its context lets it. Errors: UPSTREAM_UNAVAILABLE (503) for a
// network failure, a timeout, a 5XX, or an end user's request that found
// no slot in time (with when to retry); domain.ErrNoRows for a 404; a
// KindUnauthorized error for a 401; the upstream's own code and message
// otherwise, as an invalid request.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	prio := domain.UpstreamPriorityOf(ctx)
	if prio == domain.PriorityEndUser {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.out.Timeout())
		defer cancel()
	}
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			return err
		}
	}
	for {
		if err := c.budget.wait(ctx, prio); err != nil {
			return domain.UpstreamUnavailable("the upstream payroll API (its request budget is spent for now)",
				max(c.budget.estimate(prio), time.Second), err)
		}
		err := c.send(ctx, method, path, b, out)
		if !errors.Is(err, errRateLimited) {
			return err
		}
		// Rate limited: the budget has paused; wait for the next turn
		// unless the context is over.
		if ctx.Err() != nil {
			return err
		}
	}
}

// errRateLimited marks the error of a request the upstream answered 429.
var errRateLimited = errors.New("429 Too Many Requests")

// send makes one request (outbound: within the request timeout, through
// the circuit breaker) and reads its answer; a 429 is UPSTREAM_UNAVAILABLE
// wrapping errRateLimited.
func (c *Client) send(ctx context.Context, method, path string, body []byte, out any) error {
	lc, linkCall := out.(*linkAPI)
	resp, err := c.out.Do(ctx, func(ctx context.Context) (*http.Request, error) {
		req, err := c.request(ctx, method, path, body)
		if err == nil && linkCall {
			// Link's API is the end user's: their link token, not this
			// relay's API secret.
			req.Header.Del("x-api-secret")
			req.Header.Set("Authorization", "Bearer "+lc.token)
		}
		return req, err
	},
		func(r outbound.Response) error {
			c.budget.answered(r.Status, r.Header)
			return judge(r, method, path)
		})
	if err != nil || out == nil {
		return err
	}
	if linkCall { // Link's API answers its object bare, not in data
		if err := json.Unmarshal(resp.Body, lc.v); err != nil {
			return fmt.Errorf("%s %s: unexpected response: %w", method, path, err)
		}
		return nil
	}
	var env struct {
		Data json.RawMessage `json:"data"`
		Meta struct {
			NextCursor  *string   `json:"next_cursor"`
			RefreshedAt time.Time `json:"refreshed_at"`
		} `json:"meta"`
	}
	if err := json.Unmarshal(resp.Body, &env); err != nil {
		return fmt.Errorf("%s %s: the upstream answered something that is not JSON: %w", method, path, err)
	}
	if p, ok := out.(*paged); ok {
		p.data = env.Data
		p.next = ""
		if env.Meta.NextCursor != nil {
			p.next = *env.Meta.NextCursor
		}
		return nil
	}
	if p, ok := out.(*kept); ok {
		var o struct {
			ID        string    `json:"id"`
			CreatedAt time.Time `json:"created_at"`
			UpdatedAt time.Time `json:"updated_at"`
		}
		if err := json.Unmarshal(env.Data, &o); err != nil {
			return fmt.Errorf("%s %s: unexpected response: %w", method, path, err)
		}
		p.origin = domain.RecordOrigin{ID: o.ID, CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt, RefreshedAt: env.Meta.RefreshedAt}
		out = p.v
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("%s %s: unexpected response: %w", method, path, err)
	}
	return nil
}

// linkAPI is a call to the upstream's Link API with an end user's link
// token, its bare answer read into v.
type linkAPI struct {
	token string
	v     any
}

// kept reads a single-object product the upstream keeps: its data into
// v, and the upstream's id and times for it into origin.
type kept struct {
	v      any
	origin domain.RecordOrigin
}

// request is one request to the upstream, with its secret and version.
func (c *Client) request(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("x-api-secret", c.secret)
	// The spec says Service-Version where the vendor says its own name.
	req.Header.Set("Service-Version", c.version)
	req.Header.Set("Pinwheel-Version", c.version)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// judge reads the upstream's answer: a 429 is the budget's to wait out
// (the upstream answered, so it never opens the circuit); other 5XX are
// the upstream not answering (outbound.Unanswered); a 404 is
// domain.ErrNoRows; other 4XX are its refusals, 401 and 403 as
// KindUnauthorized.
func judge(r outbound.Response, method, path string) error {
	switch {
	case r.Status == http.StatusTooManyRequests:
		wait, _ := rateLimitPause(r.Status, r.Header, time.Now())
		return domain.UpstreamUnavailable("the upstream payroll API (rate limited)", wait, fmt.Errorf("%s %s: %w", method, path, errRateLimited))
	case r.Status >= 500:
		return outbound.Unanswered(r, method+" "+path)
	case r.Status == http.StatusNotFound:
		return fmt.Errorf("%s %s: %w", method, path, domain.ErrNoRows)
	case r.Status >= 400:
		var eb struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(r.Body, &eb) // a body that is not the error shape leaves eb empty: the status speaks alone
		kind := domain.KindInvalid
		if r.Status == http.StatusUnauthorized || r.Status == http.StatusForbidden {
			kind = domain.KindUnauthorized
		}
		code := eb.Error.Code
		if code == "" {
			code = domain.CodeUnknown
		}
		return &domain.Error{Kind: kind, Code: code, Message: "the upstream payroll API refused the request: " + eb.Error.Message}
	}
	return nil
}

// maxPage is the largest page the API serves (limit 1 to 100).
const maxPage = 100

// paged is one page of a list: its data, still raw, and the next cursor.
type paged struct {
	data json.RawMessage
	next string
}

// each pages through a list, decoding each page's data into a []T.
func each[T any](ctx context.Context, c *Client, path string, query url.Values, fn func([]T) (more bool, err error)) error {
	if query == nil {
		query = url.Values{}
	}
	query.Set("limit", strconv.Itoa(maxPage))
	for {
		var p paged
		if err := c.do(ctx, "GET", path+"?"+query.Encode(), nil, &p); err != nil {
			return err
		}
		var items []T
		if err := json.Unmarshal(p.data, &items); err != nil {
			return fmt.Errorf("GET %s: unexpected page: %w", path, err)
		}
		more, err := fn(items)
		if err != nil || !more || p.next == "" {
			return err
		}
		query.Set("cursor", p.next)
	}
}
