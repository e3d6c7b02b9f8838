package main

import (
	"fmt"
	"strings"
	"time"
)

// Documents that are not paystubs: an employment verification letter, an
// offer letter, a bank statement page with payroll deposits.

func verificationLetter(j *Job, date time.Time) []byte {
	css := `body{font-family:"C059","DejaVu Serif",serif;font-size:11.5px;line-height:1.5;margin:20px 30px}.lh{border-bottom:2px solid #345;padding-bottom:8px;margin-bottom:26px}`
	body := fmt.Sprintf(`<div class="lh"><b style="font-size:19px;color:#345">%s</b><br>%s · %s</div>
<p>%s</p><p>To Whom It May Concern:</p>
<p>This letter confirms that %s has been employed by %s since %s. %s currently holds the position of %s in our %s department and works full time.</p>
<p>%s's current annual base salary is $%s, paid %s. This letter is provided at the employee's request for the purpose of verifying employment and income, and does not guarantee continued employment.</p>
<p>Should you require further information, please contact Human Resources at %s.</p>
<p style="margin-top:30px">Sincerely,</p><p style="font-family:'Dancing Script',cursive;font-size:22px;margin:4px 0">Renata Ellsworth</p>
<p>Renata Ellsworth<br>Director, Human Resources<br>%s</p>`,
		esc(j.Emp.Name), esc(j.Emp.OneLine()), j.Emp.Phone, date.Format("January 2, 2006"), esc(j.P.Full()), esc(j.Emp.Name),
		time.Date(j.Year-3, 4, 14, 0, 0, 0, 0, time.UTC).Format("January 2, 2006"), esc(j.P.First), esc(j.Title), esc(j.Dept), esc(j.P.First),
		money(j.Annual), j.Freq, j.Emp.Phone, esc(j.Emp.Name))
	return chromiumPDF(page(css, body), date)
}

func offerLetter(j *Job, date time.Time) []byte {
	body := fmt.Sprintf(`<html><head><meta charset="utf-8"></head><body style="font-family:'Liberation Serif'">
<p align="center"><font size="5"><b>%s</b></font><br>%s</p><p>%s</p><p>%s<br>%s<br>%s</p>
<p>Dear %s,</p>
<p>We are pleased to offer you the position of <b>%s</b> with %s, reporting to the Director of %s. Your anticipated start date is %s.</p>
<p>Your starting salary will be <b>$%s per year</b>, paid %s, less applicable withholdings. You will be eligible for our medical, dental and 401(k) plans on the first of the month after your start date, and will accrue 80 hours of paid vacation a year.</p>
<p>This offer is contingent on the completion of a background check and on your providing proof of eligibility to work in the United States. Please sign and return this letter by %s.</p>
<p>We look forward to welcoming you to the team.</p><p>Sincerely,</p><p>Marcus Tillinghast<br>Chief Operating Officer</p>
<p>Accepted: ______________________________ &nbsp; Date: ______________</p></body></html>`,
		esc(j.Emp.Name), esc(j.Emp.OneLine()), date.Format("January 2, 2006"), esc(j.P.Full()), esc(j.P.Street), esc(j.P.CityLine()), esc(j.P.First),
		esc(j.Title), esc(j.Emp.Name), esc(j.Dept), date.AddDate(0, 0, 21).Format("January 2, 2006"), money(j.Annual), j.Freq, date.AddDate(0, 0, 7).Format("January 2, 2006"))
	return writerPDF(body, date)
}

