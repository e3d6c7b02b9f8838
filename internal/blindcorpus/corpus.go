package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

type htmlLayout func(*Stub, *rand.Rand) (string, *View)

type builder struct {
	pool *pool
	docs []*Doc
	jobs map[string]*Job
	cos  map[string]*Company
}

// media returns how a medium is made from a text PDF.
func media(medium string, pdf func() []byte, madeBy string, pages int, r *rand.Rand, when time.Time) (string, string, func() []byte) {
	scanWhen := when.AddDate(0, 0, between(r, 2, 40)).Add(time.Duration(between(r, 8*60, 17*60)) * time.Minute)
	switch medium {
	case "text_pdf":
		return madeBy, "pdf", pdf
	case "outline_pdf":
		return madeBy + ", text converted to outlines with Ghostscript (-dNoOutputFonts)", "pdf", func() []byte { return gsOutline(pdf(), scanWhen) }
	case "image_pdf":
		return madeBy + ", rasterized at 300 dpi, skewed and toned as a flatbed scan (ImageMagick), pages wrapped as JPEG images in a PDF", "pdf",
			func() []byte { return imagePDF(pdf(), pages, 300, r, scanWhen) }
	case "scan_png":
		return madeBy + ", scanned at 200 dpi greyscale (pdftoppm + ImageMagick skew, lid edge), PNG", "png", func() []byte { return scanImage(pdf(), 1, 200, r, "png") }
	case "scan_jpg":
		return madeBy + ", scanned at 200 dpi greyscale (pdftoppm + ImageMagick skew, lid edge, noise), JPEG", "jpg", func() []byte { return scanImage(pdf(), 1, 200, r, "jpg") }
	case "scan_card_png", "scan_card_jpg":
		f := medium[len(medium)-3:]
		return madeBy + ", the stub laid on a letter-size flatbed and scanned at 200 dpi greyscale (pdftoppm + ImageMagick), " + strings.ToUpper(f), f,
			func() []byte { return scanCard(pdf(), r, f) }
	case "photo":
		return madeBy + ", photographed: page turned and in perspective on a table, uneven light, shadow, blur, noise (ImageMagick), JPEG", "jpg",
			func() []byte { return photo(pdf(), 1, r, false) }
	case "fax_fine", "fax_std":
		fine := medium == "fax_fine"
		res := map[bool]string{true: "204×196", false: "204×98"}[fine]
		hdr := fmt.Sprintf("%s %s  FROM: %s", scanWhen.Format("Jan 02 2006"), scanWhen.Format("03:04PM"), pick(r, "PAYROLL DEPT", "HR OFFICE", "ACCTG", "FRONT OFFICE"))
		return madeBy + ", faxed: 1-bit at " + res + " dpi with a fax header line, CCITT Group 4 in a PDF (ImageMagick, Ghostscript)", "pdf",
			func() []byte { return fax(pdf(), pages, fine, hdr, r, scanWhen) }
	}
	panic("medium " + medium)
}

func mediumName(m string) string {
	switch m {
	case "scan_png", "scan_jpg", "scan_card_png", "scan_card_jpg":
		return "scan"
	case "fax_fine", "fax_std":
		return "fax"
	}
	return m
}

// stub adds an honest one-stub document in an HTML layout.
func (b *builder) stub(name, layout string, lay htmlLayout, medium string, s *Stub) *Doc {
	return b.stubP(name, layout, lay, medium, s, 1)
}

func (b *builder) stubP(name, layout string, lay htmlLayout, medium string, s *Stub, pages int) *Doc {
	r := seeded(name)
	html, v := lay(s, r)
	t := truthOf(v, 1)
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "paystub", Honest: true,
		Series: sp(s.Job.Series), Paystubs: []TStub{t}}, src: []*Stub{s}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, func() []byte { return chromePDF(html) }, "HTML printed by headless Chromium", pages, seeded(name+"/media"), s.Pay)
	b.docs = append(b.docs, d)
	return d
}

type pdfLayout func(*Stub, *rand.Rand) ([]byte, *View)

