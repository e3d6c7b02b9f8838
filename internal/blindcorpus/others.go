package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

func (b *builder) other(name, kind, layout, medium, made string, when time.Time, pdf func() []byte, series *string) {
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: kind, Honest: true, Paystubs: []TStub{}, Series: series}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, pdf, made, 1, seeded(name+"/media"), when)
	b.docs = append(b.docs, d)
}

func pronoun(r *rand.Rand) [2]string { return [2]string{"Their", "their"} }

// employmentLetter: letterhead, date, a paragraph confirming employment, title, start date and pay.
func employmentLetter(j *Job, r *rand.Rand, when time.Time, forLO bool) string {
	hr := pick(r, "Denise Whitfield", "Marcus Oyelaran", "Karen Liu-Bergstrom", "Tomas Echeverria", "Alicia Drummond")
	title := pick(r, "Human Resources Manager", "HR Business Partner", "Director of People Operations", "Payroll & Benefits Administrator")
	start := date(between(r, 2014, 2023), between(r, 1, 12), between(r, 1, 28))
	pro := pronoun(r)
	pay := ""
	if j.Hourly {
		pay = fmt.Sprintf("%s current rate of pay is $%s per hour, and %s regular schedule is %d hours per week, paid %s.", pro[0], j.Rate.r2(), pro[1], (int(j.Std)*j.Freq/52+50)/100, map[int]string{52: "weekly", 26: "every two weeks", 24: "twice a month", 12: "monthly"}[j.Freq])
	} else {
		pay = fmt.Sprintf("%s current annual base salary is %s, paid %s.", pro[0], NumFmt{Commas: true, Dollar: true}.pos(j.Salary), map[int]string{52: "weekly", 26: "biweekly", 24: "semi-monthly", 12: "monthly"}[j.Freq])
	}
	font := pick(r, "Liberation Serif", "C059", "P052", "Nimbus Roman", "DejaVu Serif")
	var h H
	h.f(`<html><head><meta charset="utf-8"><title>Employment Verification</title><style>
@page { size: 8.5in 11in; margin: 0.9in; }
body { font-family: '%s'; font-size: 11pt; line-height: 1.45; }
.lh { text-align: center; border-bottom: 2px solid #2a4d69; padding-bottom: 6px; margin-bottom: 24px; }
.lh .n { font-size: 18pt; font-weight: bold; color: #2a4d69; letter-spacing: 1px; }
.lh .a { font-size: 9pt; color: #444; }
.sig { font-family: 'Dancing Script', 'DkgHandwriting', cursive; font-size: 22pt; color: #1a2a6c; margin: 6px 0 0 0; }
p { margin: 0 0 12px 0; }
</style></head><body>`, font)
	if forLO {
		h.f(`<p align="center" style="margin-bottom:0"><font size="5" color="#2a4d69"><b>%s</b></font></p><p align="center" style="font-size:9pt">%s &bull; %s &bull; %s</p><hr><br>`, esc(strings.ToUpper(j.Co.Name)), esc(j.Co.Addr1), esc(j.Co.CityLine()), j.Co.Phone)
	} else {
		h.f(`<div class="lh"><div class="n">%s</div><div class="a">%s &bull; %s &bull; %s</div></div>`, esc(strings.ToUpper(j.Co.Name)), esc(j.Co.Addr1), esc(j.Co.CityLine()), j.Co.Phone)
	}
	h.f(`<p>%s</p>`, when.Format("January 2, 2006"))
	h.f(`<p>To Whom It May Concern:</p>`)
	h.f(`<p><b>RE: Verification of Employment &ndash; %s</b></p>`, esc(j.P.Full()))
	h.f(`<p>This letter confirms that %s has been employed by %s since %s. %s current position is %s in our %s department, and %s employment status is full-time.</p>`,
		esc(j.P.Full()), esc(j.Co.Name), start.Format("January 2, 2006"), pro[0], esc(j.Title), esc(strings.ToLower(pick(r, "operations", "finance", "clinical", "logistics", "customer service"))), pro[1])
	h.f(`<p>%s This letter is provided at the employee's request and does not constitute a guarantee of continued employment.</p>`, pay)
	h.f(`<p>Should you need any further information, please contact our office at %s.</p>`, j.Co.Phone)
	if forLO {
		h.f(`<p>Sincerely,</p><p><font face="Dancing Script" size="6" color="#1a2a6c">%s</font></p><p>%s<br>%s<br>%s</p>`, esc(hr), esc(hr), esc(title), esc(j.Co.Name))
	} else {
		h.f(`<p>Sincerely,</p><div class="sig">%s</div><p>%s<br>%s<br>%s</p>`, esc(hr), esc(hr), esc(title), esc(j.Co.Name))
	}
	h.f(`</body></html>`)
	return h.String()
}

