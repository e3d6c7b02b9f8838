package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// connectWithJobs logs a user_good account in with the given jobs and
// waits for them; it returns the account id and link token id.
func (f *fixture) connectWithJobs(endUser string, jobs ...string) (string, string) {
	f.t.Helper()
	p := switchPlatform(f.t)
	body := fmt.Sprintf(`{"org_name": "Acme", "end_user_id": %q, "required_jobs": ["%s"]}`, endUser, strings.Join(jobs, `", "`))
	tokenID, token := f.createToken(body)
	acct := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(f.t)["account_id"].(string)
	f.waitJobs(tokenID, len(jobs))
	return acct, tokenID
}

func TestDataProducts(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, _ := f.connectWithJobs("data-user", "identity", "employment", "income", "paystubs", "direct_deposit_allocations")
		a := f.get("/v1/accounts/" + acct).data(t)
		for _, product := range []string{"identity", "employment", "income", "direct_deposit_allocations", "paystubs"} {
			if a["data_updated_at"].(map[string]any)[product] == nil || a["data_refreshed_at"].(map[string]any)[product] == nil {
				t.Errorf("account data times lack %s: %v", product, a)
			}
		}
		person := sandbox.NewPerson(domain.Account{ID: acct, CustomerID: f.key.CustomerID, EndUserID: "data-user"})
		id := f.get("/v1/accounts/" + acct + "/identity")
		data := id.data(t)
		if data["full_name"] != person.Identity().FullName || data["account_id"] != acct || !domain.ValidID(data["id"].(string)) ||
			id.meta(t)["refreshed_at"] == nil {
			t.Errorf("identity %s", id.raw)
		}
		emp := f.get("/v1/accounts/" + acct + "/employment").data(t)
		// Connected through a platform, the job is at an employer the
		// platform serves, never the platform itself.
		platform := switchPlatform(t)
		employer := sandbox.NewPerson(domain.Account{ID: acct, CustomerID: f.key.CustomerID, EndUserID: "data-user", PlatformID: platform.ID,
			EmployerName: platform.Name}).Employment().EmployerName
		if emp["status"] != "employed" || emp["employer_name"] != employer || employer == platform.Name || emp["termination_date"] != nil {
			t.Errorf("employment %v", emp)
		}
		inc := f.get("/v1/accounts/" + acct + "/income").data(t)
		if inc["currency"] != "USD" || inc["compensation_amount"].(float64) <= 0 || inc["pay_frequency"] != person.Frequency {
			t.Errorf("income %v", inc)
		}
		alloc := f.get("/v1/accounts/" + acct + "/direct_deposit_allocations").data(t)
		lines := alloc["allocations"].([]any)
		if len(lines) != 1 || lines[0].(map[string]any)["allocation_type"] != "remainder" ||
			!strings.HasPrefix(lines[0].(map[string]any)["masked_account_number"].(string), "XXXXXX") {
			t.Errorf("allocations %v", alloc)
		}

		// Paystubs: newest first, paged, filtered; one by id.
		first := f.get("/v1/accounts/" + acct + "/paystubs?limit=5")
		stubs := first.list(t)
		if len(stubs) != 5 || first.meta(t)["next_cursor"] == nil || first.meta(t)["refreshed_at"] == nil {
			t.Fatalf("first page %s", first.raw)
		}
		all := f.allPages("/v1/accounts/" + acct + "/paystubs?limit=50")
		if len(all) < 20 {
			t.Fatalf("only %d paystubs for two years", len(all))
		}
		for i := 1; i < len(all); i++ {
			if all[i]["pay_date"].(string) >= all[i-1]["pay_date"].(string) {
				t.Fatalf("paystubs not newest first at %d", i)
			}
		}
		for _, s := range all {
			if s["net_pay_amount"].(float64) != s["gross_pay_amount"].(float64)-s["total_taxes"].(float64)-s["total_deductions"].(float64) {
				t.Fatalf("stub %v does not add up", s["pay_date"])
			}
		}
		from := all[3]["pay_date"].(string)
		if got := f.get("/v1/accounts/" + acct + "/paystubs?limit=100&from_pay_date=" + from).list(t); len(got) != 4 {
			t.Errorf("from_pay_date=%s: %d stubs, want 4", from, len(got))
		}
		one := f.get("/v1/accounts/" + acct + "/paystubs/" + all[0]["id"].(string)).data(t)
		if one["pay_date"] != all[0]["pay_date"] {
			t.Errorf("single paystub %v", one)
		}

		for _, tc := range []struct {
			path   string
			status int
			typ    string
			code   string
		}{
			{"/v1/accounts/" + domain.NewID() + "/income", 404, typeNotFound, domain.CodeAccountNotFound},
			{"/v1/accounts/nope/income", 400, typeInvalid, domain.CodeInvalidFields},
			{"/v1/accounts/" + acct + "/paystubs/" + domain.NewID(), 404, typeNotFound, "PAYSTUB_NOT_FOUND"},
			{"/v1/accounts/" + acct + "/paystubs?from_pay_date=yesterday", 400, typeInvalid, domain.CodeInvalidFields},
			{"/v1/accounts/" + acct + "/paystubs?limit=0", 400, typeInvalid, domain.CodeInvalidFields},
		} {
			f.get(tc.path).wantError(t, tc.status, tc.typ, tc.code)
		}

		// A product no job has produced names the job that would.
		bare, _ := f.connectWithJobs("bare-user", "income")
		res := f.get("/v1/accounts/" + bare + "/paystubs")
		res.wantError(t, 404, typeNotFound, domain.CodeProductNotFound)
		if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "paystubs job") {
			t.Errorf("message %q", msg)
		}
		f.get("/v1/accounts/"+bare+"/identity").wantError(t, 404, typeNotFound, domain.CodeProductNotFound)

		// Another customer reads none of it.
		other, _ := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		f.get("/v1/accounts/"+acct+"/identity", "x-api-secret", other.Secret).wantError(t, 404, typeNotFound, domain.CodeAccountNotFound)
		f.get("/v1/accounts/"+acct+"/paystubs", "x-api-secret", other.Secret).wantError(t, 404, typeNotFound, domain.CodeAccountNotFound)
	})
}

