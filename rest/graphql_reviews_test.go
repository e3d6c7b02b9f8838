package rest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

const reviewQueueQuery = `query($f: DocumentReviewFilter) { documentReviews(first: 10, filter: $f) {
	nodes { id endUserId fileName documentType fraud { status reasons { code } }
		review { status outcome reviewedAt reviewerId basis note corrections { field before after } }
		readings { field page box confidence source }
		fields { name kind value reasons { code message } reading { page box confidence } } }
	pageInfo { hasNextPage } } }`

const reviewSubmit = `mutation($i: DocumentReviewSubmitInput!) { documentReviewSubmit(input: $i) {
	document { id review { status outcome basis corrections { field before after } } fields { name value } }
	userErrors { field message code } clientMutationId } }`

// TestGraphQLDocumentReviews is the review queue over GraphQL: the
// documentReviews connection with each document's review, readings and
// correctable fields (each with the reasons naming it); the
// documentReviewSubmit mutation refuses an API secret (it names no
// member) and a viewer, lets a reviewer review and nothing else, reports
// a bad correction in userErrors pointing at the input element, records
// the review once; another customer's queue is empty.
func TestGraphQLDocumentReviews(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "rita@acme.test", domain.RoleReviewer)
		f.addMember("acme", "vic@acme.test", domain.RoleViewer)
		id := f.uploadForReview("gql-user")["id"].(string)

		data := f.gql(reviewQueueQuery, nil).ok(t)
		nodes := data["documentReviews"].(map[string]any)["nodes"].([]any)
		if len(nodes) != 1 {
			t.Fatalf("the queue: %v", nodes)
		}
		doc := nodes[0].(map[string]any)
		if doc["id"] != id || doc["endUserId"] != "gql-user" || doc["fileName"] != "march-24.pdf" || doc["documentType"] != "paystub" {
			t.Errorf("the queued document: %v", doc)
		}
		if r := doc["review"].(map[string]any); r["status"] != "required" || r["outcome"] != nil || len(r["corrections"].([]any)) != 0 {
			t.Errorf("review %v", r)
		}
		fields := map[string]map[string]any{}
		for _, x := range doc["fields"].([]any) {
			fields[x.(map[string]any)["name"].(string)] = x.(map[string]any)
		}
		if len(fields) != len(domain.CorrectableFields(domain.DocumentPaystub)) {
			t.Errorf("fields %v", doc["fields"])
		}
		if net := fields["net_pay_amount"]; net["value"] != "2222.98" || net["kind"] != "amount" {
			t.Errorf("net pay as read: %v", net)
		}
		if pd := fields["pay_date"]; pd["value"] != "2026-03-24" || pd["kind"] != "date" {
			t.Errorf("pay date as read: %v", pd)
		}
		named := false
		for _, x := range fields {
			for _, r := range x["reasons"].([]any) {
				named = named || r.(map[string]any)["code"] == domain.FraudArithmeticMismatch
			}
		}
		if !named {
			t.Errorf("no field is named by the arithmetic's reason: %v", doc["fields"])
		}
		for _, rd := range doc["readings"].([]any) {
			r := rd.(map[string]any)
			if box := r["box"].([]any); len(box) != 4 || r["page"] != float64(1) {
				t.Errorf("reading %v", r)
			}
		}
		if data := f.gql(reviewQueueQuery, map[string]any{"f": map[string]any{"statuses": []string{"completed"}}}).ok(t); len(data["documentReviews"].(map[string]any)["nodes"].([]any)) != 0 {
			t.Errorf("completed reviews before any: %v", data)
		}

		accept := map[string]any{"i": map[string]any{"documentId": id, "outcome": "accepted", "clientMutationId": "m1",
			"corrections": []any{map[string]any{"field": "net_pay_amount", "value": "1,972.98"}}, "note": "checked"}}
		// An API secret names no member; a viewer may not review; a
		// reviewer may do nothing else. Members come with the dashboard's
		// cookie.
		if c := f.gql(reviewSubmit, accept).code(t); c != domain.CodeMissingAdminToken {
			t.Errorf("an API secret's review: %s", c)
		}
		vic := []string{"x-api-secret", "", "Cookie", f.dashboardCookie("vic@acme.test")}
		if c := f.gql(reviewSubmit, accept, vic...).code(t); c != domain.CodeRoleForbidden {
			t.Errorf("a viewer's review: %s", c)
		}
		rita := []string{"x-api-secret", "", "Cookie", f.dashboardCookie("rita@acme.test")}
		other := f.gqlAs(`mutation { linkTokenCreate(input: {orgName: "Acme Bank", endUserId: "x"}) { token userErrors { code } } }`, rita...)
		if other.status != 403 || len(other.Errors) == 0 || other.Errors[0].Extensions["code"] != domain.CodeRoleForbidden {
			t.Errorf("a reviewer creating a link token: %d %s", other.status, other.raw)
		}
		both := f.gqlAs(`mutation { documentReviewSubmit(input: {documentId: "`+id+`", outcome: accepted}) { userErrors { code } }
			linkTokenCreate(input: {orgName: "Acme Bank", endUserId: "x"}) { token userErrors { code } } }`, rita...)
		if both.status != 403 {
			t.Errorf("a review beside another mutation: %d %s", both.status, both.raw)
		}

		// A bad correction points at its element of the input.
		bad := map[string]any{"i": map[string]any{"documentId": id, "outcome": "accepted",
			"corrections": []any{map[string]any{"field": "pay_date", "value": "2026-03-24"}, map[string]any{"field": "net_pay_amount", "value": "12.345"}}}}
		payload := f.gql(reviewSubmit, bad, rita...).ok(t)["documentReviewSubmit"].(map[string]any)
		errs := payload["userErrors"].([]any)
		if payload["document"] != nil || len(errs) != 1 {
			t.Fatalf("a bad correction: %v", payload)
		}
		if e := errs[0].(map[string]any); e["code"] != domain.CodeInvalidFields || strings.Join(strs(e["field"]), ".") != "input.corrections.1.value" ||
			!strings.Contains(e["message"].(string), "two decimal places") {
			t.Errorf("the refusal: %v", e)
		}

		payload = f.gql(reviewSubmit, accept, rita...).ok(t)["documentReviewSubmit"].(map[string]any)
		if len(payload["userErrors"].([]any)) != 0 || payload["clientMutationId"] != "m1" {
			t.Fatalf("the review: %v", payload)
		}
		reviewed := payload["document"].(map[string]any)
		r := reviewed["review"].(map[string]any)
		if r["status"] != "completed" || r["outcome"] != "accepted" || r["basis"] != "reviewed by a member of acme" {
			t.Errorf("review %v", r)
		}
		if c := r["corrections"].([]any); len(c) != 1 || c[0].(map[string]any)["after"] != "197298" {
			t.Errorf("corrections %v", c)
		}
		for _, x := range reviewed["fields"].([]any) {
			if x := x.(map[string]any); x["name"] == "net_pay_amount" && x["value"] != "1972.98" {
				t.Errorf("the net pay after the review: %v", x)
			}
		}
		again := f.gql(reviewSubmit, accept, rita...).ok(t)["documentReviewSubmit"].(map[string]any)
		if errs := again["userErrors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["code"] != domain.CodeDocumentAlreadyReviewed {
			t.Errorf("a second review: %v", again)
		}
		done := f.gql(reviewQueueQuery, map[string]any{"f": map[string]any{"statuses": []string{"completed"}, "endUserId": "gql-user"}}).ok(t)
		if nodes := done["documentReviews"].(map[string]any)["nodes"].([]any); len(nodes) != 1 {
			t.Errorf("completed reviews: %v", nodes)
		}

		// Another customer's queue is empty, and it cannot review.
		globex, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		all := map[string]any{"f": map[string]any{"statuses": []string{"required", "completed"}}}
		if nodes := f.gql(reviewQueueQuery, all, "x-api-secret", globex.Secret).ok(t)["documentReviews"].(map[string]any)["nodes"].([]any); len(nodes) != 0 {
			t.Errorf("another customer's queue: %v", nodes)
		}
		f.addMember("globex", "gus@globex.test", domain.RoleAdministrator)
		gus := []string{"x-api-secret", "", "Cookie", f.dashboardCookie("gus@globex.test")}
		theirs := f.gql(reviewSubmit, accept, gus...).ok(t)["documentReviewSubmit"].(map[string]any)
		if errs := theirs["userErrors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["code"] != domain.CodeDocumentNotFound {
			t.Errorf("another customer's review: %v", theirs)
		}
	})
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return slices.Clip(out)
}