// pstub adds an honest one-stub document drawn directly as PDF.
func (b *builder) pstub(name, layout string, lay pdfLayout, medium string, s *Stub, madeBy string) *Doc {
	r := seeded(name)
	pdf, v := lay(s, r)
	t := truthOf(v, 1)
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "paystub", Honest: true,
		Series: sp(s.Job.Series), Paystubs: []TStub{t}}, src: []*Stub{s}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, func() []byte { return pdf }, madeBy, 1, seeded(name+"/media"), s.Pay)
	b.docs = append(b.docs, d)
	return d
}

func corpus() []*Doc {
	b := &builder{pool: newPool(), jobs: map[string]*Job{}, cos: map[string]*Company{}}
	b.adp()
	b.paychex()
	b.gusto()
	b.workday()
	b.peoplesoft()
	b.midmarket()
	b.quickbooks()
	b.stateAgency()
	b.paybook()
	b.restaurant()
	b.trucking()
	b.salaried()
	b.oddShapes()
	b.w2s()
	b.forgeries()
	b.others()
	// series ids only where a person has more than one document
	count := map[string]int{}
	for _, d := range b.docs {
		if d.T.Series != nil {
			count[*d.T.Series]++
		}
	}
	for _, d := range b.docs {
		if d.T.Series != nil && count[*d.T.Series] < 2 {
			d.T.Series = nil
		}
	}
	return b.docs
}

func (b *builder) job(series string, co *Company, p *Person, freq int, anchor time.Time, lag int) *Job {
	r := seeded("job/" + series)
	j := &Job{Series: series, Co: co, P: p, Freq: freq, Anchor: anchor, PayLag: lag,
		States: []StateShare{{p.State, 100}}, Holidays: true, VacChance: 0.12,
		Bank1: pick(r, "Chase", "Wells Fargo", "PNC Bank", "Truist", "US Bank", "Citizens", "Navy Federal CU", "Ally Bank"), Acct1: acct(r),
		Bank2: pick(r, "Ally Bank", "Capital One", "Marcus", "Local CU"), Acct2: acct(r),
		CheckStart: between(r, 1000, 90000), EmpID: fmt.Sprintf("%06d", between(r, 1000, 999999))}
	if _, ok := co.StateID[p.State]; !ok {
		b.pool.stateID(co, p.State)
	}
	b.jobs[series] = j
	return j
}

var stdHours = map[int]Hours{52: 4000, 26: 8000, 24: 8667, 12: 17333}

// employ makes a job with typical benefits; salary > 0 makes it salaried, else rate is hourly.
func (b *builder) employ(series, coName, coState, state string, freq int, anchor time.Time, lag int, salary Cents, rate Rate) *Job {
	co, ok := b.cos[coName]
	if !ok {
		co = b.pool.company(coName, coState)
		b.cos[coName] = co
	}
	j := b.job(series, co, b.pool.person(state), freq, anchor, lag)
	r := seeded("employ/" + series)
	j.Std = stdHours[freq]
	if salary > 0 {
		j.Salary = salary
	} else {
		j.Hourly = true
		j.Rate = rate
		j.OTChance = 0.35
		j.OTMax = j.Std / 8
	}
	if r.IntN(5) != 0 {
		j.Deds = append(j.Deds, DedRule{Code: "401K", Name: "401K", Kind: Pre401k, BP: int64(pick(r, 300, 400, 500, 600, 800, 1000))})
		j.MatchBP = int64(pick(r, 0, 300, 400, 600))
	}
	per := map[int]Cents{52: 1, 26: 2, 24: 2, 12: 4}[freq]
	if r.IntN(4) != 0 {
		j.Deds = append(j.Deds, DedRule{Code: "MED", Name: "Medical", Kind: S125, Fixed: Cents(between(r, 3500, 9800)) * per / 2})
		j.ERHealth = Cents(between(r, 12000, 26000)) * per / 2
	}
	if r.IntN(2) == 0 {
		j.Deds = append(j.Deds, DedRule{Code: "DEN", Name: "Dental", Kind: S125, Fixed: Cents(between(r, 600, 1900)) * per / 2})
	}
	if r.IntN(3) == 0 {
		j.Deds = append(j.Deds, DedRule{Code: "VIS", Name: "Vision", Kind: S125, Fixed: Cents(between(r, 200, 700)) * per / 2})
	}
	if r.IntN(4) == 0 {
		j.Deds = append(j.Deds, DedRule{Code: "LIFE", Name: "Supp Life", Kind: Post, Fixed: Cents(between(r, 300, 1500)) * per / 2})
	}
	if r.IntN(6) == 0 {
		j.Deds = append(j.Deds, DedRule{Code: "ROTH", Name: "Roth 401K", Kind: Post, BP: int64(pick(r, 200, 300))})
	}
	if r.IntN(2) == 0 {
		j.VacAccrual, j.VacBegin = Hours(between(r, 3, 7)*100*int(52/freq+1)/2), Hours(between(r, 8, 80)*100)
	}
	if r.IntN(3) == 0 {
		j.SickAccrual, j.SickBegin = Hours(between(r, 2, 4)*100), Hours(between(r, 8, 40)*100)
	}
	if r.IntN(3) == 0 {
		j.Savings = Cents(between(r, 2, 20) * 2500)
	}
	j.SUTABP, j.SUTABase = int64(between(r, 100, 540)), 1200000
	j.Title = pick(r, "Operations Analyst", "Warehouse Associate", "Staff Accountant", "Registered Nurse", "Customer Service Rep",
		"Maintenance Technician", "Project Coordinator", "Software Engineer II", "Dispatcher", "Lab Technician", "Account Manager", "HR Generalist")
	j.Dept = pick(r, "OPS", "FIN", "WHSE", "NURS", "CS", "MAINT", "PMO", "ENG", "LOG", "LAB", "SALES", "HR")
	j.Loc = pick(r, "HQ", "NORTH", "PLANT 2", "MAIN", "DC-04", "REMOTE")
	return j
}

