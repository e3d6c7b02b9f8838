package rest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/graph/generated"
	"payline/storage"
	"payline/storage/storagetest"
)

// coverage records which schema fields and arguments the operations of a
// test selected, and which of those fields answered a value other than
// null, by walking each response alongside its parsed operation.
type coverage struct {
	schema   *ast.Schema
	selected map[string]bool // "Type.field"
	valued   map[string]bool // "Type.field" answered non-null at least once
	args     map[string]bool // "Type.field(arg)"
}

func newCoverage() *coverage {
	return &coverage{schema: generated.NewExecutableSchema(generated.Config{}).Schema(),
		selected: map[string]bool{}, valued: map[string]bool{}, args: map[string]bool{}}
}

// run executes an operation that must succeed and records what it covered.
func (c *coverage) run(t *testing.T, f *fixture, query string, vars map[string]any, headers ...string) map[string]any {
	t.Helper()
	doc, err := gqlparser.LoadQueryWithRules(c.schema, query, nil) // nil: the default rules
	if err != nil {
		t.Fatalf("parse %s: %v", query, err)
	}
	data := f.gql(query, vars, headers...).ok(t)
	for _, op := range doc.Operations {
		c.walk(op.SelectionSet, data)
	}
	return data
}

func (c *coverage) walk(set ast.SelectionSet, v any) {
	obj, _ := v.(map[string]any)
	for _, s := range set {
		switch s := s.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			key := s.ObjectDefinition.Name + "." + s.Name
			c.selected[key] = true
			for _, a := range s.Arguments {
				c.args[key+"("+a.Name+")"] = true
			}
			val := obj[s.Alias]
			if val == nil {
				continue
			}
			if list, ok := val.([]any); ok {
				if len(list) > 0 {
					c.valued[key] = true
				}
				for _, item := range list {
					c.walk(s.SelectionSet, item)
				}
				continue
			}
			c.valued[key] = true
			c.walk(s.SelectionSet, val)
		case *ast.InlineFragment:
			c.walk(s.SelectionSet, obj)
		case *ast.FragmentSpread:
			c.walk(s.Definition.SelectionSet, obj)
		}
	}
}

// check fails for every field of an object type never selected, or never
// answered with a value unless it is in mayBeNull (with the reason), for
// every argument never passed, and for a mayBeNull entry that did answer. Subscription is covered by TestSubscriptions.
func (c *coverage) check(t *testing.T, mayBeNull map[string]string) {
	t.Helper()
	var unselected, null, unargued []string
	for _, def := range c.schema.Types {
		if def.Kind != ast.Object || strings.HasPrefix(def.Name, "__") || def.Name == "Subscription" {
			continue
		}
		for _, fd := range def.Fields {
			if strings.HasPrefix(fd.Name, "__") {
				continue
			}
			key := def.Name + "." + fd.Name
			switch {
			case !c.selected[key]:
				unselected = append(unselected, key)
			case !c.valued[key] && mayBeNull[key] == "":
				null = append(null, key)
			}
			for _, a := range fd.Arguments {
				if !c.args[key+"("+a.Name+")"] {
					unargued = append(unargued, key+"("+a.Name+")")
				}
			}
		}
	}
	for _, l := range [][]string{unselected, null, unargued} {
		sort.Strings(l)
	}
	for k := range mayBeNull {
		if c.valued[k] {
			t.Errorf("%s answered a value, so it no longer belongs in the may-be-null list", k)
		}
	}
	if len(unselected) > 0 {
		t.Errorf("fields no test operation selects: %v", unselected)
	}
	if len(null) > 0 {
		t.Errorf("fields that only ever answered null or empty: %v", null)
	}
	if len(unargued) > 0 {
		t.Errorf("arguments no test operation passes: %v", unargued)
	}
}

