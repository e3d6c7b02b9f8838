package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Employer and Person are invented: no real employer or person.
type Employer struct{ Name, EIN, Street, City, State, Zip, Phone, Code string }

func (e Employer) CityLine() string { return fmt.Sprintf("%s, %s %s", e.City, e.State, e.Zip) }
func (e Employer) OneLine() string  { return e.Street + ", " + e.CityLine() }

type Person struct{ First, Middle, Last, Street, City, State, Zip, SSN4, ID string }

// Full is "Maria L. Gonzalez" (or without the initial).
func (p Person) Full() string {
	if p.Middle == "" {
		return p.First + " " + p.Last
	}
	return p.First + " " + p.Middle + ". " + p.Last
}
func (p Person) LastFirst() string { // PeopleSoft: "Gonzalez,Maria L"
	s := p.Last + "," + p.First
	if p.Middle != "" {
		s += " " + p.Middle
	}
	return s
}
func (p Person) Upper() string    { return strings.ToUpper(p.Full()) }
func (p Person) CityLine() string { return fmt.Sprintf("%s, %s %s", p.City, p.State, p.Zip) }
func (p Person) SSN() string      { return "XXX-XX-" + p.SSN4 }

var employers = []Employer{
	{"Harrow Creek Logistics, Inc.", "84-2719350", "4100 Quarry Rd", "Joliet", "IL", "60436", "(815) 555-0142", "HCL"},
	{"Bellwether Family Dental PC", "27-4408163", "18 Linden Sq", "Worcester", "MA", "01608", "(508) 555-0190", "BFD"},
	{"Tamarack Software Group LLC", "46-3391027", "700 Pearl St Ste 400", "Boulder", "CO", "80302", "(303) 555-0117", "TSG"},
	{"Saltmarsh Seafood Kitchen", "59-2287741", "212 Bay Front Dr", "Savannah", "GA", "31401", "(912) 555-0166", "SSK"},
	{"Ironvale Freight Lines Inc", "35-1874402", "9 Depot Ave", "Gary", "IN", "46402", "(219) 555-0123", "IFL"},
	{"Pinecrest Pediatric Associates", "61-5520934", "350 Ridge Pkwy", "Lexington", "KY", "40503", "(859) 555-0177", "PPA"},
	{"Cobalt Ridge Manufacturing Co.", "38-2960415", "1550 Foundry St", "Grand Rapids", "MI", "49503", "(616) 555-0108", "CRM"},
	{"Larkspur Home Care Services", "95-4471208", "2600 Mission Blvd", "Fresno", "CA", "93721", "(559) 555-0131", "LHC"},
	{"Westbrook Hardware & Supply", "41-1786653", "88 Main St N", "Rochester", "MN", "55906", "(507) 555-0185", "WHS"},
	{"Quillfeather Learning Centers", "13-6654029", "41 Hudson Ave", "Albany", "NY", "12210", "(518) 555-0159", "QLC"},
	{"Redfern Analytics Corporation", "94-3328861", "1 Embarcadero Ctr Fl 12", "San Francisco", "CA", "94111", "(415) 555-0102", "RAC"},
	{"Maple Hollow Veterinary Clinic", "23-7719446", "507 Orchard Ln", "Lancaster", "PA", "17601", "(717) 555-0148", "MHV"},
	{"Silverline Property Management", "86-2205317", "4455 E Camelback Rd", "Phoenix", "AZ", "85018", "(602) 555-0164", "SPM"},
	{"Dunmore Concrete & Paving LLC", "62-1845590", "12 Gravel Pit Rd", "Knoxville", "TN", "37914", "(865) 555-0119", "DCP"},
	{"Greenhaven Grocery Cooperative", "93-0871264", "215 NW Alder St", "Portland", "OR", "97209", "(503) 555-0133", "GGC"},
	{"Ashford Title & Escrow Inc.", "52-2036687", "9 W Church St", "Frederick", "MD", "21701", "(301) 555-0171", "ATE"},
}