func (b *builder) adp() {
	P := b.pool
	// person-01: salaried biweekly, MD; three consecutive stubs
	co := P.company("Harbor Point Logistics, Inc.", "MD")
	j := b.job("person-01", co, P.person("MD"), 26, date(2026, 1, 10), 6)
	j.Salary = 6200000
	j.Std = 8000
	j.Deds = []DedRule{{Code: "401K", Name: "401K", Kind: Pre401k, BP: 500}, {Code: "MED", Name: "Medical", Kind: S125, Fixed: 8650},
		{Code: "DEN", Name: "Dental", Kind: S125, Fixed: 1240}}
	j.MatchBP = 300
	j.VacAccrual, j.VacBegin = 400, 4800
	j.Savings = 10000
	j.Title = "Senior Operations Analyst"
	ss := j.Simulate(2026)
	b.stub("adp-01", "adp", layoutADP, "text_pdf", ss[4])
	b.stub("adp-02", "adp", layoutADP, "text_pdf", ss[5])
	b.stub("adp-03", "adp", layoutADP, "photo", ss[6])
	// person-29: hourly with overtime, California SDI; three consecutive stubs as pictures
	j = b.employ("person-29", "Pacific Rim Produce Distributors", "CA", "CA", 52, date(2026, 1, 3), 6, 0, 236000)
	ss = j.Simulate(2026)
	b.stub("adp-04", "adp", layoutADP, "image_pdf", ss[33])
	b.stub("adp-05", "adp", layoutADP, "fax_fine", ss[34])
	b.stub("adp-06", "adp", layoutADP, "scan_png", ss[35])
}

func (b *builder) paychex() {
	j := b.employ("person-02", "Bluestem Dental Group PLLC", "NC", "NC", 26, date(2026, 1, 3), 6, 0, 244500)
	ss := j.Simulate(2026)
	b.stub("paychex-01", "paychex", layoutPaychex, "text_pdf", ss[3])
	b.stub("paychex-02", "paychex", layoutPaychex, "text_pdf", ss[4])
	b.stub("paychex-03", "paychex", layoutPaychex, "photo", ss[5])
	j = b.employ("person-03", "Redline Auto Body & Glass LLC", "AZ", "AZ", 52, date(2026, 1, 3), 6, 0, 198000)
	ss = j.Simulate(2026)
	b.stub("paychex-04", "paychex", layoutPaychex, "text_pdf", ss[20])
	b.stub("paychex-05", "paychex", layoutPaychex, "image_pdf", ss[21])
}

