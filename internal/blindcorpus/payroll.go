package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Person is a synthetic employee.
type Person struct {
	First, Middle, Last, Suffix string
	Addr1, City, State, Zip     string
	SSN4                        string
	Married                     bool
}

// Full is "Maria L. Gonzalez".
func (p *Person) Full() string {
	s := p.First
	if p.Middle != "" {
		s += " " + p.Middle + "."
	}
	s += " " + p.Last
	if p.Suffix != "" {
		s += " " + p.Suffix
	}
	return s
}

// Plain is "Maria L Gonzalez".
func (p *Person) Plain() string { return strings.ReplaceAll(p.Full(), ".", "") }

// LastFirst is "Gonzalez,Maria L".
func (p *Person) LastFirst() string {
	s := p.Last + "," + p.First
	if p.Middle != "" {
		s += " " + p.Middle
	}
	return s
}

func (p *Person) CityLine() string { return fmt.Sprintf("%s, %s %s", p.City, p.State, p.Zip) }
func (p *Person) SSN() string      { return "XXX-XX-" + p.SSN4 }

// Company is a synthetic employer.
type Company struct {
	Name, Addr1, City, State, Zip, Phone, EIN string
	StateID                                   map[string]string
	Code                                      string
	Bank, BankAddr                            string
}

func (c *Company) CityLine() string { return fmt.Sprintf("%s, %s %s", c.City, c.State, c.Zip) }
func (c *Company) OneLine() string  { return c.Addr1 + ", " + c.CityLine() }

type DedKind int

const (
	Pre401k DedKind = iota // exempt from income tax, not from FICA
	S125                   // cafeteria plan: exempt from income tax and FICA
	Post                   // after tax
)

// DedRule is a recurring employee deduction.
type DedRule struct {
	Code, Name string
	Kind       DedKind
	BP         int64 // percent of cash gross, basis points
	Fixed      Cents
	From       int // first period index (within the year) it applies
}

// EarnIn is one earnings item of one period, before year-to-date bookkeeping.
type EarnIn struct {
	Code, Name         string
	Hours              Hours
	Rate               Rate
	HasHours, HasRate  bool
	Amount             Cents
	Supp               bool   // supplemental wages (bonus, RSU): 22% flat federal
	Tips               bool   // tips (W-2 box 7)
	Memo               bool   // imputed income printed as memo: taxed, not part of gross
	Offset, OffsetName string // imputed income inside gross, taken back by a post-tax deduction
}

// Item is a reimbursement or a one-off post-tax deduction.
type Item struct {
	Code, Name        string
	Amount            Cents
	Hours             Hours // miles or days for reimbursements
	Rate              Rate
	HasHours, HasRate bool
}

// Line is one printed line with its current and year-to-date figures.
type Line struct {
	Code, Name        string
	Amount, YTD       Cents
	Hours, YTDHours   Hours
	Rate              Rate
	HasHours, HasRate bool
	Kind              DedKind
	Cur               bool // has a current figure this period
	Supp, Tips, Memo  bool
}

func (l Line) PreTax() bool { return l.Kind == Pre401k || l.Kind == S125 }

type Leave struct {
	Name                     string
	Begin, Earned, Used, End Hours
	YTDEarned, YTDUsed       Hours
	accrual                  Hours
}

type Deposit struct {
	Bank, Type, Acct string
	Amount           Cents
}

// Stub is one simulated pay period.
type Stub struct {
	Job                   *Job
	Idx                   int
	Start, End, Pay       time.Time
	CheckNo, AdviceNo     int
	Earn, Memo, Tax, Ded  []Line
	Reimb, Employer       []Line
	Gross, Net            Cents
	TaxTot, DedTot        Cents
	PreDed, PostDed       Cents
	ReimbTot              Cents
	FedTaxable, FicaWages Cents
	StateTaxable          map[string]Cents
	GrossYTD, NetYTD      Cents
	TaxYTD, DedYTD        Cents
	PreDedYTD, PostDedYTD Cents
	ReimbYTD              Cents
	FedTaxableYTD         Cents
	FicaYTD, SSWagesYTD   Cents
	StateTaxableYTD       map[string]Cents
	HoursTot, HoursYTD    Hours
	Leave                 []Leave
	Deposits              []Deposit
	MemoTot, MemoYTD      Cents
	TipsTot, TipsYTD      Cents
}

