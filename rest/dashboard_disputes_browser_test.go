package rest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserDisputes signs a developer in to the dashboard in headless
// Chromium and works the Disputes page: two disputes filed, one left
// past its 30 days, are listed with the overdue one first and marked;
// the open one's reinvestigation is started, then it is resolved with an
// outcome and a reason through the row's form, and leaves the list while
// REST shows it resolved with the member as who resolved it.
// Photographed at 1280 and 375 px (docs/dashboard/*-disputes.png), on
// both databases.
func TestBrowserDisputes(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "dev@acme.test", domain.RoleDeveloper)
		acct, _ := f.connectWithJobs("applicant-7", "paystubs", "employment")
		stub := f.get("/v1/accounts/" + acct + "/paystubs?limit=1").list(t)[0]["id"].(string)
		late := f.post("/v1/end_users/applicant-7/disputes", fmt.Sprintf(`{"item": {"type": "employment", "id": %q},
			"note": "I stopped working there in May; the employment still shows me as employed."}`, acct)).data(t)["id"].(string)
		// Acknowledged by the sandbox before the clock moves on, as it would
		// be the same day.
		waitFor(t, "the notice acknowledged", func() bool { return f.get("/v1/disputes/" + late).data(t)["furnisher_notified_at"] != nil })
		f.clock.advance(31 * 24 * time.Hour)
		open := f.post("/v1/end_users/applicant-7/disputes", fmt.Sprintf(`{"item": {"type": "paystub", "id": %q, "field": "net_pay_amount"},
			"note": "My net pay that week was $1,912.40, not what this says."}`, stub)).data(t)["id"].(string)

		waitFor(t, "the second notice acknowledged", func() bool { return f.get("/v1/disputes/" + open).data(t)["furnisher_notified_at"] != nil })
		// The late one under reinvestigation: its row offers the resolve form.
		if res := f.post("/v1/disputes/"+late+"/investigate", `{}`); res.status != 200 {
			t.Fatalf("investigate: %d %s", res.status, res.raw)
		}
		p := tab{t: t, ctx: newBrowser(t), save: db.Dialect == storage.SQLite}
		p.goTo(f.http.URL + "/dashboard")
		p.set("#email", "dev@acme.test")
		p.set("#password", memberPassword)
		p.click("#signin-submit")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)
		p.goTo(f.http.URL + "/dashboard/#/disputes")
		p.until("both disputes", `document.querySelectorAll('#disputes tbody tr').length === 2`)
		first := p.text("#disputes tbody tr:first-child")
		for _, want := range []string{"applicant-7", "Employment", "investigating", "overdue", "I stopped working there in May", "Resolve"} {
			if !strings.Contains(first, want) {
				t.Errorf("the first row %q lacks %q", first, want)
			}
		}
		if counts := p.text("#dispute-counts"); !strings.Contains(counts, "2 unresolved") || !strings.Contains(counts, "1 overdue") {
			t.Errorf("counts %q", counts)
		}
		p.shoot("disputes", `document.querySelectorAll('#disputes tbody tr').length === 2 && !!document.querySelector('form.resolve-form')`)

		p.click(`#disputes button.investigate[data-dispute="` + open + `"]`)
		p.until("the resolve form", `!!document.querySelector('form.resolve-form[data-dispute="`+open+`"]')`)
		p.set("#outcome-"+open, "corrected")
		p.set("#reason-"+open, "The employer sent a corrected paystub; the net pay now reads $1,912.40.")
		p.click(`form.resolve-form[data-dispute="` + open + `"] button[type=submit]`)
		p.until("the resolved dispute gone from the list", `document.querySelectorAll('#disputes tbody tr').length === 1`)
		d := f.get("/v1/disputes/" + open).data(t)
		steps := d["steps"].([]any)
		if d["status"] != "resolved" || d["outcome"] != "corrected" || len(steps) != 3 ||
			steps[2].(map[string]any)["by"] != "member:dev@acme.test" {
			t.Errorf("after the form: %v", d)
		}
		if f.get("/v1/disputes/" + late).data(t)["overdue"] != true {
			t.Error("the late dispute is not overdue")
		}
	})
}