func offerLetter(co *Company, p *Person, title string, salary Cents, start time.Time, r *rand.Rand, when time.Time) string {
	font := pick(r, "Lato", "Liberation Sans", "URW Gothic")
	hr := pick(r, "Priscilla Tan", "Jordan Abernethy", "Renee Castellanos")
	var h H
	h.f(`<div class="lh"><span class="n">%s</span><span class="a">%s, %s</span></div>`, esc(co.Name), esc(co.Addr1), esc(co.CityLine()))
	h.f(`<p>%s</p><p>%s<br>%s<br>%s</p>`, when.Format("January 2, 2006"), esc(p.Full()), esc(p.Addr1), esc(p.CityLine()))
	h.f(`<p>Dear %s,</p>`, esc(p.First))
	h.f(`<p>We are delighted to offer you the position of <b>%s</b> with %s. This letter sets out the terms of our offer.</p>`, esc(title), esc(co.Name))
	h.f(`<p><b>Start date.</b> Your first day of work will be %s.</p>`, start.Format("Monday, January 2, 2006"))
	h.f(`<p><b>Compensation.</b> Your starting salary will be %s per year, paid semi-monthly in accordance with the company's normal payroll practices and subject to applicable withholdings. You will also be eligible for an annual performance bonus with a target of %d%% of base salary.</p>`,
		NumFmt{Commas: true, Dollar: true}.pos(salary), pick(r, 8, 10, 12, 15))
	h.f(`<p><b>Benefits.</b> You will be eligible to participate in the company's medical, dental and vision plans on the first of the month following your start date, and in the 401(k) plan with a company match of up to 4%% of eligible pay. You will accrue paid time off at 15 days per year.</p>`)
	h.f(`<p><b>At-will employment.</b> Your employment with %s is at will. This offer is contingent on satisfactory completion of a background check and verification of your eligibility to work in the United States.</p>`, esc(co.Name))
	h.f(`<p>Please sign and return this letter by %s to accept this offer. We look forward to working with you.</p>`, when.AddDate(0, 0, 7).Format("January 2, 2006"))
	h.f(`<p>Sincerely,</p><div class="sig">%s</div><p>%s<br>Talent Acquisition</p>`, esc(hr), esc(hr))
	h.f(`<div class="acc"><p><b>Acceptance</b></p><p>I accept the offer of employment on the terms above.</p><p>Signature: ____________________________ &nbsp;&nbsp; Date: ______________</p></div>`)
	css := fmt.Sprintf(`body { font-family: '%s'; font-size: 10.5pt; line-height: 1.45; color: #222; }
.lh { border-bottom: 1px solid #999; padding-bottom: 8px; margin-bottom: 20px; display: flex; justify-content: space-between; align-items: baseline; }
.n { font-size: 16pt; font-weight: bold; } .a { font-size: 9pt; color: #555; }
p { margin: 0 0 10px 0; } .sig { font-family: 'Dancing Script', cursive; font-size: 20pt; color: #203a8f; }
.acc { margin-top: 26px; border-top: 1px dashed #999; padding-top: 8px; }
`, font)
	return page("Offer of Employment", "letter", "0.9in", css, h.String())
}