type StateShare struct {
	State string
	Pct   int64 // percent of wages taxed by this state
}

type Ctx struct {
	Job             *Job
	Idx             int
	Start, End, Pay time.Time
	R               *rand.Rand
}

// Job is a person's employment: pay schedule, pay, deductions and taxes.
type Job struct {
	Series      string
	Co          *Company
	P           *Person
	Freq        int // 52, 26, 24, 12
	PayLag      int // days from period end to pay date
	Anchor      time.Time
	Hourly      bool
	Rate        Rate
	Salary      Cents
	Std         Hours
	OTChance    float64
	OTMax       Hours
	VacChance   float64
	States      []StateShare // income tax states; first is the work state for SDI etc.
	Local       string       // local income tax code
	Deds        []DedRule
	EarnFn      func(c *Ctx) []EarnIn
	ExtraFn     func(c *Ctx) (reimb []Item, post []Item)
	MatchBP     int64 // employer 401(k) match, basis points of gross
	ERHealth    Cents
	SUTABP      int64
	SUTABase    Cents
	VacAccrual  Hours
	VacBegin    Hours
	SickAccrual Hours
	SickBegin   Hours
	Savings     Cents
	Bank1       string
	Acct1       string
	Bank2       string
	Acct2       string
	Title, Dept string
	Loc, EmpID  string
	CheckStart  int
	Holidays    bool // paid holidays
	Names       map[string]string

	stubs map[int][]*Stub
}

// periods lists the pay periods whose pay date falls in year.
func (j *Job) periods(year int) [][3]time.Time {
	var out [][3]time.Time
	switch j.Freq {
	case 52, 26:
		step := 7 * 52 / j.Freq
		e := j.Anchor
		for e.Year() >= year-1 {
			e = e.AddDate(0, 0, -step)
		}
		for ; e.Year() <= year; e = e.AddDate(0, 0, step) {
			p := bizday(e.AddDate(0, 0, j.PayLag))
			if p.Year() == year {
				out = append(out, [3]time.Time{e.AddDate(0, 0, -step+1), e, p})
			}
		}
	case 24:
		for m := 0; m < 14; m++ {
			first := date(year, 1, 1).AddDate(0, m-1, 0)
			mid := first.AddDate(0, 0, 14)
			last := first.AddDate(0, 1, -1)
			for _, pe := range [][2]time.Time{{first, mid}, {mid.AddDate(0, 0, 1), last}} {
				p := bizday(pe[1].AddDate(0, 0, j.PayLag))
				if p.Year() == year {
					out = append(out, [3]time.Time{pe[0], pe[1], p})
				}
			}
		}
	case 12:
		for m := 0; m < 14; m++ {
			first := date(year, 1, 1).AddDate(0, m-1, 0)
			last := first.AddDate(0, 1, -1)
			p := bizday(last.AddDate(0, 0, j.PayLag))
			if p.Year() == year {
				out = append(out, [3]time.Time{first, last, p})
			}
		}
	}
	return out
}

// bizday moves a weekend date to the Friday before.
func bizday(t time.Time) time.Time {
	switch t.Weekday() {
	case time.Saturday:
		return t.AddDate(0, 0, -1)
	case time.Sunday:
		return t.AddDate(0, 0, -2)
	}
	return t
}

func nthWeekday(y, m int, wd time.Weekday, n int) time.Time {
	t := date(y, m, 1)
	for t.Weekday() != wd {
		t = t.AddDate(0, 0, 1)
	}
	if n > 0 {
		return t.AddDate(0, 0, 7*(n-1))
	}
	// last
	for t.AddDate(0, 0, 7).Month() == time.Month(m) {
		t = t.AddDate(0, 0, 7)
	}
	return t
}

func observed(t time.Time) time.Time {
	switch t.Weekday() {
	case time.Saturday:
		return t.AddDate(0, 0, -1)
	case time.Sunday:
		return t.AddDate(0, 0, 1)
	}
	return t
}

