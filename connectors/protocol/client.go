package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"payline/connectors/internal/outbound"
	"payline/domain"
	"payline/internal/trust"
)

var _ domain.Connector = (*Client)(nil)

// Config is how Payline reaches a connector.
type Config struct {
	// URL is the connector's base URL: https, or http on a loopback
	// address only (credentials never cross a network in the clear).
	URL string
	// Secret signs every request (PAYLINE_CONNECTOR_SECRET).
	Secret string
	// Timeout bounds one request, and is sent as its deadline (10 s when
	// zero).
	Timeout time.Duration
	// CAFile is a PEM bundle of extra CAs for a connector with a private
	// certificate.
	CAFile string
	// HTTP sends the requests (built from CAFile when nil); a copy of it
	// is used that follows no redirect, since every request carries the
	// signature and a login carries the user's password.
	HTTP *http.Client
	// BreakAfter consecutive failures to reach the connector open its
	// circuit for Cooldown, during which calls fail at once (5 and 30 s
	// when zero).
	BreakAfter uint32
	Cooldown   time.Duration
}

// Client speaks the protocol to one connector and is a domain.Connector.
// A connector that cannot be reached (network error, timeout, 5XX, 429)
// is UPSTREAM_UNAVAILABLE, which Link shows as "try again" and the job
// runner retries with backoff without spending an attempt; after
// BreakAfter such failures in a row the circuit opens and calls fail at
// once for Cooldown, so a struggling connector is not hammered.
type Client struct {
	base   *url.URL
	secret string
	out    *outbound.Client
}

// New checks the configuration; it does not call the connector
// (Capabilities does).
func New(cfg Config) (*Client, error) {
	u, err := trust.BaseURL(cfg.URL, "--connector-url", "credentials travel to the connector")
	if err != nil {
		return nil, err
	}
	if cfg.Secret == "" {
		return nil, errors.New("PAYLINE_CONNECTOR_SECRET is not set: requests to the connector are signed with it")
	}
	hc := cfg.HTTP
	if hc == nil {
		transport, err := trust.Transport(cfg.CAFile, "--connector-ca-file")
		if err != nil {
			return nil, err
		}
		hc = &http.Client{Transport: transport}
	}
	return &Client{base: u, secret: cfg.Secret, out: outbound.New(outbound.Config{
		Service: "the payroll connector", HTTP: trust.RefusingRedirects(hc), Timeout: cfg.Timeout, MaxBody: 64 << 20,
		BreakAfter: cfg.BreakAfter, Cooldown: cfg.Cooldown,
	})}, nil
}

// call sends one signed request and decodes the answer into out. Errors
// are the domain's, mapped in one place (errorFrom).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return err
		}
	}
	resp, err := c.out.Do(ctx, func(ctx context.Context) (*http.Request, error) { return c.request(ctx, method, path, body) },
		func(r outbound.Response) error { return judge(r, method, path) })
	if err != nil {
		return errorFrom(err)
	}
	if err := json.Unmarshal(resp.Body, out); err != nil {
		return fmt.Errorf("%s %s: the connector answered something that is not this operation's JSON: %w", method, path, err)
	}
	return nil
}

