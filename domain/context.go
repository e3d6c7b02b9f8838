package domain

import "context"

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