func holidays(y int) []time.Time {
	return []time.Time{
		observed(date(y, 1, 1)), nthWeekday(y, 1, time.Monday, 3), nthWeekday(y, 5, time.Monday, -1),
		observed(date(y, 7, 4)), nthWeekday(y, 9, time.Monday, 1), nthWeekday(y, 11, time.Thursday, 4),
		nthWeekday(y, 11, time.Thursday, 4).AddDate(0, 0, 1), observed(date(y, 12, 25)),
	}
}

func holidaysIn(s, e time.Time) int {
	n := 0
	for y := s.Year(); y <= e.Year(); y++ {
		for _, h := range holidays(y) {
			if !h.Before(s) && !h.After(e) {
				n++
			}
		}
	}
	return n
}

// Federal withholding, a simplified annualized percentage method.
type bracket struct {
	upTo Cents
	bp   int64
}

func fedTable(year int, married bool) (Cents, []bracket) {
	if year >= 2026 {
		if married {
			return 3220000, []bracket{{2480000, 1000}, {10080000, 1200}, {21140000, 2200}, {40355000, 2400}, {51245000, 3200}, {76870000, 3500}, {1 << 50, 3700}}
		}
		return 1610000, []bracket{{1240000, 1000}, {5040000, 1200}, {10570000, 2200}, {20177500, 2400}, {25622500, 3200}, {64060000, 3500}, {1 << 50, 3700}}
	}
	if married {
		return 3000000, []bracket{{2385000, 1000}, {9695000, 1200}, {20670000, 2200}, {39460000, 2400}, {50105000, 3200}, {75160000, 3500}, {1 << 50, 3700}}
	}
	return 1500000, []bracket{{1192500, 1000}, {4847500, 1200}, {10335000, 2200}, {19730000, 2400}, {25052500, 3200}, {62635000, 3500}, {1 << 50, 3700}}
}

func fedWithholding(year int, married bool, perPeriod Cents, periods int) Cents {
	std, br := fedTable(year, married)
	annual := perPeriod*Cents(periods) - std
	if annual <= 0 {
		return 0
	}
	var tax Cents
	var lo Cents
	for _, b := range br {
		if annual > lo {
			top := min(annual, b.upTo)
			tax += pct(top-lo, b.bp)
		}
		lo = b.upTo
	}
	return (tax + Cents(periods)/2) / Cents(periods)
}

type stateRule struct {
	BP     int64
	Exempt Cents // annual
}

var stateRules = map[string]stateRule{
	"CA": {410, 560000}, "NY": {520, 800000}, "NJ": {320, 100000}, "PA": {307, 0}, "IL": {495, 285000},
	"GA": {519, 1200000}, "NC": {425, 1275000}, "VA": {530, 930000}, "OH": {275, 2600000}, "MD": {680, 320000},
	"MA": {500, 440000}, "CO": {440, 0}, "AZ": {250, 1500000}, "OR": {790, 280000}, "MI": {425, 580000},
	"WI": {520, 1100000}, "MN": {560, 1460000}, "IN": {300, 100000}, "KY": {400, 327000}, "MO": {450, 1500000},
	"TX": {0, 0}, "FL": {0, 0}, "WA": {0, 0}, "TN": {0, 0}, "NV": {0, 0}, "SC": {620, 1450000}, "UT": {455, 0},
	"CT": {500, 1200000}, "IA": {380, 0}, "NE": {500, 800000}, "NM": {330, 1500000}, "NH": {0, 0},
}

func stateWithholding(st string, year int, taxable Cents, periods int) Cents {
	r := stateRules[st]
	bp := r.BP
	if st == "NC" && year >= 2026 {
		bp = 399
	}
	b := taxable - r.Exempt/Cents(periods)
	if b <= 0 || bp == 0 {
		return 0
	}
	return pct(b, bp)
}

// employee payroll taxes of the work state: code, name, micro-rate, wage base (0 = none), per-period cap.
type stTax struct {
	Code, Name string
	Micro      int64
	Base       Cents
	WeekCap    Cents
}