var (
	firsts  = []string{"Marisol", "Trevor", "Adaeze", "Brennan", "Huong", "Delphine", "Rafael", "Shauna", "Kofi", "Ingrid", "Dmitri", "Latoya", "Wendell", "Priyanka", "Colm", "Yesenia", "Bartholomew", "Noor", "Esteban", "Georgina", "Tobias", "Keiko", "Lamar", "Solveig"}
	middles = []string{"A", "J", "", "R", "M", "", "T", "E", "K", "L", "", "D"}
	lasts   = []string{"Okonkwo", "Vasquez-Reyes", "Lindqvist", "Pellegrino", "Abernathy", "Thibodeaux", "Nakagawa", "Fairweather", "Castellanos", "Oyelaran", "Brzezinski", "McAllister", "Desrosiers", "Halvorsen", "Quintero", "Achterberg", "Ramanathan", "Whitcombe", "Dossou", "Kettering", "Ferreira", "Sandoval", "Ostrowski", "Blackwood"}
	streets = []string{"Larch St", "Willow Bend Dr", "Canterbury Ct", "Foxglove Ln", "Harbor View Rd", "Old Mill Rd", "Juniper Ave", "Sycamore Pl", "Quail Run", "Beacon Hill Ter"}
	towns   = []struct{ city, state, zip string }{{"Naperville", "IL", "60540"}, {"Quincy", "MA", "02169"}, {"Longmont", "CO", "80501"}, {"Pooler", "GA", "31322"}, {"Hammond", "IN", "46320"}, {"Georgetown", "KY", "40324"}, {"Wyoming", "MI", "49509"}, {"Clovis", "CA", "93612"}, {"Byron", "MN", "55920"}, {"Troy", "NY", "12180"}, {"Oakland", "CA", "94610"}, {"Lititz", "PA", "17543"}, {"Tempe", "AZ", "85281"}, {"Maryville", "TN", "37801"}, {"Beaverton", "OR", "97005"}, {"Walkersville", "MD", "21793"}}
)

func newPerson(r *rand.Rand, emp int) Person {
	t := towns[emp%len(towns)]
	return Person{First: firsts[r.IntN(len(firsts))], Middle: middles[r.IntN(len(middles))], Last: lasts[r.IntN(len(lasts))],
		Street: fmt.Sprintf("%d %s", 100+r.IntN(8900), streets[r.IntN(len(streets))]), City: t.city, State: t.state, Zip: t.zip,
		SSN4: fmt.Sprintf("%04d", 1000+r.IntN(8999)), ID: fmt.Sprintf("%06d", 100000+r.IntN(899999))}
}

// Line is one earnings, tax, deduction, reimbursement or memo line: hours in
// hundredths, rate in ten-thousandths of a dollar, amounts in cents.
type Line struct {
	Key         string
	Hours, Rate int64
	Amount, YTD int64
	YTDHours    int64
	PreTax      bool
	Active      bool // on this period's stub with a current amount
}

type Leave struct {
	Name                     string
	Begin, Earned, Used, End int64 // hundredths of an hour
}

// Stub is one period of a job: figures that hold together.
type Stub struct {
	Job                   *Job
	N                     int // period of the year, from 1
	PayDate, Start, End   time.Time
	Earnings, Taxes, Deds []Line
	Reimb, Memo           []Line
	Gross, Net            int64
	TaxesTotal, DedsTotal int64
	ReimbTotal            int64
	PreTax, PostTax       int64
	FedTaxable            int64
	GrossYTD, NetYTD      int64
	TaxesYTD, DedsYTD     int64
	ReimbYTD              int64
	PreTaxYTD, PostTaxYTD int64
	FedTaxableYTD         int64
	HoursTotal, HoursYTD  int64
	Leave                 []Leave
	CheckNo, AdviceNo     int
	Shifts                [][2]int64 // tipped: day of period, hours
}

