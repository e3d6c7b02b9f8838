package main

import (
	"fmt"
	"strings"
	"time"
)

var (
	adp        = Layout{Name: "dev-adp", Means: "fpdf (Helvetica and Courier)", View: adpView, Render: adpRender}
	paychex    = Layout{Name: "dev-paychex", Means: "HTML printed by headless Chromium", View: paychexView, Render: paychexRender}
	gusto      = Layout{Name: "dev-gusto", Means: "HTML printed by headless Chromium", View: gustoView, Render: gustoRender}
	peoplesoft = Layout{Name: "dev-peoplesoft", Means: "HTML printed by headless Chromium", View: peoplesoftView, Render: peoplesoftRender}
	workday    = Layout{Name: "dev-workday", Means: "HTML printed by headless Chromium", View: workdayView, Render: workdayRender}
	dense      = Layout{Name: "dev-dense", Means: "fpdf (Helvetica, 6.5 pt, three columns)", View: denseView, Render: denseRender}
	quickbooks = Layout{Name: "dev-quickbooks", Means: "fpdf (Helvetica and Courier), a voucher check with two copies of one stub", View: quickbooksView, Render: quickbooksRender}
	landscape  = Layout{Name: "dev-landscape", Means: "fpdf (Times, landscape)", View: landscapeView, Render: landscapeRender}
	runtog     = Layout{Name: "dev-runtogether", Means: "fpdf, each word placed on its own with no space characters (Helvetica)", View: runView, Render: runRender}
	state      = Layout{Name: "dev-state", Means: "HTML converted by LibreOffice Writer", View: stateView, Render: stateRender}
	trucking   = Layout{Name: "dev-trucking", Means: "HTML converted by LibreOffice Writer", View: truckingView, Render: truckingRender}
	twopage    = Layout{Name: "dev-twopage", Means: "HTML converted by LibreOffice Writer (two pages)", View: twopageView, Render: twopageRender}
	restaurant = Layout{Name: "dev-restaurant", Means: "HTML printed by headless Chromium", View: restaurantView, Render: restaurantRender}
	salaried   = Layout{Name: "dev-salaried", Means: "HTML printed by headless Chromium", View: salariedView, Render: salariedRender}
)

func paybook(font string, dollar, ytd, date bool) Layout {
	o := paybookOpts{font: font, dollar: dollar, ytd: ytd, date: date}
	return Layout{Name: "dev-paybook", Means: "fpdf: a preprinted pay-book form filled in by hand (" + font[len("/usr/share/fonts/truetype/"):] + ")",
		View: paybookView(o), Render: paybookRender(o)}
}

const (
	dkg    = "/usr/share/fonts/truetype/fifthhorseman/dkg.ttf"
	dkgIt  = "/usr/share/fonts/truetype/fifthhorseman/dkgIt.ttf"
	breip  = "/usr/share/fonts/truetype/breip/Breip.ttf"
	serifB = "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf"
)