// TestGraphQLEveryField runs operations that select every field of every
// object type and pass every argument, on both databases, against data
// made by real sandbox Link sessions, and checks values against REST. A
// field added to the schema fails this test until an operation here reads
// it and it answers a value.
func TestGraphQLEveryField(t *testing.T) {
	main := platformWhere(t, "with amounts, percentages and tax forms", func(p domain.Platform) bool {
		return p.AmountSupported && p.PercentageSupported && slices.Contains(p.SupportedJobs, domain.JobTaxForms) &&
			slices.Contains(p.SupportedJobs, domain.JobDirectDepositAllocations)
	})
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	emp := employers[7]
	// The main account's employer, so reports name its EIN.
	mainEmp := employers[slices.IndexFunc(employers, func(e domain.Employer) bool { return e.PlatformID == main.ID })]
	var gig domain.Platform
	for _, p := range platforms {
		if !p.ESP && slices.Contains(p.SupportedJobs, domain.JobShifts) {
			gig = p
			break
		}
	}
	if gig.ID == "" {
		t.Fatal("the sandbox directory has no platform with shifts")
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		rcv.reply = func(int) string { return `{"received": true}` }
		// A rate, so that rateLimit answers; one far above what the test sends.
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.caFile = rcv.caFile
			s.rest.RateLimit = 10_000
			s.sender = &recordingSender{}
		})
		hookID := f.createWebhook(rcv.srv.URL+"/hooks", `"account.added"`)

		jobs := []string{"direct_deposit_switch", "direct_deposit_allocations", "identity", "employment", "income", "paystubs", "tax_forms"}
		tokenID, token := f.createToken(fmt.Sprintf(`{"org_name": "Acme Bank", "end_user_id": "every", "required_jobs": ["%s"],
			"allocation": {"type": "amount", "value": 250.00, "targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "%s"}]}}`,
			strings.Join(jobs, `", "`), goodRouting))
		acct := f.linkSession(sessionBody(token, main.ID, sandbox.UserGood, `, "employer_id": "`+mainEmp.ID+`"`)).data(t)["account_id"].(string)
		f.waitJobs(tokenID, len(jobs))
		gigAcct := f.connectAs("every", gig, sandbox.UserGood, "shifts", "identity")
		// An hourly job whose overtime fell: regular hours, a trend with a
		// change and a point to review in the report.
		f.connectAs("every", main, sandbox.UserDeclining, reportJobs...)
		f.waitDeliveriesSettled(t)

		c := newCoverage()
		// The directory roots.
		const employerFields = `id name lastUpdated logoUrl supportedJobs amountSupported fractionalAmountSupported minAmount maxAmount
			minimumAmount { amount currency formatted } maximumAmount { amount } percentageSupported minPercentage maxPercentage`
		const platformFields = `id name displayName type lastUpdated logoUrl merchantCategories merchantCategory supportedJobs amountSupported
			fractionalAmountSupported minAmount maxAmount minimumAmount { amount } maximumAmount { amount } percentageSupported minPercentage maxPercentage`
		d := c.run(t, f, `query ($emp: ID!, $ein: String!, $plat: ID!, $since: Time!) {
			employers(first: 2, lastUpdated: $since) { edges { cursor node { `+employerFields+` platform { id } } } pageInfo { hasNextPage endCursor } }
			employer(id: $emp) { id }
			employerByEin(ein: $ein) { id }
			platforms(first: 2, type: payroll, includeEsps: true, lastUpdated: $since) { edges { cursor node { `+platformFields+` } } pageInfo { hasNextPage endCursor } }
			platform(id: $plat) { id }
			search(q: "summit", supportedJobs: [direct_deposit_switch], responseTypes: [platform, employer], amountSupported: true, platformType: payroll, limit: 3) {
				__typename ... on Platform { id } ... on Employer { id } }
		}`, map[string]any{"emp": emp.ID, "ein": emp.EIN, "plat": main.ID, "since": "2000-01-01T00:00:00Z"})
		c.run(t, f, `query ($after: String!) { employers(first: 1, after: $after) { edges { node { id } } } }`,
			map[string]any{"after": at(d, "employers", "pageInfo", "endCursor")})
		c.run(t, f, `query ($after: String!) { platforms(first: 1, after: $after) { edges { node { id } } } }`,
			map[string]any{"after": at(d, "platforms", "pageInfo", "endCursor")})
		// A platform with amount limits and a merchant platform's category.
		c.run(t, f, `{ platforms(first: 100, type: merchant) { edges { node { merchantCategory merchantCategories minimumAmount { amount } } } } }`, nil)

		// An end user, its accounts and every data product.
		const moneyFields = `amount currency formatted`
		const payLine = `name category amount { ` + moneyFields + ` } hours rate { amount }`
		const address = `raw line1 line2 city state postalCode country`
		const w2 = `taxYear employerName employeeName totalWages { amount } federalTaxes { amount } socialSecurityWages { amount }
			socialSecurityTaxes { amount } medicareWages { amount } medicareTaxes { amount } stateWages { amount } stateTaxes { amount }`
		const report = `id reportType updatedAt refreshedAt downloadUrl downloadUrlExpiration
			employee { name { firstName middleName lastName fullName } address { raw } lastFourSsn dateOfBirth phoneNumbers { value type } }
			completeness { missing derived paystubsFrom paystubsTo identitySourceAccountId identityConflicts }
			flags { code message employment } fcraNotice { text disputeContact }
			employments { accountId employerName employerAddress { city } startDate employmentDurationMonths durationMonths employmentStatus employmentType
				terminationDate title mostRecentPayDate employerPhoneNumber employerEin source { platformId platformName dataAsOf }
				originalHireDate mostRecentHireDate consent { givenAt textVersion }
				income { payFrequency compensationUnit compensation { amount }
					paystubs { id grossPay { amount } earningsByType { base { amount } overtime { amount } } regularHours overtimeHours }
					projectedAnnualIncome { amount } projectionBasis averageWeeklyHours hoursBasis averageWeeklyRegularHours
					projectedIncome { base { amount } overtime { amount } bonus { amount } commission { amount } total { amount }
						basis { base overtime bonus commission total } }
					trends { overtime { trend last12Months { amount } prior12Months { amount } changePercent }
						bonus { trend last12Months { amount } prior12Months { amount } changePercent }
						commission { trend last12Months { amount } prior12Months { amount } changePercent } }
					annualIncomes { year grossPay { amount } netPay { amount } totalDeductions { amount } totalReimbursements { amount }
						totalTaxes { amount } paystubCount earnings { category amount { amount } }
						basis firstPayDate partial earningsByType { base { amount } overtime { amount } bonus { amount } commission { amount } other { amount } }
						earningsByTypeBasis w2Unsplit { amount }
						w2 { wages { amount } medicareWages { amount } difference { amount } flagged documentId } } } }`
		d = c.run(t, f, `query ($id: ID!, $from: Time!, $to: Time!) {
			endUsers(first: 5) { edges { cursor node { id firstConnectedAt } } pageInfo { hasNextPage endCursor } }
			endUser(id: $id) {
				id endUserId firstConnectedAt
				accounts(first: 5) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node {
					id createdAt connected monitoringStatus disconnectedBy
					dataUpdatedAt { product at } dataRefreshedAt { product at }
					platform { id } endUser { id }
					linkToken { id createdAt expires used orgName endUserId requiredJobs features accountId }
					jobs(first: 10, filter: {types: [direct_deposit_switch, shifts, paystubs, tax_forms], outcome: success, from: $from, to: $to}) {
						edges { cursor node { id name outcome timestamp platformName errorCode account { id } platform { id } linkToken { id }
							params { action allocation { type amount { amount } percentage targetAccountName targetAccountType }
								read { count fromPayDate toPayDate syncStatus year documentType } } } }
						pageInfo { hasNextPage endCursor } }
					paystubs(first: 2, fromPayDate: "2000-01-01") { pageInfo { hasNextPage endCursor } edges { cursor node {
						id payDate payPeriodStart payPeriodEnd grossPay { `+moneyFields+` } grossPayYtd { amount } netPay { amount }
						netPayYtd { amount } checkAmount { amount } totalTaxes { amount } totalDeductions { amount }
						totalReimbursements { amount } employerName externalPaystubId createdAt
						earnings { `+payLine+` } taxes { `+payLine+` } deductions { `+payLine+` } } } }
					identity { fullName dateOfBirth lastFourSsn emails address { `+address+` } phoneNumbers { value type } }
					employment { status startDate terminationDate employerName employerAddress { city } employerPhoneNumber { value } title }
					income { compensation { amount } compensationUnit payFrequency }
					directDepositAllocations { accountName accountType allocationType amount { amount } percentage bankName
						maskedAccountNumber priority routingNumber }
					shifts(first: 2) { pageInfo { hasNextPage endCursor } edges { cursor node {
						id startDate endDate timezone startedAt endedAt earnings { `+payLine+` } } } }
					taxForms(first: 2) { pageInfo { hasNextPage endCursor } edges { cursor node { id year formType documentId w2 { `+w2+` } } } }
				} } }
				documents(first: 5, type: w2) { pageInfo { hasNextPage endCursor } edges { cursor node {
					id createdAt documentType accountId downloadUrl downloadUrlExpiration w2 { taxYear } } } }
				earningsStreamPayouts { status payDate earnings { date confidenceScore netPay { amount } } }
				voie { `+report+` }
				voe { id reportType employments { employerName } }
			}
		}`, map[string]any{"id": "every", "from": "2000-01-01T00:00:00Z", "to": "2100-01-01T00:00:00Z"})
		accounts := at(d, "endUser", "accounts", "edges").([]any)
		if len(accounts) != 3 {
			t.Fatalf("accounts: %v", accounts)
		}
		// Values agree with REST.
		for _, e := range accounts {
			n := at(e, "node")
			id := at(n, "id").(string)
			if rest := f.get("/v1/accounts/" + id + "/identity").data(t); at(n, "identity", "fullName") != rest["full_name"] ||
				at(n, "identity", "lastFourSsn") != rest["last_four_ssn"] {
				t.Errorf("identity of %s: %v, REST %v", id, at(n, "identity"), rest)
			}
			if id != acct {
				continue
			}
			stubs := f.get("/v1/accounts/" + id + "/paystubs?limit=2").list(t)
			if at(n, "paystubs", "edges", 0, "node", "id") != stubs[0]["id"] ||
				at(n, "paystubs", "edges", 0, "node", "netPay", "amount") != stubs[0]["net_pay_amount"] {
				t.Errorf("paystubs differ from REST: %v vs %v", at(n, "paystubs", "edges", 0), stubs[0])
			}
			var job any
			for i := range 10 {
				if j := at(n, "jobs", "edges", i, "node"); at(j, "name") == "direct_deposit_switch" {
					job = j
				}
			}
			if at(job, "params", "allocation", "amount", "amount") != float64(25000) || at(job, "linkToken", "id") != tokenID {
				t.Errorf("the switch job %v, want a $250.00 allocation", job)
			}
		}

		// The second page of every nested connection, by its endCursor.
		mainNode := `account(id: "` + acct + `")`
		gigNode := `account(id: "` + gigAcct + `")`
		for _, p := range []struct{ owner, conn string }{
			{`endUser(id: "every")`, "accounts"}, {`endUser(id: "every")`, "documents"}, {mainNode, "jobs"}, {mainNode, "paystubs"},
			{gigNode, "shifts"}, {mainNode, "taxForms"}, {`webhook(id: "` + hookID + `")`, "deliveries"},
		} {
			one := c.run(t, f, `{ x: `+p.owner+` { `+p.conn+`(first: 1) { edges { node { __typename } } pageInfo { hasNextPage endCursor } } } }`, nil)
			cursor := at(one, "x", p.conn, "pageInfo", "endCursor")
			if cursor == nil {
				t.Errorf("%s.%s: no first page", p.owner, p.conn)
				continue
			}
			c.run(t, f, `query ($after: String!) { x: `+p.owner+` { `+p.conn+`(first: 1, after: $after) { edges { cursor } } } }`,
				map[string]any{"after": cursor})
			// And the page before the last one, by its startCursor.
			last := c.run(t, f, `{ x: `+p.owner+` { `+p.conn+`(last: 1) { edges { node { __typename } } pageInfo { hasPreviousPage startCursor } } } }`, nil)
			c.run(t, f, `query ($before: String!) { x: `+p.owner+` { `+p.conn+`(last: 1, before: $before) { edges { cursor } } } }`,
				map[string]any{"before": at(last, "x", p.conn, "pageInfo", "startCursor")})
		}
		// The roots read backward (TestGraphQLBackwardPaging walks them).
		c.run(t, f, `query ($before: String) { employers(last: 1, before: $before) { nodes { id } } platforms(last: 1, before: $before) { nodes { id } }
			endUsers(last: 1, before: $before) { nodes { id } } accounts(last: 1, before: $before) { nodes { id } }
			jobs(last: 1, before: $before) { nodes { id } } webhooks(last: 1, before: $before) { nodes { id } } }`, map[string]any{"before": nil})

		// Roots by id and filter.
		job := f.get("/v1/jobs?account_id=" + acct + "&limit=1").list(t)[0]
		c.run(t, f, `query ($acct: ID!, $job: ID!, $tok: ID!, $hook: ID!, $plat: ID!, $after: String) {
			account(id: $acct) { id }
			accounts(first: 5, after: $after, filter: {connected: true, monitoringStatus: active, platformId: $plat, endUserId: "every"}) { edges { node { id } } }
			endUsers(first: 1, after: $after) { edges { node { id } } }
			job(id: $job) { id }
			jobs(first: 5, after: $after, filter: {accountId: $acct, linkTokenId: $tok}) { edges { node { id } } }
			linkToken(id: $tok) { id }
			webhook(id: $hook) { id url enabledEvents status version createdAt lastUpdated
				deliveries(first: 5) { pageInfo { hasNextPage endCursor } edges { cursor node {
					id event eventId attempt statusCode latencyMs outcome error responseExcerpt nextAttempt createdAt } } } }
			webhooks(first: 5, after: $after) { pageInfo { hasNextPage endCursor } edges { cursor node { id } } }
			node(id: $acct) { id ... on Account { connected } }
			nodes(ids: [$job, $tok]) { id }
		}`, map[string]any{"acct": acct, "job": job["id"], "tok": tokenID, "hook": hookID, "plat": main.ID, "after": nil})

		// Every mutation, on success paths (TestGraphQLMutations has their errors).
		created := c.run(t, f, `mutation ($in: CreateLinkTokenInput!) { createLinkToken(input: $in) { token linkToken { id } } }`,
			map[string]any{"in": map[string]any{"orgName": "Acme Bank", "endUserId": "every", "requiredJobs": []string{"paystubs"}}})
		if at(created, "createLinkToken", "token") == nil {
			t.Error("createLinkToken returned no token")
		}
		h := c.run(t, f, `mutation { createWebhook(input: {url: "https://example.com/every", enabledEvents: ["account.added"], version: "2025-07-08", status: paused}) { id } }`, nil)
		newHook := at(h, "createWebhook", "id")
		c.run(t, f, `mutation ($id: ID!) { updateWebhook(id: $id, input: {url: "https://example.com/every2", enabledEvents: ["income.added"], status: active}) { id } }`,
			map[string]any{"id": newHook})
		c.run(t, f, `mutation ($id: ID!) { deleteWebhook(id: $id) }`, map[string]any{"id": newHook})
		c.run(t, f, `mutation ($id: ID!) { disableMonitoring(id: $id) { id } }`, map[string]any{"id": gigAcct})
		c.run(t, f, `mutation ($id: ID!) { disconnectAccount(id: $id) { id } }`, map[string]any{"id": gigAcct})
		c.run(t, f, `mutation { refreshVerificationReport(endUserId: "every", type: "voe", trackingId: "LN-2026-0042", purpose: "credit_application") {
			id requester trackingId purpose } }`, nil)
		c.run(t, f, `mutation ($id: ID!) { sendTestEvent(webhookId: $id) { id outcome } }`, map[string]any{"id": hookID})

		// The same mutations with payloads (TestGraphQLMutationPayloads has their refusals).
		const userErrors = `userErrors { field message code } clientMutationId`
		created = c.run(t, f, `mutation ($in: LinkTokenCreateInput!) { linkTokenCreate(input: $in) { token linkToken { id requiredJobs } `+userErrors+` } }`,
			map[string]any{"in": map[string]any{"orgName": "Acme Bank", "endUserId": "every", "requiredJobs": []string{"paystubs"}, "clientMutationId": "m1"}})
		if at(created, "linkTokenCreate", "token") == nil || at(created, "linkTokenCreate", "clientMutationId") != "m1" {
			t.Errorf("linkTokenCreate: %v", created)
		}
		h = c.run(t, f, `mutation { webhookCreate(input: {url: "https://example.com/every3", enabledEvents: [account_added, voie_report_refreshed],
			version: v2023_11_22, status: paused, clientMutationId: "m2"}) { webhook { id events apiVersion enabledEvents version } `+userErrors+` } }`, nil)
		if got := at(h, "webhookCreate", "webhook"); fmt.Sprint(at(got, "enabledEvents")) != "[account.added voie_report.refreshed]" ||
			at(got, "version") != "2023-11-22" || at(got, "apiVersion") != "v2023_11_22" {
			t.Errorf("webhookCreate: %v", h)
		}
		newHook = at(h, "webhookCreate", "webhook", "id")
		c.run(t, f, `mutation ($id: ID!) { webhookUpdate(input: {id: $id, url: "https://example.com/every4", enabledEvents: [income_added], status: active,
			clientMutationId: "m3"}) { webhook { id events } `+userErrors+` } }`, map[string]any{"id": newHook})
		c.run(t, f, `mutation ($id: ID!) { webhookDelete(input: {id: $id, clientMutationId: "m4"}) { deletedWebhookId `+userErrors+` } }`,
			map[string]any{"id": newHook})
		// A refusal, so userErrors answers.
		refused := c.run(t, f, `mutation ($id: ID!) { webhookDelete(input: {id: $id}) { deletedWebhookId `+userErrors+` } }`, map[string]any{"id": newHook})
		if at(refused, "webhookDelete", "userErrors", 0, "code") != "WEBHOOK_NOT_FOUND" {
			t.Errorf("deleting a deleted webhook: %v", refused)
		}
		// Both are idempotent, so they run again on the account above.
		c.run(t, f, `mutation ($id: ID!) { accountMonitoringDisable(input: {id: $id, clientMutationId: "m5"}) { account { id monitoringStatus } `+userErrors+` } }`,
			map[string]any{"id": gigAcct})
		c.run(t, f, `mutation ($id: ID!) { accountDisconnect(input: {id: $id, clientMutationId: "m6"}) { account { id connected } `+userErrors+` } }`,
			map[string]any{"id": gigAcct})
		c.run(t, f, `mutation { verificationReportRefresh(input: {endUserId: "every", type: voe, trackingId: "LN-2026-0043", purpose: employment,
			clientMutationId: "m7"}) { report { id type permissiblePurpose reportType purpose } `+userErrors+` } }`, nil)
		c.run(t, f, `mutation ($id: ID!) { webhookTestEventSend(input: {webhookId: $id, clientMutationId: "m8"}) { delivery { id deliveryOutcome } `+userErrors+` } }`,
			map[string]any{"id": hookID})

		// A bill switch by card, and one by bank account.
		for _, bill := range []string{`{"job": "bill_switch", "card": {"number": "4242424242424242", "name": "Travel", "exp_month": 12, "exp_year": 2031}}`,
			`{"job": "bill_switch", "target": "Main"}`} {
			billTok, tok := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "every", "required_jobs": ["bill_switch"],
				"allocation": {"targets": [{"name": "Main", "type": "checking", "account_number": "123456789", "routing_number": "` + goodRouting + `"}]}}`)
			f.linkSession(sessionBody(tok, merchant(t, domain.JobBillSwitch, domain.JobBillCancellation).ID, sandbox.UserGood, `, "bill": `+bill)).data(t)
			f.waitJobs(billTok, 1)
			c.run(t, f, `query ($tok: ID!) { jobs(filter: {linkTokenId: $tok}) { edges { node { params {
				bill { type cardName lastFourCardNumber accountName accountType lastFourAccountNumber } } } } } }`, map[string]any{"tok": billTok})
		}

		// A second build of the VOIE from new data (another account): it
		// is version 2 and lists the first.
		f.connectAs("every", main, sandbox.UserGood, "identity", "employment", "income", "paystubs")
		v2 := c.run(t, f, `{ endUser(id: "every") { voie { version reference
			versions { version reference refreshedAt documentId downloadUrl downloadUrlExpiration } } } }`, nil)
		if at(v2, "endUser", "voie", "version") != float64(2) || len(at(v2, "endUser", "voie", "versions").([]any)) != 1 {
			t.Errorf("the rebuilt VOIE: %v", v2)
		}

		// Where each employment came from, the uploads a report leaves out,
		// and documents' forgery checks: an end user who uploaded four
		// paystubs and a forged copy (as TestDocumentsToVOIE does).
		_, _, files := documentStubs(t)
		_, upTok := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "uploader", "required_jobs": ["paystubs"]}`)
		if status, out := f.upload(upTok, "paystub", files...); status != 200 {
			t.Fatalf("upload: %d %v", status, out)
		}
		src := c.run(t, f, `{ endUser(id: "uploader") { voie { employments { durationMonths source { type documentIds notice reviewBases } }
			completeness { identitySourceDocumentId } flags { code message documentIds }
			excludedDocuments { documentId documentType reason fraud { status reasons { code message } } } }
			documents(first: 10) { nodes { fraud { status reasons { code message } } } } } }`, nil)
		if e := at(src, "endUser", "voie", "employments").([]any)[0].(map[string]any); e["source"].(map[string]any)["type"] != "documents" || e["durationMonths"] != nil {
			t.Errorf("an uploaded employment's source and months (null: no hire date): %v", src)
		}

		// The review queue holds the forged copy (its checks found evidence)
		// and a stub whose figures do not add up (a doubt naming fields); a
		// reviewer accepts the stub with a correction
		// (TestGraphQLDocumentReviews has the refusals).
		f.uploadForReview("arith")
		queued := c.run(t, f, `query ($before: String) {
			documentReviews(first: 1, filter: {statuses: [required], endUserId: "arith"}) { pageInfo { hasNextPage endCursor } edges { cursor node {
				id endUserId fileName review { status } readings { field page box confidence source }
				fields { name kind value reasons { code message } reading { field page box confidence source } } } } }
			back: documentReviews(last: 1, before: $before) { nodes { id } } }`, map[string]any{"before": nil})
		f.addMember("acme", "reviewer@acme.test", domain.RoleReviewer)
		reviewed := c.run(t, f, `mutation ($id: ID!) { documentReviewSubmit(input: {documentId: $id, outcome: accepted, note: "checked with the employer",
			corrections: [{field: "employer_name", value: "Sycamore Publishing, Inc."}], clientMutationId: "m9"}) {
			document { id review { status outcome reviewedAt reviewerId basis note corrections { field before after } } } `+userErrors+` } }`,
			map[string]any{"id": at(queued, "documentReviews", "edges", 0, "node", "id")}, "x-api-secret", "", "Cookie", f.dashboardCookie("reviewer@acme.test"))
		if at(reviewed, "documentReviewSubmit", "document", "review", "outcome") != "accepted" {
			t.Errorf("documentReviewSubmit: %v", reviewed)
		}
		c.run(t, f, `query ($after: String) { documentReviews(first: 1, after: $after, filter: {statuses: [completed]}) { nodes { id } } }`,
			map[string]any{"after": nil})

		// An hourly job's average hours: a sandbox job is paid by the hour or
		// not by its account's id, so accounts are added until one is.
		for i := 0; ; i++ {
			f.connectAs("hourly", main, sandbox.UserGood, "income", "paystubs")
			h := c.run(t, f, `{ endUser(id: "hourly") { voie { employments { income { averageWeeklyHours } } } } }`, nil)
			hourly := false
			for _, e := range at(h, "endUser", "voie", "employments").([]any) {
				hourly = hourly || at(e, "income", "averageWeeklyHours") != nil
			}
			if hourly || i == 30 {
				break
			}
		}

		c.run(t, f, `{ rateLimit { cost limit remaining resetAt used } }`, nil)

		// The sandbox outbox: a text, then an e-mail, kept for this customer
		// (notify's Outbox writes them so when no channel is configured).
		outbox := storage.NewMessageStore(db)
		for _, m := range []domain.OutboxMessage{
			{Channel: domain.ChannelSMS, To: "+15552010001", Text: "Acme Bank: https://payline.test/o/x", Ref: "every-order"},
			{Channel: domain.ChannelEmail, To: "every@example.com", FromName: "Acme Bank", Subject: "Connect your payroll",
				Text: "Open https://payline.test/o/x", HTML: "<p>Open https://payline.test/o/x</p>", Ref: "every-order"},
		} {
			m.ID, m.ToMasked, m.CreatedAt = domain.NewID(), domain.MaskAddress(m.Channel, m.To), f.clock.Now() // the later id is the newer
			if err := outbox.AddOutboxMessage(t.Context(), domain.Scope{CustomerID: f.key.CustomerID, Mode: domain.ModeSandbox}, m); err != nil {
				t.Fatal(err)
			}
		}
		ob := c.run(t, f, `{ outboxMessages(first: 1) { edges { cursor node { id channel recipient fromName subject text html ref createdAt } }
			nodes { id } pageInfo { endCursor } } }`, nil)
		c.run(t, f, `query ($c: String!) { a: outboxMessages(first: 1, after: $c) { nodes { id channel } } b: outboxMessages(last: 1, before: $c) { nodes { id } } }`,
			map[string]any{"c": at(ob, "outboxMessages", "pageInfo", "endCursor")})

		// Link orders: created (its e-mail sent), listed, read, canceled.
		const orderFields = `id status endUserId orgName url qrCodeUrl createdAt expiresAt remindersLeft timeZone accountId
			deliveries { channel to status sentAt failureReason }`
		lo := c.run(t, f, `mutation ($input: LinkOrderCreateInput!) { linkOrderCreate(input: $input) { linkOrder { id }
			userErrors { field message code } clientMutationId } }`, map[string]any{"input": map[string]any{
			"orgName": "Acme Bank", "endUserId": "every", "solution": "Verify", "features": []string{"income"}, "requiredJobs": []string{"paystubs"},
			"employerId": mainEmp.ID, "platformId": main.ID, "language": "en", "email": "every@example.com", "phone": "+15552010000",
			"smsConsent": true, "expiresInHours": 48, "reminders": 1, "timeZone": zoneAt(f.clock.Now(), 10, 15), "clientMutationId": "lo",
			"allocation": map[string]any{"type": "remainder", "targets": []map[string]any{{"name": "Main", "type": "checking",
				"accountNumber": "123456789", "routingNumber": goodRouting}}}}})
		orderID := at(lo, "linkOrderCreate", "linkOrder", "id").(string)
		waitFor(t, "the order's messages", func() bool { return f.order(orderID)["status"] == "sent" })
		lp := c.run(t, f, `query ($id: ID!) { linkOrder(id: $id) { `+orderFields+` }
			linkOrders(first: 1, endUserId: "every", status: sent) { edges { cursor node { id } } nodes { id } pageInfo { endCursor } } }`,
			map[string]any{"id": orderID})
		c.run(t, f, `query ($c: String!) { a: linkOrders(first: 1, after: $c) { nodes { id } } b: linkOrders(last: 1, before: $c) { nodes { id } } }`,
			map[string]any{"c": at(lp, "linkOrders", "pageInfo", "endCursor")})
		c.run(t, f, `mutation ($id: ID!) { linkOrderCancel(input: {id: $id, clientMutationId: "c"}) { linkOrder { id status }
			userErrors { field code } clientMutationId } }`, map[string]any{"id": orderID})

		// Every connection's nodes, and the rest of PageInfo.
		c.run(t, f, `{
			employers(first: 2) { nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } }
			platforms(first: 1) { nodes { id } }
			webhooks(first: 10) { nodes { id deliveries(first: 1) { nodes { id } } } }
			endUsers(first: 100) { nodes { id documents(first: 1) { nodes { id } } } }
			jobs(first: 1) { nodes { id } }
			accounts(first: 100) { nodes { id jobs(first: 1) { nodes { id } } paystubs(first: 1) { nodes { id } }
				shifts(first: 1) { nodes { id } } taxForms(first: 1) { nodes { id } } } }
		}`, nil)

		// The dashboard's own fields, as a signed-in member.
		f.addMember("acme", "every@acme.test", domain.RoleDeveloper)
		c.run(t, f, `query ($days: Int) { viewer { email role workspaceName mode }
			overview(days: $days) { accountsConnected jobsByDay { date success pending error }
				deliveriesDelivered deliveriesRetrying deliveriesFailed deliverySuccessRate } }`,
			map[string]any{"days": 3}, "x-api-secret", "", "Cookie", f.dashboardCookie("every@acme.test"))

		// Disputes: one of a paystub's figure (new information extends it;
		// the sandbox acknowledges its notice; investigated and resolved)
		// and one of a report's field (no furnisher, and why).
		stubID := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)[0]["id"].(string)
		d1 := f.post("/v1/end_users/every/disputes", `{"item": {"type": "paystub", "id": "`+stubID+`", "field": "net_pay_amount"}, "note": "Net pay is wrong."}`).data(t)["id"].(string)
		f.post("/v1/end_users/every/disputes/"+d1+"/information", `{"note": "Here is my bank statement."}`)
		f.post("/v1/end_users/every/disputes", `{"item": {"type": "report_field", "report_type": "voie", "field": "projected_annual_income"}, "note": "Too low."}`)
		waitFor(t, "the dispute's notice acknowledged", func() bool { return f.get("/v1/disputes/" + d1).data(t)["furnisher_notified_at"] != nil })
		c.run(t, f, `mutation ($id: ID!) { disputeInvestigate(input: {id: $id, clientMutationId: "di"}) { dispute { id status }
			userErrors { field code } clientMutationId } }`, map[string]any{"id": d1})
		c.run(t, f, `mutation ($id: ID!) { disputeResolve(input: {id: $id, outcome: corrected, reason: "Corrected at the source.", clientMutationId: "dr"}) {
			dispute { id status } userErrors { field code } clientMutationId } }`, map[string]any{"id": d1})
		const disputeFields = `id endUserId status outcome reason note documentId receivedAt dueAt extendedAt overdue furnisherNotifiedAt resolvedAt
			item { type id field reportType accountId } furnisherNotice { status route dueAt notifiedAt reference reason }
			steps { status outcome by at reason } information { note documentId at }`
		dq := c.run(t, f, `query ($id: ID!) { dispute(id: $id) { `+disputeFields+` }
			disputes(first: 1, endUserId: "every", overdue: false) { edges { cursor node { `+disputeFields+` } } nodes { id } pageInfo { endCursor } }
			open: disputes(first: 1, status: open) { nodes { id } } }`, map[string]any{"id": d1})
		c.run(t, f, `query ($c: String!) { a: disputes(first: 1, after: $c) { nodes { id } } b: disputes(last: 1, before: $c) { nodes { id } } }`,
			map[string]any{"c": at(dq, "disputes", "pageInfo", "endCursor")})

		c.check(t, map[string]string{
			"LinkOrder.accountId":                         "the order is not completed here (TestLinkOrderLifecycle completes one)",
			"Account.disconnectedBy":                      "no person takes consent back here (TestPortalLinks reads it valued)",
			"LinkOrderDelivery.failureReason":             "both messages were delivered",
			"LinkOrderCreatePayload.userErrors":           "the input is valid (TestLinkOrdersGraphQL has refusals)",
			"LinkOrderCancelPayload.userErrors":           "the cancel succeeds (TestLinkOrdersGraphQL has refusals)",
			"Dispute.documentId":                          "no document is sent with the disputes here",
			"DisputeInformation.documentId":               "the new information here is a note only",
			"DisputeInvestigatePayload.userErrors":        "the move is allowed (TestGraphQLDisputes has a refusal)",
			"DisputeResolvePayload.userErrors":            "the move is allowed (TestGraphQLDisputes has a refusal)",
			"Address.line2":                               "the sandbox writes one-line street addresses",
			"Employment.terminationDate":                  "user_good is employed",
			"ReportEmployment.terminationDate":            "user_good is employed",
			"Job.errorCode":                               "every job here succeeds",
			"Delivery.error":                              "a delivered event has no error",
			"Delivery.nextAttempt":                        "a delivered event has no next attempt",
			"JobAllocation.percentage":                    "the switch is by amount",
			"DepositAllocation.percentage":                "the sandbox's allocations are amounts and remainders",
			"Employer.logoUrl":                            "the sandbox directory has no logos",
			"Platform.logoUrl":                            "the sandbox directory has no logos",
			"LinkToken.features":                          "the tokens here name their jobs in required_jobs",
			"ReportCompleteness.identityConflicts":        "empty unless the accounts' identities disagree",
			"ReportCompleteness.identitySourceDocumentId": "Payline's own paystub layout prints no employee name (reports' TestReportOfUploadsSaysWhereFiguresCameFrom has one)",
			"ReportSource.reviewBases":                    "no upload here was reviewed (reports' TestReportOfUploadsSaysWhereFiguresCameFrom)",
			"AnnualW2.documentId":                         "the W-2s here are the accounts' own (reports' TestUploadedW2sFeedPriorYears uploads one)",
			"LinkToken.accountId":                         "a new token is not for On Demand Update",
			"LinkTokenCreatePayload.userErrors":           "no refusal here: TestGraphQLMutationPayloads has them",
			"WebhookCreatePayload.userErrors":             "no refusal here: TestGraphQLMutationPayloads has them",
			"WebhookUpdatePayload.userErrors":             "no refusal here: TestGraphQLMutationPayloads has them",
			"WebhookTestEventSendPayload.userErrors":      "no refusal here: TestGraphQLMutationPayloads has them",
			"AccountDisconnectPayload.userErrors":         "no refusal here: TestGraphQLMutationPayloads has them",
			"AccountMonitoringDisablePayload.userErrors":  "no refusal here: TestGraphQLMutationPayloads has them",
			"VerificationReportRefreshPayload.userErrors": "no refusal here: TestGraphQLMutationPayloads has them",
			"DocumentReviewSubmitPayload.userErrors":      "no refusal here: TestGraphQLDocumentReviews has them",
		})
	})
}
