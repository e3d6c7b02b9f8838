package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// disputeEvents are the dispute events the receiver got, in order, with
// their dispute ids.
func disputeEvents(t *testing.T, rcv *receiver) []string {
	t.Helper()
	var out []string
	for _, d := range rcv.deliveries() {
		var body struct {
			Event   string         `json:"event"`
			Payload map[string]any `json:"payload"`
		}
		if err := json.Unmarshal(d.body, &body); err != nil {
			t.Fatal(err)
		}
		if d.header.Get("x-service-signature") == "" {
			t.Errorf("%s delivered unsigned", body.Event)
		}
		out = append(out, fmt.Sprintf("%s %v", body.Event, body.Payload["dispute_id"]))
	}
	return out
}

func hasEvent(events []string, want string) bool {
	for _, e := range events {
		if e == want {
			return true
		}
	}
	return false
}

// TestDisputesAPI goes through the customer's dispute API on both
// databases, against the OpenAPI document: a dispute filed on the
// person's behalf is received now and due in 30 days; the sandbox, the
// source of the paystub, acknowledges the River job's notice
// (furnisher_notified_at); dispute.opened arrives signed; the list
// filters by end user and status; resolving before investigating is
// refused; investigate then resolve with a reason sends
// dispute.resolved; another customer's key answers 404 for the id; a
// dispute left past its due time is listed as overdue and the periodic
// sweep sends dispute.overdue once.
func TestDisputesAPI(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile, s.disputeSweep = rcv.caFile, 100*time.Millisecond })
		f.createWebhook(rcv.srv.URL+"/hooks", `"dispute.opened", "dispute.resolved", "dispute.overdue"`)
		acct, _ := f.connectWithJobs("dispute-user", "paystubs")
		stubs := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)
		if len(stubs) != 1 {
			t.Fatalf("paystubs: %v", stubs)
		}
		stubID := stubs[0]["id"].(string)

		res := f.post("/v1/end_users/dispute-user/disputes", fmt.Sprintf(`{"item": {"type": "paystub", "id": %q, "field": "net_pay_amount"},
			"note": "My net pay was $1,912.40."}`, stubID))
		if res.status != http.StatusCreated {
			t.Fatalf("open: %d %s", res.status, res.raw)
		}
		d := res.data(t)
		id := d["id"].(string)
		received, _ := time.Parse(time.RFC3339, d["received_at"].(string))
		due, _ := time.Parse(time.RFC3339, d["due_at"].(string))
		if d["status"] != "open" || !due.Equal(received.AddDate(0, 0, 30)) || d["item"].(map[string]any)["account_id"] != acct ||
			d["steps"].([]any)[0].(map[string]any)["by"] != "key:"+f.key.ID {
			t.Errorf("opened: %s", res.raw)
		}
		waitFor(t, "the sandbox to acknowledge the notice", func() bool {
			return f.get("/v1/disputes/" + id).data(t)["furnisher_notified_at"] != nil
		})
		notice := f.get("/v1/disputes/" + id).data(t)["furnisher_notice"].(map[string]any)
		if notice["status"] != "acknowledged" || notice["reference"] != "sandbox-dispute-"+id || notice["route"] != "sandbox" {
			t.Errorf("notice: %v", notice)
		}
		waitFor(t, "dispute.opened", func() bool { return hasEvent(disputeEvents(t, rcv), "dispute.opened "+id) })

		if list := f.get("/v1/disputes?end_user_id=dispute-user&status=open").list(t); len(list) != 1 || list[0]["id"] != id {
			t.Errorf("open disputes of the end user: %v", list)
		}
		if list := f.get("/v1/disputes?status=resolved").list(t); len(list) != 0 {
			t.Errorf("resolved disputes: %v", list)
		}
		f.post("/v1/disputes/"+id+"/resolve", `{"outcome": "corrected", "reason": "fixed"}`).wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeDisputeStatusConflict)
		f.post("/v1/disputes/"+id+"/resolve", `{"outcome": "fixed", "reason": "x"}`).wantError(t, 400, "INVALID_REQUEST_PARAMETERS", domain.CodeInvalidFields)

		other, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		f.get("/v1/disputes/"+id, "x-api-secret", other.Secret).wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDisputeNotFound)
		f.post("/v1/disputes/"+id+"/investigate", `{}`, "x-api-secret", other.Secret).wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDisputeNotFound)
		if list := f.get("/v1/disputes", "x-api-secret", other.Secret).list(t); len(list) != 0 {
			t.Errorf("another customer lists %d disputes", len(list))
		}
		f.post("/v1/end_users/dispute-user/disputes", fmt.Sprintf(`{"item": {"type": "paystub", "id": %q}, "note": "x"}`, stubID),
			"x-api-secret", other.Secret).wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDisputeItemNotFound)
		f.get("/v1/disputes/"+domain.NewID()).wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeDisputeNotFound)

		if inv := f.post("/v1/disputes/"+id+"/investigate", `{}`); inv.status != 200 || inv.data(t)["status"] != "investigating" {
			t.Fatalf("investigate: %d %s", inv.status, inv.raw)
		}
		resolved := f.post("/v1/disputes/"+id+"/resolve", `{"outcome": "corrected", "reason": "The employer sent a corrected stub."}`)
		if resolved.status != 200 {
			t.Fatalf("resolve: %d %s", resolved.status, resolved.raw)
		}
		r := resolved.data(t)
		if r["status"] != "resolved" || r["outcome"] != "corrected" || r["resolved_at"] == nil || len(r["steps"].([]any)) != 3 {
			t.Errorf("resolved: %s", resolved.raw)
		}
		waitFor(t, "dispute.resolved", func() bool { return hasEvent(disputeEvents(t, rcv), "dispute.resolved "+id) })

		// A second dispute left unresolved past its 30 days.
		late := f.post("/v1/end_users/dispute-user/disputes", fmt.Sprintf(`{"item": {"type": "employment", "id": %q}, "note": "I left in May."}`, acct)).data(t)
		lateID := late["id"].(string)
		if list := f.get("/v1/disputes?overdue=true").list(t); len(list) != 0 {
			t.Errorf("overdue before the due time: %v", list)
		}
		f.clock.advance(30*24*time.Hour + time.Minute)
		waitFor(t, "dispute.overdue", func() bool { return hasEvent(disputeEvents(t, rcv), "dispute.overdue "+lateID) })
		over := f.get("/v1/disputes?overdue=true").list(t)
		if len(over) != 1 || over[0]["id"] != lateID || over[0]["overdue"] != true {
			t.Errorf("overdue list: %v", over)
		}
		n := 0
		for _, e := range disputeEvents(t, rcv) {
			if e == "dispute.overdue "+lateID {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%d dispute.overdue deliveries, want 1", n)
		}
	})
}