// request is one signed request, its deadline (the context's) sent with
// it.
func (c *Client) request(ctx context.Context, method, path string, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base.String()+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	ts := time.Now().Unix()
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
	req.Header.Set(HeaderSignature, Sign(c.secret, method, path, ts, body))
	if d, ok := ctx.Deadline(); ok {
		req.Header.Set(HeaderDeadline, d.UTC().Format(time.RFC3339Nano))
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// judge reads a connector's answer: 429 and 5XX are the connector not
// answering (outbound.Unanswered), except a 503 saying the platform
// behind it is down, which the connector answered; other 4XX are its
// refusals in the protocol's error body.
func judge(r outbound.Response, method, path string) error {
	switch {
	case r.Status == http.StatusTooManyRequests || r.Status >= 500:
		var eb ErrorBody
		_ = json.Unmarshal(r.Body, &eb) // a body that is not an ErrorBody leaves eb empty: the status speaks alone
		if r.Status == http.StatusServiceUnavailable && eb.Error.Code == domain.CodePlatformUnavailable {
			return refusedBy(eb.Error) // the platform behind it is down; the connector answered
		}
		return outbound.Unanswered(r, method+" "+path)
	case r.Status >= 400:
		var eb ErrorBody
		if err := json.Unmarshal(r.Body, &eb); err != nil || eb.Error.Code == "" {
			return fmt.Errorf("%s %s: %d without the protocol's error body", method, path, r.Status)
		}
		return refusedBy(eb.Error)
	}
	return nil
}

// refused is a connector's refusal in the protocol's error body.
type refused struct{ ErrorDetail }

func (r *refused) Error() string { return r.Code + ": " + r.Message }

func refusedBy(d ErrorDetail) error { return &refused{d} }

// errorFrom maps the connector's refusals onto the domain's errors: the
// one place the protocol's outcomes become Payline's.
//   - the connector unreachable, timing out, 5XX or 429, or its circuit
//     open: UPSTREAM_UNAVAILABLE with a retry hint (outbound maps those,
//     as for every service Payline calls);
//   - the login outcomes (INVALID_CREDENTIALS, INVALID_MFA_CODE,
//     ACCOUNT_LOCKED, PLATFORM_UNAVAILABLE): those codes, as the user's
//     to act on (Link words them for the user);
//   - a refused signature: the operator's configuration, said plainly;
//   - anything else: an error naming the connector's code, for the logs.
func errorFrom(err error) error {
	var r *refused
	if !errors.As(err, &r) {
		return err
	}
	switch r.Code {
	case domain.CodeInvalidCredentials, domain.CodeInvalidMFACode, domain.CodeAccountLocked, domain.CodePlatformUnavailable:
		return &domain.Error{Kind: domain.KindInvalid, Code: r.Code, Message: r.Message}
	case "INVALID_SIGNATURE":
		return fmt.Errorf("the connector refused this server's signature: PAYLINE_CONNECTOR_SECRET is not the connector's secret, or the clocks differ by over %s", ReplayWindow)
	}
	return &refusalError{r}
}

// refusalError is a refusal errorFrom does not map onto the domain's: its
// text names the connector's code, and it keeps the refusal for the
// callers that act on one (an unknown operation: errors.As a *refused).
type refusalError struct{ r *refused }

func (e *refusalError) Error() string {
	return fmt.Sprintf("the connector refused the request (%s): %s", e.r.Code, e.r.Message)
}

func (e *refusalError) Unwrap() error { return e.r }

// Capabilities asks the connector what it serves: serve calls it at start
// to check the URL and secret.
func (c *Client) Capabilities(ctx context.Context) (Capabilities, error) {
	var out Capabilities
	if err := c.call(ctx, http.MethodGet, PathCapabilities, nil, &out); err != nil {
		return Capabilities{}, err
	}
	if out.ProtocolVersion != Version {
		return out, fmt.Errorf("the connector speaks protocol version %q; this server speaks %q", out.ProtocolVersion, Version)
	}
	return out, nil
}

// Login implements domain.Connector.
func (c *Client) Login(ctx context.Context, p domain.Platform, cr domain.Credentials) (string, error) {
	var out LoginResponse
	err := c.call(ctx, http.MethodPost, PathLogin, LoginRequest{Platform: platformOf(p),
		Credentials: Credentials{Username: cr.Username, Password: cr.Password, MFACode: cr.MFACode}}, &out)
	switch {
	case err != nil:
		return "", err
	case out.MFARequired != nil:
		return "", &domain.MFARequiredError{Prompt: out.MFARequired.Prompt}
	case out.Connection == "":
		return "", errors.New("the connector answered a login with neither a connection nor mfa_required")
	}
	return out.Connection, nil
}

// Match implements domain.Connector. A connector that cannot answer
// matches nothing, so Link falls back to search.
func (c *Client) Match(ctx context.Context, m domain.PlatformMatching, candidates []domain.Platform) []domain.Platform {
	req := MatchRequest{Matching: Matching(m), Candidates: make([]Platform, len(candidates))}
	byID := make(map[string]domain.Platform, len(candidates))
	for i, p := range candidates {
		req.Candidates[i] = platformOf(p)
		byID[p.ID] = p
	}
	var out MatchResponse
	if err := c.call(ctx, http.MethodPost, PathMatch, req, &out); err != nil {
		return nil
	}
	var matched []domain.Platform
	for _, id := range out.PlatformIDs {
		if p, ok := byID[id]; ok {
			matched = append(matched, p)
		}
	}
	return matched
}

// Run implements domain.Connector: one attempt, under a fresh idempotency
// key.
func (c *Client) Run(ctx context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	var out RunResponse
	err := c.call(ctx, http.MethodPost, PathRun, RunRequest{IdempotencyKey: domain.NewID(), Job: jobOf(j), Account: accountOf(a),
		StartedAt: started.UTC(), Now: now.UTC()}, &out)
	if err != nil {
		return domain.JobResult{}, err
	}
	res := domain.JobResult{Outcome: domain.Outcome(out.Outcome), ErrorType: out.ErrorType, ErrorCode: out.ErrorCode,
		RetryAfter: time.Duration(out.RetryAfterSeconds * float64(time.Second))}
	if out.At != nil {
		res.At = out.At.UTC()
	}
	switch res.Outcome {
	case domain.OutcomeSuccess, domain.OutcomePending:
	case domain.OutcomeError:
		if res.ErrorCode == "" {
			return domain.JobResult{}, fmt.Errorf("the connector failed job %s without an error_code", j.ID)
		}
		if res.ErrorType == "" {
			res.ErrorType = domain.ErrorTypePlatform
		}
	default:
		return domain.JobResult{}, fmt.Errorf("the connector answered job %s with outcome %q (want success, error or pending)", j.ID, out.Outcome)
	}
	return res, nil
}

// Fetch implements domain.Connector: every page of the product.
func (c *Client) Fetch(ctx context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	req := FetchRequest{Product: r.Product, Account: accountOf(r.Account), Since: r.Since.UTC(), Now: r.Now.UTC()}
	for _, j := range r.Switches {
		req.Switches = append(req.Switches, jobOf(j))
	}
	var f domain.Fetched
	for {
		next, err := c.fetchPage(ctx, &f, req)
		if err != nil {
			return domain.Fetched{}, err
		}
		if next == nil || *next == "" {
			return f, nil
		}
		if *next == req.Cursor {
			return domain.Fetched{}, fmt.Errorf("%s from the connector: the next cursor repeats the last", r.Product)
		}
		req.Cursor = *next
	}
}

// fetchPage reads one page into f and returns the next cursor. Paystubs,
// the largest pages, are decoded straight into their type: a single pass
// over the JSON rather than one to hold it raw and one to read it.
func (c *Client) fetchPage(ctx context.Context, f *domain.Fetched, req FetchRequest) (*string, error) {
	if req.Product == domain.ProductPaystubs {
		var page struct {
			Data       paystubList `json:"data"`
			NextCursor *string     `json:"next_cursor"`
		}
		if err := c.call(ctx, http.MethodPost, PathFetch, req, &page); err != nil {
			return nil, err
		}
		if page.Data == nil {
			return nil, fmt.Errorf("paystubs from the connector: a page without data")
		}
		f.Paystubs = append(f.Paystubs, page.Data...)
		return page.NextCursor, nil
	}
	var page FetchResponse
	if err := c.call(ctx, http.MethodPost, PathFetch, req, &page); err != nil {
		return nil, err
	}
	if err := addPage(f, req.Product, page.Data); err != nil {
		return nil, fmt.Errorf("%s from the connector: %w", req.Product, err)
	}
	return page.NextCursor, nil
}

// paystubList is a page's paystubs, read by the product codec in one
// pass (a []domain.Paystub would run the codec once per stub).
type paystubList []domain.Paystub

// UnmarshalJSON implements json.Unmarshaler.
func (l *paystubList) UnmarshalJSON(b []byte) error {
	stubs, err := domain.DecodePaystubs(b)
	*l = stubs
	return err
}

// addPage decodes one page of a product into f.
func addPage(f *domain.Fetched, product string, data json.RawMessage) error {
	switch product {
	case domain.ProductIdentity:
		return json.Unmarshal(data, &f.Identity)
	case domain.ProductEmployment:
		return json.Unmarshal(data, &f.Employment)
	case domain.ProductIncome:
		return json.Unmarshal(data, &f.Income)
	case domain.ProductAllocations:
		var items []domain.DepositAllocation
		err := json.Unmarshal(data, &items)
		f.Allocations = append(f.Allocations, items...)
		return err
	case domain.ProductPaystubs:
		items, err := domain.DecodePaystubs(data)
		f.Paystubs = append(f.Paystubs, items...)
		return err
	case domain.ProductShifts:
		// Shift reads itself (older shapes too), which would swallow the
		// id beside it: each item is read twice.
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return err
		}
		for _, raw := range items {
			var s domain.DatedShift
			var id struct {
				ID string `json:"id"`
			}
			if err := json.Unmarshal(raw, &s.Shift); err != nil {
				return err
			}
			if err := json.Unmarshal(raw, &id); err != nil {
				return err
			}
			s.ID = id.ID
			f.Shifts = append(f.Shifts, s)
		}
		return nil
	case domain.ProductTaxForms:
		var items []TaxForm
		err := json.Unmarshal(data, &items)
		for _, t := range items {
			f.W2s = append(f.W2s, domain.DatedW2{TaxFormID: t.ID, DocumentID: t.DocumentID, W2: t.ParsedData})
		}
		return err
	}
	return fmt.Errorf("no product %q in protocol v%s", product, Version)
}
