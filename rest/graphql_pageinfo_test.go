package rest

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"payline/storage"
	"payline/storage/storagetest"
)

// TestGraphQLPageInfoAndNodes: PageInfo's startCursor is the first edge's
// cursor and hasPreviousPage says whether the page was read from a cursor
// (lists page forward only); a connection's nodes are its edges' nodes in
// order; an empty page has no cursors.
func TestGraphQLPageInfoAndNodes(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		const q = `query ($after: String) { employers(first: 3, after: $after) {
			edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`
		page := func(after any) (ids []string, cursors []string, info map[string]any) {
			t.Helper()
			conn := f.gql(q, map[string]any{"after": after}).ok(t)["employers"]
			for i, e := range at(conn, "edges").([]any) {
				ids = append(ids, at(e, "node", "id").(string))
				cursors = append(cursors, at(e, "cursor").(string))
				if n := at(conn, "nodes", i, "id"); n != ids[i] {
					t.Errorf("nodes[%d] is %v, edges[%d].node %s", i, n, i, ids[i])
				}
			}
			if n := len(at(conn, "nodes").([]any)); n != len(ids) {
				t.Errorf("%d nodes, %d edges", n, len(ids))
			}
			return ids, cursors, at(conn, "pageInfo").(map[string]any)
		}
		ids1, cursors1, info1 := page(nil)
		if len(ids1) != 3 || info1["hasPreviousPage"] != false || info1["hasNextPage"] != true ||
			info1["startCursor"] != cursors1[0] || info1["endCursor"] != cursors1[2] {
			t.Fatalf("first page: %v %v", cursors1, info1)
		}
		ids2, cursors2, info2 := page(info1["endCursor"])
		if len(ids2) != 3 || info2["hasPreviousPage"] != true || info2["startCursor"] != cursors2[0] || info2["endCursor"] != cursors2[2] {
			t.Errorf("second page: %v %v", cursors2, info2)
		}
		for _, id := range ids2 {
			if slices.Contains(ids1, id) {
				t.Errorf("%s on both pages", id)
			}
		}
		// The fixture's customer has no accounts yet.
		empty := f.gql(`{ accounts(first: 5) { nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`, nil).ok(t)
		if n := at(empty, "accounts", "nodes").([]any); len(n) != 0 ||
			fmt.Sprint(at(empty, "accounts", "pageInfo")) != "map[endCursor:<nil> hasNextPage:false hasPreviousPage:false startCursor:<nil>]" {
			t.Errorf("an empty page: %v", empty)
		}
	})
}

// TestGraphQLNodesBatchedLikeEdges: children asked for through nodes load
// together as they do through edges, in as many statements whatever the
// number of accounts.
func TestGraphQLNodesBatchedLikeEdges(t *testing.T) {
	p := switchPlatform(t)
	const viaEdges = `query ($id: ID!) { endUser(id: $id) { accounts(first: 50) { edges { node {
		id platform { name } identity { fullName } jobs(first: 5) { edges { node { id name } } } } } } } }`
	const viaNodes = `query ($id: ID!) { endUser(id: $id) { accounts(first: 50) { nodes {
		id platform { name } identity { fullName } jobs(first: 5) { nodes { id name } } } } } }`
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.batchWait = 250 * time.Millisecond })
		f.keys.RememberFor(time.Hour)                                // a run slower than AuthCacheTTL would count a key lookup
		f.gql(`{ platforms(first: 1) { nodes { id } } }`, nil).ok(t) // authentication is cached after this
		statements := func(query, user string) int64 {
			fewest := int64(-1)
			for range 3 { // the fewest of three runs, as TestGraphQLStatementsDoNotGrowWithFanOut counts
				before := f.requestStatements.Load()
				f.gql(query, map[string]any{"id": user}).ok(t)
				if c := f.requestStatements.Load() - before; fewest < 0 || c < fewest {
					fewest = c
				}
			}
			return fewest
		}
		f.seedEndUser("nodes-1", 1, p.ID)
		f.seedEndUser("nodes-10", 10, p.ID)
		edges10, nodes1, nodes10 := statements(viaEdges, "nodes-10"), statements(viaNodes, "nodes-1"), statements(viaNodes, "nodes-10")
		if nodes1 != nodes10 || nodes10 != edges10 {
			t.Errorf("statements through nodes for 1 and 10 accounts: %d, %d; through edges for 10: %d; want all the same", nodes1, nodes10, edges10)
		}
		d := f.gql(viaNodes, map[string]any{"id": "nodes-10"}).ok(t)
		accounts := at(d, "endUser", "accounts", "nodes").([]any)
		if len(accounts) != 10 || at(accounts[0], "platform", "name") != p.Name || at(accounts[0], "identity", "fullName") == nil {
			t.Errorf("accounts through nodes: %v", d)
		}
	})
}