// TestGraphQLDisputes: the disputes connection and the mutations are
// thin over the same service, on both databases: the list filters by
// status and end user with the clocks and the notice; resolving an open
// dispute is a user error naming the conflict; investigate then resolve;
// another customer reads null for the id and an empty list.
func TestGraphQLDisputes(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, _ := f.connectWithJobs("gql-dispute-user", "employment")
		id := f.post("/v1/end_users/gql-dispute-user/disputes", fmt.Sprintf(`{"item": {"type": "employment", "id": %q}, "note": "I never worked there."}`, acct)).data(t)["id"].(string)

		const list = `query($user: String) { disputes(first: 10, endUserId: $user, status: open) {
			nodes { id endUserId status receivedAt dueAt overdue note information { note documentId at }
				item { type id accountId field } furnisherNotice { status dueAt } steps { status by at } }
			pageInfo { hasNextPage } } }`
		nodes := f.gql(list, map[string]any{"user": "gql-dispute-user"}).ok(t)["disputes"].(map[string]any)["nodes"].([]any)
		if len(nodes) != 1 {
			t.Fatalf("disputes: %v", nodes)
		}
		n := nodes[0].(map[string]any)
		item := n["item"].(map[string]any)
		if n["id"] != id || n["status"] != "open" || n["overdue"] != false || item["accountId"] != acct || item["field"] != nil ||
			n["note"] != "I never worked there." || len(n["information"].([]any)) != 0 {
			t.Errorf("node: %v", n)
		}
		if other := f.gql(list, map[string]any{"user": "someone-else"}).ok(t)["disputes"].(map[string]any)["nodes"].([]any); len(other) != 0 {
			t.Errorf("another end user's disputes: %v", other)
		}

		const resolve = `mutation($id: ID!) { disputeResolve(input: {id: $id, outcome: verified, reason: "The employer confirmed the dates."}) {
			dispute { status outcome reason resolvedAt steps { status outcome by reason } } userErrors { code field message } } }`
		refused := f.gql(resolve, map[string]any{"id": id}).ok(t)["disputeResolve"].(map[string]any)
		if errs := refused["userErrors"].([]any); len(errs) != 1 || errs[0].(map[string]any)["code"] != domain.CodeDisputeStatusConflict || refused["dispute"] != nil {
			t.Errorf("resolving an open dispute: %v", refused)
		}
		inv := f.gql(`mutation($id: ID!) { disputeInvestigate(input: {id: $id}) { dispute { status } userErrors { code } } }`, map[string]any{"id": id}).ok(t)
		if inv["disputeInvestigate"].(map[string]any)["dispute"].(map[string]any)["status"] != "investigating" {
			t.Fatalf("investigate: %v", inv)
		}
		done := f.gql(resolve, map[string]any{"id": id}).ok(t)["disputeResolve"].(map[string]any)
		d := done["dispute"].(map[string]any)
		if d["status"] != "resolved" || d["outcome"] != "verified" || d["reason"] != "The employer confirmed the dates." || d["resolvedAt"] == nil ||
			len(d["steps"].([]any)) != 3 {
			t.Errorf("resolved: %v", done)
		}

		other, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.gql(`query($id: ID!) { dispute(id: $id) { id } }`, map[string]any{"id": id}, "x-api-secret", other.Secret).ok(t); got["dispute"] != nil {
			t.Errorf("another customer reads %v", got)
		}
		if got := f.gql(`{ disputes { nodes { id } } }`, nil, "x-api-secret", other.Secret).ok(t)["disputes"].(map[string]any)["nodes"].([]any); len(got) != 0 {
			t.Errorf("another customer lists %v", got)
		}
	})
}

