package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// gqlRaw posts a GraphQL body as it is and returns the status and the
// decoded answer. The client gives up after 10 s, so an operation that
// never answers fails the test instead of hanging it.
func (f *fixture) gqlRaw(t *testing.T, body string, headers ...string) (int, gqlResult) {
	t.Helper()
	req, err := http.NewRequest("POST", f.http.URL+"/graphql", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-api-secret", f.secret)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatalf("POST /graphql: %v", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out gqlResult
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST /graphql: %d %s", resp.StatusCode, raw)
	}
	out.raw = string(raw)
	return resp.StatusCode, out
}

func queryBody(query string) string {
	b, _ := json.Marshal(map[string]any{"query": query})
	return string(b)
}

// TestGraphQLTextBounds: documents whose parsing or validation would grow
// with the square of their size are refused before the validator runs,
// with QUERY_TOO_LARGE (each of these kept a core busy for seconds to
// minutes before); bodies over the limit and bodies that are not one
// GraphQL request are refused with the REST codes, naming what is wrong
// and never quoting the body.
func TestGraphQLTextBounds(t *testing.T) {
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("{ ...f0 }\n")
		for i := range n {
			fmt.Fprintf(&b, "fragment f%d on Query { __typename ...f%d }\n", i, i+1)
		}
		fmt.Fprintf(&b, "fragment f%d on Query { __typename }\n", n)
		return b.String()
	}
	doubling := func(n int) string {
		var b strings.Builder
		b.WriteString("{ ...f0 }\n")
		for i := range n {
			fmt.Fprintf(&b, "fragment f%d on Query { a%d: __typename ...f%d ... on Query { ...f%d } }\n", i, i, i+1, i+1)
		}
		fmt.Fprintf(&b, "fragment f%d on Query { __typename }\n", n)
		return b.String()
	}
	aliases := func(n int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, " a%d: __typename", i)
		}
		return b.String() + " }"
	}
	// Fields of one name under fields of one name merge: the validator
	// compares all 40x45 names pairwise.
	merged := "{" + strings.Repeat(" employers(first: 1) { edges { node {"+strings.Repeat(" name", 45)+" } } }", 40) + " }"
	cases := []struct{ name, query string }{
		{"20,000 repeats of one field", "{" + strings.Repeat(" __typename", 20_000) + " }"},
		{"18,000 unknown fields", "{" + strings.Repeat(" nosuchfield", 18_000) + " }"},
		{"1,000 repeats of one field", "{" + strings.Repeat(" __typename", 1_000) + " }"},
		{"3,000 distinct fields", aliases(3_000)},
		{"4,000 chained fragments", chain(4_000)},
		{"150 chained fragments", chain(150)},
		{"fragments that double at each level", doubling(30)},
		{"same-named fields whose children merge", merged},
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				status, res := f.gqlRaw(t, queryBody(c.query))
				if status != 200 || res.code(t) != domain.CodeQueryTooLarge {
					t.Fatalf("%d %.300s", status, res.raw)
				}
			})
		}
		refusals := []struct{ name, body, code, mention string }{
			{"a 2 MB body", queryBody("{ __typename }" + strings.Repeat(" ", 2<<20)), domain.CodeRequestTooLarge, "256 KiB"},
			{"300 KB of variables", `{"query": "{ __typename }", "variables": {"pad": "` + strings.Repeat("x", 300<<10) + `"}}`,
				domain.CodeRequestTooLarge, "256 KiB"},
			{"a batch, as Apollo sends", `[{"query": "{ __typename }", "variables": {"ssn": "078-05-1120"}}]`, domain.CodeInvalidJSON, "batched"},
			{"a wrong-typed operationName", `{"query": "{ __typename }", "operationName": 5, "variables": {"ssn": "078-05-1120"}}`,
				domain.CodeInvalidJSON, "operationName must be a string"},
			{"variables that are not an object", `{"query": "{ __typename }", "variables": ["078-05-1120"]}`, domain.CodeInvalidJSON, "variables must be an object"},
			{"broken JSON", `{"query": "{ __typename }", "variables": {"ssn": "078-05-1120"`, domain.CodeInvalidJSON, "not valid JSON"},
		}
		for _, c := range refusals {
			t.Run(c.name, func(t *testing.T) {
				status, res := f.gqlRaw(t, c.body)
				if status != 400 || res.code(t) != c.code || !strings.Contains(res.raw, c.mention) || strings.Contains(res.raw, "078-05-1120") {
					t.Fatalf("%d %.300s", status, res.raw)
				}
			})
		}
		// The bounds leave room: the dashboard's query and every field of
		// the schema (TestGraphQLEveryField) run as before.
		body, _ := json.Marshal(map[string]any{"query": dashboardQuery, "variables": map[string]any{"id": "nobody", "first": 50}})
		if status, res := f.gqlRaw(t, string(body)); status != 200 || len(res.Errors) != 0 {
			t.Fatalf("the dashboard query: %d %.300s", status, res.raw)
		}
	})
}

