package sandbox_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/domain/sandbox"
)

// TestPaystubIdentities checks the accounting of every generated paystub
// over many accounts and two years: lines add up to totals, net and check
// amounts follow, YTDs accumulate and restart each January, and W-2s agree
// with the year's stubs.
func TestPaystubIdentities(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	from := now.AddDate(-2, 0, 0)
	for i := 0; i < 300; i++ {
		id := domain.NewID()
		p := sandbox.NewPerson(domain.Account{ID: id, CustomerID: "c", EndUserID: "u", EmployerName: "Acme Corp"})
		stubs := p.Paystubs(from, now, now)
		if len(stubs) < 20 {
			t.Fatalf("%s (%s): only %d stubs in two years", id, p.Frequency, len(stubs))
		}
		ytd := map[int][2]int64{}
		prev := time.Time{}
		for _, s := range stubs {
			sum := func(lines []domain.PayLine) (n int64) {
				for _, l := range lines {
					if l.Amount.Amount < 0 {
						t.Fatalf("%s %s: negative %s", id, s.PayDate, l.Name)
					}
					n += l.Amount.Amount
				}
				return n
			}
			ctx := fmt.Sprintf("%s %s", id, s.PayDate)
			if got := sum(s.Earnings); got != s.GrossPayAmount.Amount {
				t.Fatalf("%s: earnings %d != gross %d", ctx, got, s.GrossPayAmount.Amount)
			}
			if sum(s.Taxes) != s.TotalTaxes.Amount || sum(s.Deductions) != s.TotalDeductions.Amount {
				t.Fatalf("%s: itemised taxes or deductions do not add up", ctx)
			}
			if s.NetPayAmount.Amount != s.GrossPayAmount.Amount-s.TotalTaxes.Amount-s.TotalDeductions.Amount || s.NetPayAmount.Amount <= 0 {
				t.Fatalf("%s: net %d from gross %d, taxes %d, deductions %d", ctx, s.NetPayAmount.Amount, s.GrossPayAmount.Amount, s.TotalTaxes.Amount, s.TotalDeductions.Amount)
			}
			if s.CheckAmount.Amount != s.NetPayAmount.Amount+s.TotalReimbursements.Amount {
				t.Fatalf("%s: check amount", ctx)
			}
			d := s.PayDateTime()
			if !d.After(prev) || d.After(now) {
				t.Fatalf("%s: pay dates out of order or in the future", ctx)
			}
			prev = d
			y := ytd[d.Year()]
			y[0] += s.GrossPayAmount.Amount
			y[1] += s.NetPayAmount.Amount
			ytd[d.Year()] = y
			if d.Year() == from.Year() {
				continue // the window starts mid-year: earlier stubs of that year are not in it
			}
			if s.GrossPayYTD.Amount != y[0] || s.NetPayYTD.Amount != y[1] {
				t.Fatalf("%s: YTD %d/%d, want %d/%d", ctx, s.GrossPayYTD.Amount, s.NetPayYTD.Amount, y[0], y[1])
			}
		}
		// A narrower window gives the same stubs and YTDs.
		late := p.Paystubs(now.AddDate(0, -2, 0), now, now)
		for _, s := range late {
			for _, full := range stubs {
				if full.ID == s.ID && (full.GrossPayYTD.Amount != s.GrossPayYTD.Amount || full.NetPayAmount.Amount != s.NetPayAmount.Amount) {
					t.Fatalf("%s %s: the window changes the stub", id, s.PayDate)
				}
			}
		}
		// The W-2 of the last full year agrees with its stubs.
		year := now.Year() - 1
		yearStubs := p.Paystubs(time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(year, 12, 31, 0, 0, 0, 0, time.UTC), now)
		w2 := domain.W2From(year, yearStubs, p.Identity(), "Acme Corp")
		last := yearStubs[len(yearStubs)-1]
		var federal, pretax int64
		for _, s := range yearStubs {
			federal += s.Taxes[0].Amount.Amount
			pretax += s.TotalDeductions.Amount
		}
		if w2.SocialSecurityWages.Amount != last.GrossPayYTD.Amount || w2.TotalWages.Amount != last.GrossPayYTD.Amount-pretax ||
			w2.FederalTaxes.Amount != federal || w2.TaxYear != fmt.Sprint(year) || w2.StateWages.Amount != w2.TotalWages.Amount {
			t.Fatalf("%s: W-2 %+v disagrees with the year's stubs (gross YTD %d)", id, w2, last.GrossPayYTD.Amount)
		}
	}
}