// TestReportNotesOpenDisputes, on both databases: a VOIE built while the
// person disputes a paystub's net pay and their employment says so next
// to each item (the paystub's row marked †, with the dispute's clock
// under the table; the employer's "Disputed" line) and under Points to
// review, read back from the PDF with pdftotext, and its JSON carries
// ITEM_DISPUTED flags; once the disputes are resolved the next report
// is rebuilt without them.
func TestReportNotesOpenDisputes(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext is not installed (poppler-utils): the report cannot be read back")
	}
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct := f.connectAs("disputing-borrower", p, sandbox.UserGood, reportJobs...)
		before := f.get("/v1/end_users/disputing-borrower/verification_reports/voie").data(t)
		stub := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)[0]
		paid, err := time.Parse(time.DateOnly, stub["pay_date"].(string))
		if err != nil {
			t.Fatal(err)
		}
		net := f.post("/v1/end_users/disputing-borrower/disputes", fmt.Sprintf(`{"item": {"type": "paystub", "id": %q, "field": "net_pay_amount"},
			"note": "My net pay was higher."}`, stub["id"])).data(t)
		emp := f.post("/v1/end_users/disputing-borrower/disputes", fmt.Sprintf(`{"item": {"type": "employment", "id": %q}, "note": "I left in May."}`, acct)).data(t)

		voie := f.get("/v1/end_users/disputing-borrower/verification_reports/voie").data(t)
		if voie["version"] == before["version"] {
			t.Fatalf("a dispute opened did not rebuild the report (version %v)", voie["version"])
		}
		var flags int
		for _, fl := range voie["flags"].([]any) {
			if fl := fl.(map[string]any); fl["code"] == domain.FlagItemDisputed && fl["employment"] == acct {
				flags++
			}
		}
		if flags != 2 {
			t.Errorf("%d ITEM_DISPUTED flags, want 2: %v", flags, voie["flags"])
		}
		received, _ := time.Parse(time.RFC3339, net["received_at"].(string))
		due, _ := time.Parse(time.RFC3339, emp["due_at"].(string))
		clock := fmt.Sprintf("received %s, reinvestigation due %s", received.Format("Jan 2, 2006"), due.Format("Jan 2, 2006"))
		_, pdf := fetch(t, "GET", voie["document"].(map[string]any)["download_url"].(string))
		checkReportPDF(t, pdf, "Points to review", "Disputed by the person",
			"The person disputes the net pay of the paystub paid "+paid.Format("Jan 2, 2006")+" ("+clock+")",
			"The person disputes this employment ("+clock+")",
			paid.Format("Jan 2, 2006")+" "+stubPeriod(t, stub)+" †",
			"† Disputed: the person disputes the net pay of the paystub paid "+paid.Format("Jan 2, 2006")+" ("+clock+").",
			"Disputed the person disputes this employment ("+clock+")")

		for _, id := range []string{net["id"].(string), emp["id"].(string)} {
			f.post("/v1/disputes/"+id+"/investigate", `{}`)
			if res := f.post("/v1/disputes/"+id+"/resolve", `{"outcome": "verified", "reason": "The employer confirmed it."}`); res.status != 200 {
				t.Fatalf("resolve: %d %s", res.status, res.raw)
			}
		}
		after := f.get("/v1/end_users/disputing-borrower/verification_reports/voie").data(t)
		for _, fl := range after["flags"].([]any) {
			if fl.(map[string]any)["code"] == domain.FlagItemDisputed {
				t.Errorf("a resolved dispute still flagged: %v", fl)
			}
		}
		_, pdf = fetch(t, "GET", after["document"].(map[string]any)["download_url"].(string))
		out, err := pdfText(pdf)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "Disputed") || strings.Contains(out, "†") {
			t.Errorf("the report built after the disputes were resolved still notes them")
		}
	})
}

// stubPeriod is a paystub's period as the report's table prints it.
func stubPeriod(t *testing.T, stub map[string]any) string {
	t.Helper()
	from, err1 := time.Parse(time.DateOnly, stub["pay_period_start"].(string))
	to, err2 := time.Parse(time.DateOnly, stub["pay_period_end"].(string))
	if err1 != nil || err2 != nil {
		t.Fatalf("the paystub's period: %v %v", err1, err2)
	}
	return from.Format("Jan 2") + " – " + to.Format("Jan 2")
}

// pdfText is a PDF's text through pdftotext, its spacing collapsed.
func pdfText(pdf []byte) (string, error) {
	cmd := exec.Command("pdftotext", "-layout", "-", "-")
	cmd.Stdin = bytes.NewReader(pdf)
	out, err := cmd.Output()
	return strings.Join(strings.Fields(string(out)), " "), err
}