// bankStatement: one page of a checking account statement with payroll deposits.
func bankStatement(j *Job, stubs []*Stub, r *rand.Rand, month time.Time) string {
	bank := pick(r, "Piedmont Federal Bank", "Great Plains Community Bank", "Riverstone Credit Union", "Bayline Savings Bank")
	font := pick(r, "Liberation Sans", "DejaVu Sans Condensed", "Nimbus Sans")
	first := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1)
	type tx struct {
		d    time.Time
		desc string
		amt  Cents
	}
	var txs []tx
	empl := strings.ToUpper(j.Co.Name)
	if len(empl) > 16 {
		empl = empl[:16]
	}
	for _, s := range stubs {
		if s.Pay.Month() != month.Month() {
			continue
		}
		amt := s.Net
		for _, d := range s.Deposits {
			if d.Type == "Checking" {
				amt = d.Amount
			}
		}
		txs = append(txs, tx{s.Pay, fmt.Sprintf("%s PAYROLL PPD ID: %d", empl, between(r, 1000000000, 9999999999)), amt})
	}
	payees := []string{"KROGER #0412", "SHELL OIL 57442", "DUKE ENERGY PAYMENT", "NETFLIX.COM", "AMAZON MKTPLACE PMTS", "CVS/PHARMACY #2291", "SPECTRUM 855-707-7328", "ZELLE TO M ROSS", "TARGET T-1187", "STATE FARM INSURANCE", "CHECK 1043", "ATM WITHDRAWAL 3RD ST"}
	for i := 0; i < between(r, 10, 16); i++ {
		d := first.AddDate(0, 0, r.IntN(last.Day()))
		txs = append(txs, tx{d, pick(r, payees...), -Cents(between(r, 899, 42000))})
	}
	if r.IntN(2) == 0 {
		txs = append(txs, tx{first.AddDate(0, 0, 2), "RENT - PARKVIEW APTS ACH", -Cents(between(r, 95000, 185000))})
	}
	for i := range txs {
		for k := i + 1; k < len(txs); k++ {
			if txs[k].d.Before(txs[i].d) {
				txs[i], txs[k] = txs[k], txs[i]
			}
		}
	}
	var run, low Cents
	for _, t := range txs {
		run += t.amt
		low = min(low, run)
	}
	open := Cents(between(r, 40000, 350000)) - low
	bal := open
	var dep, wd Cents
	nf := NumFmt{Commas: true}
	var rows [][]string
	for _, t := range txs {
		bal += t.amt
		a, b2 := "", ""
		if t.amt > 0 {
			a = nf.pos(t.amt)
			dep += t.amt
		} else {
			b2 = nf.pos(-t.amt)
			wd += -t.amt
		}
		rows = append(rows, []string{t.d.Format("01/02"), esc(t.desc), a, b2, nf.pos(bal)})
	}
	close := open + dep - wd
	var h H
	h.f(`<div class="hd"><div class="bk">%s</div><div class="r">Statement Period<br><b>%s - %s</b><br>Page 1 of %d</div></div>`, bank, first.Format("01/02/2006"), last.Format("01/02/2006"), between(r, 2, 4))
	h.f(`<div class="addr">%s<br>%s<br>%s</div>`, esc(strings.ToUpper(j.P.Plain())), esc(strings.ToUpper(j.P.Addr1)), esc(strings.ToUpper(j.P.CityLine())))
	h.f(`<h3>Everyday Checking &nbsp; Account %s</h3>`, "XXXXXX"+j.Acct1[len(j.Acct1)-4:])
	h.f(`<table class="sum"><tr><td>Beginning balance on %s</td><td>%s</td></tr><tr><td>Deposits and other additions</td><td>%s</td></tr><tr><td>Withdrawals and other subtractions</td><td>-%s</td></tr><tr class="tot"><td>Ending balance on %s</td><td>%s</td></tr></table>`,
		first.Format("January 2"), NumFmt{Commas: true, Dollar: true}.pos(open), nf.pos(dep), nf.pos(wd), last.Format("January 2"), NumFmt{Commas: true, Dollar: true}.pos(close))
	h.f(`<h3>Transaction history</h3>`)
	h.s(tbl("t", []string{"Date", "Description", "Deposits/ Additions", "Withdrawals/ Subtractions", "Ending daily balance"}, "llrrr", rows))
	h.f(`<p class="fine">Member FDIC. Equal Housing Lender. Direct deposits shown as PPD are credited on the payment date provided by the originator.</p>`)
	css := fmt.Sprintf(`body { font-family: '%s'; font-size: 8.5pt; }
.hd { display: flex; justify-content: space-between; border-bottom: 3px solid #6b1f2a; padding-bottom: 6px; } .bk { font-size: 18pt; font-weight: bold; color: #6b1f2a; } .r { text-align: right; }
.addr { margin: 16px 0 16px 0.4in; line-height: 1.3; }
h3 { font-size: 10pt; margin: 12px 0 4px 0; border-bottom: 1px solid #6b1f2a; }
.sum { width: 60%%; } .sum td { padding: 2px 4px; } .sum td:last-child { text-align: right; } .sum tr.tot td { font-weight: bold; border-top: 1px solid #000; }
.t { width: 100%%; } .t th { text-align: left; border-bottom: 1px solid #000; padding: 2px 4px; font-size: 0.9em; } .t th.r { text-align: right; } .t td { padding: 2px 4px; border-bottom: 1px solid #eee; }
.fine { font-size: 7pt; color: #555; margin-top: 12px; }
`, font)
	return page("Statement", "letter", "0.55in", css, h.String())
}

