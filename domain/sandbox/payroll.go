package sandbox

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/google/uuid"

	"payline/domain"
)

// Person is the synthetic worker behind a sandbox account. An end user is
// one person: name, SSN, birth date, address and phone are drawn from a
// generator seeded with the customer and end_user_id, so every account of
// an end user agrees on who they are. The job and its pay are drawn from
// the account id, so each account is its own employment. The same inputs
// always give the same person.
type Person struct {
	AccountID string
	First     string
	Last      string
	Birth     time.Time
	LastFour  string
	Street    string
	City      string
	State     string
	Zip       string
	Phone     string
	Title     string
	Start     time.Time
	Hourly    bool
	Annual    int64 // salary in cents, when not hourly
	Rate      int64 // cents per hour, when hourly
	Frequency string
	// End is the termination date of a terminated employment (the
	// sandbox credential user_terminated); zero while employed.
	End time.Time
	// finalPay is the pay date of a terminated job's final paycheck: the
	// one whose pay period holds the termination.
	finalPay time.Time
	// gapFrom and gapTo bound a span without pay (user_pay_gap).
	gapFrom, gapTo time.Time
	// scenario is the account's sandbox credential scenario and created
	// the day the account was connected.
	scenario string
	created  time.Time
	// bonus is the year-end bonus paid with December's last paycheck,
	// in cents; 0 for none.
	bonus      int64
	anchor     time.Time // a pay date every schedule is counted from
	employer   string
	employerAt domain.Address
}

var (
	firstNames  = []string{"Ada", "Grace", "Alan", "Katherine", "Dorothy", "Carlos", "Mei", "Amara", "Noah", "Priya", "Diego", "Fatima", "Liam", "Sofia", "Kenji", "Zara", "Omar", "Elena", "Tariq", "Hana"}
	lastNames   = []string{"Lovelace", "Hopper", "Turing", "Johnson", "Vaughan", "Rivera", "Chen", "Okafor", "Smith", "Patel", "Garcia", "Haddad", "Murphy", "Rossi", "Tanaka", "Ali", "Farouk", "Petrova", "Nguyen", "Kim"}
	streets     = []string{"Maple Ave", "Oak St", "Cedar Ln", "Elm St", "Park Blvd", "Lake Dr", "Hill Rd", "River Way"}
	cities      = []struct{ city, state, zip string }{{"Columbus", "OH", "43215"}, {"Austin", "TX", "78701"}, {"Denver", "CO", "80202"}, {"Portland", "OR", "97205"}, {"Raleigh", "NC", "27601"}, {"Madison", "WI", "53703"}, {"Tampa", "FL", "33602"}, {"Boise", "ID", "83702"}}
	titles      = []string{"Warehouse Associate", "Registered Nurse", "Software Engineer", "Store Manager", "Accountant", "Line Cook", "Customer Support Specialist", "Electrician", "Teacher", "Delivery Driver"}
	frequencies = []string{"bi-weekly", "bi-weekly", "semi-monthly", "weekly", "monthly"}
)

// payEpoch is a Friday; every weekly and bi-weekly schedule counts from a
// day near it.
var payEpoch = time.Date(2019, 1, 4, 0, 0, 0, 0, time.UTC)

func seeded(key string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(key))
	seed := h.Sum64()
	return rand.New(rand.NewPCG(seed, seed>>7|1))
}

