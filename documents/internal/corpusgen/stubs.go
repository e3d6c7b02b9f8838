package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// line is one earnings, tax or deduction line of a synthetic stub, in
// cents, with its year to date.
type line struct {
	Name        string
	Hours, Rate int64 // hundredths of an hour; cents per hour (0: salaried)
	Amount, YTD int64
}

// stub is a synthetic paystub whose figures hold together: net = gross -
// taxes - deductions, and each YTD is the sum of the year's periods.
type stub struct {
	Employer, EIN, Address string
	Employee, EmployeeAddr string
	EmployeeID             string
	PayDate, Start, End    time.Time
	Frequency              string
	Earnings, Taxes, Deds  []line
	Gross, Net             int64
	GrossYTD, NetYTD       int64
	TaxesTotal, DedsTotal  int64
	TaxesYTD, DedsYTD      int64
	// NetFont, when set, draws the period's net pay in another font: a
	// figure redrawn over the original by an editor.
	NetFont string
}

var (
	firstNames = []string{"Maria", "James", "Aisha", "Robert", "Chen", "Linda", "Diego", "Patricia", "Kwame", "Jennifer",
		"Tomasz", "Elizabeth", "Hiroshi", "Susan", "Omar", "Karen", "Priya", "Michael", "Fatima", "David"}
	lastNames = []string{"Garcia", "Johnson", "Okafor", "Smith", "Nguyen", "Williams", "Hernandez", "Brown", "Mensah", "Jones",
		"Kowalski", "Miller", "Tanaka", "Davis", "Haddad", "Wilson", "Patel", "Moore", "Rahman", "Taylor"}
	employers = []struct{ name, ein, addr string }{
		{"Riverbend Logistics LLC", "47-2918345", "1200 Harbor Way, Tacoma, WA 98402"},
		{"Bluestem Dental Group", "83-1047762", "55 Prairie Ave, Omaha, NE 68102"},
		{"Cascade Outdoor Supply Inc", "91-3365120", "780 Alder St, Portland, OR 97205"},
		{"Meridian Home Health", "26-4471893", "9 Commerce Dr, Columbus, OH 43215"},
		{"Copperline Electric Co", "74-2250981", "3100 Mesa Blvd, Tucson, AZ 85705"},
		{"Northgate Public Library District", "36-6002417", "401 N Gate Rd, Evanston, IL 60201"},
		{"Sunrise Bakery & Cafe", "59-3812274", "18 Palm St, Tampa, FL 33602"},
		{"Granite State Fabrication", "02-0598113", "66 Mill Rd, Manchester, NH 03101"},
		{"Lakeshore School District 12", "39-6015528", "2 Lake Dr, Madison, WI 53703"},
		{"Pioneer Software Partners", "84-1772036", "1600 Blake St, Denver, CO 80202"},
	}
	streets = []string{"Maple Ave", "Oak St", "Cedar Ln", "Birch Rd", "Elm Ct", "Pine St", "Walnut Dr", "Spruce Way"}
	states  = []string{"WA", "NE", "OR", "OH", "AZ", "IL", "FL", "NH", "WI", "CO"}
)

