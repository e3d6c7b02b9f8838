package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/graph"
	"payline/storage"
	"payline/storage/storagetest"
)

// gqlResult is a GraphQL response.
type gqlResult struct {
	Data       map[string]any
	Errors     []map[string]any
	Extensions map[string]any
	raw        string
}

// gql runs a GraphQL operation as the fixture's customer (or with the
// given headers).
func (f *fixture) gql(query string, vars map[string]any, headers ...string) gqlResult {
	f.t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	res := f.request("POST", "/graphql", strings.NewReader(string(body)), append([]string{"Content-Type", "application/json"}, headers...)...)
	if res.status != 200 {
		f.t.Fatalf("graphql: status %d %s", res.status, res.raw)
	}
	var out gqlResult
	if err := json.Unmarshal(res.raw, &out); err != nil {
		f.t.Fatal(err)
	}
	out.raw = string(res.raw)
	return out
}

// ok fails on GraphQL errors and returns the data.
func (r gqlResult) ok(t *testing.T) map[string]any {
	t.Helper()
	if len(r.Errors) > 0 {
		t.Fatalf("graphql errors: %s", r.raw)
	}
	return r.Data
}

// code is the first error's extensions.code.
func (r gqlResult) code(t *testing.T) string {
	t.Helper()
	if len(r.Errors) == 0 {
		t.Fatalf("no error in %s", r.raw)
	}
	ext, _ := r.Errors[0]["extensions"].(map[string]any)
	code, _ := ext["code"].(string)
	return code
}

