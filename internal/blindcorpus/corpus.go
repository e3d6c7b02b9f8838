package main

import (
	"fmt"
	"math/rand/v2"
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
		return madeBy + ", text converted to outlines with Ghostscript (-dNoOutputFonts)", "pdf", func() []byte { return gsOutline(pdf()) }
	case "image_pdf":
		return madeBy + ", rasterized at 300 dpi, skewed and toned as a flatbed scan (ImageMagick), pages wrapped as JPEG images in a PDF", "pdf",
			func() []byte { return imagePDF(pdf(), pages, 300, r, scanWhen) }
	case "scan_png":
		return madeBy + ", scanned at 200 dpi greyscale (pdftoppm + ImageMagick skew, lid edge), PNG", "png", func() []byte { return scanImage(pdf(), 1, 200, r, "png") }
	case "scan_jpg":
		return madeBy + ", scanned at 200 dpi greyscale (pdftoppm + ImageMagick skew, lid edge, noise), JPEG", "jpg", func() []byte { return scanImage(pdf(), 1, 200, r, "jpg") }
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
	case "scan_png", "scan_jpg":
		return "scan"
	case "fax_fine", "fax_std":
		return "fax"
	}
	return m
}

// stub adds an honest one-stub document in an HTML layout.
func (b *builder) stub(name, layout string, lay htmlLayout, medium string, s *Stub) *Doc {
	r := seeded(name)
	html, v := lay(s, r)
	t := truthOf(v, 1)
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "paystub", Honest: true,
		Series: sp(s.Job.Series), Paystubs: []TStub{t}}, src: []*Stub{s}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, func() []byte { return chromePDF(html) }, "HTML printed by headless Chromium", 1, seeded(name+"/media"), s.Pay)
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
	ss := j.Simulate(2026)
	b.stub("adp-01", "adp", layoutADP, "text_pdf", ss[4])
	b.stub("adp-02", "adp", layoutADP, "text_pdf", ss[5])
	b.stub("adp-03", "adp", layoutADP, "photo", ss[6])
	b.stub("adp-04", "adp", layoutADP, "image_pdf", ss[7])
	b.stub("adp-05", "adp", layoutADP, "fax_fine", ss[8])
	b.stub("adp-06", "adp", layoutADP, "scan_png", ss[9])
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