// newStub makes the k-th paystub of the year for a person of seed: it
// simulates the year's periods up to k so the YTDs are the periods' sums.
func newStub(r *rand.Rand, k int) stub {
	e := employers[r.IntN(len(employers))]
	s := stub{Employer: e.name, EIN: e.ein, Address: e.addr,
		Employee:   firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))],
		EmployeeID: fmt.Sprintf("%06d", r.IntN(999999))}
	s.EmployeeAddr = fmt.Sprintf("%d %s, Springfield, %s %05d", 100+r.IntN(9000), streets[r.IntN(len(streets))], states[r.IntN(len(states))], 10000+r.IntN(89999))
	hourly := r.IntN(2) == 0
	rate := int64(1600 + r.IntN(3400))             // $16.00 - $50.00 an hour
	salary := int64(3_800_000 + r.IntN(9_000_000)) // $38k - $128k a year
	stateRate := int64(300 + r.IntN(300))
	pct401k := int64(r.IntN(7))
	medical := int64(4000 + r.IntN(12000))
	biweekly := r.IntN(2) == 0
	s.Frequency = map[bool]string{true: "biweekly", false: "semimonthly"}[biweekly]
	year := 2025 + r.IntN(2)
	pct := func(v, bp int64) int64 { return (v*bp + 5000) / 10000 }
	first := time.Date(year, 1, 2+r.IntN(7), 0, 0, 0, 0, time.UTC)
	for i := 1; i <= k; i++ {
		var start, end, pay time.Time
		if biweekly {
			end = first.AddDate(0, 0, 14*(i-1))
			start = end.AddDate(0, 0, -13)
			pay = end.AddDate(0, 0, 5)
		} else {
			m := time.Month((i + 1) / 2)
			if i%2 == 1 {
				start, end = time.Date(year, m, 1, 0, 0, 0, 0, time.UTC), time.Date(year, m, 15, 0, 0, 0, 0, time.UTC)
			} else {
				start, end = time.Date(year, m, 16, 0, 0, 0, 0, time.UTC), time.Date(year, m+1, 0, 0, 0, 0, 0, time.UTC)
			}
			pay = end.AddDate(0, 0, 5)
		}
		var earn []line
		if hourly {
			hours := int64(7200 + r.IntN(9)*100)
			earn = append(earn, line{Name: "Regular", Hours: hours, Rate: rate, Amount: hours * rate / 100})
			if r.IntN(3) == 0 {
				ot := int64(100 * (1 + r.IntN(8)))
				earn = append(earn, line{Name: "Overtime", Hours: ot, Rate: rate * 3 / 2, Amount: ot * (rate * 3 / 2) / 100})
			}
		} else {
			per := int64(24)
			if biweekly {
				per = 26
			}
			earn = append(earn, line{Name: "Salary", Amount: salary / per})
		}
		var gross int64
		for _, l := range earn {
			gross += l.Amount
		}
		deds := []line{{Name: "401(k)", Amount: pct(gross, pct401k*100)}, {Name: "Medical", Amount: medical}}
		if deds[0].Amount == 0 {
			deds = deds[1:]
		}
		taxable := gross
		for _, d := range deds {
			taxable -= d.Amount
		}
		taxes := []line{{Name: "Federal Income Tax", Amount: pct(taxable, 1100)}, {Name: "Social Security", Amount: pct(gross, 620)},
			{Name: "Medicare", Amount: pct(gross, 145)}, {Name: "State Income Tax", Amount: pct(taxable, stateRate)}}
		accumulate(&s.Earnings, earn)
		accumulate(&s.Taxes, taxes)
		accumulate(&s.Deds, deds)
		s.Gross, s.TaxesTotal, s.DedsTotal = gross, sum(taxes), sum(deds)
		s.Net = gross - s.TaxesTotal - s.DedsTotal
		s.GrossYTD += s.Gross
		s.NetYTD += s.Net
		s.TaxesYTD += s.TaxesTotal
		s.DedsYTD += s.DedsTotal
		s.PayDate, s.Start, s.End = pay, start, end
	}
	return s
}

// accumulate makes period's lines the current ones of dst, carrying the
// year to date of lines of the same name (a line absent this period
// keeps its YTD with a zero amount).
func accumulate(dst *[]line, period []line) {
	for i := range *dst {
		(*dst)[i].Amount, (*dst)[i].Hours = 0, 0
	}
	for _, p := range period {
		found := false
		for i := range *dst {
			if (*dst)[i].Name == p.Name {
				ytd := (*dst)[i].YTD
				(*dst)[i] = p
				(*dst)[i].YTD = ytd + p.Amount
				found = true
			}
		}
		if !found {
			p.YTD = p.Amount
			*dst = append(*dst, p)
		}
	}
}

func sum(ls []line) int64 {
	var t int64
	for _, l := range ls {
		t += l.Amount
	}
	return t
}

// money formats cents as 1,234.56 (with a minus sign when negative).
func money(c int64) string {
	neg := c < 0
	if neg {
		c = -c
	}
	whole := fmt.Sprint(c / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	s := fmt.Sprintf("%s.%02d", whole, c%100)
	if neg {
		return "-" + s
	}
	return s
}

func hours(h int64) string { return fmt.Sprintf("%d.%02d", h/100, h%100) }

// truth is what a corpus file's JSON says the reader should find.
type truth struct {
	Layout          string `json:"layout"`
	Means           string `json:"means"`
	DocumentType    string `json:"document_type"`
	Employer        string `json:"employer"`
	EmployerEIN     string `json:"employer_ein,omitempty"`
	Employee        string `json:"employee,omitempty"`
	PayDate         string `json:"pay_date"`
	PeriodStart     string `json:"period_start"`
	PeriodEnd       string `json:"period_end"`
	Frequency       string `json:"frequency,omitempty"`
	Gross           int64  `json:"gross"`
	Net             int64  `json:"net"`
	GrossYTD        int64  `json:"gross_ytd"`
	NetYTD          int64  `json:"net_ytd"`
	TotalTaxes      int64  `json:"total_taxes"`
	TotalDeductions int64  `json:"total_deductions"`
	// Forged files: the reason the domain's checks should give, and the
	// other file of a pair where the reason needs two.
	Fraud string `json:"fraud,omitempty"`
	Pair  string `json:"pair,omitempty"`
}

func (s stub) truth(layout, means string) truth {
	d := func(t time.Time) string { return t.Format(time.DateOnly) }
	return truth{Layout: layout, Means: means, DocumentType: "paystub", Employer: s.Employer, EmployerEIN: s.EIN, Employee: s.Employee,
		PayDate: d(s.PayDate), PeriodStart: d(s.Start), PeriodEnd: d(s.End), Frequency: s.Frequency,
		Gross: s.Gross, Net: s.Net, GrossYTD: s.GrossYTD, NetYTD: s.NetYTD, TotalTaxes: s.TaxesTotal, TotalDeductions: s.DedsTotal}
}