func stateEmployeeTaxes(st string, year int) []stTax {
	switch st {
	case "CA":
		if year >= 2026 {
			return []stTax{{"SDI_CA", "CA SDI", 13000, 0, 0}}
		}
		return []stTax{{"SDI_CA", "CA SDI", 12000, 0, 0}}
	case "NY":
		pfl := int64(3880)
		if year >= 2026 {
			pfl = 4320
		}
		return []stTax{{"SDI_NY", "NY SDI", 5000, 0, 60}, {"PFL_NY", "NY PFL", pfl, 9141000, 0}}
	case "NJ":
		return []stTax{{"SUI_NJ", "NJ SUI", 4250, 4430000, 0}, {"SDI_NJ", "NJ SDI", 2300, 17120000, 0}, {"FLI_NJ", "NJ FLI", 3300, 17120000, 0}}
	case "PA":
		return []stTax{{"SUI_PA", "PA SUI", 700, 0, 0}}
	case "MA":
		return []stTax{{"PFML_MA", "MA PFML", 4600, 17610000, 0}}
	case "WA":
		return []stTax{{"PFML_WA", "WA PFML", 7400, 17610000, 0}, {"LTC_WA", "WA Cares", 5800, 0, 0}}
	case "CO":
		return []stTax{{"FAMLI_CO", "CO FAMLI", 4500, 17610000, 0}}
	case "OR":
		return []stTax{{"PFML_OR", "OR PFML", 6000, 17610000, 0}}
	}
	return nil
}

var localRules = map[string]struct {
	Name string
	BP   int64
}{
	"PHL":  {"Philadelphia Wage Tax", 374},
	"EIT":  {"Local EIT", 100},
	"NYC":  {"NYC Income Tax", 360},
	"CBUS": {"Columbus City Tax", 250},
	"KCMO": {"Kansas City Earnings Tax", 100},
	"DET":  {"Detroit City Tax", 240},
}

const ssBase2025 = 17610000
const ssBase2026 = 18450000

func ssBase(year int) Cents {
	if year >= 2026 {
		return ssBase2026
	}
	return ssBase2025
}

type acc struct {
	order []string
	m     map[string]*Line
}

func newAcc() *acc { return &acc{m: map[string]*Line{}} }

func (a *acc) get(code, name string) *Line {
	l, ok := a.m[code]
	if !ok {
		l = &Line{Code: code, Name: name}
		a.m[code] = l
		a.order = append(a.order, code)
	}
	return l
}

func (a *acc) startPeriod() {
	for _, l := range a.m {
		l.Amount, l.Hours, l.Cur, l.HasHours, l.HasRate, l.Rate = 0, 0, false, false, false, 0
	}
}

func (a *acc) add(code, name string, amt Cents, h Hours, r Rate, hasH, hasR bool) *Line {
	l := a.get(code, name)
	l.Cur = true
	l.Amount += amt
	l.YTD += amt
	if hasH {
		l.Hours += h
		l.YTDHours += h
		l.HasHours = true
	}
	if hasR {
		l.Rate = r
		l.HasRate = true
	}
	return l
}

func (a *acc) snapshot() []Line {
	var out []Line
	for _, c := range a.order {
		l := *a.m[c]
		if l.Cur || l.YTD != 0 {
			out = append(out, l)
		}
	}
	return out
}

func (a *acc) sum() (cur, ytd Cents) {
	for _, l := range a.m {
		cur += l.Amount
		ytd += l.YTD
	}
	return
}

