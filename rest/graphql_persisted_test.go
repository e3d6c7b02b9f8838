package rest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// persistedBody is an automatic-persisted-query request: the hash of
// query, and the text itself unless hashOnly.
func persistedBody(query string, hashOnly bool) string {
	sum := sha256.Sum256([]byte(query))
	body := map[string]any{"extensions": map[string]any{
		"persistedQuery": map[string]any{"version": 1, "sha256Hash": hex.EncodeToString(sum[:])}}}
	if !hashOnly {
		body["query"] = query
	}
	b, _ := json.Marshal(body)
	return string(b)
}

// TestPersistedQueriesPerTenant: a query one customer registers by its
// hash cannot be run by another customer sending only the hash (which
// would also tell them the first had sent that exact text); the customer
// who registered it still can.
func TestPersistedQueriesPerTenant(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		other, err := f.keys.CreateKey(context.Background(), "intruder", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		asOther := []string{"x-api-secret", other.Secret}
		query := `{ endUser(id: "applicant-4471") { id } accounts(first: 1) { totalCount } }`

		if status, res := f.gqlRaw(t, persistedBody(query, false)); status != 200 || len(res.Errors) > 0 {
			t.Fatalf("registering the query: %d %s", status, res.raw)
		}
		_, res := f.gqlRaw(t, persistedBody(query, true), asOther...)
		if len(res.Errors) == 0 || res.Errors[0]["message"] != "PersistedQueryNotFound" || res.Data != nil {
			t.Errorf("another customer ran the query by its hash alone: %s", res.raw)
		}
		if status, res := f.gqlRaw(t, persistedBody(query, true)); status != 200 || len(res.Errors) > 0 {
			t.Errorf("the customer who registered the query cannot run it by its hash: %d %s", status, res.raw)
		}
		// The other customer registering the same text gets its own entry,
		// and that leaves the first customer's in place.
		if status, res := f.gqlRaw(t, persistedBody(query, false), asOther...); status != 200 || len(res.Errors) > 0 {
			t.Fatalf("another customer registering the same text: %d %s", status, res.raw)
		}
		for _, as := range [][]string{nil, asOther} {
			if status, res := f.gqlRaw(t, persistedBody(query, true), as...); status != 200 || len(res.Errors) > 0 {
				t.Errorf("running by hash after both registered: %d %s", status, res.raw)
			}
		}
	})
}