func (b *builder) gusto() {
	j := b.employ("person-04", "Loomwell Studio, Inc.", "CA", "CA", 24, date(2026, 1, 15), 5, 9400000, 0)
	ss := j.Simulate(2026)
	b.stub("gusto-01", "gusto", layoutGusto, "text_pdf", ss[0])
	b.stub("gusto-02", "gusto", layoutGusto, "text_pdf", ss[1])
	b.stub("gusto-03", "gusto", layoutGusto, "scan_jpg", ss[2])
	j = b.employ("person-05", "Canopy Pediatric Therapy LLC", "CO", "CO", 26, date(2026, 1, 9), 5, 0, 315000)
	ss = j.Simulate(2026)
	b.stub("gusto-04", "gusto", layoutGusto, "text_pdf", ss[15])
	b.stub("gusto-05", "gusto", layoutGusto, "photo", ss[16])
}

func (b *builder) workday() {
	j := b.employ("person-06", "Northgate Regional Health System", "OH", "OH", 26, date(2026, 1, 10), 6, 0, 412500)
	j.Local = "CBUS"
	ss := j.Simulate(2026)
	b.stub("workday-01", "workday", layoutWorkday, "text_pdf", ss[8])
	b.stub("workday-02", "workday", layoutWorkday, "photo", ss[9])
	j = b.employ("person-07", "Tessellate Software Corp.", "WA", "WA", 24, date(2026, 1, 15), 0, 13800000, 0)
	ss = j.Simulate(2026)
	b.stub("workday-03", "workday", layoutWorkday, "text_pdf", ss[17])
	b.stub("workday-04", "workday", layoutWorkday, "outline_pdf", ss[18])
}

func (b *builder) peoplesoft() {
	j := b.employ("person-08", "Commonwealth Mutual Insurance Co.", "PA", "PA", 24, date(2026, 1, 15), 0, 7500000, 0)
	j.Local = "EIT"
	ss := j.Simulate(2026)
	b.stub("peoplesoft-01", "peoplesoft", layoutPeopleSoft, "text_pdf", ss[5])
	b.stub("peoplesoft-02", "peoplesoft", layoutPeopleSoft, "fax_std", ss[6])
	j = b.employ("person-09", "Great Lakes Polytechnic University", "MI", "MI", 26, date(2026, 1, 3), 6, 0, 264800)
	ss = j.Simulate(2025)
	b.stub("peoplesoft-03", "peoplesoft", layoutPeopleSoft, "text_pdf", ss[22])
	b.stub("peoplesoft-04", "peoplesoft", layoutPeopleSoft, "image_pdf", ss[23])
}

func (b *builder) midmarket() {
	j := b.employ("person-10", "Summit Ridge Building Supply", "CA", "CA", 26, date(2026, 1, 4), 5, 0, 268500)
	ss := j.Simulate(2026)
	b.stub("midmarket-01", "midmarket", layoutMidmarket, "text_pdf", ss[10])
	b.stub("midmarket-02", "midmarket", layoutMidmarket, "scan_png", ss[11])
	j = b.employ("person-11", "Atlas Freight Brokerage LLC", "IL", "IL", 52, date(2026, 1, 3), 6, 0, 231000)
	ss = j.Simulate(2026)
	b.stub("midmarket-03", "midmarket", layoutMidmarket, "text_pdf", ss[30])
	b.stub("midmarket-04", "midmarket", layoutMidmarket, "fax_fine", ss[31])
}

func mileage(every int, lo, hi int) func(c *Ctx) ([]Item, []Item) {
	return func(c *Ctx) ([]Item, []Item) {
		if c.Idx%every != 0 {
			return nil, nil
		}
		miles := Hours(between(c.R, lo, hi) * 100)
		rate := Rate(7000)
		if c.Pay.Year() >= 2026 {
			rate = 7250
		}
		return []Item{{Code: "MILE", Name: "Mileage Reimb.", Amount: pay(miles, rate), Hours: miles, Rate: rate, HasHours: true, HasRate: true}}, nil
	}
}