// NewPerson draws the person of an account: who they are from the
// account's customer and end user, their job from the account itself
// (EmployerName names the employer, or platform, it was connected
// through; a Connection of user_terminated ends the job within the year
// before the account was created).
func NewPerson(a domain.Account) Person {
	who := seeded(a.CustomerID + "/" + a.EndUserID)
	c := cities[who.IntN(len(cities))]
	p := Person{
		AccountID: a.ID,
		First:     firstNames[who.IntN(len(firstNames))],
		Last:      lastNames[who.IntN(len(lastNames))],
		Birth:     time.Date(1960+who.IntN(40), time.Month(1+who.IntN(12)), 1+who.IntN(28), 0, 0, 0, 0, time.UTC),
		LastFour:  fmt.Sprintf("%04d", 1+who.IntN(9998)),
		Street:    fmt.Sprintf("%d %s", 100+who.IntN(9800), streets[who.IntN(len(streets))]),
		City:      c.city, State: c.state, Zip: c.zip,
		Phone: fmt.Sprintf("%03d555%04d", 201+who.IntN(700), who.IntN(10000)),
	}
	r := seeded(a.ID)
	p.Title = titles[r.IntN(len(titles))]
	legacyStart := time.Date(2012+r.IntN(8), time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
	p.Hourly = r.IntN(3) == 0
	p.Frequency = frequencies[r.IntN(len(frequencies))]
	p.anchor = payEpoch.AddDate(0, 0, 7*r.IntN(2))
	terminated := a.Connection == scenarioTerminated
	key, name := employerOf(a, terminated)
	p.employer = name
	// The current job at an employer starts on a date drawn from the end
	// user and the employer, so every account of the end user there
	// agrees on it.
	k := seeded(key)
	p.Start = time.Date(2012+k.IntN(8), time.Month(1+k.IntN(12)), 1+k.IntN(28), 0, 0, 0, 0, time.UTC)
	created := a.CreatedAt.UTC().Truncate(24 * time.Hour)
	p.scenario, p.created = a.Connection, created
	switch {
	case terminated:
		// A job of years that ended 45 to 344 days before the account was
		// connected, at an employer no current job of the route is at
		// (employerOf): within the last twelve months, with its paystubs
		// up to the final paycheck.
		p.Start = legacyStart
		p.End = created.AddDate(0, 0, -(45 + r.IntN(300)))
	case a.Connection == scenarioPayGap:
		// Six weeks without pay (a leave), ending two to six months ago,
		// in a salaried job, so the gap is all that changes.
		p.Frequency, p.Hourly = "bi-weekly", false
		p.gapTo = created.AddDate(0, 0, -(60 + r.IntN(120)))
		p.gapFrom = p.gapTo.AddDate(0, 0, -42)
	case a.Connection == scenarioDeclining:
		p.Hourly = true
	}
	if !p.End.IsZero() {
		p.finalPay = p.finalPayDate()
	}
	if p.Hourly {
		p.Rate = int64(1600 + r.IntN(3400)) // $16 to $50
	} else {
		p.Annual = int64(38_000+r.IntN(140_000)) * 100
	}
	// One employer has one address, whichever of the end user's accounts
	// names it.
	p.employerAt = domain.Address{Line1: fmt.Sprintf("%d Commerce Pkwy", 1+seeded(key+"/address").IntN(999)), City: c.city, State: c.state,
		PostalCode: c.zip, Country: "US"}
	// Half the jobs pay a year-end bonus, the same each year.
	if b := seeded(a.ID + "/bonus"); b.IntN(2) == 0 {
		p.bonus = int64(20_000 + b.IntN(180_000))
	}
	p.employerAt.Raw = fmt.Sprintf("%s, %s, %s %s", p.employerAt.Line1, c.city, c.state, c.zip)
	return p
}

// Identity is the person as the payroll platform knows them.
func (p Person) Identity() domain.Identity {
	addr := domain.Address{Line1: p.Street, City: p.City, State: p.State, PostalCode: p.Zip, Country: "US",
		Raw: fmt.Sprintf("%s, %s, %s %s", p.Street, p.City, p.State, p.Zip)}
	return domain.Identity{
		FullName: p.First + " " + p.Last, DateOfBirth: domain.DateOf(p.Birth), LastFourSSN: p.LastFour,
		Emails:       []string{strings.ToLower(p.First+"."+p.Last) + "@example.com"},
		Address:      addr,
		PhoneNumbers: []domain.PhoneNumber{{Value: p.Phone, Type: "mobile"}},
	}
}

// Employment is the person's job.
func (p Person) Employment() domain.Employment {
	e := domain.Employment{Status: "employed", StartDate: domain.DateOf(p.Start), EmployerName: p.employer,
		EmployerAddress: p.employerAt, EmployerPhoneNumber: domain.PhoneNumber{Value: "8005550100", Type: "work"}, Title: p.Title}
	if !p.End.IsZero() {
		end := domain.DateOf(p.End)
		e.Status, e.TerminationDate = "terminated", &end
	}
	return e
}

// Income is the person's pay rate.
func (p Person) Income() domain.Income {
	if p.Hourly {
		return domain.Income{CompensationAmount: domain.USD(p.Rate), CompensationUnit: "hourly", Currency: "USD", PayFrequency: p.Frequency}
	}
	return domain.Income{CompensationAmount: domain.USD(p.Annual), CompensationUnit: "annually", Currency: "USD", PayFrequency: p.Frequency}
}

// PayDates are the pay dates in [from, to], oldest first.
func (p Person) PayDates(from, to time.Time) []time.Time {
	var out []time.Time
	add := func(d time.Time) {
		inGap := !p.gapTo.IsZero() && !d.Before(p.gapFrom) && !d.After(p.gapTo)
		if !d.Before(from) && !d.After(to) && !d.Before(p.Start) && (p.End.IsZero() || !d.After(p.finalPay)) && !inGap {
			out = append(out, d)
		}
	}
	switch p.Frequency {
	case "weekly", "bi-weekly":
		step := 7
		if p.Frequency == "bi-weekly" {
			step = 14
		}
		n := int(from.Sub(p.anchor).Hours() / 24 / float64(step))
		for d := p.anchor.AddDate(0, 0, step*(n-1)); !d.After(to); d = d.AddDate(0, 0, step) {
			add(d)
		}
	default:
		for m := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(to); m = m.AddDate(0, 1, 0) {
			last := m.AddDate(0, 1, -1)
			if p.Frequency == "semi-monthly" {
				add(m.AddDate(0, 0, 14))
			}
			add(last)
		}
	}
	return out
}

// finalPayDate is the pay date of the paycheck whose pay period holds
// the termination: the first of the schedule whose period (it ends five
// days before its pay date, see paystub) ends on or after it.
func (p Person) finalPayDate() time.Time {
	open := p
	open.End, open.gapTo = time.Time{}, time.Time{}
	open.Start = p.End.AddDate(0, -2, 0)
	if dates := open.PayDates(p.End.AddDate(0, 0, periodEndsBefore), p.End.AddDate(0, 0, 45)); len(dates) > 0 {
		return dates[0]
	}
	return p.End
}

// periodEndsBefore is how many days a pay period ends before its pay
// date.
const periodEndsBefore = 5

func periodsPerYear(freq string) int64 {
	switch freq {
	case "weekly":
		return 52
	case "bi-weekly":
		return 26
	case "semi-monthly":
		return 24
	}
	return 12
}

// stubRand seeds the variable parts of one paystub (overtime, bonus,
// reimbursements) from the account and the pay date.
func (p Person) stubRand(pay time.Time) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(p.AccountID + pay.Format(time.DateOnly)))
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s>>3|1))
}