func TestPersonIsAFunctionOfTheAccount(t *testing.T) {
	acct := domain.Account{ID: "acct-1", CustomerID: "c", EndUserID: "u", EmployerName: "X"}
	a, b := sandbox.NewPerson(acct), sandbox.NewPerson(acct)
	if a.Identity().FullName != b.Identity().FullName || a.Income() != b.Income() {
		t.Error("the same account gave two people")
	}
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	s1, s2 := a.Paystubs(now.AddDate(-1, 0, 0), now, now), b.Paystubs(now.AddDate(-1, 0, 0), now, now)
	if !cmp.Equal(s1, s2) {
		t.Error("the same account gave different paystubs")
	}
}

// TestOnePersonPerEndUser: an end user's accounts agree on who the person
// is, while each account is its own job; another end user is someone else.
func TestOnePersonPerEndUser(t *testing.T) {
	a := sandbox.NewPerson(domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "u", EmployerName: "A"})
	b := sandbox.NewPerson(domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "u", EmployerName: "B"})
	if diff := cmp.Diff(a.Identity(), b.Identity()); diff != "" {
		t.Errorf("one end user, two identities (-a +b):\n%s", diff)
	}
	if a.Employment() == b.Employment() {
		t.Error("two accounts share one employment")
	}
	other := sandbox.NewPerson(domain.Account{ID: domain.NewID(), CustomerID: "c2", EndUserID: "u", EmployerName: "A"})
	if other.Identity().FullName+other.Identity().LastFourSSN == a.Identity().FullName+a.Identity().LastFourSSN &&
		other.Identity().DateOfBirth == a.Identity().DateOfBirth {
		t.Error("another customer's end user u is the same person")
	}
}

// TestTerminatedEmployment: user_terminated accounts, connected through
// an employer picked in Link, a payroll platform or a name alone, end
// their job within the twelve months before the account was created;
// its final paycheck is the one whose pay period holds the termination,
// with paystubs every pay date up to it and YTDs that add up.
func TestTerminatedEmployment(t *testing.T) {
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	created := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	for i := 0; i < 300; i++ {
		emp, plat := employers[i*7%len(employers)], platforms[i%len(platforms)]
		acct := []domain.Account{{EmployerID: emp.ID, EmployerName: emp.Name, PlatformID: emp.PlatformID},
			{PlatformID: plat.ID, EmployerName: plat.Name}, {EmployerName: "A"}}[i%3]
		acct.ID, acct.CustomerID, acct.EndUserID, acct.Connection, acct.CreatedAt = domain.NewID(), "c", fmt.Sprintf("u%d", i), "terminated", created
		p := sandbox.NewPerson(acct)
		e := p.Employment()
		if e.Status != "terminated" || e.TerminationDate == nil {
			t.Fatalf("%s: employment %+v", acct.ID, e)
		}
		end := e.TerminationDate.Time()
		if !end.Before(created) || created.Sub(end) > 365*day {
			t.Fatalf("%s: terminated %s, not within the year before %s", acct.ID, *e.TerminationDate, created.Format(time.DateOnly))
		}
		stubs := p.Paystubs(created.AddDate(-2, 0, 0), created, created)
		if len(stubs) == 0 {
			t.Fatalf("%s: no paystubs", acct.ID)
		}
		last := stubs[len(stubs)-1]
		if from, to := last.PayPeriodStart.Time(), last.PayPeriodEnd.Time(); end.Before(from) || end.After(to) || !last.PayDateTime().Before(created) {
			t.Fatalf("%s: terminated %s, final paycheck %s for %s to %s (paid %s)", acct.ID, *e.TerminationDate, last.PayDate,
				last.PayPeriodStart, last.PayPeriodEnd, p.Frequency)
		}
		if first := stubs[0].PayDateTime(); first.After(created.AddDate(-2, 0, 45)) {
			t.Fatalf("%s: paystubs only from %s", acct.ID, stubs[0].PayDate)
		}
		for j := 1; j < len(stubs); j++ {
			prev, s := stubs[j-1], stubs[j]
			if s.PayPeriodStart.Time() != prev.PayPeriodEnd.Time().Add(day) {
				t.Fatalf("%s: period %s to %s after one ending %s", acct.ID, s.PayPeriodStart, s.PayPeriodEnd, prev.PayPeriodEnd)
			}
			want := s.GrossPayAmount.Amount
			if prev.PayDateTime().Year() == s.PayDateTime().Year() {
				want += prev.GrossPayYTD.Amount
			}
			if s.GrossPayYTD.Amount != want {
				t.Fatalf("%s: YTD gross %d at %s, want %d", acct.ID, s.GrossPayYTD.Amount, s.PayDate, want)
			}
		}
	}
}

