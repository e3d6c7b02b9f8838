package rest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestGraphQLPageInfoAndNodes: PageInfo's startCursor is the first edge's
// cursor and hasPreviousPage says whether the page was read from a cursor
// (read forward); a connection's nodes are its edges' nodes in
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

// TestGraphQLBackwardPaging walks every connection forward (first, after
// endCursor) and backward from its end (last, before startCursor) and
// requires the two walks to meet: the same items in the same order, each
// page's hasNextPage and hasPreviousPage true exactly when the walk goes
// on that way. Lists whose rows tie on their sort key (jobs completed in
// the same second, W-2s of one year) are included, so the id's part of
// the key is walked too. Both databases.
func TestGraphQLBackwardPaging(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		f.seedEndUser("walk-a", 3, p.ID)
		f.seedEndUser("walk-b", 1, p.ID)
		hooks := []string{f.createWebhook(rcv.srv.URL+"/a", `"account.added"`), f.createWebhook(rcv.srv.URL+"/b", `"account.added"`),
			f.createWebhook(rcv.srv.URL+"/c", `"account.added"`)}
		for range 3 {
			f.gql(`mutation ($id: ID!) { webhookTestEventSend(input: {webhookId: $id}) { delivery { id } userErrors { code } } }`,
				map[string]any{"id": hooks[0]}).ok(t)
		}
		accounts := at(f.gql(`{ endUser(id: "walk-a") { accounts { nodes { id } } } }`, nil).ok(t), "endUser", "accounts", "nodes").([]any)
		acct := `account(id: "` + at(accounts[0], "id").(string) + `")`

		for _, c := range []struct {
			owner, conn string
			size, least int // page size; the fewest items the list must have
		}{
			{"", "employers", 100, 1000}, {"", "platforms", 20, 40}, {"", "endUsers", 1, 2}, {"", "accounts", 3, 4},
			{"", "jobs", 6, 20}, {"", "webhooks", 2, 3},
			{`endUser(id: "walk-a")`, "accounts", 2, 3}, {`endUser(id: "walk-a")`, "documents", 4, 6},
			{acct, "jobs", 2, 5}, {acct, "paystubs", 5, 12}, {acct, "shifts", 7, 20}, {acct, "taxForms", 1, 2},
			{`webhook(id: "` + hooks[0] + `")`, "deliveries", 2, 3},
		} {
			name := c.owner + "." + c.conn
			page := func(size int, arg string, cursor any) (ids []string, info map[string]any) {
				t.Helper()
				sel := c.conn + `(` + arg + `) { edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }`
				q := `query ($n: Int, $c: String) { x: ` + sel + ` }`
				if c.owner != "" {
					q = `query ($n: Int, $c: String) { x: ` + c.owner + ` { ` + sel + ` } }`
				}
				conn := f.gql(q, map[string]any{"n": size, "c": cursor}).ok(t)["x"]
				if c.owner != "" {
					conn = at(conn, c.conn)
				}
				edges := at(conn, "edges").([]any)
				for _, e := range edges {
					ids = append(ids, at(e, "node", "id").(string))
				}
				info = at(conn, "pageInfo").(map[string]any)
				if len(edges) > 0 && (info["startCursor"] != at(edges[0], "cursor") || info["endCursor"] != at(edges[len(edges)-1], "cursor")) {
					t.Errorf("%s: pageInfo %v does not name the first and last edges' cursors", name, info)
				}
				return ids, info
			}
			var forward []string
			var cursor any
			for {
				ids, info := page(c.size, "first: $n, after: $c", cursor)
				if info["hasPreviousPage"] != (cursor != nil) {
					t.Errorf("%s forward after %v: hasPreviousPage %v", name, cursor, info["hasPreviousPage"])
				}
				forward = append(forward, ids...)
				if info["hasNextPage"] != true {
					break
				}
				cursor = info["endCursor"]
			}
			var backward []string
			cursor = nil
			for {
				ids, info := page(c.size, "last: $n, before: $c", cursor)
				if info["hasNextPage"] != (cursor != nil) {
					t.Errorf("%s backward before %v: hasNextPage %v", name, cursor, info["hasNextPage"])
				}
				backward = append(ids, backward...)
				if info["hasPreviousPage"] != true {
					break
				}
				cursor = info["startCursor"]
			}
			if len(forward) < c.least {
				t.Errorf("%s: %d items, want at least %d for the walk to cross pages", name, len(forward), c.least)
			}
			if !slices.Equal(forward, backward) {
				t.Errorf("%s: the backward walk (%d items) does not meet the forward walk (%d items)", name, len(backward), len(forward))
			}
		}

		// Nested connections read backward batch as they do forward: the
		// same statements for one account as for three.
		f.keys.RememberFor(time.Hour)
		const nested = `query ($id: ID!) { endUser(id: $id) { accounts(last: 50) { nodes { id
			jobs(last: 2) { nodes { id } } paystubs(last: 3) { nodes { id } } shifts(last: 2) { nodes { id } } taxForms(last: 1) { nodes { id } } } } } }`
		statements := func(user string) int64 {
			fewest := int64(-1)
			for range 3 {
				before := f.requestStatements.Load()
				f.gql(nested, map[string]any{"id": user}).ok(t)
				if c := f.requestStatements.Load() - before; fewest < 0 || c < fewest {
					fewest = c
				}
			}
			return fewest
		}
		if one, three := statements("walk-b"), statements("walk-a"); one != three {
			t.Errorf("statements for nested backward pages of 1 and 3 accounts: %d and %d, want the same", one, three)
		}
	})
}

