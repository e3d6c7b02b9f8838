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

// TestTerminatedEmployment: user_terminated accounts end their job before
// the account was created; no pay date follows the termination.
func TestTerminatedEmployment(t *testing.T) {
	created := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := 0; i < 100; i++ {
		acct := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "u", EmployerName: "A", Connection: "terminated", CreatedAt: created}
		p := sandbox.NewPerson(acct)
		e := p.Employment()
		if e.Status != "terminated" || e.TerminationDate == nil || *e.TerminationDate >= created.Format(time.DateOnly) {
			t.Fatalf("%s: employment %+v", acct.ID, e)
		}
		stubs := p.Paystubs(created.AddDate(-2, 0, 0), created, created)
		if len(stubs) == 0 || stubs[len(stubs)-1].PayDate > *e.TerminationDate {
			t.Fatalf("%s: last pay date after termination %s", acct.ID, *e.TerminationDate)
		}
	}
}
