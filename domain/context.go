package domain

import (
	"context"
	"time"
)

type apiKeyCtxKey struct{}

// WithAPIKey returns ctx carrying the authenticated key. Transports set it
// after authentication; services read the tenant from it.
func WithAPIKey(ctx context.Context, k APIKey) context.Context {
	return context.WithValue(ctx, apiKeyCtxKey{}, k)
}

type requestIDCtxKey struct{}

// WithRequestID returns ctx carrying the request's id (the
// x-service-request-id header), so every transport logs it with errors.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDCtxKey{}, id)
}

// RequestID is the request id of ctx, "" outside a request.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDCtxKey{}).(string)
	return id
}

// APIKeyFrom returns the authenticated key of ctx, if any.
func APIKeyFrom(ctx context.Context) (APIKey, bool) {
	k, ok := ctx.Value(apiKeyCtxKey{}).(APIKey)
	return k, ok
}

type clientAddressCtxKey struct{}

// WithClientAddress returns ctx carrying the address a request came from,
// for the audit log.
func WithClientAddress(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientAddressCtxKey{}, addr)
}

// ClientAddress is the address of ctx's request; "local" outside one (the
// command line).
func ClientAddress(ctx context.Context) string {
	if a, ok := ctx.Value(clientAddressCtxKey{}).(string); ok && a != "" {
		return a
	}
	return "local"
}

// ActorOf names who acts in ctx for the audit log: the signed-in member
// or the API key that authenticated the request, else the command line.
func ActorOf(ctx context.Context) string {
	if s, ok := SessionFrom(ctx); ok {
		return "member:" + s.Email
	}
	if k, ok := APIKeyFrom(ctx); ok {
		return "key:" + k.ID
	}
	return "cli"
}

// Credential is what authenticated a connection that outlives its
// request (a GraphQL websocket), so the connection can be checked again:
// a revoked or expired key, or a member who signed out, must not keep a
// socket that reads people's data.
type Credential struct {
	// Holder names the credential for per-credential limits: "key:<id>"
	// or "member:<id>".
	Holder string
	// KeyID is the API key's id, for revocation notices ("" for a member).
	KeyID string
	// ExpiresAt is when the credential stops working (zero: no expiry).
	ExpiresAt time.Time
	// Check returns the error the credential would get if presented now.
	Check func(ctx context.Context) error
}

type credentialCtxKey struct{}

// WithCredential returns ctx carrying the credential that authenticated it.
func WithCredential(ctx context.Context, c Credential) context.Context {
	return context.WithValue(ctx, credentialCtxKey{}, c)
}

// CredentialFrom returns the credential of ctx, if a transport set one.
func CredentialFrom(ctx context.Context) (Credential, bool) {
	c, ok := ctx.Value(credentialCtxKey{}).(Credential)
	return c, ok
}

// RateLimiter takes one request from a tenant's rate, or refuses with
// RATE_LIMIT_EXCEEDED and the wait in RetryAfter.
type RateLimiter func(ctx context.Context, sc Scope) error

type rateLimiterCtxKey struct{}

// WithRateLimiter returns ctx carrying the rate limit of the transport
// that accepted it, for operations that arrive inside one request (the
// messages of a websocket).
func WithRateLimiter(ctx context.Context, l RateLimiter) context.Context {
	return context.WithValue(ctx, rateLimiterCtxKey{}, l)
}

// RateLimiterFrom returns the rate limit of ctx's transport, if any.
func RateLimiterFrom(ctx context.Context) (RateLimiter, bool) {
	l, ok := ctx.Value(rateLimiterCtxKey{}).(RateLimiter)
	return l, ok && l != nil
}

// RateStatus is what a tenant's rate has left: a bucket of Limit requests
// that refills at PerSecond, Remaining of them free now, full again at
// ResetAt. Every request and every websocket operation takes one.
type RateStatus struct {
	Limit     int
	Remaining int
	PerSecond float64
	ResetAt   time.Time
}

// RateStatusReader reads a tenant's rate without taking from it; ok is
// false when the rate is not limited or cannot be read.
type RateStatusReader func(ctx context.Context, sc Scope) (status RateStatus, ok bool)

type rateStatusCtxKey struct{}

// WithRateStatus returns ctx carrying the reader of its transport's rate
// limit, so GraphQL can say what is left of it.
func WithRateStatus(ctx context.Context, r RateStatusReader) context.Context {
	return context.WithValue(ctx, rateStatusCtxKey{}, r)
}

// RateStatusFrom returns the reader of ctx's rate limit, if any.
func RateStatusFrom(ctx context.Context) (RateStatusReader, bool) {
	r, ok := ctx.Value(rateStatusCtxKey{}).(RateStatusReader)
	return r, ok && r != nil
}