func (b *builder) quickbooks() {
	const made = "drawn as a voucher check page with go-pdf/fpdf (check on top, two copies of the stub)"
	j := b.employ("person-12", "Greenway Lawn & Landscape LLC", "NJ", "NJ", 52, date(2026, 1, 3), 6, 0, 215000)
	j.ExtraFn = mileage(2, 40, 180)
	j.Holidays = false
	ss := j.Simulate(2026)
	b.pstub("quickbooks-01", "quickbooks", layoutQuickBooks, "text_pdf", ss[14], made)
	b.pstub("quickbooks-02", "quickbooks", layoutQuickBooks, "text_pdf", ss[15], made)
	b.pstub("quickbooks-03", "quickbooks", layoutQuickBooks, "photo", ss[16], made)
	j = b.employ("person-13", "Sweet Crumb Bakery & Cafe", "GA", "GA", 26, date(2026, 1, 9), 6, 0, 168500)
	ss = j.Simulate(2026)
	b.pstub("quickbooks-04", "quickbooks", layoutQuickBooks, "text_pdf", ss[6], made)
	b.pstub("quickbooks-05", "quickbooks", layoutQuickBooks, "scan_jpg", ss[7], made)
}

func (b *builder) stateAgency() {
	const made = "HTML converted to PDF by LibreOffice Writer"
	ag := agency{"OR", "Department of Environmental Quality", "34000", "Natural Resource Specialist 3", "PERS"}
	j := b.employ("person-14", "State of Oregon DEQ", "OR", "OR", 24, date(2025, 1, 15), 0, 6642000, 0)
	j.Deds = []DedRule{{Code: "RET", Name: "PERS IAP 6%", Kind: Pre401k, BP: 600}, {Code: "MED", Name: "PEBB Medical", Kind: S125, Fixed: 4850},
		{Code: "DEN", Name: "PEBB Dental", Kind: S125, Fixed: 1125}, {Code: "UNION", Name: "SEIU Dues", Kind: Post, Fixed: 3275}}
	j.VacAccrual, j.VacBegin, j.SickAccrual, j.SickBegin = 800, 6200, 400, 9150
	j.Holidays, j.VacChance = true, 0.15
	lay := func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutState(s, r, ag) }
	ss := j.Simulate(2025)
	b.pstub("state-01", "state_agency", lay, "text_pdf", ss[22], made)
	b.pstub("state-02", "state_agency", lay, "text_pdf", ss[23], made)
	b.pstub("state-03", "state_agency", lay, "fax_fine", ss[21], made)
	ag2 := agency{"WI", "Department of Transportation", "395", "Transportation Specialist-Senior", "WRS"}
	j = b.employ("person-15", "State of Wisconsin DOT", "WI", "WI", 26, date(2026, 1, 3), 13, 0, 314600)
	j.Deds = []DedRule{{Code: "RET", Name: "WRS Employee Contrib", Kind: Pre401k, BP: 695}, {Code: "MED", Name: "State Group Health", Kind: S125, Fixed: 5240},
		{Code: "DEF", Name: "WDC Deferred Comp", Kind: Pre401k, Fixed: 5000}}
	j.VacAccrual, j.VacBegin, j.SickAccrual, j.SickBegin = 600, 4000, 400, 12000
	lay2 := func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutState(s, r, ag2) }
	ss = j.Simulate(2026)
	b.pstub("state-04", "state_agency", lay2, "text_pdf", ss[8], made)
	b.pstub("state-05", "state_agency", lay2, "image_pdf", ss[9], made)
}