// TestGraphQLNodesBounded: nodes(ids:) takes at most 100 ids, each priced
// as a node, and reads them with one statement per type of object however
// many there are and whether or not they exist.
func TestGraphQLNodesBounded(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct := f.connectAs("noder", p, sandbox.UserGood, "identity")
		ids := func(n int) []string {
			out := []string{acct}
			for len(out) < n {
				out = append(out, domain.NewID())
			}
			return out
		}
		q := `query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`
		if res := f.gql(q, map[string]any{"ids": ids(101)}); res.code(t) != domain.CodeInvalidFields || !strings.Contains(res.raw, "at most 100") {
			t.Fatalf("101 ids: %s", res.raw)
		}
		f.keys.RememberFor(time.Hour)      // a run slower than AuthCacheTTL would count a key lookup
		f.gql(`{ __typename }`, nil).ok(t) // authentication is cached after this
		statements := map[int]int64{}
		for _, n := range []int{1, 10, 100} {
			before := f.requestStatements.Load()
			res := f.gql(q, map[string]any{"ids": ids(n)})
			statements[n] = f.requestStatements.Load() - before
			nodes := res.ok(t)["nodes"].([]any)
			if len(nodes) != n || at(nodes[0], "id") != acct || (n > 1 && nodes[n-1] != nil) {
				t.Fatalf("nodes of %d ids: %.300s", n, res.raw)
			}
			cost := at(res.Extensions, "cost", "requestedQueryCost").(float64)
			if cost < float64(n) {
				t.Errorf("nodes of %d ids priced at %v, want at least one per id", n, cost)
			}
		}
		// One id, the account's, is found by the first type asked; more
		// ids, unknown, are asked of every type once.
		if statements[10] != statements[100] || statements[100] > 10 {
			t.Errorf("statements for 1, 10 and 100 ids: %v; want as many for 100 as for 10, and few", statements)
		}
		// Ten aliases of 100 ids each are 1,000 nodes: over the limit when
		// each asks for more than a few fields.
		var b strings.Builder
		b.WriteString("query ($ids: [ID!]!) {")
		for i := range 10 {
			fmt.Fprintf(&b, " a%d: nodes(ids: $ids) { id ... on Account { platform { id name } jobs(first: 5) { edges { node { id } } } } }", i)
		}
		b.WriteString(" }")
		if res := f.gql(b.String(), map[string]any{"ids": ids(100)}); res.code(t) != domain.CodeComplexityLimit {
			t.Errorf("ten aliases of 100 ids: %.300s", res.raw)
		}
	})
}