func plan() {
	// ADP: a series of three, a salaried CA stub, pictures and outlines
	j := newJob(101, 0, "hourly", "biweekly", 2026)
	j.Loan, j.LoanStop, j.Match = 4500, 2, true
	for i := 0; i < 3; i++ {
		stubDoc(fmt.Sprintf("dev-adp-%02d", i+1), adp, j.Stub(3+i), Text, "person-01")
	}
	j = newJob(102, 7, "salary", "semimonthly", 2026)
	j.Pct401k, j.Vision = 5, 850
	stubDoc("dev-adp-04", adp, j.Stub(7), Text, "")
	j = newJob(103, 11, "salary", "biweekly", 2026)
	j.Pct401k = 4
	stubDoc("dev-adp-05", adp, j.Stub(5), Photo, "")
	j = newJob(104, 8, "hourly", "weekly", 2026)
	j.Loan, j.LoanStop = 2500, 6
	stubDoc("dev-adp-06", adp, j.Stub(9), Photo, "")
	j = newJob(105, 12, "hourly", "biweekly", 2025)
	stubDoc("dev-adp-07", adp, j.Stub(20), Outline, "")
	j = newJob(106, 15, "salary", "biweekly", 2026)
	stubDoc("dev-adp-08", adp, j.Stub(2), ImgPDF300, "")

	// Paychex
	j = newJob(201, 1, "hourly", "biweekly", 2026)
	j.Expense = true
	stubDoc("dev-paychex-01", paychex, j.Stub(4), Text, "person-02")
	stubDoc("dev-paychex-02", paychex, j.Stub(5), Text, "person-02")
	j = newJob(202, 9, "hourly", "weekly", 2025)
	j.Loan, j.LoanStop = 3000, 30
	stubDoc("dev-paychex-03", paychex, j.Stub(44), Text, "")
	j = newJob(203, 13, "hourly", "biweekly", 2026)
	stubDoc("dev-paychex-04", paychex, j.Stub(6), Photo, "")
	j = newJob(204, 4, "hourly", "biweekly", 2026)
	stubDoc("dev-paychex-05", paychex, j.Stub(3), Fax196, "")

	// Gusto
	j = newJob(301, 2, "salary", "semimonthly", 2026)
	j.Expense, j.Match, j.Roth = true, true, 2
	stubDoc("dev-gusto-01", gusto, j.Stub(4), Text, "")
	j = newJob(302, 10, "hourly", "biweekly", 2026)
	j.Match = true
	stubDoc("dev-gusto-02", gusto, j.Stub(2), Text, "")
	j = newJob(303, 14, "hourly", "semimonthly", 2025)
	stubDoc("dev-gusto-03", gusto, j.Stub(23), Text, "")
	j = newJob(304, 5, "hourly", "biweekly", 2026)
	j.Expense = true
	stubDoc("dev-gusto-04", gusto, j.Stub(4), Photo, "")
	if want("dev-gusto-05") {
		j = newJob(305, 3, "hourly", "semimonthly", 2026)
		s := j.Stub(5)
		v := gustoView(s)
		pw := j.P.SSN4
		t := Truth{Name: "dev-gusto-05", Layout: gusto.Name, MadeBy: gusto.Means + ", then protected with a user password (qpdf, AES-256)", Medium: "text_pdf",
			Kind: "paystub", Honest: true, EncryptedPassword: sp(pw), Paystubs: []TStub{truthStub(s, v, 1)}}
		emit(t, "pdf", encrypt(gustoRender(s, v), pw, "owner-"+pw+"-hr"))
	}

	// PeopleSoft
	j = newJob(401, 10, "salary", "biweekly", 2026)
	j.Bonus[1] = 150000
	j.Life = 1250
	stubDoc("dev-peoplesoft-01", peoplesoft, j.Stub(3), Text, "person-04")
	stubDoc("dev-peoplesoft-02", peoplesoft, j.Stub(4), Text, "person-04")
	j = newJob(402, 5, "hourly", "biweekly", 2025)
	j.Match = true
	stubDoc("dev-peoplesoft-03", peoplesoft, j.Stub(12), Text, "")
	j = newJob(403, 9, "salary", "semimonthly", 2026)
	stubDoc("dev-peoplesoft-04", peoplesoft, j.Stub(6), Scan300, "")

	// QuickBooks voucher
	j = newJob(501, 11, "hourly", "biweekly", 2026)
	j.Expense = true
	stubDoc("dev-quickbooks-01", quickbooks, j.Stub(2), Text, "person-05")
	stubDoc("dev-quickbooks-02", quickbooks, j.Stub(3), Text, "person-05")
	j = newJob(502, 1, "hourly", "weekly", 2026)
	stubDoc("dev-quickbooks-03", quickbooks, j.Stub(8), Text, "")
	j = newJob(503, 8, "hourly", "biweekly", 2026)
	j.Expense = true
	stubDoc("dev-quickbooks-04", quickbooks, j.Stub(4), Photo, "")
	j = newJob(504, 15, "hourly", "weekly", 2026)
	stubDoc("dev-quickbooks-05", quickbooks, j.Stub(5), Fax98, "")

	// Workday
	j = newJob(601, 6, "hourly", "biweekly", 2026)
	j.Loan, j.LoanStop, j.Match = 3000, 1, true
	stubDoc("dev-workday-01", workday, j.Stub(3), Text, "")
	j = newJob(602, 2, "hourly", "semimonthly", 2026)
	j.Expense, j.Bonus = true, map[int]int64{2: 75000}
	stubDoc("dev-workday-02", workday, j.Stub(4), Text, "")
	j = newJob(603, 10, "hourly", "biweekly", 2025)
	j.Roth, j.Life = 3, 900
	stubDoc("dev-workday-03", workday, j.Stub(16), Text, "")
	j = newJob(604, 12, "hourly", "biweekly", 2026)
	stubDoc("dev-workday-04", workday, j.Stub(7), Photo, "")
	j = newJob(605, 0, "hourly", "biweekly", 2026)
	stubDoc("dev-workday-05", workday, j.Stub(5), Scan200, "")
	j = newJob(606, 14, "hourly", "semimonthly", 2026)
	stubDoc("dev-workday-06", workday, j.Stub(3), Outline, "")

	// dense mid-market
	j = newJob(701, 7, "hourly", "biweekly", 2026)
	j.Loan, j.LoanStop, j.Vision = 5200, 3, 420
	stubDoc("dev-dense-01", dense, j.Stub(5), Text, "")
	j = newJob(702, 3, "salary", "semimonthly", 2026)
	j.Roth, j.Expense = 2, true
	stubDoc("dev-dense-02", dense, j.Stub(4), Text, "")
	j = newJob(703, 13, "hourly", "weekly", 2025)
	stubDoc("dev-dense-03", dense, j.Stub(40), Text, "")
	j = newJob(704, 6, "hourly", "biweekly", 2026)
	stubDoc("dev-dense-04", dense, j.Stub(6), ImgPDF200, "")

	// a state agency
	stateJob := func(seed uint64) *Job {
		j := newJob(seed, 0, "salary", "semimonthly", 2025)
		j.Emp, j.SITRate, j.SDI, j.Pct401k, j.PensionPct, j.Match = stateEmployer, 335, false, 0, 6, false
		j.Dept = []string{"Agency of Natural Heritage", "Department of Motor Vehicles", "Agency of Human Services"}[seed%3]
		j.Life = 640
		return j
	}
	j = stateJob(801)
	stubDoc("dev-state-01", state, j.Stub(23), Text, "person-08")
	stubDoc("dev-state-02", state, j.Stub(24), Text, "person-08")
	j = stateJob(802)
	stubDoc("dev-state-03", state, j.Stub(14), Text, "")
	j = stateJob(803)
	stubDoc("dev-state-04", state, j.Stub(9), ImgPDF300, "")
	j = stateJob(804)
	stubDoc("dev-state-05", state, j.Stub(20), Photo, "")

	// the handwritten pay book
	pb := func(seed uint64, emp int) *Job {
		j := newJob(seed, emp, "hourly", "weekly", 2026)
		j.NoOT, j.Pct401k, j.Dental, j.Match = true, 0, 0, false
		return j
	}
	stubDoc("dev-paybook-01", paybook(dkg, false, true, true), pb(901, 12).Stub(6), Scan200, "")
	stubDoc("dev-paybook-02", paybook(dkgIt, true, false, true), pb(902, 1).Stub(3), Photo, "")
	stubDoc("dev-paybook-03", paybook(breip, false, true, false), pb(903, 8).Stub(11), Photo, "")
	stubDoc("dev-paybook-04", paybook(dkg, true, true, true), pb(904, 15).Stub(8), Scan300, "")
	stubDoc("dev-paybook-05", paybook(dkgIt, false, false, false), pb(905, 9).Stub(4), Fax98, "")

	// restaurant with tips
	rj := func(seed uint64) *Job {
		j := newJob(seed, 3, "tipped", "weekly", 2026)
		j.Pct401k, j.Medical, j.Dental, j.Match = 0, 0, 0, false
		return j
	}
	j = rj(1001)
	stubDoc("dev-restaurant-01", restaurant, j.Stub(4), Text, "person-10")
	stubDoc("dev-restaurant-02", restaurant, j.Stub(5), Text, "person-10")
	stubDoc("dev-restaurant-03", restaurant, rj(1002).Stub(12), Text, "")
	stubDoc("dev-restaurant-04", restaurant, rj(1003).Stub(7), Photo, "")

	// trucking
	tj := func(seed uint64) *Job {
		j := newJob(seed, 4, "trucking", "weekly", 2026)
		j.State2, j.SIT2Rate, j.Union, j.ChildSupport, j.Dental = "IL", 495, 3850, 12500, 0
		return j
	}
	j = tj(1101)
	stubDoc("dev-trucking-01", trucking, j.Stub(6), Text, "person-11")
	stubDoc("dev-trucking-02", trucking, j.Stub(7), Text, "person-11")
	stubDoc("dev-trucking-03", trucking, tj(1102).Stub(15), Text, "")
	stubDoc("dev-trucking-04", trucking, tj(1103).Stub(3), Fax196, "")

	// salaried monthly, bonus, GTL, RSU
	sj := func(seed uint64, emp int) *Job {
		j := newJob(seed, emp, "monthly", "monthly", 2026)
		j.Annual = 14_400_000 + int64(seed%7)*1_250_000
		j.Pct401k, j.Vision, j.Match, j.GTL = 6, 1100, true, 2430
		j.Bonus[2] = 1_200_000
		j.RSU[3] = 842_500
		return j
	}
	j = sj(1201, 10)
	stubDoc("dev-salaried-01", salaried, j.Stub(3), Text, "person-12")
	stubDoc("dev-salaried-02", salaried, j.Stub(4), Text, "person-12")
	stubDoc("dev-salaried-03", salaried, sj(1202, 2).Stub(2), Text, "")
	stubDoc("dev-salaried-04", salaried, sj(1203, 15).Stub(5), Photo, "")

	// odd shapes
	j = newJob(1301, 6, "hourly", "biweekly", 2026)
	stubDoc("dev-landscape-01", landscape, j.Stub(4), Text, "")
	j = newJob(1302, 11, "salary", "semimonthly", 2026)
	stubDoc("dev-landscape-02", landscape, j.Stub(9), Text, "")
	j = newJob(1401, 9, "hourly", "biweekly", 2026)
	stubDoc("dev-twopage-01", twopage, j.Stub(5), Text, "")
	j = newJob(1402, 7, "hourly", "semimonthly", 2026)
	stubDoc("dev-twopage-02", twopage, j.Stub(8), Text, "")
	j = newJob(1501, 13, "hourly", "biweekly", 2026)
	stubDoc("dev-runtogether-01", runtog, j.Stub(3), Text, "")
	j = newJob(1502, 1, "hourly", "weekly", 2026)
	stubDoc("dev-runtogether-02", runtog, j.Stub(10), Text, "")
	if want("dev-export3-01") {
		j = newJob(1601, 14, "hourly", "biweekly", 2026)
		stubs := []Stub{j.Stub(2), j.Stub(3), j.Stub(4)}
		v := exportView(stubs[0])
		t := Truth{Name: "dev-export3-01", Layout: "dev-export3", MadeBy: "HTML printed by headless Chromium: three paystubs, one a page (a \"download all\" export)",
			Medium: "text_pdf", Kind: "paystub", Honest: true, Series: sp("person-16")}
		for i, s := range stubs {
			t.Paystubs = append(t.Paystubs, truthStub(s, exportView(s), i+1))
		}
		emit(t, "pdf", exportRender(stubs, v))
	}

	// not paystubs
	j = newJob(1701, 2, "salary", "biweekly", 2026)
	day := time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC)
	if want("dev-letter-verification") {
		pdf := verificationLetter(j, day)
		otherDoc("dev-letter-verification-01", "dev-letter-verification", "HTML printed by headless Chromium", "employment_letter", pdf, Text, day)
		j2 := newJob(1702, 9, "salary", "semimonthly", 2026)
		otherDoc("dev-letter-verification-02", "dev-letter-verification", "HTML printed by headless Chromium", "employment_letter", verificationLetter(j2, day), Photo, day)
	}
	if want("dev-letter-offer") {
		otherDoc("dev-letter-offer-01", "dev-letter-offer", "HTML converted by LibreOffice Writer", "offer_letter", offerLetter(newJob(1703, 12, "salary", "biweekly", 2026), day), Text, day)
	}
	if want("dev-bank") {
		bj := newJob(1704, 0, "hourly", "biweekly", 2026)
		otherDoc("dev-bank-statement-01", "dev-bank-statement", "fpdf (Helvetica)", "bank_statement", bankStatement(bj, 4), Text, day)
		bj = newJob(1705, 8, "hourly", "semimonthly", 2026)
		otherDoc("dev-bank-statement-02", "dev-bank-statement", "fpdf (Helvetica)", "bank_statement", bankStatement(bj, 3), Scan200, day)
	}

	w2s()
	forgeries()
}