func pct(amount int64, basisPoints int64) int64 { return (amount*basisPoints + 5000) / 10000 }

// lastOfYear reports whether pay is the schedule's last pay date of its
// year.
func (p Person) lastOfYear(pay time.Time) bool {
	after := map[string]int{"weekly": 24, "bi-weekly": 17, "semi-monthly": 16}[p.Frequency]
	if after == 0 {
		after = 30
	}
	return pay.Month() == time.December && pay.Day() > after
}

// nthOfYear counts the schedule's pay dates of pay's year before pay.
func (p Person) nthOfYear(pay time.Time) int {
	switch p.Frequency {
	case "weekly":
		return (pay.YearDay() - 1) / 7
	case "bi-weekly":
		return (pay.YearDay() - 1) / 14
	case "semi-monthly":
		n := 2 * (int(pay.Month()) - 1)
		if pay.Day() > 15 {
			n++
		}
		return n
	}
	return int(pay.Month()) - 1
}

// overtimeHours are the overtime hours of one pay date: three stubs in
// ten carry one to eight hours, drawn from the account and the pay
// date's place in its year, so each year has the same overtime and its
// trend is stable. For user_declining, every stub before the last twelve
// months carries four to twelve hours and, after them, every other one
// (of any two in a row, at least one) one to three, so overtime falls by
// far more than 20% year over year.
func (p Person) overtimeHours(pay time.Time) int64 {
	r := seeded(fmt.Sprintf("%s/overtime/%d", p.AccountID, p.nthOfYear(pay)))
	switch {
	case p.scenario != scenarioDeclining:
		if r.IntN(10) < 3 {
			return int64(1 + r.IntN(8))
		}
		return 0
	case pay.Before(p.created.AddDate(-1, 0, 0)):
		return int64(4 + r.IntN(9))
	case p.nthOfYear(pay)%2 == 0:
		return int64(1 + r.IntN(3))
	}
	return 0
}