type Job struct {
	Emp                     Employer
	P                       Person
	Kind                    string // hourly, salary, tipped, trucking, monthly
	Freq                    string // weekly, biweekly, semimonthly, monthly
	Year                    int
	Rate                    int64 // ten-thousandths of a dollar an hour
	Annual                  int64 // cents a year
	SITRate, SIT2Rate       int64 // basis points
	State2                  string
	Pct401k, PensionPct     int64
	Medical, Dental, Vision int64
	Roth, Life, Loan        int64
	LoanStop                int // the loan's last period
	Union, ChildSupport     int64
	SDI                     bool
	Bonus                   map[int]int64
	RSU                     map[int]int64
	GTL                     int64
	Match                   bool
	NoOT                    bool
	Expense                 bool // an expense reimbursement every other period
	ERHealth                int64
	Dept, Title, Location   string
	FirstEnd                time.Time // end of the first period
	seed                    uint64
	stubs                   []Stub
}

func periodsPerYear(f string) int64 {
	return map[string]int64{"weekly": 52, "biweekly": 26, "semimonthly": 24, "monthly": 12}[f]
}

func pct(v, bp int64) int64 { // v × bp/10000, rounded half up
	if v < 0 {
		return -pct(-v, bp)
	}
	return (v*bp + 5000) / 10000
}

// amountOf is hours × rate rounded to the cent.
func amountOf(h, rate int64) int64 { return (h*rate + 5000) / 10000 }

// periodDates: the n-th period of the job's year (start, end, pay date).
func (j *Job) periodDates(n int) (time.Time, time.Time, time.Time) {
	switch j.Freq {
	case "weekly", "biweekly":
		d := 7
		if j.Freq == "biweekly" {
			d = 14
		}
		end := j.FirstEnd.AddDate(0, 0, d*(n-1))
		return end.AddDate(0, 0, 1-d), end, end.AddDate(0, 0, 5)
	case "semimonthly":
		m := time.Month((n + 1) / 2)
		if n%2 == 1 {
			s := time.Date(j.Year, m, 1, 0, 0, 0, 0, time.UTC)
			e := time.Date(j.Year, m, 15, 0, 0, 0, 0, time.UTC)
			return s, e, e.AddDate(0, 0, 5)
		}
		s := time.Date(j.Year, m, 16, 0, 0, 0, 0, time.UTC)
		e := time.Date(j.Year, m+1, 0, 0, 0, 0, 0, time.UTC)
		return s, e, e
	default: // monthly, paid on the last day
		s := time.Date(j.Year, time.Month(n), 1, 0, 0, 0, 0, time.UTC)
		e := s.AddDate(0, 1, -1)
		return s, e, e
	}
}

// Stub returns the job's n-th stub of the year (1-based), simulating the
// year's periods up to it so every YTD is the sum of the periods.
func (j *Job) Stub(n int) Stub {
	for len(j.stubs) < n {
		j.simulate(len(j.stubs) + 1)
	}
	s := j.stubs[n-1]
	cp := func(l []Line) []Line { return append([]Line(nil), l...) }
	s.Earnings, s.Taxes, s.Deds, s.Reimb, s.Memo = cp(s.Earnings), cp(s.Taxes), cp(s.Deds), cp(s.Reimb), cp(s.Memo)
	s.Leave = append([]Leave(nil), s.Leave...)
	return s
}

func carry(prev []Line, cur []Line) []Line {
	out := []Line{}
	seen := map[string]bool{}
	for _, c := range cur {
		c.Active = true
		for _, p := range prev {
			if p.Key == c.Key {
				c.YTD, c.YTDHours = p.YTD, p.YTDHours
			}
		}
		c.YTD += c.Amount
		c.YTDHours += c.Hours
		seen[c.Key] = true
		out = append(out, c)
	}
	for _, p := range prev { // lines of earlier periods keep their YTD
		if !seen[p.Key] {
			p.Amount, p.Hours, p.Active = 0, 0, false
			if p.Key != "sdi_cap" {
				out = append(out, p)
			}
		}
	}
	return out
}