func (b *builder) paybook() {
	const made = "preprinted pay-book grid drawn with go-pdf/fpdf, values written in a handwriting font (Debian fonts-breip / fonts-dkg-handwriting / fonts-femkeklaver)"
	hourlyOnly := func(lo, hi int) func(c *Ctx) []EarnIn {
		return func(c *Ctx) []EarnIn {
			h := Hours(between(c.R, lo, hi) * 50)
			return []EarnIn{{Code: "REG", Name: "Regular", Hours: h, Rate: c.Job.Rate, HasHours: true, HasRate: true, Amount: pay(h, c.Job.Rate)}}
		}
	}
	uniform := func(c *Ctx) ([]Item, []Item) {
		if c.Idx%4 == 1 {
			return nil, []Item{{Code: "OTHER", Name: "Other", Amount: 1500}}
		}
		return nil, nil
	}
	j := b.employ("person-16", "Riverbend Feed & Seed", "KY", "KY", 52, date(2026, 1, 3), 4, 0, 165000)
	j.Deds, j.EarnFn, j.ExtraFn, j.VacAccrual, j.SickAccrual, j.Savings = nil, hourlyOnly(50, 84), uniform, 0, 0, 0
	ss := j.Simulate(2026)
	lay := func(ytd bool) pdfLayout {
		return func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutPaybook(s, r, ytd, "Riverbend Feed & Seed") }
	}
	b.pstub("paybook-01", "paybook", lay(true), "photo", ss[9], made)
	b.pstub("paybook-02", "paybook", lay(true), "scan_card_jpg", ss[10], made)
	j = b.employ("person-17", "Lupita's Kitchen", "IN", "IN", 52, date(2026, 1, 4), 5, 0, 142500)
	j.Deds, j.EarnFn, j.ExtraFn, j.VacAccrual, j.SickAccrual, j.Savings = nil, hourlyOnly(40, 70), nil, 0, 0, 0
	ss = j.Simulate(2026)
	lay2 := func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutPaybook(s, r, false, "Lupita's Kitchen") }
	b.pstub("paybook-03", "paybook", lay2, "scan_card_png", ss[25], made)
	b.pstub("paybook-04", "paybook", lay2, "photo", ss[26], made)
}

func (b *builder) restaurant() {
	j := b.employ("person-18", "Blue Heron Oyster Bar", "GA", "GA", 52, date(2026, 1, 4), 5, 0, 21300)
	j.Deds, j.EarnFn, j.VacAccrual, j.SickAccrual, j.Savings, j.Holidays = nil, tippedEarnings, 0, 0, 0, false
	ss := j.Simulate(2026)
	b.stub("restaurant-01", "restaurant", layoutRestaurant, "text_pdf", ss[12])
	b.stub("restaurant-02", "restaurant", layoutRestaurant, "text_pdf", ss[13])
	b.stub("restaurant-03", "restaurant", layoutRestaurant, "photo", ss[14])
	j = b.employ("person-19", "Lone Star Smokehouse & Grill", "TX", "TX", 26, date(2026, 1, 4), 5, 0, 21300)
	j.Deds, j.EarnFn, j.VacAccrual, j.SickAccrual, j.Savings, j.Holidays = nil, tippedEarnings, 0, 0, 0, false
	ss = j.Simulate(2026)
	b.stub("restaurant-04", "restaurant", layoutRestaurant, "text_pdf", ss[5])
}

func (b *builder) trucking() {
	j := b.employ("person-20", "Ironbound Site & Utility Contractors", "NJ", "NJ", 52, date(2026, 1, 3), 6, 0, 468500)
	j.States = []StateShare{{"NJ", 60}, {"NY", 40}}
	b.pool.stateID(j.Co, "NY")
	j.Deds = []DedRule{{Code: "401K", Name: "401K", Kind: Pre401k, BP: 400}, {Code: "UNION", Name: "Union Dues", Kind: Post, Fixed: 4650}}
	j.EarnFn, j.ExtraFn, j.Holidays = fieldEarnings, fieldExtras(6500, 18462), false
	j.Title = "Heavy Equipment Operator"
	ss := j.Simulate(2026)
	b.stub("trucking-01", "trucking", layoutTrucking, "text_pdf", ss[18])
	b.stub("trucking-02", "trucking", layoutTrucking, "photo", ss[19])
	j = b.employ("person-21", "Tri-County Freight Lines, Inc.", "OH", "OH", 52, date(2026, 1, 3), 6, 0, 287500)
	j.States = []StateShare{{"OH", 70}, {"IN", 30}}
	b.pool.stateID(j.Co, "IN")
	j.Deds = []DedRule{{Code: "MED", Name: "Medical", Kind: S125, Fixed: 3850}, {Code: "UNION", Name: "Teamsters Dues", Kind: Post, Fixed: 3800}}
	j.EarnFn, j.ExtraFn, j.Holidays = fieldEarnings, fieldExtras(5900, 0), false
	j.Title = "CDL Driver - Local"
	ss = j.Simulate(2026)
	b.stub("trucking-03", "trucking", layoutTrucking, "text_pdf", ss[40])
	b.stub("trucking-04", "trucking", layoutTrucking, "fax_std", ss[41])
}