// standardEarnings: regular hours or salary, holidays, vacation, sick, overtime.
func standardEarnings(c *Ctx) []EarnIn {
	j := c.Job
	var hol, vac, sick Hours
	if j.Holidays {
		hol = Hours(holidaysIn(c.Start, c.End)) * 800
	}
	if c.R.Float64() < j.VacChance {
		vac = Hours(pick(c.R, 800, 1600, 800, 2400, 400))
	}
	if c.R.Float64() < j.VacChance/2 {
		sick = Hours(pick(c.R, 400, 800))
	}
	if hol+vac+sick > j.Std/2 {
		vac, sick = 0, 0
	}
	reg := j.Std - hol - vac - sick
	name := func(code, def string) string {
		if n, ok := j.Names[code]; ok {
			return n
		}
		return def
	}
	var out []EarnIn
	rate := j.Rate
	if !j.Hourly {
		per := Cents((int64(j.Salary) + int64(j.Freq)/2) / int64(j.Freq))
		rate = rateFor(per, j.Std)
		if hol+vac+sick == 0 {
			out = append(out, EarnIn{Code: "REG", Name: name("REG", "Regular"), Hours: j.Std, Rate: rate, HasHours: true, HasRate: true, Amount: per})
		} else {
			out = append(out, EarnIn{Code: "REG", Name: name("REG", "Regular"), Hours: reg, Rate: rate, HasHours: true, HasRate: true, Amount: pay(reg, rate)})
		}
	} else {
		out = append(out, EarnIn{Code: "REG", Name: name("REG", "Regular"), Hours: reg, Rate: rate, HasHours: true, HasRate: true, Amount: pay(reg, rate)})
		if j.OTChance > 0 && c.R.Float64() < j.OTChance {
			ot := Hours(25 * between(c.R, 4, int(j.OTMax/25)))
			otr := rate * 3 / 2
			out = append(out, EarnIn{Code: "OT", Name: name("OT", "Overtime"), Hours: ot, Rate: otr, HasHours: true, HasRate: true, Amount: pay(ot, otr)})
		}
	}
	if hol > 0 {
		out = append(out, EarnIn{Code: "HOL", Name: name("HOL", "Holiday"), Hours: hol, Rate: rate, HasHours: true, HasRate: true, Amount: pay(hol, rate)})
	}
	if vac > 0 {
		out = append(out, EarnIn{Code: "VAC", Name: name("VAC", "Vacation"), Hours: vac, Rate: rate, HasHours: true, HasRate: true, Amount: pay(vac, rate)})
	}
	if sick > 0 {
		out = append(out, EarnIn{Code: "SICK", Name: name("SICK", "Sick"), Hours: sick, Rate: rate, HasHours: true, HasRate: true, Amount: pay(sick, rate)})
	}
	return out
}

// rateFor finds a four-decimal rate such that hours × rate rounds to amount.
func rateFor(amount Cents, h Hours) Rate {
	r := Rate(int64(amount) * 10000 / int64(h))
	for d := Rate(0); d < 50; d++ {
		if pay(h, r+d) == amount {
			return r + d
		}
		if pay(h, r-d) == amount {
			return r - d
		}
	}
	panic(fmt.Sprintf("no rate for %d over %d", amount, h))
}