// TestAllocationsReflectSwitches: a partial amount switch adds a line
// before the remainder; a full switch replaces everything.
func TestAllocationsReflectSwitches(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "alloc", "required_jobs": ["direct_deposit_switch", "direct_deposit_allocations"],
			"allocation": {"targets": [{"name": "Rainy Day", "type": "savings", "account_number": "99887766", "routing_number": "` + goodRouting + `"}]}}`)
		amount := float64(*p.MinAmount)/100 + 25
		acct := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood,
			fmt.Sprintf(`, "allocation": {"action": "partial_switch", "type": "amount", "value": %v}`, amount))).data(t)["account_id"].(string)
		f.waitJobs(tokenID, 2)
		waitFor(t, "allocations with the switch", func() bool {
			res := f.get("/v1/accounts/" + acct + "/direct_deposit_allocations")
			return res.status == 200 && len(res.data(t)["allocations"].([]any)) == 2
		})
		lines := f.get("/v1/accounts/" + acct + "/direct_deposit_allocations").data(t)["allocations"].([]any)
		first, last := lines[0].(map[string]any), lines[1].(map[string]any)
		if first["allocation_type"] != "amount" || first["amount"] != amount*100 || first["masked_account_number"] != "XXXXXX7766" ||
			first["account_name"] != "Rainy Day" || first["priority"] != float64(1) || first["routing_number"] != goodRouting {
			t.Errorf("switched line %v", first)
		}
		if last["allocation_type"] != "remainder" || last["priority"] != float64(2) {
			t.Errorf("remainder line %v", last)
		}
		if strings.Contains(fmt.Sprint(lines), "99887766") {
			t.Error("the full account number leaks")
		}
	})
}

func TestDisconnectAndDisableMonitoring(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, _ := f.connectWithJobs("lifecycle", "income")
		res := f.request("POST", "/v1/accounts/"+acct+"/disable_monitoring", nil)
		if res.status != 204 || len(res.raw) != 0 {
			t.Fatalf("disable_monitoring: %d %s", res.status, res.raw)
		}
		if a := f.get("/v1/accounts/" + acct).data(t); a["monitoring_status"] != "customer_disabled" || a["connected"] != true {
			t.Errorf("after disable_monitoring %v", a)
		}
		if res := f.request("POST", "/v1/accounts/"+acct+"/disconnect", nil); res.status != 204 {
			t.Fatalf("disconnect: %d %s", res.status, res.raw)
		}
		a := f.get("/v1/accounts/" + acct).data(t)
		if a["connected"] != false || a["monitoring_status"] != "unavailable" {
			t.Errorf("after disconnect %v", a)
		}
		if res := f.request("POST", "/v1/accounts/"+acct+"/disconnect", nil); res.status != 204 {
			t.Errorf("disconnecting again: %d", res.status)
		}
		// Earlier data stays readable; the account cannot be updated any more.
		if res := f.get("/v1/accounts/" + acct + "/income"); res.status != 200 {
			t.Errorf("income after disconnect: %d", res.status)
		}
		res = f.post("/v1/link_tokens", `{"org_name": "Acme", "account_id": "`+acct+`"}`)
		res.wantError(t, 400, typeInvalid, domain.CodeAccountDisconnected)
		if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "disconnected") {
			t.Errorf("message %q", msg)
		}
		if got := f.get("/v1/accounts?connected=false").list(t); len(got) != 1 || got[0]["id"] != acct {
			t.Errorf("connected=false %v", got)
		}
		if n := f.countEvents("account.monitoring_status.updated"); n != 2 {
			t.Errorf("%d account.monitoring_status.updated events, want 2", n)
		}
		f.request("POST", "/v1/accounts/"+domain.NewID()+"/disconnect", nil).wantError(t, 404, typeNotFound, domain.CodeAccountNotFound)
	})
}

// TestMonitoringAddsPaystubs: as pay dates pass (a moved clock), a refresh
// stores the new paystubs with a paystubs.added event, for monitored
// accounts only; the refresh job is not listed by GET /jobs.
func TestMonitoringAddsPaystubs(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		live, _ := f.connectWithJobs("live", "paystubs")
		disabled, _ := f.connectWithJobs("disabled", "paystubs")
		gone, _ := f.connectWithJobs("gone", "paystubs")
		f.request("POST", "/v1/accounts/"+disabled+"/disable_monitoring", nil)
		f.request("POST", "/v1/accounts/"+gone+"/disconnect", nil)
		count := func(acct string) int { return len(f.allPages("/v1/accounts/" + acct + "/paystubs?limit=100")) }
		before := map[string]int{live: count(live), disabled: count(disabled), gone: count(gone)}
		updatedBefore := f.get("/v1/accounts/" + live).data(t)["data_updated_at"].(map[string]any)["paystubs"]
		jobsBefore := len(f.get("/v1/jobs?limit=100").list(t))
		eventsBefore := f.countEvents("paystubs.added")
		payoutsBefore := f.countEvents("earnings_stream.payouts.refreshed")

		// Nothing new yet: a refresh only moves data_refreshed_at.
		f.refreshMonitored()
		if count(live) != before[live] || f.countEvents("paystubs.added") != eventsBefore ||
			f.countEvents("earnings_stream.payouts.refreshed") != payoutsBefore {
			t.Fatal("a refresh with no new pay date added paystubs or moved the payouts")
		}

		f.clock.advance(45 * 24 * time.Hour) // at least one pay date passes on every schedule
		f.refreshMonitored()
		if count(live) <= before[live] {
			t.Errorf("no new paystub for the monitored account (%d before)", before[live])
		}
		if count(disabled) != before[disabled] || count(gone) != before[gone] {
			t.Error("a customer_disabled or disconnected account was refreshed")
		}
		if f.countEvents("paystubs.added") != eventsBefore+1 {
			t.Errorf("paystubs.added events %d, want %d", f.countEvents("paystubs.added"), eventsBefore+1)
		}
		// The live account's new paystubs move its end user's payouts.
		if f.countEvents("earnings_stream.payouts.refreshed") != payoutsBefore+1 {
			t.Errorf("earnings_stream.payouts.refreshed events %d, want %d", f.countEvents("earnings_stream.payouts.refreshed"), payoutsBefore+1)
		}
		a := f.get("/v1/accounts/" + live).data(t)
		if a["data_updated_at"].(map[string]any)["paystubs"] == updatedBefore {
			t.Error("data_updated_at.paystubs did not move")
		}
		if len(f.get("/v1/jobs?limit=100").list(t)) != jobsBefore {
			t.Error("GET /jobs lists the monitoring refresh")
		}
		newest := f.get("/v1/accounts/" + live + "/paystubs?limit=1").list(t)[0]
		if newest["pay_date"].(string) > f.clock.Now().Format(time.DateOnly) {
			t.Errorf("a paystub from the future: %v", newest["pay_date"])
		}
	})
}

// backfillConnector is the sandbox, whose paystub reads may also return
// a paystub a year older than any it returns.
type backfillConnector struct {
	domain.Connector
	backfill atomic.Bool
}

func (c *backfillConnector) Fetch(ctx context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	f, err := c.Connector.Fetch(ctx, r)
	if err != nil || r.Product != domain.ProductPaystubs || !c.backfill.Load() || len(f.Paystubs) == 0 {
		return f, err
	}
	old := f.Paystubs[0]
	for _, p := range f.Paystubs {
		if p.PayDate < old.PayDate {
			old = p
		}
	}
	old.ID = domain.NewID()
	old.PayDate = domain.DateOf(old.PayDateTime().AddDate(-1, 0, 0))
	f.Paystubs = append(f.Paystubs, old)
	return f, nil
}

// TestPayoutsRefreshedWhenTheEstimateMoves: earnings_stream.payouts.refreshed
// comes when stored paystubs move the end user's estimated payouts (the
// first read, a newer pay date found by monitoring) with the payload
// docs/webhooks.md gives, and not when a read (an On Demand Update) only
// fills in an older paystub, which leaves the estimate as it was.
func TestPayoutsRefreshedWhenTheEstimateMoves(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		c := &backfillConnector{}
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.wrapConnector = func(inner domain.Connector) domain.Connector { c.Connector = inner; return c }
		})
		const name = "earnings_stream.payouts.refreshed"
		live, _ := f.connectWithJobs("payee", "paystubs")
		count := func() int { return len(f.allPages("/v1/accounts/" + live + "/paystubs?limit=100")) }
		payouts := func() []map[string]any { return f.get("/v1/end_users/payee/earnings_stream/payouts").list(t) }
		if n := f.countEvents(name); n != 1 {
			t.Fatalf("%d %s events after the first paystubs read, want 1", n, name)
		}
		events, err := storage.NewTransactor(f.db, nil).ListEvents(context.Background(), f.key.Scope())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if e.Name != name {
				continue
			}
			var p map[string]any
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				t.Fatal(err)
			}
			if p["end_user_id"] != "payee" || p["account_id"] != live || p["refreshed_at"] == nil || p["updated_at"] == nil || len(p) != 4 {
				t.Errorf("payload %v", p)
			}
		}

		// An On Demand Update reads every paystub again, and here one more
		// from a year before the oldest.
		stubs, estimate := count(), fmt.Sprint(payouts())
		c.backfill.Store(true)
		oduID, odu := f.createToken(`{"org_name": "Acme", "account_id": "` + live + `", "required_jobs": ["paystubs"]}`)
		f.linkSession(`{"token": "` + odu + `", "username": "user_good", "password": "pass_good"}`).data(t)
		f.waitJobs(oduID, 1)
		if count() != stubs+1 {
			t.Fatalf("%d paystubs after a backfill, want %d", count(), stubs+1)
		}
		if fmt.Sprint(payouts()) != estimate {
			t.Fatal("an older paystub moved the estimate; the test's backfill no longer leaves it as it was")
		}
		if n := f.countEvents(name); n != 1 {
			t.Errorf("%d %s events after a read that only filled in an older paystub, want 1", n, name)
		}

		c.backfill.Store(false)
		f.clock.advance(45 * 24 * time.Hour) // a newer pay date passes
		f.refreshMonitored()
		if fmt.Sprint(payouts()) == estimate {
			t.Fatal("newer paystubs left the estimate as it was")
		}
		if n := f.countEvents(name); n != 2 {
			t.Errorf("%d %s events after newer paystubs, want 2", n, name)
		}
	})
}

func TestTaxFormsAndDocuments(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, _ := f.connectWithJobs("w2-user", "tax_forms", "paystubs")
		forms := f.get("/v1/accounts/" + acct + "/tax_forms")
		list := forms.list(t)
		if len(list) == 0 || forms.meta(t)["refreshed_at"] == nil {
			t.Fatalf("tax forms %s", forms.raw)
		}
		form := list[0]
		year := fmt.Sprint(form["year"])
		if form["form_type"] != "W-2" || form["account_id"] != acct || form["year"] != float64(f.clock.Now().Year()-1) || form["document"] != nil {
			t.Errorf("tax form %v: want form_type W-2, an integer year and no document link in the list", form)
		}
		// One form by id carries a signed link to its document.
		one := f.get("/v1/accounts/" + acct + "/tax_forms/" + form["id"].(string)).data(t)
		if d, _ := one["document"].(map[string]any); d == nil || d["id"] != form["document_id"] || !strings.HasPrefix(d["download_url"].(string), f.http.URL+"/files/") ||
			one["year"] != form["year"] || one["form_type"] != "W-2" {
			t.Errorf("GET one tax form: %v", one)
		}
		f.get("/v1/accounts/"+acct+"/tax_forms/"+domain.NewID()).wantError(t, 404, typeNotFound, domain.CodeTaxFormNotFound)
		f.get("/v1/accounts/"+acct+"/tax_forms/nope").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		// The W-2 agrees with the year's paystubs as the API serves them.
		var gross, pretax float64
		for _, s := range f.allPages("/v1/accounts/" + acct + "/paystubs?limit=100&from_pay_date=" + year + "-01-01") {
			if strings.HasPrefix(s["pay_date"].(string), year) {
				gross += s["gross_pay_amount"].(float64)
				pretax += s["total_deductions"].(float64)
			}
		}
		parsed := form["parsed_data"].(map[string]any)
		if parsed["social_security_wages"] != gross || parsed["total_wages"] != gross-pretax || parsed["tax_year"] != year {
			t.Errorf("W-2 %v vs paystubs: gross %v, pre-tax %v", parsed, gross, pretax)
		}

		docs := f.get("/v1/end_users/w2-user/documents").list(t)
		if len(docs) != len(list) {
			t.Fatalf("%d documents for %d tax forms", len(docs), len(list))
		}
		doc := f.get("/v1/end_users/w2-user/documents/" + form["document_id"].(string)).data(t)
		if doc["document_type"] != "w2" || doc["end_user_id"] != "w2-user" || doc["fraud"].(map[string]any)["status"] != "not_suspected" ||
			len(doc["warnings"].([]any)) != 0 || doc["parsed_data"].(map[string]any)["tax_year"] != year {
			t.Errorf("document %v", doc)
		}
		if d := doc["document"].(map[string]any); d["id"] != form["document_id"] || !strings.HasPrefix(d["download_url"].(string), f.http.URL+"/files/") {
			t.Errorf("document link %v", d)
		}
		if got := f.get("/v1/end_users/w2-user/documents?type=direct_deposit_form").list(t); len(got) != 0 {
			t.Errorf("type=direct_deposit_form returned %d", len(got))
		}
		f.get("/v1/end_users/w2-user/documents?type=selfie").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		f.get("/v1/end_users/nobody/documents").wantError(t, 404, typeNotFound, domain.CodeEndUserNotFound)
		f.get("/v1/end_users/w2-user/documents/not-a-uuid").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		f.connectWithJobs("someone-else", "income")
		f.get("/v1/end_users/someone-else/documents/"+form["document_id"].(string)).wantError(t, 404, typeNotFound, domain.CodeDocumentNotFound)
		other := f.get("/v1/end_users/someone-else/accounts").list(t)[0]["id"].(string)
		f.get("/v1/accounts/"+other+"/tax_forms/"+form["id"].(string)).wantError(t, 404, typeNotFound, domain.CodeTaxFormNotFound)
		f.get("/v1/accounts/"+acct+"/shifts").wantError(t, 404, typeNotFound, domain.CodeProductNotFound)
	})
}

func TestShifts(t *testing.T) {
	platforms, _ := sandbox.Directory(10)
	var ta domain.Platform
	for _, p := range platforms {
		if p.Type == domain.PlatformTimeAndAttendance {
			ta = p
			break
		}
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "shifty", "required_jobs": ["shifts"]}`)
		acct := f.linkSession(sessionBody(token, ta.ID, sandbox.UserGood, "")).data(t)["account_id"].(string)
		f.waitJobs(tokenID, 1)
		shifts := f.get("/v1/accounts/" + acct + "/shifts?limit=100").list(t)
		if len(shifts) < 15 {
			t.Fatalf("%d shifts in 30 days", len(shifts))
		}
		// Pages of five cover the same shifts once each.
		if paged := f.allPages("/v1/accounts/" + acct + "/shifts?limit=5"); len(paged) != len(shifts) {
			t.Errorf("paged through %d shifts, want %d", len(paged), len(shifts))
		}
		f.get("/v1/accounts/"+acct+"/shifts?cursor=bogus").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		for i, s := range shifts {
			// Pay is the worked minutes at the hourly rate, in whole cents
			// rounded half up, computed in integers.
			e := s["earnings"].([]any)[0].(map[string]any)
			ts := s["timestamps"].([]any)
			if len(ts) != 1 || s["type"] != "shift" || s["currency"] != "USD" {
				t.Fatalf("shift %v: want one period worked, type shift, currency USD", s)
			}
			start, err1 := time.Parse(time.RFC3339, ts[0].(map[string]any)["from"].(string))
			end, err2 := time.Parse(time.RFC3339, ts[0].(map[string]any)["to"].(string))
			if err1 != nil || err2 != nil || !end.After(start) {
				t.Fatalf("shift %v: from/to %v %v", s, err1, err2)
			}
			minutes, rate := int64(end.Sub(start)/time.Minute), int64(e["rate"].(float64))
			if want := (minutes*rate + 30) / 60; int64(e["amount"].(float64)) != want {
				t.Errorf("shift %v: amount %v, want %d for %d minutes at %d", s, e["amount"], want, minutes, rate)
			}
			if i > 0 && s["start_date"].(string) > shifts[i-1]["start_date"].(string) {
				t.Fatal("shifts not newest first")
			}
		}
	})
}