func w2s() {
	if !want("dev-w2") && !strings.HasPrefix(filter, "dev-w2") {
		return
	}
	const irs = "fpdf: the IRS form's boxes and captions (Helvetica, Times) filled in by software (Courier)"
	w := newW2(1, 0, false)
	w2Doc("dev-w2-irs-01", "dev-w2-irs", irs, w2One(w), w, 1, Text)
	w = newW2(2, 5, true)
	w2Doc("dev-w2-irs-02", "dev-w2-irs", irs, w2One(w), w, 1, Text)
	w = newW2(3, 10, false)
	w2Doc("dev-w2-irs-03", "dev-w2-irs", irs, w2One(w), w, 1, Outline)
	w = newW2(4, 12, false)
	w2Doc("dev-w2-irs-04", "dev-w2-irs", irs, w2One(w), w, 1, Photo)
	w = newW2(5, 6, false)
	w2Doc("dev-w2-irs-05", "dev-w2-irs", irs, w2One(w), w, 1, Fax196)
	w = newW2(6, 9, false)
	w2Doc("dev-w2-2up-01", "dev-w2-2up", irs+", Copies B and C on one page", w2Two(w), w, 2, Text)
	w = newW2(7, 15, true)
	w2Doc("dev-w2-2up-02", "dev-w2-2up", irs+", Copies B and C on one page", w2Two(w), w, 2, Scan200)
	w = newW2(8, 3, false)
	w2Doc("dev-w2-2up-03", "dev-w2-2up", irs+", Copies B and C on one page", w2Two(w), w, 2, Text)
	w = newW2(9, 1, false)
	w2Doc("dev-w2-4up-01", "dev-w2-4up", irs+", four copies (B, C, 2, 2) in the quarters of a sheet", w2Four(w), w, 4, Text)
	w = newW2(10, 13, false)
	w2Doc("dev-w2-4up-02", "dev-w2-4up", irs+", four copies (B, C, 2, 2) in the quarters of a sheet", w2Four(w), w, 4, ImgPDF300)
	const prov = "HTML printed by headless Chromium: a payroll provider's W-2 print (Copy B and an Employee Reference Copy with a summary)"
	w = newW2(11, 7, false)
	w2Doc("dev-w2-provider-01", "dev-w2-provider", prov, w2Provider(w), w, 2, Text)
	w = newW2(12, 0, true)
	w2Doc("dev-w2-provider-02", "dev-w2-provider", prov, w2Provider(w), w, 2, Text)
	w = newW2(13, 14, false)
	w2Doc("dev-w2-provider-03", "dev-w2-provider", prov, w2Provider(w), w, 2, Photo)
	const official = "fpdf: the IRS form as the IRS prints it (box 12's entries with the letters of \"Code\" stacked in a column) filled in by software in Helvetica with plain amounts"
	w = newW2(14, 2, false)
	w.Official = true
	w2Doc("dev-w2-official-01", "dev-w2-official", official, w2One(w), w, 1, Text)
	w = newW2(15, 8, true)
	w.Official = true
	w2Doc("dev-w2-official-02", "dev-w2-official", official, w2One(w), w, 1, Scan200)
	w = newW2(16, 11, false)
	w.Official = true
	w2Doc("dev-w2-official-03", "dev-w2-official", official+", Copies B and C on one page", w2Two(w), w, 2, Text)
}
