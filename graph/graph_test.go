package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/graph"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestMain(m *testing.M) { os.Exit(storagetest.Main(m)) }

// countingStore counts the batch loads of platforms.
type countingStore struct {
	domain.DirectoryStore
	batches atomic.Int64
}

func (c *countingStore) PlatformsByID(ctx context.Context, ids []string) ([]domain.Platform, error) {
	c.batches.Add(1)
	return c.DirectoryStore.PlatformsByID(ctx, ids)
}

type gqlResponse struct {
	Data   map[string]json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

type client struct {
	t     *testing.T
	url   string
	store *countingStore
}

func newClient(t *testing.T, db *storage.DB) *client {
	t.Helper()
	store := &countingStore{DirectoryStore: storage.NewDirectoryStore(db)}
	srv := httptest.NewServer(graph.NewHandler(&graph.Resolver{Directory: domain.NewDirectoryService(store, domain.NoRelay{}, search.Build)}))
	t.Cleanup(srv.Close)
	return &client{t: t, url: srv.URL, store: store}
}

func (c *client) query(q string, vars map[string]any) gqlResponse {
	c.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": q, "variables": vars})
	resp, err := http.Post(c.url, "application/json", bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out gqlResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		c.t.Fatal(err)
	}
	return out
}

func (c *client) code(r gqlResponse) string {
	c.t.Helper()
	if len(r.Errors) == 0 {
		c.t.Fatalf("no error in %+v", r)
	}
	code, _ := r.Errors[0].Extensions["code"].(string)
	return code
}

func TestEmployersConnectionPaginates(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		c := newClient(t, db)
		seen := map[string]bool{}
		var after any
		for pages := 0; ; pages++ {
			if pages > 60 {
				t.Fatal("pagination does not end")
			}
			r := c.query(`query($after: String) { employers(first: 100, after: $after) {
				edges { cursor node { id name } } pageInfo { hasNextPage endCursor } } }`, map[string]any{"after": after})
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %+v", r.Errors)
			}
			var conn struct {
				Edges []struct {
					Node struct{ ID, Name string }
				}
				PageInfo struct {
					HasNextPage bool
					EndCursor   *string
				}
			}
			if err := json.Unmarshal(r.Data["employers"], &conn); err != nil {
				t.Fatal(err)
			}
			for _, e := range conn.Edges {
				if seen[e.Node.ID] {
					t.Fatalf("%s twice", e.Node.ID)
				}
				seen[e.Node.ID] = true
			}
			if !conn.PageInfo.HasNextPage {
				break
			}
			after = *conn.PageInfo.EndCursor
		}
		if len(seen) != sandbox.DefaultEmployerCount {
			t.Errorf("walked %d employers, want %d", len(seen), sandbox.DefaultEmployerCount)
		}
	})
}

// TestPlatformEdgeIsBatched: the number of platform queries does not grow
// with the number of employers asked for.
func TestPlatformEdgeIsBatched(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		c := newClient(t, db)
		for _, first := range []int{1, 10, 100} {
			before := c.store.batches.Load()
			r := c.query(`query($first: Int) { employers(first: $first) { edges { node { name platform { id name type } } } } }`,
				map[string]any{"first": first})
			if len(r.Errors) > 0 {
				t.Fatalf("errors: %+v", r.Errors)
			}
			if n := c.store.batches.Load() - before; n != 1 {
				t.Errorf("first=%d: %d platform queries, want 1", first, n)
			}
		}
	})
}

func TestLookupsAndErrors(t *testing.T) {
	_, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		c := newClient(t, db)
		want := employers[7]
		r := c.query(`query($id: ID!, $ein: String!) { employer(id: $id) { name minAmount platform { type } }
			employerByEin(ein: $ein) { id } }`, map[string]any{"id": want.ID, "ein": want.EIN})
		if len(r.Errors) > 0 || !strings.Contains(string(r.Data["employer"]), want.Name) || !strings.Contains(string(r.Data["employerByEin"]), want.ID) {
			t.Fatalf("lookups: %s %s %+v", r.Data["employer"], r.Data["employerByEin"], r.Errors)
		}
		for _, tc := range []struct{ name, query, code, typ string }{
			{"unknown employer", `{ employer(id: "` + domain.NewID() + `") { id } }`, domain.CodeEmployerNotFound, "RECORD_NOT_FOUND"},
			{"bad id", `{ platform(id: "nope") { id } }`, domain.CodeInvalidFields, "INVALID_REQUEST_PARAMETERS"},
			{"bad ein", `{ employerByEin(ein: "12-3456789") { id } }`, domain.CodeInvalidFields, "INVALID_REQUEST_PARAMETERS"},
			{"page too big", `{ platforms(first: 101) { edges { cursor } } }`, domain.CodeInvalidFields, "INVALID_REQUEST_PARAMETERS"},
			{"bad cursor", `{ platforms(after: "xyz") { edges { cursor } } }`, domain.CodeInvalidFields, "INVALID_REQUEST_PARAMETERS"},
			{"empty search", `{ search(q: "") { __typename } }`, domain.CodeInvalidFields, "INVALID_REQUEST_PARAMETERS"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := c.query(tc.query, nil)
				if got := c.code(r); got != tc.code || r.Errors[0].Extensions["type"] != tc.typ {
					t.Errorf("extensions %v, want code %s type %s", r.Errors[0].Extensions, tc.code, tc.typ)
				}
			})
		}
	})
}

func TestSearchUnion(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	c := newClient(t, db)
	r := c.query(`{ search(q: "summit payroll", limit: 3) { __typename ... on Platform { name type } ... on Employer { name } } }`, nil)
	var results []struct {
		Typename string `json:"__typename"`
		Name     string
		Type     string
	}
	if err := json.Unmarshal(r.Data["search"], &results); err != nil || len(results) == 0 {
		t.Fatalf("search: %s %+v", r.Data["search"], r.Errors)
	}
	if results[0].Typename != "Platform" || results[0].Name != "Summit Payroll" || results[0].Type != "payroll" {
		t.Errorf("first result %+v", results[0])
	}
}

func TestComplexityLimit(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	c := newClient(t, db)
	var b strings.Builder
	b.WriteString("{")
	// 20 aliases of 100 employers at about 6 points each: about 12,000,
	// over the limit of 10,000.
	for i := 0; i < 20; i++ {
		b.WriteString(` e` + string(rune('a'+i)) + `: employers(first: 100) { edges { node { name platform { name displayName } } } }`)
	}
	b.WriteString("}")
	if code := c.code(c.query(b.String(), nil)); code != "COMPLEXITY_LIMIT_EXCEEDED" {
		t.Errorf("code %s", code)
	}
}

// TestComplexityCannotWrap: connections nested under page sizes near
// 2³¹ once multiplied past the int range, and the product wrapped round
// to a small number: this query of three nested connections cost
// 2 + 2³⁰ × (4 + 202116108 × (4 + 3 × 27)) ≡ 2 (mod 2⁶⁴). Page sizes are
// now priced at the schema's maximum and the arithmetic saturates.
func TestComplexityCannotWrap(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	c := newClient(t, db)
	q := `{ endUsers(last: 1073741824) { edges { node { accounts(last: 202116108) { edges { node {
		paystubs(last: 27) { edges { node { id } } } } } } } } } }`
	if code := c.code(c.query(q, nil)); code != "COMPLEXITY_LIMIT_EXCEEDED" {
		t.Errorf("nested connections priced to wrap answered %q, want COMPLEXITY_LIMIT_EXCEEDED", code)
	}
}