// TestGraphQLPagingArguments: one of first and last, one of after and
// before, each with its own direction, and sizes of 1 to 100.
func TestGraphQLPagingArguments(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		c := at(f.gql(`{ employers(first: 2) { pageInfo { endCursor } } }`, nil).ok(t), "employers", "pageInfo", "endCursor")
		for _, tc := range []struct{ args, message string }{
			{`first: 2, last: 2`, "first and last: give one of them"},
			{`after: $c, before: $c`, "after and before: give one of them"},
			{`first: 2, before: $c`, "before reads backward: use it with last, not first"},
			{`last: 2, after: $c`, "after reads forward: use it with first, not last"},
			{`last: 0`, "last must be from 1 to 100, got 0"},
			{`last: 101`, "last must be from 1 to 100, got 101"},
			{`first: 0`, "first must be from 1 to 100, got 0"},
		} {
			vars, q := map[string]any{}, `{ employers(`+tc.args+`) { nodes { id } } }`
			if strings.Contains(tc.args, "$c") {
				vars, q = map[string]any{"c": c}, `query ($c: String) `+q
			}
			r := f.gql(q, vars)
			if r.code(t) != "INVALID_FIELDS" || !strings.Contains(fmt.Sprint(r.Errors[0]["message"]), tc.message) {
				t.Errorf("employers(%s): %s, want INVALID_FIELDS saying %q", tc.args, r.raw, tc.message)
			}
		}
		// last is priced as first is.
		costly := f.gql(`{ endUsers(last: 100) { nodes { accounts(last: 100) { nodes { id jobs(last: 100) { nodes { id } } } } } } }`, nil)
		if costly.code(t) != domain.CodeComplexityLimit {
			t.Errorf("a costly backward query: %s", costly.raw)
		}
		// Without first or last, 25 forward.
		all := at(f.gql(`{ employers { nodes { id } pageInfo { hasNextPage } } }`, nil).ok(t), "employers")
		if n := len(at(all, "nodes").([]any)); n != 25 || at(all, "pageInfo", "hasNextPage") != true {
			t.Errorf("employers without first or last: %d nodes, %v", n, at(all, "pageInfo"))
		}
	})
}