// paystub builds the stub of one pay date, without YTD figures.
func (p Person) paystub(pay, prev time.Time, now time.Time) domain.Paystub {
	r := p.stubRand(pay)
	end := pay.AddDate(0, 0, -periodEndsBefore)
	start := prev.AddDate(0, 0, 1-periodEndsBefore)
	if prev.IsZero() {
		start = end.AddDate(0, 0, -int(365/periodsPerYear(p.Frequency))+1)
	}
	var earnings []domain.PayLine
	if p.Hourly {
		// Whole hours: the pay is hours times the rate in integer cents.
		wholeHours := 2080/periodsPerYear(p.Frequency) - int64(r.IntN(5))
		rate, hours := domain.USD(p.Rate), float64(wholeHours)
		earnings = append(earnings, domain.PayLine{Name: "Regular", Category: "hourly", Amount: domain.USD(wholeHours * rate.Amount), Hours: &hours, Rate: &rate})
		if otHours := p.overtimeHours(pay); otHours > 0 {
			otRate, ot := domain.USD(rate.Amount*3/2), float64(otHours)
			earnings = append(earnings, domain.PayLine{Name: "Overtime", Category: "overtime", Amount: domain.USD(otHours * otRate.Amount), Hours: &ot, Rate: &otRate})
		}
	} else {
		earnings = append(earnings, domain.PayLine{Name: "Salary", Category: "salary", Amount: domain.USD(p.Annual / periodsPerYear(p.Frequency))})
	}
	if p.bonus > 0 && p.lastOfYear(pay) {
		earnings = append(earnings, domain.PayLine{Name: "Year-end bonus", Category: "bonus", Amount: domain.USD(p.bonus)})
	}
	var gross int64
	for _, e := range earnings {
		gross += e.Amount.Amount
	}
	retirement, medical := pct(gross, 500), int64(9_500)
	medical = min(medical, gross/4)
	deductions := []domain.PayLine{
		{Name: "401(k)", Category: "retirement", Amount: domain.USD(retirement)},
		{Name: "Medical", Category: "medical_insurance", Amount: domain.USD(medical)},
	}
	taxable := gross - retirement - medical
	taxes := []domain.PayLine{
		{Name: "Federal Income Tax", Category: "federal_income", Amount: domain.USD(pct(taxable, 1100))},
		{Name: "Social Security", Category: "social_security", Amount: domain.USD(pct(gross, 620))},
		{Name: "Medicare", Category: "medicare", Amount: domain.USD(pct(gross, 145))},
		{Name: p.State + " State Income Tax", Category: "state_income", Amount: domain.USD(pct(taxable, 400))},
	}
	var reimb int64
	if r.IntN(10) == 0 {
		reimb = int64(2_500 + r.IntN(12_500))
	}
	s := domain.Paystub{
		ID: uuid.NewSHA1(namespace, []byte("paystub/"+p.AccountID+"/"+pay.Format(time.DateOnly))).String(), AccountID: p.AccountID,
		PayDate: domain.DateOf(pay), PayPeriodStart: domain.DateOf(start), PayPeriodEnd: domain.DateOf(end),
		GrossPayAmount: domain.USD(gross), TotalReimbursements: domain.USD(reimb), Currency: "USD", EmployerName: p.employer,
		ExternalPaystubID: "PS-" + pay.Format("20060102"), Earnings: earnings, Taxes: taxes, Deductions: deductions, CreatedAt: now,
	}
	var totalTaxes, totalDeductions int64
	for _, t := range taxes {
		totalTaxes += t.Amount.Amount
	}
	for _, d := range deductions {
		totalDeductions += d.Amount.Amount
	}
	net := gross - totalTaxes - totalDeductions
	s.TotalTaxes, s.TotalDeductions = domain.USD(totalTaxes), domain.USD(totalDeductions)
	s.NetPayAmount, s.CheckAmount = domain.USD(net), domain.USD(net+reimb)
	return s
}