// Simulate returns every stub of year, each with exact year-to-date figures.
func (j *Job) Simulate(year int) []*Stub {
	if j.stubs == nil {
		j.stubs = map[int][]*Stub{}
	}
	if s, ok := j.stubs[year]; ok {
		return s
	}
	r := seeded(fmt.Sprintf("%s/%d", j.Series, year))
	earn, memo, tax, ded, reimb, empl := newAcc(), newAcc(), newAcc(), newAcc(), newAcc(), newAcc()
	var grossY, netY, preY, postY, reimbY, fedY, ficaY, ssY, memoY, tipsY Cents
	var hoursY Hours
	stY := map[string]Cents{}
	var leaves []Leave
	if j.VacAccrual > 0 {
		leaves = append(leaves, Leave{Name: "Vacation", End: j.VacBegin, accrual: j.VacAccrual})
	}
	if j.SickAccrual > 0 {
		leaves = append(leaves, Leave{Name: "Sick", End: j.SickBegin, accrual: j.SickAccrual})
	}
	var out []*Stub
	futaY := Cents(0)
	sutaY := Cents(0)
	for i, p := range j.periods(year) {
		c := &Ctx{Job: j, Idx: i, Start: p[0], End: p[1], Pay: p[2], R: r}
		for _, a := range []*acc{earn, memo, tax, ded, reimb, empl} {
			a.startPeriod()
		}
		var ins []EarnIn
		if j.EarnFn != nil {
			ins = j.EarnFn(c)
		} else {
			ins = standardEarnings(c)
		}
		var gross, cash, memoAmt, supp, tips Cents
		var hours Hours
		var offsets []EarnIn
		var vacUsed, sickUsed Hours
		for _, e := range ins {
			if e.Memo {
				memo.add(e.Code, e.Name, e.Amount, 0, 0, false, false)
				memoAmt += e.Amount
				if e.Supp {
					supp += e.Amount
				}
				continue
			}
			l := earn.add(e.Code, e.Name, e.Amount, e.Hours, e.Rate, e.HasHours, e.HasRate)
			l.Supp, l.Tips = e.Supp, e.Tips
			gross += e.Amount
			if e.Supp {
				supp += e.Amount
			}
			if e.Tips {
				tips += e.Amount
			}
			if e.Offset == "" && !e.Tips && !e.Supp {
				cash += e.Amount
			}
			if e.Offset != "" {
				offsets = append(offsets, e)
			}
			if e.HasHours && e.Code != "PIECE" {
				hours += e.Hours
			}
			if e.Code == "VAC" || e.Code == "PTO" {
				vacUsed += e.Hours
			}
			if e.Code == "SICK" {
				sickUsed += e.Hours
			}
		}
		// deductions
		var pre401, s125, post Cents
		for _, d := range j.Deds {
			if i < d.From {
				continue
			}
			amt := d.Fixed
			if d.BP > 0 {
				amt = pct(cash+supp, d.BP)
			}
			if amt == 0 {
				continue
			}
			l := ded.add(d.Code, d.Name, amt, 0, 0, false, false)
			l.Kind = d.Kind
			switch d.Kind {
			case Pre401k:
				pre401 += amt
			case S125:
				s125 += amt
			default:
				post += amt
			}
		}
		fedTaxable := gross + memoAmt - pre401 - s125
		fica := gross + memoAmt - s125
		// federal
		fit := fedWithholding(year, j.P.Married, fedTaxable-supp, j.Freq) + pct(supp, 2200)
		tax.add("FIT", "Federal Income Tax", fit, 0, 0, false, false)
		ssw := min(fica, max(0, ssBase(year)-ssY))
		ss := pct(ssw, 620)
		tax.add("SS", "Social Security", ss, 0, 0, false, false)
		med := pct(fica, 145)
		if ficaY+fica > 20000000 {
			over := ficaY + fica - max(ficaY, 20000000)
			med += pct(over, 90)
		}
		tax.add("MED", "Medicare", med, 0, 0, false, false)
		stTaxable := map[string]Cents{}
		rest := fedTaxable
		for k, s := range j.States {
			part := rest
			if k < len(j.States)-1 {
				part = fedTaxable * Cents(s.Pct) / 100
				rest -= part
			}
			stTaxable[s.State] = part
			stY[s.State] += part
			if st := stateWithholding(s.State, year, part, j.Freq); st > 0 || stateRules[s.State].BP > 0 {
				tax.add("SIT_"+s.State, s.State+" State Income Tax", st, 0, 0, false, false)
			}
		}
		if len(j.States) > 0 {
			for _, t := range stateEmployeeTaxes(j.States[0].State, year) {
				base := fica
				amt := pctf(base, t.Micro)
				if t.Base > 0 {
					room := max(0, t.Base-(ficaY))
					amt = pctf(min(base, room), t.Micro)
				}
				if t.WeekCap > 0 {
					cap := t.WeekCap * Cents(52/j.Freq)
					if j.Freq == 24 {
						cap = 130
					}
					if j.Freq == 12 {
						cap = 260
					}
					amt = min(amt, cap)
				}
				tax.add(t.Code, t.Name, amt, 0, 0, false, false)
			}
		}
		if j.Local != "" {
			lr := localRules[j.Local]
			tax.add("LOCAL", lr.Name, pct(fica, lr.BP), 0, 0, false, false)
		}
		// imputed offsets and extras
		for _, e := range offsets {
			l := ded.add(e.Offset, e.OffsetName, e.Amount, 0, 0, false, false)
			l.Kind = Post
			post += e.Amount
		}
		var reimbAmt Cents
		if j.ExtraFn != nil {
			rs, ps := j.ExtraFn(c)
			for _, x := range rs {
				reimb.add(x.Code, x.Name, x.Amount, x.Hours, x.Rate, x.HasHours, x.HasRate)
				reimbAmt += x.Amount
			}
			for _, x := range ps {
				l := ded.add(x.Code, x.Name, x.Amount, 0, 0, false, false)
				l.Kind = Post
				post += x.Amount
			}
		}
		taxCur, taxYTD := tax.sum()
		dedCur, dedYTD := ded.sum()
		net := gross - taxCur - dedCur + reimbAmt
		if net <= 0 {
			panic(fmt.Sprintf("%s: net %d in period %d", j.Series, net, i))
		}
		// employer
		if j.MatchBP > 0 && pre401 > 0 {
			m := min(pct(cash+supp, j.MatchBP), pre401)
			empl.add("ER401K", "401(k) Match", m, 0, 0, false, false)
		}
		if j.ERHealth > 0 {
			empl.add("ERMED", "Medical (Employer)", j.ERHealth, 0, 0, false, false)
		}
		empl.add("ERSS", "Social Security", ss, 0, 0, false, false)
		empl.add("ERMED2", "Medicare", pct(fica, 145), 0, 0, false, false)
		futa := pct(min(fica, max(0, 700000-futaY)), 60)
		futaY += min(fica, max(0, 700000-futaY))
		empl.add("FUTA", "FUTA", futa, 0, 0, false, false)
		if j.SUTABP > 0 {
			w := min(fica, max(0, j.SUTABase-sutaY))
			sutaY += w
			empl.add("SUTA", "SUTA", pct(w, j.SUTABP), 0, 0, false, false)
		}
		grossY += gross
		netY += net
		preY += pre401 + s125
		postY += post
		reimbY += reimbAmt
		fedY += fedTaxable
		ficaY += fica
		ssY += ssw
		memoY += memoAmt
		tipsY += tips
		hoursY += hours
		for k := range leaves {
			l := &leaves[k]
			l.Begin = l.End
			l.Earned = l.accrual
			l.Used = 0
			if l.Name == "Vacation" {
				l.Used = vacUsed
			} else {
				l.Used = sickUsed
			}
			l.End = l.Begin + l.Earned - l.Used
			l.YTDEarned += l.Earned
			l.YTDUsed += l.Used
		}
		s := &Stub{Job: j, Idx: i, Start: p[0], End: p[1], Pay: p[2],
			CheckNo: j.CheckStart + i, AdviceNo: j.CheckStart*7 + 31*i,
			Earn: earn.snapshot(), Memo: memo.snapshot(), Tax: tax.snapshot(), Ded: ded.snapshot(),
			Reimb: reimb.snapshot(), Employer: empl.snapshot(),
			Gross: gross, Net: net, TaxTot: taxCur, DedTot: dedCur, PreDed: pre401 + s125, PostDed: post,
			ReimbTot: reimbAmt, FedTaxable: fedTaxable, FicaWages: fica, StateTaxable: stTaxable,
			GrossYTD: grossY, NetYTD: netY, TaxYTD: taxYTD, DedYTD: dedYTD, PreDedYTD: preY, PostDedYTD: postY,
			ReimbYTD: reimbY, FedTaxableYTD: fedY, FicaYTD: ficaY, SSWagesYTD: ssY,
			HoursTot: hours, HoursYTD: hoursY, MemoTot: memoAmt, MemoYTD: memoY, TipsTot: tips, TipsYTD: tipsY,
			StateTaxableYTD: map[string]Cents{},
		}
		for k, v := range stY {
			s.StateTaxableYTD[k] = v
		}
		s.Leave = append([]Leave(nil), leaves...)
		// deposits
		if j.Savings > 0 && net > j.Savings*2 {
			s.Deposits = []Deposit{{j.Bank2, "Savings", j.Acct2, j.Savings}, {j.Bank1, "Checking", j.Acct1, net - j.Savings}}
		} else if j.Bank1 != "" {
			s.Deposits = []Deposit{{j.Bank1, "Checking", j.Acct1, net}}
		}
		out = append(out, s)
	}
	j.stubs[year] = out
	return out
}