func TestEarningsStreamAndBillNavigator(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, _ := f.connectWithJobs("earner", "paystubs")
		res := f.get("/v1/end_users/earner/earnings_stream/payouts")
		payouts := res.list(t)
		meta := res.meta(t)
		if len(payouts) != 3 || meta["refreshed_at"] == nil || meta["updated_at"] == nil || meta["count"] != float64(3) {
			t.Fatalf("payouts %s", res.raw)
		}
		latest := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)[0]
		prevScore := 1.0
		for _, p := range payouts {
			e := p["earnings"].([]any)[0].(map[string]any)
			score := e["confidence_score"].(float64)
			if p["status"] != "estimated" || p["pay_date"].(string) <= latest["pay_date"].(string) || score <= 0 || score > prevScore {
				t.Errorf("payout %v after last pay date %v", p, latest["pay_date"])
			}
			prevScore = score
			if e["net_pay"].(map[string]any)["currency"] != "USD" || e["net_pay"].(map[string]any)["amount"].(float64) <= 0 {
				t.Errorf("net pay %v", e)
			}
			var sum float64
			for _, e := range p["earnings"].([]any) {
				sum += e.(map[string]any)["net_pay"].(map[string]any)["amount"].(float64)
			}
			if np := p["net_pay"].(map[string]any); np["amount"] != sum || np["currency"] != "USD" {
				t.Errorf("payout net_pay %v, want the earnings' sum %v", np, sum)
			}
		}
		// A disconnected account stops the stream.
		f.request("POST", "/v1/accounts/"+acct+"/disconnect", nil)
		if got := f.get("/v1/end_users/earner/earnings_stream/payouts").list(t); len(got) != 0 {
			t.Errorf("%d payouts after disconnect", len(got))
		}
		f.get("/v1/end_users/nobody/earnings_stream/payouts").wantError(t, 404, typeNotFound, domain.CodeEndUserNotFound)

		put := func(user, body string) result {
			return f.request("PUT", "/v1/end_users/"+user+"/bill_navigator/status", strings.NewReader(body), "Content-Type", "application/json")
		}
		if res := put("earner", `{"action": "deactivate", "reason": "user asked"}`); res.status != 204 || len(res.raw) != 0 {
			t.Errorf("bill navigator: %d %s", res.status, res.raw)
		}
		put("earner", `{"reason": "x"}`).wantError(t, 400, typeInvalid, domain.CodeMissingFields)
		put("earner", `{"action": "explode"}`).wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		put("nobody", `{"action": "deactivate"}`).wantError(t, 404, typeNotFound, domain.CodeEndUserNotFound)
	})
}