func (b *builder) salaried() {
	j := b.employ("person-22", "Meridian Biosciences Holdings, Inc.", "MA", "MA", 12, date(2026, 1, 31), 0, 16800000, 0)
	j.EarnFn = salariedImputed(false, 2380, map[int]Cents{3: 1260000}, 5, 1848750)
	j.Deds = []DedRule{{Code: "401K", Name: "401(k) Pre-Tax", Kind: Pre401k, BP: 600}, {Code: "MED", Name: "Medical PPO", Kind: S125, Fixed: 21400},
		{Code: "DEN", Name: "Dental", Kind: S125, Fixed: 3150}, {Code: "ESPP", Name: "ESPP", Kind: Post, BP: 500}}
	j.Title = "Director, Clinical Operations"
	ss := j.Simulate(2026)
	b.stub("salaried-01", "salaried_imputed", layoutSalaried, "text_pdf", ss[2])
	b.stub("salaried-02", "salaried_imputed", layoutSalaried, "text_pdf", ss[3])
	b.stub("salaried-03", "salaried_imputed", layoutSalaried, "scan_jpg", ss[4])
	j = b.employ("person-23", "Pinecrest Capital Advisors LLC", "CT", "CT", 12, date(2026, 1, 31), -3, 13250000, 0)
	j.EarnFn = salariedImputed(true, 1560, map[int]Cents{2: 850000, 8: 400000}, 0, 0)
	j.Title = "Senior Portfolio Analyst"
	ss = j.Simulate(2026)
	b.stub("salaried-04", "salaried_imputed", layoutSalaried, "text_pdf", ss[8])
}

func (b *builder) oddShapes() {
	// landscape
	const madeL = "drawn in landscape with go-pdf/fpdf"
	j := b.employ("person-24", "Cascade Valley Cold Storage", "WA", "WA", 26, date(2026, 1, 9), 6, 0, 254000)
	ss := j.Simulate(2026)
	b.pstub("landscape-01", "landscape", layoutLandscape, "text_pdf", ss[3], madeL)
	b.pstub("landscape-02", "landscape", layoutLandscape, "scan_jpg", ss[4], madeL)
	// run-together words
	const madeR = "drawn with go-pdf/fpdf placing every word separately with no space characters (as a PDF printer driver does), so text extraction runs words together"
	j = b.employ("person-25", "Hollis & Park Family Dentistry", "VA", "VA", 24, date(2026, 1, 15), 0, 0, 262500)
	j.Holidays = false
	ss = j.Simulate(2026)
	tight := func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutRunOn(s, r, true) }
	b.pstub("runon-01", "runon", tight, "text_pdf", ss[12], madeR+"; gaps between words are narrow (0.085 em)")
	b.pstub("runon-02", "runon", tight, "text_pdf", ss[13], madeR+"; gaps between words are narrow (0.085 em)")
	b.pstub("runon-03", "runon", func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutRunOn(s, r, false) }, "text_pdf", ss[14], madeR+"; gaps between words look normal (about a quarter em)")
	// two pages
	j = b.employ("person-26", "St. Brendan Medical Center", "NY", "NY", 26, date(2026, 1, 10), 6, 0, 528500)
	j.EarnFn = nurseEarnings
	j.Title = "RN - ICU"
	ss = j.Simulate(2026)
	b.stubP("twopage-01", "two_page", layoutTwoPage, "text_pdf", ss[14], 2)
	b.stubP("twopage-02", "two_page", layoutTwoPage, "image_pdf", ss[15], 2)
	// three stubs in one PDF (a "download all" export)
	j = b.employ("person-27", "Brightline Learning Cooperative", "MN", "MN", 26, date(2026, 1, 10), 6, 0, 301000)
	ss = j.Simulate(2026)
	b.multi("workday-05", ss[10:13])
}