// Stub returns the stub of year whose pay date is the first on or after t.
func (j *Job) StubOn(year int, t time.Time) *Stub {
	for _, s := range j.Simulate(year) {
		if !s.Pay.Before(t) {
			return s
		}
	}
	panic("no stub")
}

// W2Figures sums a year into W-2 boxes.
type W2Figures struct {
	Box1, Box2, Box3, Box4, Box5, Box6, Box7 Cents
	Box12                                    []W2Code
	States                                   []W2State
	Box14                                    []W2Other
	Retirement                               bool
	Gross, Memo, Pre401k, S125, StateGross   Cents // for a provider's earnings summary
}
type W2Code struct {
	Code   string
	Amount Cents
}
type W2State struct {
	State, ID            string
	Wages, Tax           Cents
	LocalWages, LocalTax Cents
	Locality             string
}
type W2Other struct {
	Label  string
	Amount Cents
}

func (j *Job) W2(year int) W2Figures {
	ss := j.Simulate(year)
	last := ss[len(ss)-1]
	var w W2Figures
	w.Box1 = last.FedTaxableYTD
	ytd := func(lines []Line, code string) Cents {
		for _, l := range lines {
			if l.Code == code {
				return l.YTD
			}
		}
		return 0
	}
	w.Box2 = ytd(last.Tax, "FIT")
	w.Box5 = last.FicaYTD
	w.Box7 = last.TipsYTD
	w.Box3 = min(last.FicaYTD-last.TipsYTD, ssBase(year))
	if w.Box3+w.Box7 > ssBase(year) {
		w.Box7 = ssBase(year) - w.Box3
	}
	w.Box4 = pct(w.Box3+w.Box7, 620)
	w.Box6 = pct(w.Box5, 145)
	var d, hsa, health Cents
	for _, l := range last.Ded {
		switch {
		case l.Kind == Pre401k:
			d += l.YTD
			w.Retirement = true
		case l.Code == "HSA":
			hsa += l.YTD
		case l.Kind == S125 && (l.Code == "MED" || l.Code == "DEN" || l.Code == "VIS"):
			health += l.YTD
		}
	}
	for _, l := range last.Employer {
		if l.Code == "ERMED" {
			health += l.YTD
		}
	}
	w.Gross, w.Memo, w.Pre401k = last.GrossYTD, last.MemoYTD, d
	w.S125 = last.GrossYTD + last.MemoYTD - last.FicaYTD
	gtl := ytd(last.Memo, "GTL") + ytd(last.Earn, "GTL")
	if gtl > 0 {
		w.Box12 = append(w.Box12, W2Code{"C", gtl})
	}
	if d > 0 {
		w.Box12 = append(w.Box12, W2Code{"D", d})
	}
	if health > 0 {
		w.Box12 = append(w.Box12, W2Code{"DD", health})
	}
	if hsa > 0 {
		w.Box12 = append(w.Box12, W2Code{"W", hsa})
	}
	for _, s := range j.States {
		st := W2State{State: s.State, ID: j.Co.StateID[s.State], Wages: last.StateTaxableYTD[s.State], Tax: ytd(last.Tax, "SIT_"+s.State)}
		if j.Local != "" && s.State == j.States[0].State {
			st.LocalWages = last.FicaYTD
			st.LocalTax = ytd(last.Tax, "LOCAL")
			st.Locality = map[string]string{"PHL": "PHILA", "EIT": "EIT", "NYC": "NYC", "CBUS": "COLUMBUS", "KCMO": "KCMO", "DET": "DETROIT"}[j.Local]
		}
		w.States = append(w.States, st)
	}
	if len(j.States) > 0 {
		for _, t := range stateEmployeeTaxes(j.States[0].State, year) {
			if v := ytd(last.Tax, t.Code); v > 0 {
				w.Box14 = append(w.Box14, W2Other{strings.ReplaceAll(t.Name, " ", ""), v})
			}
		}
	}
	for _, l := range last.Ded {
		if l.Code == "UNION" {
			w.Box14 = append(w.Box14, W2Other{"UNION", l.YTD})
		}
	}
	return w
}
