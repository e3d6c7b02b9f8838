package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"payline/domain"
)

// pageSize is how many items a list product's page holds.
const pageSize = 100

// maxRequest bounds a request body.
const maxRequest = 1 << 20

// Server serves a domain.Connector over the protocol: the sandbox for
// payline connectors serve-sandbox, and the reference every other
// connector is checked against.
type Server struct {
	connector domain.Connector
	caps      Capabilities
	secret    string
	clock     domain.Clock
	logger    *slog.Logger

	mu    sync.Mutex
	runs  map[string]RunResponse // idempotency key → first answer
	order []memoKey              // the keys in the order they came, to forget the oldest
}

type memoKey struct {
	key string
	at  time.Time
}

// maxMemos bounds the answers kept for retried attempts: beyond it the
// oldest go first, whatever their age.
const maxMemos = 100_000

// NewServer serves c for the platforms given (their jobs as they support
// them, and the products those jobs read), signed with secret.
func NewServer(name string, c domain.Connector, platforms []domain.Platform, secret string, clock domain.Clock, logger *slog.Logger) *Server {
	caps := Capabilities{ProtocolVersion: Version, Name: name, Platforms: []PlatformCapability{}}
	for _, p := range platforms {
		l := p.SwitchLimits
		pc := PlatformCapability{ID: p.ID, Name: p.Name, Type: string(p.Type), Jobs: []string{}, Products: []string{},
			AmountSupported: l.AmountSupported, FractionalAmountSupported: l.FractionalAmountSupported, MinAmountCents: l.MinAmount,
			MaxAmountCents: l.MaxAmount, PercentageSupported: l.PercentageSupported, MinPercentage: l.MinPercentage, MaxPercentage: l.MaxPercentage,
			// The port lets any connector ask for a second factor and answer
			// pending (the sandbox does both, at every platform).
			MFASupported: true, PendingSupported: true}
		for _, j := range p.SupportedJobs {
			pc.Jobs = append(pc.Jobs, string(j))
			if prod := domain.ProductOf(j); prod != "" && !slices.Contains(pc.Products, prod) {
				pc.Products = append(pc.Products, prod)
			}
		}
		caps.Platforms = append(caps.Platforms, pc)
	}
	if _, ok := c.(domain.FurnisherNotifier); ok {
		caps.DisputeNoticeVersions = DisputeNoticeVersions
	}
	return &Server{connector: c, caps: caps, secret: secret, clock: clock, logger: logger, runs: map[string]RunResponse{}}
}

// ServeHTTP implements http.Handler: every operation checks the signature
// and honours the caller's deadline.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequest+1))
	if err != nil || len(body) > maxRequest {
		writeError(w, http.StatusRequestEntityTooLarge, "INVALID_REQUEST", domain.CodeRequestTooLarge, "the request body is over 1 MiB")
		return
	}
	if err := Verify(s.secret, r.Header, r.Method, r.URL.Path, body, s.clock.Now()); err != nil {
		writeError(w, http.StatusUnauthorized, "AUTHENTICATION_ERROR", "INVALID_SIGNATURE", err.Error())
		return
	}
	ctx := r.Context()
	if d, err := domain.ParseTimestamp(r.Header.Get(HeaderDeadline)); err == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d)
		defer cancel()
	}
	var out any
	switch {
	case r.Method == http.MethodGet && r.URL.Path == PathCapabilities:
		out = s.caps
	case r.Method == http.MethodPost && r.URL.Path == PathLogin:
		out, err = s.login(ctx, body)
	case r.Method == http.MethodPost && r.URL.Path == PathMatch:
		out, err = s.match(ctx, body)
	case r.Method == http.MethodPost && r.URL.Path == PathRun:
		out, err = s.run(ctx, body)
	case r.Method == http.MethodPost && r.URL.Path == PathFetch:
		out, err = s.fetch(ctx, body)
	case r.Method == http.MethodPost && r.URL.Path == PathDispute:
		out, err = s.dispute(ctx, body)
	case r.Method == http.MethodPost && r.URL.Path == PathDisconnect:
		out, err = s.disconnect(ctx, body)
	default:
		writeError(w, http.StatusNotFound, "NOT_FOUND", "OPERATION_NOT_FOUND", "no operation "+r.Method+" "+r.URL.Path+" in connector protocol v"+Version)
		return
	}
	if errors.Is(err, errNoOperation) {
		writeError(w, http.StatusNotFound, "NOT_FOUND", "OPERATION_NOT_FOUND", "this connector takes no "+r.Method+" "+r.URL.Path)
		return
	}
	if ctx.Err() != nil {
		writeError(w, http.StatusGatewayTimeout, "PLATFORM_ERROR", domain.CodeDeadlineExceeded, "the request's deadline passed before the work was done")
		return
	}
	if err != nil {
		status, detail := refusal(err)
		if status >= 500 {
			s.logger.Error("connector operation failed", slog.String("path", r.URL.Path), slog.Any("error", err))
		}
		writeError(w, status, detail.Type, detail.Code, detail.Message)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if page, ok := out.(FetchResponse); ok {
		// A page's data is JSON already: written as it is, not scanned and
		// compacted again by the encoder (the largest answers are pages).
		_, _ = w.Write(page.bytes()) // a failed write is a client gone: no one left to tell
		return
	}
	_ = json.NewEncoder(w).Encode(out) // as above; out is built here and always encodes
}

func decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the body is not this operation's JSON: %v", err)
	}
	return nil
}

func (s *Server) login(ctx context.Context, body []byte) (any, error) {
	var req LoginRequest
	if err := decode(body, &req); err != nil {
		return nil, err
	}
	conn, err := s.connector.Login(ctx, domain.Platform{ID: req.Platform.ID, Name: req.Platform.Name, Type: domain.PlatformType(req.Platform.Type)},
		domain.Credentials{Username: req.Credentials.Username, Password: req.Credentials.Password, MFACode: req.Credentials.MFACode})
	var mfa *domain.MFARequiredError
	if errors.As(err, &mfa) {
		return LoginResponse{MFARequired: &MFARequired{Prompt: mfa.Prompt}}, nil
	}
	if err != nil {
		return nil, err
	}
	return LoginResponse{Connection: conn}, nil
}

func (s *Server) match(ctx context.Context, body []byte) (any, error) {
	var req MatchRequest
	if err := decode(body, &req); err != nil {
		return nil, err
	}
	candidates := make([]domain.Platform, len(req.Candidates))
	for i, c := range req.Candidates {
		candidates[i] = domain.Platform{ID: c.ID, Name: c.Name, Type: domain.PlatformType(c.Type)}
	}
	out := MatchResponse{PlatformIDs: []string{}}
	for _, p := range s.connector.Match(ctx, domain.PlatformMatching(req.Matching), candidates) {
		out.PlatformIDs = append(out.PlatformIDs, p.ID)
	}
	return out, nil
}

// memoFor is how long an attempt's answer is kept for a retried request.
const memoFor = 10 * time.Minute

func (s *Server) run(ctx context.Context, body []byte) (any, error) {
	var req RunRequest
	if err := decode(body, &req); err != nil {
		return nil, err
	}
	if req.IdempotencyKey == "" {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeMissingFields, "missing required fields: idempotency_key")
	}
	now := s.clock.Now()
	s.mu.Lock()
	// Forget answers past memoFor, or beyond maxMemos, oldest first: each
	// is looked at once, so a run costs the same however many came before.
	for len(s.order) > 0 && (now.Sub(s.order[0].at) > memoFor || len(s.order) > maxMemos) {
		delete(s.runs, s.order[0].key)
		s.order = s.order[1:]
	}
	memo, seen := s.runs[req.IdempotencyKey]
	s.mu.Unlock()
	if seen {
		return memo, nil
	}
	res, err := s.connector.Run(ctx, req.Job.domain(), req.Account.domain(), req.StartedAt, req.Now)
	if err != nil {
		return nil, err
	}
	out := RunResponse{Outcome: string(res.Outcome), ErrorType: res.ErrorType, ErrorCode: res.ErrorCode, RetryAfterSeconds: res.RetryAfter.Seconds()}
	if !res.At.IsZero() {
		at := res.At.UTC()
		out.At = &at
	}
	s.mu.Lock()
	if _, ok := s.runs[req.IdempotencyKey]; !ok {
		s.order = append(s.order, memoKey{key: req.IdempotencyKey, at: now})
	}
	s.runs[req.IdempotencyKey] = out
	s.mu.Unlock()
	return out, nil
}