func (b *builder) others() {
	J := b.jobs
	// employment verification letters
	j := J["person-01"]
	r := seeded("employment-01")
	when := date(2026, 4, 14)
	lo := employmentLetter(j, r, when, true)
	b.other("employment-01", "employment_letter", "employment_letter", "text_pdf", "HTML letter converted to PDF by LibreOffice", when,
		func() []byte { return sofficePDF([]byte(lo), "html") }, sp(j.Series))
	j = J["person-10"]
	r = seeded("employment-02")
	when = date(2026, 6, 2)
	html := strings.Replace(employmentLetter(j, r, when, false), "<style>", "<style>\nhtml { -webkit-print-color-adjust: exact; }", 1)
	b.other("employment-02", "employment_letter", "employment_letter", "scan_jpg", "HTML letter printed by headless Chromium", when,
		func() []byte { return chromePDF(html) }, sp(j.Series))
	// offer letter
	r = seeded("offer-01")
	co := b.pool.company("Verity Health Analytics, Inc.", "TN")
	p := b.pool.person("TN")
	when = date(2026, 2, 23)
	offer := offerLetter(co, p, "Senior Data Engineer", 13650000, date(2026, 3, 16), r, when)
	b.other("offer-01", "offer_letter", "offer_letter", "text_pdf", "HTML letter printed by headless Chromium", when, func() []byte { return chromePDF(offer) }, nil)
	// bank statements with payroll deposits
	j = J["person-02"]
	ss := j.Simulate(2026)
	r = seeded("bank-01")
	bs := bankStatement(j, ss, r, ss[4].Pay)
	b.other("bank-01", "bank_statement", "bank_statement", "text_pdf", "HTML statement page printed by headless Chromium", ss[4].Pay.AddDate(0, 1, 3),
		func() []byte { return chromePDF(bs) }, sp(j.Series))
	j = J["person-06"]
	ss = j.Simulate(2026)
	r = seeded("bank-02")
	bs2 := bankStatement(j, ss, r, ss[9].Pay)
	b.other("bank-02", "bank_statement", "bank_statement", "image_pdf", "HTML statement page printed by headless Chromium", ss[9].Pay.AddDate(0, 1, 5),
		func() []byte { return chromePDF(bs2) }, sp(j.Series))

	// a password-protected paystub, as some employers e-mail them
	j = b.employ("person-41", "Granite State Orthopedics, P.A.", "NH", "NH", 26, date(2026, 1, 9), 6, 0, 306000)
	ss = j.Simulate(2026)
	name := "gusto-09"
	r = seeded(name)
	html2, v := layoutGusto(ss[13], r)
	pw := j.P.Last + j.P.SSN4
	pw = strings.ReplaceAll(pw, "'", "")
	d := &Doc{T: Truth{Name: name, Layout: "gusto", Medium: "text_pdf", Kind: "paystub", Honest: true, EncryptedPassword: sp(pw),
		Series: sp(j.Series), Paystubs: []TStub{truthOf(v, 1)}}, src: []*Stub{ss[13]}}
	owner := fmt.Sprintf("own-%08x", r.Uint32())
	d.T.MadeBy, d.Ext, d.Make = "HTML printed by headless Chromium, then encrypted with a user password (qpdf --encrypt, AES-256); the password is the employee's last name and the last four digits of the SSN", "pdf",
		func() []byte { return qpdfEncrypt(chromePDF(html2), pw, owner) }
	b.docs = append(b.docs, d)
}