// at walks a decoded JSON value by keys and indexes.
func at(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

const dashboardQuery = `query ($id: ID!, $first: Int!) {
  endUser(id: $id) {
    id
    accounts(first: $first) {
      totalCount
      edges { cursor node {
        id connected monitoringStatus
        platform { id name }
        jobs(first: 5) { edges { node { id name outcome params { action } } } }
        paystubs(first: 12) { edges { node { id payDate grossPay { amount currency formatted } netPay { amount } } } }
        identity { fullName lastFourSsn }
        income { compensation { amount formatted } compensationUnit }
      } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

// TestGraphQLDashboard: one query returns what a dashboard needs of an end
// user, the same as REST says, with REST's ids.
func TestGraphQLDashboard(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		a1 := f.connectAs("dash", p, sandbox.UserGood, reportJobs...)
		a2 := f.connectAs("dash", p, sandbox.UserTerminated, reportJobs...)
		res := f.gql(dashboardQuery, map[string]any{"id": "dash", "first": 10})
		d := res.ok(t)
		accounts := at(d, "endUser", "accounts", "edges").([]any)
		if len(accounts) != 2 || at(d, "endUser", "accounts", "totalCount") != float64(2) {
			t.Fatalf("accounts %s", res.raw)
		}
		byID := map[string]any{}
		for _, e := range accounts {
			byID[at(e, "node", "id").(string)] = at(e, "node")
		}
		for _, id := range []string{a1, a2} {
			n := byID[id]
			if n == nil {
				t.Fatalf("account %s missing from %s", id, res.raw)
			}
			rest := f.get("/v1/accounts/" + id + "/identity").data(t)
			if at(n, "identity", "fullName") != rest["full_name"] || at(n, "platform", "id") != p.ID {
				t.Errorf("account %s: identity %v platform %v, REST %v", id, at(n, "identity"), at(n, "platform"), rest)
			}
			stubs := f.get("/v1/accounts/" + id + "/paystubs?limit=12").list(t)
			edges := at(n, "paystubs", "edges").([]any)
			if len(edges) != len(stubs) || at(edges[0], "node", "id") != stubs[0]["id"] ||
				at(edges[0], "node", "grossPay", "amount") != stubs[0]["gross_pay_amount"] ||
				at(edges[0], "node", "grossPay", "formatted") != domain.USD(int64(stubs[0]["gross_pay_amount"].(float64))).Formatted() {
				t.Errorf("account %s: paystubs differ from REST", id)
			}
			if jobs := at(n, "jobs", "edges").([]any); len(jobs) != 4 || at(jobs[0], "node", "outcome") != "success" {
				t.Errorf("account %s: jobs %v", id, jobs)
			}
			income := f.get("/v1/accounts/" + id + "/income").data(t)
			if at(n, "income", "compensation", "amount") != income["compensation_amount"] {
				t.Errorf("account %s: income %v, REST %v", id, at(n, "income"), income)
			}
		}
		if c, ok := res.Extensions["cost"].(map[string]any); !ok || c["limit"] != float64(10000) || c["requestedQueryCost"].(float64) <= 0 ||
			c["actualQueryCost"].(float64) <= 0 || c["actualQueryCost"].(float64) > c["requestedQueryCost"].(float64) {
			t.Errorf("extensions.cost %v", res.Extensions)
		}

		// Relay pagination walks every account once.
		var seen []string
		after := any(nil)
		for range 5 {
			page := f.gql(`query ($after: String) { endUser(id: "dash") { accounts(first: 1, after: $after) {
				edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }`, map[string]any{"after": after}).ok(t)
			for _, e := range at(page, "endUser", "accounts", "edges").([]any) {
				seen = append(seen, at(e, "node", "id").(string))
			}
			if at(page, "endUser", "accounts", "pageInfo", "hasNextPage") != true {
				break
			}
			after = at(page, "endUser", "accounts", "pageInfo", "endCursor")
		}
		if len(seen) != 2 || seen[0] == seen[1] {
			t.Errorf("paged through %v", seen)
		}
	})
}

// TestGraphQLNodesAndTenants: node(id) finds every kind of object by the
// id REST gives it, and another customer's ids read as null, never data.
func TestGraphQLNodesAndTenants(t *testing.T) {
	p := platformWhere(t, "with tax forms", func(p domain.Platform) bool { return strings.Contains(fmt.Sprint(p.SupportedJobs), "tax_forms") })
	_, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	employer := employers[3]
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct := f.connectAs("noder", p, sandbox.UserGood, "identity", "paystubs", "tax_forms")
		job := f.get("/v1/jobs?account_id=" + acct).list(t)[0]
		stub := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)[0]
		doc := f.get("/v1/end_users/noder/documents").list(t)[0]
		hook := f.createWebhook("https://example.com/h", `"account.added"`)
		ids := map[string]string{
			acct: "Account", job["id"].(string): "Job", job["link_token_id"].(string): "LinkToken", hook: "Webhook",
			stub["id"].(string): "Paystub", doc["id"].(string): "Document", p.ID: "Platform", "EndUser:noder": "EndUser",
			employer.ID: "Employer",
		}
		for id, typ := range ids {
			n := f.gql(`query ($id: ID!) { node(id: $id) { __typename id } }`, map[string]any{"id": id}).ok(t)
			if at(n, "node", "__typename") != typ || at(n, "node", "id") != id {
				t.Errorf("node(%s) = %v, want a %s", id, n["node"], typ)
			}
		}
		other, err := f.keys.CreateKey(context.Background(), "intruder", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		as := []string{"x-api-secret", other.Secret}
		for id, typ := range ids {
			if typ == "Platform" || typ == "Employer" {
				continue // the directory is shared reference data
			}
			n := f.gql(`query ($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}, as...)
			if n.ok(t)["node"] != nil {
				t.Errorf("another customer read %s %s: %s", typ, id, n.raw)
			}
		}
		for _, q := range []string{
			`{ account(id: "` + acct + `") { id } }`, `{ job(id: "` + job["id"].(string) + `") { id } }`,
			`{ linkToken(id: "` + job["link_token_id"].(string) + `") { id } }`, `{ webhook(id: "` + hook + `") { id } }`,
			`{ endUser(id: "noder") { id } }`,
		} {
			for k, v := range f.gql(q, nil, as...).ok(t) {
				if v != nil {
					t.Errorf("another customer: %s = %v", k, v)
				}
			}
		}
		var all []string
		for id := range ids {
			all = append(all, id)
		}
		nodes := f.gql(`query ($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, map[string]any{"ids": all}, as...).ok(t)
		for i, n := range nodes["nodes"].([]any) {
			if typ := ids[all[i]]; (n != nil) != (typ == "Platform" || typ == "Employer") {
				t.Errorf("another customer's nodes[%d] (%s %s) = %v", i, typ, all[i], n)
			}
		}
		// Mutations on another customer's objects find nothing to change.
		for q, code := range map[string]string{
			`mutation { disconnectAccount(id: "` + acct + `") { id } }`:                       domain.CodeAccountNotFound,
			`mutation { disableMonitoring(id: "` + acct + `") { id } }`:                       domain.CodeAccountNotFound,
			`mutation { deleteWebhook(id: "` + hook + `") }`:                                  domain.CodeWebhookNotFound,
			`mutation { updateWebhook(id: "` + hook + `", input: {status: paused}) { id } }`:  domain.CodeWebhookNotFound,
			`mutation { refreshVerificationReport(endUserId: "noder", type: "voie") { id } }`: domain.CodeEndUserNotFound,
		} {
			if got := f.gql(q, nil, as...).code(t); got != code {
				t.Errorf("another customer's %s: %s, want %s", q, got, code)
			}
		}
		if f.get("/v1/accounts/" + acct).data(t)["connected"] != true {
			t.Error("another customer disconnected the account")
		}
		lists := f.gql(`{ endUsers { edges { node { id } } } accounts { edges { node { id } } } jobs { edges { node { id } } }
			webhooks { edges { node { id } } } }`, nil, as...).ok(t)
		for k, v := range lists {
			if n := len(at(v, "edges").([]any)); n != 0 {
				t.Errorf("another customer's %s list has %d items", k, n)
			}
		}
	})
}

// TestGraphQLMutations: the mutations go through the domain services
// (REST's rules, REST's codes) and return what REST would.
func TestGraphQLMutations(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		const create = `mutation ($in: CreateLinkTokenInput!) { createLinkToken(input: $in) { token linkToken { id orgName endUserId used requiredJobs } } }`
		in := map[string]any{"orgName": "Acme Bank", "endUserId": "mut", "requiredJobs": []string{"direct_deposit_switch"},
			"allocation": map[string]any{"type": "amount", "value": "19.99", "targets": []map[string]any{
				{"type": "checking", "accountNumber": "123456789", "routingNumber": goodRouting}}}}
		d := f.gql(create, map[string]any{"in": in}).ok(t)
		tokenID := at(d, "createLinkToken", "linkToken", "id").(string)
		if !strings.HasPrefix(at(d, "createLinkToken", "token").(string), "lt_") || at(d, "createLinkToken", "linkToken", "used") != false {
			t.Fatalf("created %v", d)
		}
		sess, err := f.server.link.Open(context.Background(), at(d, "createLinkToken", "token").(string))
		if err != nil || sess.Token.ID != tokenID || sess.Token.Allocation == nil || sess.Token.Allocation.Amount != domain.USD(1999) {
			t.Errorf("the token's allocation %+v (%v), want 1999 cents", sess.Token.Allocation, err)
		}
		// Validation errors carry REST's code and type, and the fields.
		in["allocation"].(map[string]any)["value"] = "19.999"
		in["orgName"] = "A"
		bad := f.gql(create, map[string]any{"in": in})
		ext, _ := bad.Errors[0]["extensions"].(map[string]any)
		if bad.code(t) != domain.CodeInvalidFields || ext["type"] != typeInvalid || !strings.Contains(fmt.Sprint(ext["fields"]), "allocation.value") ||
			!strings.Contains(fmt.Sprint(ext["fields"]), "org_name") {
			t.Errorf("invalid token: %s", bad.raw)
		}
		// A float literal in the query text is refused: money never passes through a float.
		lit := f.gql(`mutation { createLinkToken(input: {orgName: "Acme", endUserId: "x", allocation: {type: "amount", value: 19.99}}) { token } }`, nil)
		if len(lit.Errors) == 0 || !strings.Contains(lit.raw, "strings") {
			t.Errorf("a float literal amount: %s", lit.raw)
		}

		hook := f.gql(`mutation { createWebhook(input: {url: "https://example.com/g", enabledEvents: ["account.added"], version: "2025-07-08"}) { id status } }`, nil).ok(t)
		hookID := at(hook, "createWebhook", "id").(string)
		if f.get("/v1/webhooks/" + hookID).data(t)["status"] != "active" {
			t.Error("the webhook GraphQL made is not in REST")
		}
		upd := f.gql(`mutation ($id: ID!) { updateWebhook(id: $id, input: {status: paused, enabledEvents: ["income.added"]}) { status enabledEvents } }`,
			map[string]any{"id": hookID}).ok(t)
		if at(upd, "updateWebhook", "status") != "paused" {
			t.Errorf("update %v", upd)
		}
		if r := f.gql(`mutation { createWebhook(input: {url: "http://example.com", enabledEvents: ["account.added"], version: "2025-07-08"}) { id } }`, nil); r.code(t) != domain.CodeInvalidFields {
			t.Errorf("http webhook: %s", r.raw)
		}
		f.gql(`mutation ($id: ID!) { deleteWebhook(id: $id) }`, map[string]any{"id": hookID}).ok(t)
		if r := f.get("/v1/webhooks/" + hookID); r.status != 404 {
			t.Errorf("deleted webhook still there: %d", r.status)
		}

		acct := f.connectAs("mut2", p, sandbox.UserGood, reportJobs...)
		dm := f.gql(`mutation ($id: ID!) { disableMonitoring(id: $id) { monitoringStatus connected } }`, map[string]any{"id": acct}).ok(t)
		if at(dm, "disableMonitoring", "monitoringStatus") != "customer_disabled" {
			t.Errorf("disableMonitoring %v", dm)
		}
		dc := f.gql(`mutation ($id: ID!) { disconnectAccount(id: $id) { monitoringStatus connected } }`, map[string]any{"id": acct}).ok(t)
		if at(dc, "disconnectAccount", "connected") != false || f.get("/v1/accounts/" + acct).data(t)["connected"] != false {
			t.Errorf("disconnect %v", dc)
		}
		rep := f.gql(`mutation { refreshVerificationReport(endUserId: "mut2", type: "voie") { id reportType downloadUrl
			employments { employerName income { annualIncomes { year grossPay { amount formatted } } } } } }`, nil).ok(t)
		if !strings.HasPrefix(at(rep, "refreshVerificationReport", "downloadUrl").(string), f.http.URL+"/files/") {
			t.Errorf("report %v", rep)
		}
		if r := f.gql(`mutation ($id: ID!) { disconnectAccount(id: $id) { id } }`, map[string]any{"id": domain.NewID()}); r.code(t) != domain.CodeAccountNotFound {
			t.Errorf("unknown account: %s", r.raw)
		}
	})
}

// TestGraphQLLimits: cost and depth are refused before anything runs.
func TestGraphQLLimits(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	costly := f.gql(`{ endUsers(first: 100) { edges { node { accounts(first: 100) { edges { node { id jobs(first: 100) { edges { node { id } } } } } } } } } }`, nil)
	if costly.code(t) != domain.CodeComplexityLimit || !strings.Contains(costly.raw, "10000") || costly.Data != nil {
		t.Errorf("costly query: %s", costly.raw)
	}
	deep := f.gql(`{ jobs(first: 1) { edges { node { account { endUser { accounts(first: 1) { edges { node { jobs(first: 1) {
		edges { node { account { platform { id } } } } } } } } } } } } } }`, nil)
	if deep.code(t) != domain.CodeDepthLimit {
		t.Errorf("deep query: %s", deep.raw)
	}
	// Automatic persisted queries stay.
	cheap := `{ platforms(first: 1) { edges { node { id } } } }`
	f.gql(cheap, nil).ok(t)
	if r := f.request("GET", "/graphql?query="+url.QueryEscape(cheap), nil); r.status != 200 || !strings.Contains(string(r.raw), `"platforms"`) {
		t.Errorf("GET query: %d %s", r.status, r.raw)
	}
	// The SDL, GraphiQL and its assets need no secret.
	if res, body := fetch(t, "GET", f.http.URL+"/graphql/schema.graphql"); res.StatusCode != 200 || !strings.Contains(string(body), "type Account implements Node") {
		t.Errorf("SDL: %d", res.StatusCode)
	}
	if res, body := fetch(t, "GET", f.http.URL+"/graphql", "Accept", "text/html"); res.StatusCode != 200 || !strings.Contains(string(body), `<div id="graphiql">`) {
		t.Errorf("GraphiQL: %d", res.StatusCode)
	}
	for _, asset := range []string{"graphiql.min.js", "graphiql.min.css", "LICENSES.txt"} {
		if res, body := fetch(t, "GET", f.http.URL+graph.AssetsPrefix+asset); res.StatusCode != 200 || len(body) == 0 {
			t.Errorf("GraphiQL's %s: %d", asset, res.StatusCode)
		}
	}
	if res, _ := fetch(t, "POST", f.http.URL+"/graphql"); res.StatusCode != 401 {
		t.Errorf("a query without a secret: %d", res.StatusCode)
	}
}

// seedEndUser writes n accounts of one end user straight through the
// stores, each with identity, income, 12 paystubs and 5 finished jobs:
// the shape of the dashboard query, without running Link n times.
func (f *fixture) seedEndUser(endUser string, n int, platformID string) {
	f.t.Helper()
	ctx, sc := context.Background(), f.key.Scope()
	tx := storage.NewTransactor(f.db, nil)
	now := f.clock.Now()
	for i := range n {
		tok := domain.LinkToken{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, TokenHash: []byte(domain.NewID()),
			CreatedAt: now, Expires: now, APIVersion: domain.LatestVersion, OrgName: "Acme", EndUserID: endUser}
		a := domain.Account{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, CreatedAt: now.Add(time.Duration(i) * time.Second),
			LinkTokenID: tok.ID, PlatformID: platformID, EndUserID: endUser, EmployerName: "Seeded", Connected: true,
			MonitoringStatus: domain.MonitoringActive, Connection: "good",
			DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}}
		for _, product := range []string{domain.ProductIdentity, domain.ProductIncome, domain.ProductPaystubs,
			domain.ProductShifts, domain.ProductTaxForms} {
			a.DataUpdatedAt[product], a.DataRefreshedAt[product] = now, now
		}
		person := sandbox.NewPerson(a)
		identity, income := person.Identity(), person.Income()
		stubs := person.Paystubs(now.AddDate(-1, 0, 0), now, now)
		check := func(err error) {
			if err != nil {
				f.t.Fatal(err)
			}
		}
		check(tx.CreateLinkToken(ctx, sc, tok))
		check(tx.CreateAccount(ctx, sc, a))
		_, err := tx.PutProduct(ctx, sc, a.ID, domain.ProductIdentity, domain.ProductData{Identity: &identity}, now)
		check(err)
		_, err = tx.PutProduct(ctx, sc, a.ID, domain.ProductIncome, domain.ProductData{Income: &income}, now)
		check(err)
		_, err = tx.PutPaystubs(ctx, sc, a.ID, stubs[len(stubs)-12:])
		check(err)
		// Two W-2s (tax forms and documents) and a month of shifts, stored
		// as the jobs store them.
		var records []domain.Record
		for _, w := range person.W2s(now.AddDate(-2, 0, 0), now) {
			w2 := w.W2
			records = append(records,
				domain.Record{ID: w.TaxFormID, Kind: domain.RecordTaxForm, AccountID: a.ID, EndUserID: endUser, SortKey: w.TaxYear, CreatedAt: now,
					TaxForm: &domain.TaxForm{Year: w.TaxYear, FormType: domain.DocumentW2, DocumentID: w.DocumentID, ParsedData: w2}},
				domain.Record{ID: w.DocumentID, Kind: domain.RecordDocument, AccountID: a.ID, EndUserID: endUser, DocumentType: domain.DocumentW2,
					SortKey: w.TaxYear, CreatedAt: now, Document: &domain.DocumentBody{DocumentType: domain.DocumentW2, AccountID: &a.ID,
						ParsedData: domain.ParsedDocument{W2: &w2}}})
		}
		for _, sh := range person.Shifts(now) {
			records = append(records, domain.Record{ID: sh.ID, Kind: domain.RecordShift, AccountID: a.ID, EndUserID: endUser, SortKey: sh.StartDate.String(),
				CreatedAt: now, Shift: &sh.Shift})
		}
		_, err = tx.Records().PutRecords(ctx, sc, records)
		check(err)
		for j := range 5 {
			at := now.Add(time.Duration(j) * time.Minute)
			job := domain.Job{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, AccountID: a.ID, PlatformID: platformID,
				PlatformName: "Seeded", EndUserID: endUser, LinkTokenID: tok.ID, Name: domain.JobPaystubs, CreatedAt: at,
				Timestamp: &at, Outcome: domain.OutcomeSuccess}
			check(tx.CreateJob(ctx, sc, job))
		}
	}
}

// TestOverviewCountsByDay: the dashboard overview's jobs by day are
// counted in the database, per UTC day and outcome, to the job.
func TestOverviewCountsByDay(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.seedEndUser("counted", 2, p.ID) // 10 successful jobs completed now
		ctx, sc := context.Background(), f.key.Scope()
		tx := storage.NewTransactor(db, nil)
		accts, err := tx.Accounts().FindAccounts(ctx, sc, domain.AccountFilter{EndUserID: "counted"}, domain.PageRequest{Limit: 10})
		if err != nil || len(accts.Items) == 0 {
			t.Fatal(err)
		}
		a := accts.Items[0]
		now := f.clock.Now().UTC()
		for _, j := range []struct {
			at      time.Time
			outcome domain.Outcome
		}{
			{now.AddDate(0, 0, -1), domain.OutcomeError}, {now.AddDate(0, 0, -1), domain.OutcomeError},
			{now.AddDate(0, 0, -1), domain.OutcomePending}, {now.AddDate(0, 0, -2), domain.OutcomeSuccess},
			{now.AddDate(0, 0, -5), domain.OutcomeSuccess}, // outside a 3-day window
		} {
			at := j.at
			if err := tx.Jobs().CreateJob(ctx, sc, domain.Job{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, AccountID: a.ID,
				PlatformID: p.ID, PlatformName: p.Name, EndUserID: a.EndUserID, LinkTokenID: a.LinkTokenID, Name: domain.JobIdentity,
				CreatedAt: at, Timestamp: &at, Outcome: j.outcome}); err != nil {
				t.Fatal(err)
			}
		}
		f.addMember("acme", "counter@acme.test", domain.RoleViewer)
		d := f.gql(`{ overview(days: 3) { jobsByDay { date success pending error } } }`, nil,
			"x-api-secret", "", "Cookie", f.dashboardCookie("counter@acme.test")).ok(t)
		got := fmt.Sprint(at(d, "overview", "jobsByDay"))
		want := fmt.Sprint([]any{
			map[string]any{"date": now.AddDate(0, 0, -2).Format(time.DateOnly), "success": float64(1), "pending": float64(0), "error": float64(0)},
			map[string]any{"date": now.AddDate(0, 0, -1).Format(time.DateOnly), "success": float64(0), "pending": float64(1), "error": float64(2)},
			map[string]any{"date": now.Format(time.DateOnly), "success": float64(10), "pending": float64(0), "error": float64(0)},
		})
		if got != want {
			t.Errorf("jobs by day\n got %s\nwant %s", got, want)
		}
	})
}

// TestEndUserWith250AccountsHandledWhole: reads that need every account
// of an end user page past the 100-row page: the earnings stream counts
// all 250 accounts' estimates, through REST and through GraphQL's batch.
func TestEndUserWith250AccountsHandledWhole(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.seedEndUser("many", 250, p.ID)
		estimates := func(payouts []any) int {
			n := 0
			for _, po := range payouts {
				n += len(po.(map[string]any)["earnings"].([]any))
			}
			return n
		}
		rest := f.get("/v1/end_users/many/earnings_stream/payouts").list(t)
		restPayouts := make([]any, len(rest))
		for i, r := range rest {
			restPayouts[i] = r
		}
		if n := estimates(restPayouts); n != 250*3 {
			t.Errorf("REST estimates %d payouts, want three for each of 250 accounts", n)
		}
		d := f.gql(`{ endUsers(first: 10) { edges { node { endUserId accounts(first: 1) { totalCount } earningsStreamPayouts { earnings { date } } } } } }`, nil).ok(t)
		for _, e := range at(d, "endUsers", "edges").([]any) {
			if at(e, "node", "endUserId") != "many" {
				continue
			}
			if total := at(e, "node", "accounts", "totalCount"); total != float64(250) {
				t.Errorf("totalCount %v, want 250", total)
			}
			if n := estimates(at(e, "node", "earningsStreamPayouts").([]any)); n != 250*3 {
				t.Errorf("GraphQL estimates %d payouts, want three for each of 250 accounts", n)
			}
		}
	})
}
