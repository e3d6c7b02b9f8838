package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserDashboardMoreJobs reads every job of an account with more
// jobs than the end user's page shows at first (5, then 25 a click), on
// both databases: the More jobs button is clicked until it goes, each
// click adds the next page (the connection's endCursor passed back as
// after), and at the end every job is listed exactly once, newest first,
// with no button left. A click that read the first page again (no cursor)
// would list jobs twice and never hide the button.
func TestBrowserDashboardMoreJobs(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		const total = 37 // 5, then 30, then 37: two clicks, the second from a cursor
		acct, want := f.seedAccountJobs("many-jobs", total)

		p := tab{t: t, ctx: newBrowser(t)}
		if err := chromedp.Do(p.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
			t.Fatal(err)
		}
		p.goTo(f.http.URL + "/dashboard")
		p.until("the sign-in form", `!document.getElementById('signin').hidden`)
		p.set("#email", "ada@acme.test")
		p.set("#password", memberPassword)
		p.click("#signin-submit")
		p.until("the overview", `!!document.getElementById('stat-accounts')`)
		p.goTo(f.http.URL + "/dashboard/#/end-users/many-jobs")

		sel := fmt.Sprintf(`.account-jobs[data-account=%q]`, acct)
		rows := fmt.Sprintf(`document.querySelectorAll('%s tbody tr').length`, sel)
		button := fmt.Sprintf(`document.querySelector('%s .more-jobs')`, sel)
		p.until("the first page and a More jobs button", fmt.Sprintf(`%s === 5 && !!%s && !%s.hidden`, rows, button, button))
		for n, clicks := 5, 0; ; clicks++ {
			if clicks > 3 {
				t.Fatalf("More jobs still shown after %d clicks (%d jobs)", clicks, total)
			}
			next := min(n+25, total)
			p.click(sel + " .more-jobs")
			// The page read: its rows appended and the button enabled again
			// (or hidden, the last page read).
			p.until(fmt.Sprintf("%d jobs listed after click %d", next, clicks+1),
				fmt.Sprintf(`%s === %d && (%s.hidden || !%s.disabled)`, rows, next, button, button))
			if n = next; n == total {
				break
			}
			if hidden := p.eval(button + `.hidden`); hidden {
				t.Fatalf("More jobs hidden with %d of %d jobs listed", n, total)
			}
		}
		p.until("no More jobs button once every job is listed", button+`.hidden`)

		// Every job once, newest first: each row's time is its job's.
		var listed []int64
		raw, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](fmt.Sprintf(
			`JSON.stringify([...document.querySelectorAll('%s tbody tr time')].map(t => Date.parse(t.dateTime)))`, sel)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(raw), &listed); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(listed, want) {
			t.Errorf("the jobs listed (ms since the epoch):\n%v\nwant each job once, newest first:\n%v", listed, want)
		}
	})
}

// eval runs JS in the page and returns its truth.
func (p tab) eval(js string) bool {
	p.t.Helper()
	ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+js+")"))
	if err != nil {
		p.t.Fatal(err)
	}
	return ok
}

// seedAccountJobs writes one account of endUser with n finished jobs a
// minute apart, straight through the stores, and returns the account's
// id and the jobs' times (milliseconds since the epoch), newest first.
func (f *fixture) seedAccountJobs(endUser string, n int) (string, []int64) {
	f.t.Helper()
	ctx, sc := context.Background(), f.key.Scope()
	tx := storage.NewTransactor(f.db, nil)
	now := f.clock.Now().Truncate(time.Second)
	platform := switchPlatform(f.t)
	tok := domain.LinkToken{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, TokenHash: []byte(domain.NewID()),
		CreatedAt: now, Expires: now, APIVersion: domain.LatestVersion, OrgName: "Acme", EndUserID: endUser}
	a := domain.Account{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, CreatedAt: now,
		LinkTokenID: tok.ID, PlatformID: platform.ID, EndUserID: endUser, EmployerName: "Seeded", Connected: true,
		MonitoringStatus: domain.MonitoringActive, Connection: "good",
		DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{}}
	if err := tx.CreateLinkToken(ctx, sc, tok); err != nil {
		f.t.Fatal(err)
	}
	if err := tx.CreateAccount(ctx, sc, a); err != nil {
		f.t.Fatal(err)
	}
	names := []domain.JobType{domain.JobPaystubs, domain.JobIdentity, domain.JobEmployment, domain.JobIncome}
	var times []int64
	for j := range n {
		at := now.Add(-time.Duration(j) * time.Minute)
		job := domain.Job{ID: domain.NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, AccountID: a.ID, PlatformID: platform.ID,
			PlatformName: platform.Name, EndUserID: endUser, LinkTokenID: tok.ID, Name: names[j%len(names)], CreatedAt: at,
			Timestamp: &at, Outcome: domain.OutcomeSuccess}
		if err := tx.CreateJob(ctx, sc, job); err != nil {
			f.t.Fatal(err)
		}
		times = append(times, at.UnixMilli())
	}
	return a.ID, times
}
