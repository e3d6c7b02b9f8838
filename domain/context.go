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