// TestReadJobParams checks that read jobs report what they fetched, as the
// vendor's job params do: count, the paystubs' pay-date range, the tax
// forms' newest year and type, and sync_status.
func TestReadJobParams(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct, tokenID := f.connectWithJobs("params-user", "identity", "paystubs", "tax_forms")
		stubs := f.allPages("/v1/accounts/" + acct + "/paystubs?limit=100")
		forms := f.allPages("/v1/accounts/" + acct + "/tax_forms?limit=100")
		jobs := map[string]map[string]any{}
		for _, j := range f.get("/v1/jobs?link_token_id=" + tokenID).list(t) {
			jobs[j["name"].(string)] = j["params"].(map[string]any)
		}
		newest, oldest := stubs[0]["pay_date"], stubs[len(stubs)-1]["pay_date"]
		if p := jobs["paystubs"]; p["count"] != float64(len(stubs)) || p["from_pay_date"] != oldest || p["to_pay_date"] != newest || p["sync_status"] != "complete" {
			t.Errorf("paystubs params %v; %d paystubs from %v to %v", p, len(stubs), oldest, newest)
		}
		if p := jobs["identity"]; p["count"] != float64(1) || p["sync_status"] != "complete" || len(p) != 2 {
			t.Errorf("identity params %v", p)
		}
		year := 0.0
		for _, fm := range forms {
			y, _ := strconv.Atoi(fmt.Sprint(fm["year"]))
			year = max(year, float64(y))
		}
		if p := jobs["tax_forms"]; p["count"] != float64(len(forms)) || p["year"] != year || p["document_type"] != "W-2" {
			t.Errorf("tax_forms params %v; %d forms, newest %v", p, len(forms), year)
		}
	})
}