func sumLines(ls []Line) (t int64) {
	for _, l := range ls {
		t += l.Amount
	}
	return
}

func (j *Job) simulate(n int) {
	r := rand.New(rand.NewPCG(j.seed, uint64(n)))
	var prev Stub
	if n > 1 {
		prev = j.stubs[n-2]
	}
	s := Stub{Job: j, N: n}
	s.Start, s.End, s.PayDate = j.periodDates(n)
	per := periodsPerYear(j.Freq)
	var earn, reimb, memo []Line
	var hoursWorked int64
	switch j.Kind {
	case "hourly":
		base := map[string]int64{"weekly": 4000, "biweekly": 8000, "semimonthly": 8667}[j.Freq]
		h := base - int64(r.IntN(9))*25*map[bool]int64{true: 1, false: 0}[r.IntN(3) == 0]
		earn = append(earn, Line{Key: "regular", Hours: h, Rate: j.Rate, Amount: amountOf(h, j.Rate)})
		hoursWorked += h
		if !j.NoOT && r.IntN(2) == 0 {
			ot := int64(50 * (1 + r.IntN(16)))
			earn = append(earn, Line{Key: "overtime", Hours: ot, Rate: j.Rate * 3 / 2, Amount: amountOf(ot, j.Rate*3/2)})
			hoursWorked += ot
		}
	case "salary":
		h := map[string]int64{"weekly": 4000, "biweekly": 8000, "semimonthly": 8667}[j.Freq]
		earn = append(earn, Line{Key: "salary", Hours: h, Rate: j.Rate, Amount: amountOf(h, j.Rate)})
		hoursWorked += h
	case "monthly":
		earn = append(earn, Line{Key: "salary", Amount: j.Annual / 12})
		hoursWorked += 17333
	case "tipped":
		var total int64
		days := 4 + r.IntN(3)
		for d := 0; d < days; d++ {
			h := int64(400 + 25*r.IntN(14))
			s.Shifts = append(s.Shifts, [2]int64{int64(d*2 + r.IntN(2)), h})
			total += h
		}
		earn = append(earn, Line{Key: "tipped", Hours: total, Rate: 21300, Amount: amountOf(total, 21300)})
		earn = append(earn, Line{Key: "cctips", Amount: int64(18000 + r.IntN(30000))})
		cash := int64(6000 + r.IntN(12000))
		earn = append(earn, Line{Key: "cashtips", Amount: cash})
		memo = append(memo, Line{Key: "tipcredit", Hours: total, Rate: 51200, Amount: amountOf(total, 51200)})
		hoursWorked += total
	case "trucking":
		reg := int64(4000)
		earn = append(earn, Line{Key: "regular", Hours: reg, Rate: j.Rate, Amount: amountOf(reg, j.Rate)})
		ot := int64(100 * (4 + r.IntN(10)))
		earn = append(earn, Line{Key: "overtime", Hours: ot, Rate: j.Rate * 3 / 2, Amount: amountOf(ot, j.Rate*3/2)})
		hoursWorked += reg + ot
		if r.IntN(2) == 0 {
			dt := int64(100 * (2 + r.IntN(4)))
			earn = append(earn, Line{Key: "doubletime", Hours: dt, Rate: j.Rate * 2, Amount: amountOf(dt, j.Rate*2)})
			hoursWorked += dt
		}
		days := int64(3 + r.IntN(3))
		reimb = append(reimb, Line{Key: "perdiem", Hours: days * 100, Rate: 690000, Amount: days * 6900})
		miles := int64(40 + r.IntN(260))
		reimb = append(reimb, Line{Key: "mileage", Hours: miles * 100, Rate: 7000, Amount: miles * 70})
	}
	if b := j.Bonus[n]; b > 0 {
		earn = append(earn, Line{Key: "bonus", Amount: b})
	}
	if j.Expense && n%2 == 0 {
		reimb = append(reimb, Line{Key: "expense", Amount: int64(2500 + r.IntN(9000))})
	}
	gross := sumLines(earn)
	var deds []Line
	add := func(k string, v int64, pre bool) {
		if v > 0 {
			deds = append(deds, Line{Key: k, Amount: v, PreTax: pre})
		}
	}
	add("401k", pct(gross-lineAmt(earn, "cashtips")-lineAmt(earn, "cctips"), j.Pct401k*100), true)
	add("pension", pct(gross, j.PensionPct*100), true)
	add("medical", j.Medical, true)
	add("dental", j.Dental, true)
	add("vision", j.Vision, true)
	add("roth", pct(gross, j.Roth*100), false)
	add("life", j.Life, false)
	if n <= j.LoanStop {
		add("loan", j.Loan, false)
	}
	add("union", j.Union, false)
	add("childsupport", j.ChildSupport, false)
	add("cashtipsrecv", lineAmt(earn, "cashtips"), false)
	imputed := j.GTL + j.RSU[n]
	if j.GTL > 0 {
		memo = append(memo, Line{Key: "gtl", Amount: j.GTL})
	}
	if j.RSU[n] > 0 {
		memo = append(memo, Line{Key: "rsu", Amount: j.RSU[n]})
	}
	var sec125, pre401 int64
	for _, d := range deds {
		switch d.Key {
		case "medical", "dental", "vision":
			sec125 += d.Amount
		case "401k", "pension":
			pre401 += d.Amount
		}
	}
	fica := gross - sec125 + imputed
	fedTaxable := fica - pre401
	allowance := 1_610_000 / per
	fed := pct(max(0, fedTaxable-allowance), 1200)
	if fedTaxable > 400000 {
		fed = pct(fedTaxable-allowance, 2000)
	}
	ssWages := fica
	const wageBase = 17_610_000
	prevSS := prev.ssWagesYTD()
	if prevSS+ssWages > wageBase {
		ssWages = max(0, wageBase-prevSS)
	}
	taxes := []Line{{Key: "fed", Amount: fed}, {Key: "ss", Amount: pct(ssWages, 620), Hours: ssWages}, {Key: "med", Amount: pct(fica, 145)}}
	if j.SITRate > 0 {
		base := fedTaxable
		if j.State2 != "" {
			base = fedTaxable * 6 / 10
		}
		taxes = append(taxes, Line{Key: "sit", Amount: pct(base, j.SITRate)})
	}
	if j.State2 != "" {
		taxes = append(taxes, Line{Key: "sit2", Amount: pct(fedTaxable-fedTaxable*6/10, j.SIT2Rate)})
	}
	if j.SDI {
		taxes = append(taxes, Line{Key: "sdi", Amount: pct(fica, 120)})
	}
	if j.Match {
		memo = append(memo, Line{Key: "match", Amount: lineAmt(deds, "401k") / 2})
	}
	if j.ERHealth > 0 {
		memo = append(memo, Line{Key: "erhealth", Amount: j.ERHealth})
	}
	s.Earnings = carry(prev.Earnings, earn)
	s.Taxes = carry(prev.Taxes, taxes)
	s.Deds = carry(prev.Deds, deds)
	s.Reimb = carry(prev.Reimb, reimb)
	s.Memo = carry(prev.Memo, memo)
	s.Gross = gross
	s.TaxesTotal, s.DedsTotal, s.ReimbTotal = sumLines(taxes), sumLines(deds), sumLines(reimb)
	for _, d := range deds {
		if d.PreTax {
			s.PreTax += d.Amount
		} else {
			s.PostTax += d.Amount
		}
	}
	s.FedTaxable = fedTaxable
	s.Net = gross - s.TaxesTotal - s.DedsTotal + s.ReimbTotal
	if s.Net <= 0 {
		panic(fmt.Sprintf("net %d for %s period %d", s.Net, j.P.Full(), n))
	}
	s.GrossYTD, s.NetYTD = prev.GrossYTD+s.Gross, prev.NetYTD+s.Net
	s.TaxesYTD, s.DedsYTD, s.ReimbYTD = prev.TaxesYTD+s.TaxesTotal, prev.DedsYTD+s.DedsTotal, prev.ReimbYTD+s.ReimbTotal
	s.PreTaxYTD, s.PostTaxYTD = prev.PreTaxYTD+s.PreTax, prev.PostTaxYTD+s.PostTax
	s.FedTaxableYTD = prev.FedTaxableYTD + fedTaxable
	s.HoursTotal, s.HoursYTD = hoursWorked, prev.HoursYTD+hoursWorked
	vacBegin := int64(4000)
	sickBegin := int64(2400)
	if n > 1 {
		vacBegin, sickBegin = prev.Leave[0].End, prev.Leave[1].End
	}
	accr := 26 * 308 / per
	used := int64(0)
	if r.IntN(4) == 0 {
		used = 800
	}
	sickUsed := int64(0)
	if r.IntN(6) == 0 {
		sickUsed = 400
	}
	s.Leave = []Leave{{"Vacation", vacBegin, accr, used, vacBegin + accr - used}, {"Sick", sickBegin, 123, sickUsed, sickBegin + 123 - sickUsed}}
	s.CheckNo = 1000 + int(j.seed%700) + n
	s.AdviceNo = 400000 + int(j.seed%90000)*3 + n
	j.stubs = append(j.stubs, s)
}