func (s *Server) fetch(ctx context.Context, body []byte) (any, error) {
	var req FetchRequest
	if err := decode(body, &req); err != nil {
		return nil, err
	}
	offset := 0
	if req.Cursor != "" {
		n, err := strconv.Atoi(req.Cursor)
		if err != nil || n < 0 {
			return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "cursor: not one this connector gave")
		}
		offset = n
	}
	switches := make([]domain.Job, len(req.Switches))
	for i, j := range req.Switches {
		switches[i] = j.domain()
	}
	f, err := s.connector.Fetch(ctx, domain.FetchRequest{Account: req.Account.domain(), Product: req.Product, Switches: switches,
		Since: req.Since, Now: req.Now})
	if err != nil {
		return nil, err
	}
	whole, ok := wireOf(req.Product, f)
	if !ok {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "product: this connector has no product %q", req.Product)
	}
	switch items := whole.(type) {
	case []domain.DepositAllocation:
		return page(items, offset)
	case []domain.Paystub:
		return pageOf(items, offset, domain.PaystubsJSON)
	case []ShiftItem:
		return page(items, offset)
	case []TaxForm:
		return page(items, offset)
	}
	data, err := json.Marshal(whole)
	if err != nil {
		return nil, err
	}
	return FetchResponse{Data: data}, nil
}

// wireOf is a fetched product as the protocol writes it: the object of
// identity, employment and income, the list of items of the others;
// false for a product protocol v1 does not have.
func wireOf(product string, f domain.Fetched) (any, bool) {
	switch product {
	case domain.ProductIdentity:
		return f.Identity, true
	case domain.ProductEmployment:
		return f.Employment, true
	case domain.ProductIncome:
		return f.Income, true
	case domain.ProductAllocations:
		return f.Allocations, true
	case domain.ProductPaystubs:
		return f.Paystubs, true
	case domain.ProductShifts:
		items := make([]ShiftItem, len(f.Shifts))
		for i, sh := range f.Shifts {
			items[i] = ShiftItem{ID: sh.ID, Shift: sh.Shift}
		}
		return items, true
	case domain.ProductTaxForms:
		items := make([]TaxForm, len(f.W2s))
		for i, w := range f.W2s {
			items[i] = TaxForm{ID: w.TaxFormID, DocumentID: w.DocumentID, FormType: "w2", ParsedData: w.W2}
		}
		return items, true
	}
	return nil, false
}

// page is one page of a list product from offset.
func page[T any](items []T, offset int) (FetchResponse, error) {
	return pageOf(items, offset, func(part []T) any { return part })
}

// pageOf is page, its items written as wire makes them.
func pageOf[T any](items []T, offset int, wire func([]T) any) (FetchResponse, error) {
	end := min(offset+pageSize, len(items))
	part := []T{}
	if offset < len(items) {
		part = items[offset:end]
	}
	data, err := json.Marshal(wire(part))
	if err != nil {
		return FetchResponse{}, err
	}
	out := FetchResponse{Data: data}
	if end < len(items) {
		next := strconv.Itoa(end)
		out.NextCursor = &next
	}
	return out, nil
}

func writeError(w http.ResponseWriter, status int, typ, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(ErrorBody{Error: ErrorDetail{Type: typ, Code: code, Message: message}}) // the status is sent; a client gone hears nothing more
}

// refusal is how the server answers a connector's error: the login
// outcomes as 422 with their codes (PLATFORM_UNAVAILABLE as 503), a
// malformed request as 400, anything else 500 without its detail.
func refusal(err error) (int, ErrorDetail) {
	var e *domain.Error
	if !errors.As(err, &e) {
		return http.StatusInternalServerError, ErrorDetail{Type: "UNKNOWN_ERROR", Code: domain.CodeUnknown, Message: "the connector failed; its log says why"}
	}
	detail := ErrorDetail{Type: domain.LinkErrorType(e.Code), Code: e.Code, Message: e.Message}
	switch e.Code {
	case domain.CodeInvalidCredentials, domain.CodeInvalidMFACode, domain.CodeAccountLocked:
		return http.StatusUnprocessableEntity, detail
	case domain.CodePlatformUnavailable:
		return http.StatusServiceUnavailable, detail
	}
	if e.Kind == domain.KindInvalid {
		detail.Type = "INVALID_REQUEST"
		return http.StatusBadRequest, detail
	}
	return http.StatusInternalServerError, ErrorDetail{Type: "UNKNOWN_ERROR", Code: domain.CodeUnknown, Message: "the connector failed; its log says why"}
}
