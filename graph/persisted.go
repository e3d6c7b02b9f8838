package graph

import (
	"context"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/lru"

	"payline/domain"
)

// PersistedQueries is how many persisted queries (automatic persisted
// queries, by SHA-256 of their text) the server remembers, across tenants.
const PersistedQueries = 1000

// tenantQueries is the persisted-query cache, kept apart per tenant: a
// hash finds only a text the same customer, in the same mode, sent
// before. With one shared cache another customer could run a tenant's
// query by its hash alone and, by getting an answer rather than
// PersistedQueryNotFound, learn that the tenant had sent that exact text
// (which may hold an end_user_id or a tracking id). A caller with no
// tenant (no authentication reached the handler) persists nothing.
type tenantQueries struct {
	texts graphql.Cache[string]
}

var _ graphql.Cache[string] = tenantQueries{}

func newTenantQueries(size int) tenantQueries {
	return tenantQueries{texts: lru.New[string](size)}
}

func (c tenantQueries) Get(ctx context.Context, hash string) (string, bool) {
	key, ok := tenantKey(ctx, hash)
	if !ok {
		return "", false
	}
	return c.texts.Get(ctx, key)
}

func (c tenantQueries) Add(ctx context.Context, hash, text string) {
	if key, ok := tenantKey(ctx, hash); ok {
		c.texts.Add(ctx, key, text)
	}
}

// tenantKey is the cache key of hash for ctx's tenant. The customer id
// and the mode hold no NUL, so the parts cannot run into each other.
func tenantKey(ctx context.Context, hash string) (string, bool) {
	sc := domain.ScopeFrom(ctx)
	if sc.CustomerID == "" {
		return "", false
	}
	return sc.CustomerID + "\x00" + string(sc.Mode) + "\x00" + hash, true
}
