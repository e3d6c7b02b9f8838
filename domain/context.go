package domain

import "context"

type apiKeyCtxKey struct{}

// WithAPIKey returns ctx carrying the authenticated key. Transports set it
// after authentication; services read the tenant from it.
func WithAPIKey(ctx context.Context, k APIKey) context.Context {
	return context.WithValue(ctx, apiKeyCtxKey{}, k)
}

// APIKeyFrom returns the authenticated key of ctx, if any.
func APIKeyFrom(ctx context.Context) (APIKey, bool) {
	k, ok := ctx.Value(apiKeyCtxKey{}).(APIKey)
	return k, ok
}