// TestNoOverlapAtOneEmployer: an end user's current and terminated jobs
// connected the same way (an employer picked in Link, or a platform)
// never overlap at one employer: the terminated one is at another
// employer than the current one.
func TestNoOverlapAtOneEmployer(t *testing.T) {
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	created := time.Date(2026, 3, 20, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 200; i++ {
		u := fmt.Sprintf("u%d", i)
		emp := employers[i*7%len(employers)]
		plat := platforms[i%len(platforms)]
		for _, route := range []domain.Account{
			{EmployerID: emp.ID, EmployerName: emp.Name, PlatformID: emp.PlatformID},
			{PlatformID: plat.ID, EmployerName: plat.Name},
		} {
			cur, old := route, route
			cur.ID, cur.CustomerID, cur.EndUserID, cur.CreatedAt, cur.Connection = domain.NewID(), "c", u, created, "good"
			old.ID, old.CustomerID, old.EndUserID, old.CreatedAt, old.Connection = domain.NewID(), "c", u, created.AddDate(0, 0, 3), "terminated"
			a, b := sandbox.NewPerson(cur).Employment(), sandbox.NewPerson(old).Employment()
			if a.EmployerName == b.EmployerName && *b.TerminationDate >= a.StartDate {
				t.Fatalf("%s at %s: current from %s, terminated %s to %s", u, a.EmployerName, a.StartDate, b.StartDate, *b.TerminationDate)
			}
			if route.EmployerID == "" && plat.Type == domain.PlatformPayroll && (a.EmployerName == plat.Name && !plat.ESP) {
				t.Fatalf("%s: an account connected through %s names the platform as its employer", u, plat.Name)
			}
		}
	}
}

// TestPlatformAccountsNameAnEmployer: an account connected through a
// payroll platform works at an employer of the directory the platform
// serves, the same for every account of the end user there.
func TestPlatformAccountsNameAnEmployer(t *testing.T) {
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	servedBy := map[string]map[string]bool{}
	for _, e := range employers {
		if servedBy[e.PlatformID] == nil {
			servedBy[e.PlatformID] = map[string]bool{}
		}
		servedBy[e.PlatformID][e.Name] = true
	}
	for _, p := range platforms {
		if p.Type != domain.PlatformPayroll || len(servedBy[p.ID]) == 0 {
			continue
		}
		a := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "u", PlatformID: p.ID, EmployerName: p.Name, Connection: "good"}
		got := sandbox.NewPerson(a).Employment().EmployerName
		if !servedBy[p.ID][got] {
			t.Fatalf("through %s: employer %q, not one it serves", p.Name, got)
		}
		a.ID = domain.NewID()
		if again := sandbox.NewPerson(a).Employment().EmployerName; again != got {
			t.Fatalf("through %s: %q then %q", p.Name, got, again)
		}
	}
}

// TestPayGapAndDeclining: user_pay_gap is paid bi-weekly with six weeks
// (three pay dates) missing within the last year, its YTDs still adding
// up; user_declining's overtime over the last twelve months is more than
// 20% below the twelve before.
func TestPayGapAndDeclining(t *testing.T) {
	created := time.Date(2026, 3, 20, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 50; i++ {
		a := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "u", EmployerName: "A", Connection: "pay_gap", CreatedAt: created}
		p := sandbox.NewPerson(a)
		stubs := p.Paystubs(created.AddDate(-2, 0, 0), created, created)
		gaps := 0
		for j := 1; j < len(stubs); j++ {
			d := stubs[j].PayDateTime().Sub(stubs[j-1].PayDateTime())
			if d > 28*24*time.Hour {
				gaps++
				if stubs[j].PayDateTime().Before(created.AddDate(-1, 0, 0)) || d < 42*24*time.Hour {
					t.Fatalf("%s: gap %s to %s", a.ID, stubs[j-1].PayDate, stubs[j].PayDate)
				}
			}
			if stubs[j].PayDateTime().Year() == stubs[j-1].PayDateTime().Year() &&
				stubs[j].GrossPayYTD.Amount != stubs[j-1].GrossPayYTD.Amount+stubs[j].GrossPayAmount.Amount {
				t.Fatalf("%s: YTD does not add up at %s", a.ID, stubs[j].PayDate)
			}
		}
		if gaps != 1 || p.Frequency != "bi-weekly" {
			t.Fatalf("%s: %d gaps, paid %s", a.ID, gaps, p.Frequency)
		}

		a.Connection = "declining"
		p = sandbox.NewPerson(a)
		var last, prior int64
		for _, s := range p.Paystubs(created.AddDate(-2, 0, 0), created, created) {
			for _, l := range s.Earnings {
				if l.Category != "overtime" {
					continue
				}
				if s.PayDateTime().After(created.AddDate(-1, 0, 0)) {
					last += l.Amount.Amount
				} else {
					prior += l.Amount.Amount
				}
			}
		}
		if !p.Hourly || prior == 0 || last*10 >= prior*8 {
			t.Fatalf("%s: overtime %d then %d", a.ID, prior, last)
		}
	}
}