func (s Stub) ssWagesYTD() int64 {
	for _, t := range s.Taxes {
		if t.Key == "ss" {
			return t.YTDHours // the SS line carries its wages in Hours
		}
	}
	return 0
}

func lineAmt(ls []Line, key string) int64 {
	for _, l := range ls {
		if l.Key == key {
			return l.Amount
		}
	}
	return 0
}

func findLine(ls []Line, key string) *Line {
	for i := range ls {
		if ls[i].Key == key {
			return &ls[i]
		}
	}
	return nil
}

// Display names by default; layouts override some.
var defaultNames = map[string]string{
	"regular": "Regular", "overtime": "Overtime", "doubletime": "Double Time", "salary": "Salary", "bonus": "Bonus",
	"tipped": "Tipped Hourly", "cctips": "Credit Card Tips", "cashtips": "Cash Tips",
	"fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare", "sit": "State Income Tax", "sit2": "State Income Tax 2", "sdi": "CA SDI",
	"401k": "401(k)", "pension": "Pension", "medical": "Medical", "dental": "Dental", "vision": "Vision", "roth": "Roth 401(k)",
	"life": "Supp Life", "loan": "401(k) Loan", "union": "Union Dues", "childsupport": "Child Support", "cashtipsrecv": "Cash Tips Received",
	"perdiem": "Per Diem", "mileage": "Mileage Reimb", "expense": "Expense Reimb",
	"gtl": "Group Term Life", "rsu": "RSU Vest", "tipcredit": "Tip Credit", "match": "401(k) Match", "erhealth": "Employer Medical",
}

// Money formats cents as 1,234.56.
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

func plain(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) } // truth: "2725.48"
func hrs(h int64) string   { return money(h) }                             // hundredths of an hour print as cents do
func rate4(r int64) string { return fmt.Sprintf("%d.%04d", r/10000, r%10000) }
func rate2(r int64) string { return money((r + 50) / 100) }
func usd(c int64) string   { return "$" + money(c) }

func ymd(t time.Time) string { return t.Format("2006-01-02") }