// multi adds one PDF holding consecutive stubs, one per page.
func (b *builder) multi(name string, ss []*Stub) {
	r := seeded(name)
	var body string
	d := &Doc{T: Truth{Name: name, Layout: "workday", Medium: "text_pdf", Kind: "paystub", Honest: true, Series: sp(ss[0].Job.Series)}}
	for i, s := range ss {
		html, v := workdayBody(s, r, "")
		body += html
		d.T.Paystubs = append(d.T.Paystubs, truthOf(v, i+1))
		d.src = append(d.src, s)
	}
	html := page("Pay Slips", "letter", "0.4in", workdayCSS(r), body)
	d.T.MadeBy, d.Ext, d.Make = "HTML printed by headless Chromium: three consecutive pay slips, one per page, as a download-all export", "pdf", func() []byte { return chromePDF(html) }
	b.docs = append(b.docs, d)
}

// w2 adds a W-2 document: the IRS form (copies 1, 2 or 4) or a provider's print (copies 0 → provider).
func (b *builder) w2(name string, j *Job, copies int, provider bool, medium string, control string, upper bool) *Doc {
	r := seeded(name)
	w := &W2Doc{Year: 2025, Co: j.Co, P: j.P, F: j.W2(2025), Control: control, Upper: upper}
	when := time.Date(2026, 1, between(r, 12, 29), between(r, 8, 17), between(r, 0, 59), 0, 0, time.UTC)
	layout := "w2_irs"
	var pdf func() []byte
	var made string
	if provider {
		layout = "w2_provider"
		html := w2Provider(w, r)
		pdf = func() []byte { return chromePDF(html) }
		made = "a payroll provider's W-2 print (earnings summary and employee reference copy), HTML printed by headless Chromium"
		copies = 1
	} else {
		b := w2Form(w, copies, r, when)
		pdf = func() []byte { return b }
		made = fmt.Sprintf("IRS Form W-2 layout drawn with go-pdf/fpdf, %d cop%s on a letter page, boxes filled in a typed font", copies, map[bool]string{true: "y", false: "ies"}[copies == 1])
	}
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "w2", Honest: true, Paystubs: []TStub{}, W2: w.truth(copies), Series: sp(j.Series)}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, pdf, made, 1, seeded(name+"/media"), when)
	b.docs = append(b.docs, d)
	return d
}

func (b *builder) w2s() {
	J := b.jobs
	hi := b.employ("person-28", "Quarry Hill Analytics, Inc.", "CA", "CA", 24, date(2025, 1, 15), 0, 19200000, 0)
	hi.EarnFn = func(c *Ctx) []EarnIn {
		out := standardEarnings(c)
		return append(out, EarnIn{Code: "GTL", Name: "GTL", Amount: 1150, Memo: true})
	}
	hi.Deds = []DedRule{{Code: "401K", Name: "401K", Kind: Pre401k, BP: 600}, {Code: "MED", Name: "Medical", Kind: S125, Fixed: 18500},
		{Code: "HSA", Name: "HSA", Kind: S125, Fixed: 17700}}
	b.w2("w2-01", J["person-09"], 1, false, "text_pdf", "", true)
	b.w2("w2-02", J["person-20"], 1, false, "text_pdf", "A0417 2291", true)
	b.w2("w2-03", J["person-21"], 4, false, "text_pdf", "", true)
	b.w2("w2-04", J["person-18"], 1, false, "text_pdf", "", false)
	b.w2("w2-05", hi, 1, false, "text_pdf", "0000118", true)
	b.w2("w2-06", hi, 1, true, "text_pdf", "0000118", false)
	b.w2("w2-07", J["person-01"], 2, false, "text_pdf", "", true)
	b.w2("w2-08", J["person-01"], 2, false, "photo", "", true)
	b.w2("w2-09", J["person-04"], 1, true, "text_pdf", "", false)
	b.w2("w2-10", J["person-26"], 4, false, "text_pdf", "E-0733", true)
	b.w2("w2-11", J["person-26"], 4, false, "scan_png", "E-0733", true)
	b.w2("w2-12", J["person-06"], 1, false, "photo", "", false)
	b.w2("w2-13", J["person-12"], 1, false, "outline_pdf", "", true)
	b.w2("w2-14", J["person-22"], 1, false, "image_pdf", "", false)
	b.w2("w2-15", J["person-08"], 2, false, "scan_jpg", "", true)
	b.w2("w2-16", J["person-11"], 1, false, "fax_fine", "", true)
}
