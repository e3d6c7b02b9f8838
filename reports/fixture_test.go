package reports_test

import (
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

// goldenNow is when the golden accounts' data was read.
var goldenNow = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

// goldenSources are two fixed sandbox accounts of one end user: a current
// job at one employer and a terminated one at another, each with the
// products its jobs read, as the sandbox connector produces them.
func goldenSources() []reports.Source {
	accounts := []domain.Account{
		{ID: "0195f0a0-0000-7000-8000-000000000001", CustomerID: "golden-customer", Mode: domain.ModeSandbox, EndUserID: "golden-user",
			EmployerName: "Sycamore Publishing Inc", Connection: "good", CreatedAt: goldenNow.AddDate(0, 0, -3),
			PlatformID: "0195f0a0-0000-7000-8000-0000000000a1"},
		{ID: "0195f0a0-0000-7000-8000-000000000002", CustomerID: "golden-customer", Mode: domain.ModeSandbox, EndUserID: "golden-user",
			EmployerName: "Birch Logistics", Connection: "terminated", CreatedAt: goldenNow.AddDate(0, 0, -2),
			PlatformID: "0195f0a0-0000-7000-8000-0000000000a2"},
	}
	// Where the directory would name them: the platform each account was
	// read from, and one employer's EIN (the other has none on record).
	names := map[string][2]string{accounts[0].ID: {"Summit Payroll", "271234567"}, accounts[1].ID: {"Keystone Workforce", ""}}
	var out []reports.Source
	for _, a := range accounts {
		read := a.CreatedAt.Add(time.Minute)
		a.DataUpdatedAt = map[string]time.Time{}
		for _, p := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductPaystubs} {
			a.DataUpdatedAt[p] = read
		}
		p := sandbox.NewPerson(a)
		id, emp, inc := p.Identity(), p.Employment(), p.Income()
		stubs := p.Paystubs(goldenNow.Add(-domain.PaystubHistory), goldenNow, read)
		w2s := map[string]domain.W2{}
		for _, w := range p.W2s(goldenNow.Add(-domain.PaystubHistory), goldenNow) {
			w2s[w.TaxYear] = w.W2
		}
		out = append(out, reports.Source{Account: a, PlatformName: names[a.ID][0], EIN: names[a.ID][1], W2s: w2s, Identity: &id, Employment: &emp,
			Income: &inc, Paystubs: stubs})
	}
	return out
}