// Paystubs returns the stubs paid in [from, to], oldest first, with YTD
// figures accumulated from the first pay date of each calendar year (so
// any window gives the same YTDs).
func (p Person) Paystubs(from, to, now time.Time) []domain.Paystub {
	yearStart := time.Date(from.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	dates := p.PayDates(yearStart.AddDate(0, 0, -31), to)
	var out []domain.Paystub
	var gytd, nytd int64
	for i, d := range dates {
		if d.Before(yearStart) {
			continue
		}
		var prev time.Time
		if i > 0 {
			prev = dates[i-1]
		}
		s := p.paystub(d, prev, now)
		if i == 0 || dates[i-1].Year() != d.Year() || dates[i-1].Before(yearStart) {
			gytd, nytd = 0, 0
		}
		gytd += s.GrossPayAmount.Amount
		nytd += s.NetPayAmount.Amount
		s.GrossPayYTD, s.NetPayYTD = domain.USD(gytd), domain.USD(nytd)
		if !d.Before(from) {
			out = append(out, s)
		}
	}
	return out
}

// routingNumber makes a valid ABA routing number from eight digits by
// adding the checksum digit.
func routingNumber(r *rand.Rand) string {
	d := make([]int, 9)
	for i := 0; i < 8; i++ {
		d[i] = r.IntN(10)
	}
	d[0] = 1 + r.IntN(3) // a Federal Reserve district prefix
	sum := 3*(d[0]+d[3]+d[6]) + 7*(d[1]+d[4]+d[7]) + (d[2] + d[5])
	d[8] = (10 - sum%10) % 10
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

// Allocations is where the person's pay goes: their own checking account
// for the remainder, changed by each completed switch in order. Amount and
// percentage lines come first by priority; the remainder is always last.
func (p Person) Allocations(switches []domain.Job) []domain.DepositAllocation {
	r := p.stubRand(payEpoch)
	bank := "First Synthetic Bank of " + p.City
	lines := []domain.DepositAllocation{{
		AccountName: "Everyday Checking", AccountType: "checking", AllocationType: domain.AllocationRemainder,
		BankName: &bank, Currency: "USD", MaskedAccountNumber: fmt.Sprintf("XXXXXX%04d", r.IntN(10000)),
		RoutingNumber: routingNumber(r),
	}}
	for _, sw := range switches {
		if sw.Target == nil {
			continue
		}
		name := sw.Target.Name
		if name == "" {
			name = strings.ToUpper(sw.Target.Type[:1]) + sw.Target.Type[1:]
		}
		line := domain.DepositAllocation{AccountName: name, AccountType: sw.Target.Type, AllocationType: domain.AllocationRemainder,
			Currency: "USD", MaskedAccountNumber: "XXXXXX" + sw.Target.LastFour, RoutingNumber: sw.Target.RoutingNumber}
		var alloc domain.JobParamsAllocation
		if sw.Params.Allocation != nil {
			alloc = *sw.Params.Allocation
		}
		switch {
		case sw.Params.Action != domain.ActionPartialSwitch: // a full switch, or a matched one
			lines = []domain.DepositAllocation{line}
		case alloc.Type == domain.AllocationAmount:
			amount := domain.USD(alloc.Amount.Amount)
			line.AllocationType, line.Amount = domain.AllocationAmount, &amount
			lines = append([]domain.DepositAllocation{line}, lines...)
		case alloc.Type == domain.AllocationPercentage:
			pctValue := float64(alloc.Percentage) // the product's percentage is a number; ours are whole
			line.AllocationType, line.Percentage = domain.AllocationPercentage, &pctValue
			lines = append([]domain.DepositAllocation{line}, lines...)
		default: // the new account takes the remainder from the old one
			lines = append(lines[:len(lines)-1], line)
		}
	}
	for i := range lines {
		lines[i].Priority = i + 1
	}
	return lines
}

// W2s are the W-2s of each full calendar year in [since, now) in which
// the person was paid, built from that year's paystubs.
func (p Person) W2s(since, now time.Time) []domain.DatedW2 {
	var out []domain.DatedW2
	for y := now.Year() - 1; y >= since.Year(); y-- {
		stubs := p.Paystubs(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(y, 12, 31, 0, 0, 0, 0, time.UTC), now)
		if len(stubs) == 0 {
			continue
		}
		key := fmt.Sprintf("%s/%d", p.AccountID, y)
		out = append(out, domain.DatedW2{
			TaxFormID:  uuid.NewSHA1(namespace, []byte("tax_form/"+key)).String(),
			DocumentID: uuid.NewSHA1(namespace, []byte("w2/"+key)).String(),
			W2:         domain.W2From(y, stubs, p.Identity(), p.employer),
		})
	}
	return out
}

// shiftDays is how far back a shifts read goes.
const shiftDays = 30

// Shifts are the weekday shifts of the last shiftDays days before now,
// each a pure function of the account and the day.
func (p Person) Shifts(now time.Time) []domain.DatedShift {
	rate := p.Rate
	if !p.Hourly {
		rate = p.Annual / 2080
	}
	var out []domain.DatedShift
	for d := now.AddDate(0, 0, -shiftDays); d.Before(now); d = d.AddDate(0, 0, 1) {
		day := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
		if day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
			continue
		}
		r := p.stubRand(day)
		start := day.Add(time.Duration(13*60+r.IntN(120)) * time.Minute) // 13:00 to 15:00 UTC
		end := start.Add(time.Duration(6*60+r.IntN(180)) * time.Minute)
		if end.After(now) {
			continue
		}
		// Pay is worked minutes times the hourly rate, in integer cents
		// (rounded half up); hours are shown to two decimals.
		minutes := int64(end.Sub(start) / time.Minute)
		pay := (minutes*rate + 30) / 60
		hours := float64(minutes*100/60) / 100
		r2 := domain.USD(rate)
		out = append(out, domain.DatedShift{
			ID: uuid.NewSHA1(namespace, []byte("shift/"+p.AccountID+"/"+day.Format(time.DateOnly))).String(),
			Shift: domain.Shift{
				StartDate: domain.DateOf(day), EndDate: domain.DateOf(end), Timezone: "UTC",
				Type: "shift", Currency: "USD",
				Timestamps: []domain.ShiftPeriod{
					{From: domain.APITime(start), To: domain.APITime(end)},
				},
				Earnings: []domain.PayLine{{Name: "Shift pay", Category: "hourly", Amount: domain.USD(pay), Hours: &hours, Rate: &r2}},
			},
		})
	}
	return out
}