// bankStatement: a checking statement page whose deposits include the
// job's net pay.
func bankStatement(j *Job, n int) []byte {
	first, last := j.Stub(n), j.Stub(n+1)
	p := newP("P", "StatementWorks 5", last.PayDate)
	p.font("Helvetica", "B", 14)
	p.L(40, 50, "Prairie Commerce Bank")
	p.font("Helvetica", "", 8)
	p.L(40, 62, "Member FDIC · PO Box 4410, Springfield, IL 62708 · 1-800-555-0175")
	p.font("Helvetica", "B", 10)
	p.R(572, 50, "Checking Account Statement")
	start := first.PayDate.AddDate(0, 0, -10)
	end := start.AddDate(0, 1, -1)
	p.font("Helvetica", "", 8.5)
	p.R(572, 62, fmt.Sprintf("Statement Period: %s - %s", start.Format("01/02/2006"), end.Format("01/02/2006")))
	p.R(572, 73, "Account Number: ******"+j.P.SSN4)
	p.L(40, 96, strings.ToUpper(j.P.Full()))
	p.L(40, 107, strings.ToUpper(j.P.Street))
	p.L(40, 118, strings.ToUpper(j.P.CityLine()))
	bal := int64(184_233)
	type tx struct {
		d    time.Time
		desc string
		amt  int64
	}
	var txs []tx
	for _, s := range []Stub{first, last} {
		if !s.PayDate.After(end) {
			txs = append(txs, tx{s.PayDate, fmt.Sprintf("DIRECT DEP %s PAYROLL PPD ID: %s", strings.ToUpper(j.Emp.Code), strings.ReplaceAll(j.Emp.EIN, "-", "")), s.Net})
		}
	}
	others := []struct {
		day  int
		desc string
		amt  int64
	}{{2, "ONLINE PMT RIVERSTONE APTS RENT", -142_500}, {4, "POS PURCHASE GREENLEAF MARKET #221", -8_734}, {7, "ATM WITHDRAWAL 1400 MAIN ST", -6_000},
		{11, "ACH DEBIT METRO ELECTRIC CO", -11_420}, {15, "POS PURCHASE QUIKFUEL 0098", -4_611}, {19, "ZELLE TO J OKAFOR", -5_000}, {23, "ACH DEBIT CARLINE AUTO LOAN", -32_950}, {27, "POS PURCHASE HOMEWARE DEPOT", -6_288}}
	for _, o := range others {
		txs = append(txs, tx{start.AddDate(0, 0, o.day), o.desc, o.amt})
	}
	for i := range txs {
		for k := i + 1; k < len(txs); k++ {
			if txs[k].d.Before(txs[i].d) {
				txs[i], txs[k] = txs[k], txs[i]
			}
		}
	}
	y := 150.0
	p.font("Helvetica", "B", 8.5)
	p.L(40, y, "Date")
	p.L(90, y, "Description")
	p.R(430, y, "Deposits")
	p.R(500, y, "Withdrawals")
	p.R(572, y, "Balance")
	p.hline(40, 572, y+4, 0.6)
	p.font("Helvetica", "", 8.5)
	y += 16
	p.L(90, y, "Beginning balance")
	p.R(572, y, money(bal))
	y += 13
	var dep, wd int64
	for _, t := range txs {
		bal += t.amt
		p.L(40, y, t.d.Format("01/02"))
		p.L(90, y, t.desc)
		if t.amt > 0 {
			p.R(430, y, money(t.amt))
			dep += t.amt
		} else {
			p.R(500, y, money(-t.amt))
			wd -= t.amt
		}
		p.R(572, y, money(bal))
		y += 13
	}
	p.hline(40, 572, y-4, 0.6)
	p.font("Helvetica", "B", 8.5)
	p.L(90, y+6, "Totals / Ending balance")
	p.R(430, y+6, money(dep))
	p.R(500, y+6, money(wd))
	p.R(572, y+6, money(bal))
	return p.bytes()
}

func otherDoc(name, layout, means, kind string, pdf []byte, med string, created time.Time) {
	if !want(name) {
		return
	}
	ext, data, medium, how := apply(med, pdf, seedOf(name), created, "HR")
	emit(Truth{Name: name, Layout: layout, MadeBy: means + how, Medium: medium, Kind: kind, Honest: true, Paystubs: []TStub{}}, ext, data)
}