// TestGraphQLEndUserIDsNeverAmbiguous: an end_user_id is the customer's
// own string and may equal any UUID; node(id:) tells an end user from the
// object by its global id, and endUser(id:) takes the REST id as before.
func TestGraphQLEndUserIDsNeverAmbiguous(t *testing.T) {
	p := switchPlatform(t)
	_, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	employer := employers[5]
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.connectAs(employer.ID, p, sandbox.UserGood, "identity")
		q := `query ($id: ID!) { node(id: $id) { __typename id ... on EndUser { endUserId } } }`
		if n := f.gql(q, map[string]any{"id": employer.ID}).ok(t); at(n, "node", "__typename") != "Employer" {
			t.Errorf("node(employer's id) = %v", n)
		}
		n := f.gql(q, map[string]any{"id": "EndUser:" + employer.ID}).ok(t)
		if at(n, "node", "__typename") != "EndUser" || at(n, "node", "endUserId") != employer.ID || at(n, "node", "id") != "EndUser:"+employer.ID {
			t.Errorf("node(EndUser:<employer's id>) = %v", n)
		}
		u := f.gql(`query ($id: ID!) { endUser(id: $id) { id endUserId } }`, map[string]any{"id": employer.ID}).ok(t)
		if at(u, "endUser", "endUserId") != employer.ID || at(u, "endUser", "id") != "EndUser:"+employer.ID {
			t.Errorf("endUser(id) = %v", u)
		}
	})
}

// TestGraphQLSubscriptionsOnlyOverWebsockets: a subscription sent as an
// HTTP POST or GET is refused at once (it used to hold its request slot
// until the client went away), and the health probes answer however many
// requests the instance already serves: /healthz that the process is up,
// /readyz 503 naming its capacity, so a balancer routes around it.
func TestGraphQLSubscriptionsOnlyOverWebsockets(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.MaxConcurrent = 2 })
		for range 5 { // more than the instance's cap, one after another
			status, res := f.gqlRaw(t, queryBody(`subscription { jobUpdated { id } }`))
			if status != 400 || res.code(t) != domain.CodeSubscriptionNeedsWebsocket {
				t.Fatalf("subscription over POST: %d %s", status, res.raw)
			}
		}
		f.server.slots <- struct{}{}
		f.server.slots <- struct{}{}
		defer func() { <-f.server.slots; <-f.server.slots }()
		if res := f.get("/healthz"); res.status != 200 {
			t.Errorf("/healthz with every slot taken: %d %s", res.status, res.raw)
		}
		if res := f.get("/readyz"); res.status != 503 || !strings.Contains(string(res.raw), `"capacity":"serving 2 requests of at most 2 at once"`) {
			t.Errorf("/readyz with every slot taken: %d %s", res.status, res.raw)
		}
		if res := f.get("/v1/accounts"); res.status != 429 || res.errorCode() != domain.CodeServerBusy {
			t.Errorf("an API request with every slot taken: %d %s", res.status, res.raw)
		}
	})
}

// TestConcurrencyCapPerKey: one key holding its share of the instance's
// slots is refused more, with TOO_MANY_CONCURRENT_REQUESTS, over REST and
// GraphQL, while another key of the same instance is served.
func TestConcurrencyCapPerKey(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.MaxConcurrentPerKey = 3 })
		other, err := f.keys.CreateKey(context.Background(), "bystander", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		var releases []func()
		for range 3 { // as by three requests of the key still in flight
			release, err := f.server.inFlight.take("key:" + f.key.ID)
			if err != nil {
				t.Fatal(err)
			}
			releases = append(releases, release)
		}
		res := f.get("/v1/accounts")
		if res.status != 429 || res.errorCode() != domain.CodeTooManyConcurrent || res.header.Get("Retry-After") == "" {
			t.Errorf("REST over the key's cap: %d %s", res.status, res.raw)
		}
		if status, g := f.gqlRaw(t, queryBody(`{ __typename }`)); status != 429 || g.code(t) != domain.CodeTooManyConcurrent {
			t.Errorf("GraphQL over the key's cap: %d %s", status, g.raw)
		}
		if res := f.get("/v1/accounts", "x-api-secret", other.Secret); res.status != 200 {
			t.Errorf("another key: %d %s", res.status, res.raw)
		}
		for _, release := range releases {
			release()
		}
		if res := f.get("/v1/accounts"); res.status != 200 {
			t.Errorf("after the key's requests ended: %d %s", res.status, res.raw)
		}
	})
}

// dialGraphQLWith opens /graphql's websocket with request headers.
func (f *fixture) dialGraphQLWith(t *testing.T, h http.Header) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.http.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: h})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t: t, conn: conn}
}

// TestGraphQLLogsHoldNoPeoplesData drives GraphQL's failure paths (bodies
// that do not decode, batches as Apollo sends them, wrong-typed fields,
// oversized bodies, queries that do not parse or validate, bad variables,
// refused mutations, GET with broken variables, websocket messages that
// do not decode) with people's data in them, on both databases; the log,
// at the production level, must hold none of it.
func TestGraphQLLogsHoldNoPeoplesData(t *testing.T) {
	const (
		ssn     = "078-05-1120"
		dob     = "1961-04-12"
		account = "123456789012"
		name    = "Zebulon Quartermaine"
	)
	pii := `"ssn": "` + ssn + `", "date_of_birth": "` + dob + `", "account_number": "` + account + `", "name": "` + name + `"`
	bodies := []string{
		`[{"query": "{ __typename }", "variables": {` + pii + `}}]`,
		`{"query": "{ __typename }", "operationName": 7, "variables": {` + pii + `}}`,
		`{"query": "{ __typename }", "variables": [` + pii + `]}`,
		`{"query": "{ __typename }", "variables": {` + pii,
		`{"query": 12, "variables": {` + pii + `}}`,
		`{"query": "{ __typename }", "variables": {` + pii + `}, "pad": "` + strings.Repeat("x", 300<<10) + `"}`,
		queryBody(`{ endUser(id: "` + ssn + `") { nosuch(arg: "` + account + `") } }`),
		queryBody(`{ endUser(id: "` + ssn + `" { id } }`),
		queryBody(`query { node(id: "` + dob + `") { id } ` + strings.Repeat(" __typename", 60) + ` }`),
		`{"query": "query ($n: Int) { endUsers(first: $n) { edges { cursor } } }", "variables": {"n": "` + ssn + `"}}`,
		`{"query": "query ($c: String) { endUsers(after: $c) { edges { cursor } } }", "variables": {"c": "` + account + `"}}`,
		`{"query": "mutation ($i: CreateLinkTokenInput!) { createLinkToken(input: $i) { id } }", "variables": {"i": {"orgName": "` + name + `",
			"endUserId": "` + ssn + `", "allocation": {"targets": [{"type": "checking", "accountNumber": "` + account + `", "routingNumber": "1"}]}}}}`,
		`{"query": "mutation { createWebhook(input: {url: \"http://` + account + `.example\", enabledEvents: [\"` + ssn + `\"]}) { id } }"}`,
		`{"query": "subscription { jobUpdated(endUserId: \"` + ssn + `\") { id } }"}`,
		`{"extensions": {"persistedQuery": {"version": 1, "sha256Hash": "` + account + `"}}, "variables": {` + pii + `}}`,
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		logs := &syncBuffer{}
		f := newFixture(t, db, func(s *fixtureSetup) { s.logs = logs })
		for _, b := range bodies {
			f.gqlRaw(t, b)
		}
		for _, q := range []string{"?query=" + url.QueryEscape("{ __typename }") + "&variables=" + url.QueryEscape(`{`+pii),
			"?query=" + url.QueryEscape(`{ endUser(id: "`+ssn+`") { nosuch } }`)} {
			f.request("GET", "/graphql"+q, nil)
		}
		ws := f.dialGraphQL(t)
		ws.init(f.secret)
		for _, b := range bodies[6:] {
			var payload map[string]any
			if json.Unmarshal([]byte(b), &payload) == nil {
				ws.send(map[string]any{"id": "x", "type": "subscribe", "payload": payload})
			}
		}
		if err := ws.conn.Write(context.Background(), websocket.MessageText, []byte(`{"id": "y", "type": "subscribe", "payload": {`+pii)); err != nil {
			t.Fatal(err)
		}
		closeCode(ws)
		text := logs.String()
		if !strings.Contains(text, "request_id=") {
			t.Fatalf("the server logged no requests (%d bytes); the scan would prove nothing", len(text))
		}
		for _, v := range []string{ssn, dob, account, name} {
			if i := strings.Index(text, v); i >= 0 {
				start := max(0, strings.LastIndex(text[:i], "\n")+1)
				t.Errorf("the log holds %q: %.400s", v, text[start:])
			}
		}
	})
}
