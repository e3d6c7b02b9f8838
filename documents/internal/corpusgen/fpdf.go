package main

import (
	"bytes"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// newPDF starts a letter page in points with fixed metadata, so the same
// stub renders the same bytes.
func newPDF(orientation, producer string, created time.Time) *fpdf.Fpdf {
	pdf := fpdf.New(orientation, "pt", "Letter", "")
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.SetProducer(producer, false)
	pdf.SetCreator(producer, false)
	pdf.SetCatalogSort(true) // fonts and images in a fixed order: the same stub, the same bytes
	pdf.SetAutoPageBreak(false, 0)
	pdf.AddPage()
	return pdf
}

func output(pdf *fpdf.Fpdf) ([]byte, error) {
	var b bytes.Buffer
	err := pdf.Output(&b)
	return b.Bytes(), err
}

// cell writes text in a box at x, y of width w aligned "L" or "R".
func cell(pdf *fpdf.Fpdf, x, y, w float64, text, align string) {
	pdf.SetXY(x, y)
	pdf.CellFormat(w, 14, text, "", 0, align, false, 0, "")
}

// renderClassic: a Helvetica statement in the style of small-business
// payroll tools: the employer top left with its EIN, labelled fields on
// the right ("Pay Date:", "Period Beginning:"), tables with Hours, Rate,
// Current and YTD columns, and a summary table with Current and YTD.
func renderClassic(s stub, dateFmt string) ([]byte, error) {
	pdf := newPDF("P", "QuickLedger Payroll 4.2", s.PayDate)
	pdf.SetFont("Helvetica", "B", 14)
	cell(pdf, 40, 40, 300, s.Employer, "L")
	pdf.SetFont("Helvetica", "", 9)
	cell(pdf, 40, 56, 300, s.Address, "L")
	cell(pdf, 40, 68, 300, "EIN: "+s.EIN, "L")
	pdf.SetFont("Helvetica", "B", 12)
	cell(pdf, 380, 40, 192, "Earnings Statement", "R")
	pdf.SetFont("Helvetica", "", 9)
	rows := [][2]string{{"Pay Date:", s.PayDate.Format(dateFmt)}, {"Period Beginning:", s.Start.Format(dateFmt)},
		{"Period Ending:", s.End.Format(dateFmt)}, {"Employee ID:", s.EmployeeID}}
	for i, r := range rows {
		cell(pdf, 380, 60+float64(i)*12, 90, r[0], "L")
		cell(pdf, 470, 60+float64(i)*12, 102, r[1], "R")
	}
	pdf.SetFont("Helvetica", "B", 10)
	cell(pdf, 40, 100, 300, "Employee", "L")
	pdf.SetFont("Helvetica", "", 9)
	cell(pdf, 40, 114, 300, s.Employee, "L")
	cell(pdf, 40, 126, 300, s.EmployeeAddr, "L")
	y := 160.0
	table := func(title string, ls []line, withHours bool) {
		pdf.SetFont("Helvetica", "B", 9)
		pdf.Line(40, y, 572, y)
		cell(pdf, 40, y+2, 150, title, "L")
		if withHours {
			cell(pdf, 250, y+2, 60, "Hours", "R")
			cell(pdf, 320, y+2, 60, "Rate", "R")
		}
		cell(pdf, 400, y+2, 80, "Current", "R")
		cell(pdf, 492, y+2, 80, "YTD", "R")
		pdf.SetFont("Helvetica", "", 9)
		y += 18
		for _, l := range ls {
			cell(pdf, 40, y, 150, l.Name, "L")
			if withHours && l.Hours > 0 {
				cell(pdf, 250, y, 60, hours(l.Hours), "R")
				cell(pdf, 320, y, 60, money(l.Rate), "R")
			}
			cell(pdf, 400, y, 80, money(l.Amount), "R")
			cell(pdf, 492, y, 80, money(l.YTD), "R")
			y += 13
		}
		y += 14
	}
	table("Earnings", s.Earnings, true)
	table("Taxes", s.Taxes, false)
	table("Deductions", s.Deds, false)
	pdf.SetFont("Helvetica", "B", 9)
	pdf.Line(40, y, 572, y)
	cell(pdf, 40, y+2, 150, "Summary", "L")
	cell(pdf, 400, y+2, 80, "Current", "R")
	cell(pdf, 492, y+2, 80, "YTD", "R")
	y += 18
	pdf.SetFont("Helvetica", "", 9)
	for _, r := range []struct {
		label    string
		cur, ytd int64
	}{{"Gross Pay", s.Gross, s.GrossYTD}, {"Total Taxes", s.TaxesTotal, s.TaxesYTD},
		{"Total Deductions", s.DedsTotal, s.DedsYTD}, {"Net Pay", s.Net, s.NetYTD}} {
		cell(pdf, 40, y, 150, r.label, "L")
		if r.label == "Net Pay" && s.NetFont != "" {
			pdf.SetFont(s.NetFont, "", 9)
		}
		cell(pdf, 400, y, 80, "$"+money(r.cur), "R")
		pdf.SetFont("Helvetica", "", 9)
		cell(pdf, 492, y, 80, "$"+money(r.ytd), "R")
		y += 13
	}
	return output(pdf)
}

// renderBoxes: a Times statement of stacked boxes, each a label over its
// figure with the YTD under it ("Gross Earnings" / "$2,000.00" / "YTD
// $24,000.00"), dates written "Jan 15, 2026", and pay lines listed with
// their amounts only.
func renderBoxes(s stub) ([]byte, error) {
	pdf := newPDF("P", "PayWorks Cloud", s.PayDate)
	pdf.SetFont("Times", "B", 16)
	cell(pdf, 40, 40, 532, "Pay Statement", "L")
	pdf.SetFont("Times", "", 10)
	cell(pdf, 40, 62, 260, "Company: "+s.Employer, "L")
	cell(pdf, 40, 75, 260, s.Address, "L")
	cell(pdf, 320, 62, 252, "Employee Name: "+s.Employee, "L")
	cell(pdf, 320, 75, 252, "Employee Number: "+s.EmployeeID, "L")
	y := 110.0
	boxes := []struct{ label, value string }{
		{"Check Date", s.PayDate.Format("Jan 2, 2006")}, {"Period Start", s.Start.Format("Jan 2, 2006")},
		{"Period End", s.End.Format("Jan 2, 2006")}, {"Federal EIN", s.EIN}}
	for i, b := range boxes {
		x := 40 + float64(i)*133
		pdf.Rect(x, y, 125, 40, "D")
		pdf.SetFont("Times", "B", 9)
		cell(pdf, x+6, y+4, 113, b.label, "L")
		pdf.SetFont("Times", "", 11)
		cell(pdf, x+6, y+20, 113, b.value, "L")
	}
	y += 60
	figures := []struct {
		label    string
		cur, ytd int64
	}{{"Gross Earnings", s.Gross, s.GrossYTD}, {"Taxes", s.TaxesTotal, s.TaxesYTD},
		{"Deductions", s.DedsTotal, s.DedsYTD}, {"Net Pay", s.Net, s.NetYTD}}
	for i, f := range figures {
		x := 40 + float64(i)*133
		pdf.Rect(x, y, 125, 62, "D")
		pdf.SetFont("Times", "B", 10)
		cell(pdf, x+6, y+4, 113, f.label, "L")
		pdf.SetFont("Times", "B", 13)
		cell(pdf, x+6, y+22, 113, "$"+money(f.cur), "L")
		pdf.SetFont("Times", "", 9)
		cell(pdf, x+6, y+42, 113, "YTD $"+money(f.ytd), "L")
	}
	y += 90
	list := func(title string, ls []line) {
		pdf.SetFont("Times", "B", 11)
		cell(pdf, 40, y, 300, title, "L")
		y += 16
		pdf.SetFont("Times", "", 10)
		for _, l := range ls {
			name := l.Name
			if l.Hours > 0 {
				name += " (" + hours(l.Hours) + " hrs @ " + money(l.Rate) + ")"
			}
			cell(pdf, 52, y, 260, name, "L")
			cell(pdf, 320, y, 90, money(l.Amount), "R")
			y += 13
		}
		y += 12
	}
	list("Earnings", s.Earnings)
	list("Taxes", s.Taxes)
	list("Deductions", s.Deds)
	return output(pdf)
}

// renderMono: an uppercase Courier advice in the style of mainframe
// payroll: short labels (CHECK DATE, PERIOD START), abbreviated taxes
// (FITW, OASDI), deductions printed with a trailing minus, and THIS
// PERIOD / YEAR TO DATE columns.
func renderMono(s stub) ([]byte, error) {
	pdf := newPDF("P", "PAYSYS/390 PRINT SERVICES", s.PayDate)
	pdf.SetFont("Courier", "B", 11)
	cell(pdf, 40, 40, 400, upper(s.Employer), "L")
	pdf.SetFont("Courier", "", 9)
	cell(pdf, 40, 54, 400, upper(s.Address), "L")
	cell(pdf, 400, 40, 172, "PAYROLL ADVICE", "R")
	d := func(t time.Time) string { return t.Format("01/02/06") }
	cell(pdf, 40, 80, 160, "CHECK DATE  "+d(s.PayDate), "L")
	cell(pdf, 210, 80, 160, "PERIOD START  "+d(s.Start), "L")
	cell(pdf, 390, 80, 182, "PERIOD END  "+d(s.End), "L")
	cell(pdf, 40, 94, 300, "EMPLOYEE  "+upper(s.Employee), "L")
	cell(pdf, 390, 94, 182, "FED ID  "+s.EIN, "L")
	y := 124.0
	pdf.SetFont("Courier", "B", 9)
	cell(pdf, 40, y, 150, "DESCRIPTION", "L")
	cell(pdf, 360, y, 100, "THIS PERIOD", "R")
	cell(pdf, 460, y, 112, "YEAR TO DATE", "R")
	y += 16
	pdf.SetFont("Courier", "", 9)
	abbrev := map[string]string{"Federal Income Tax": "FITW", "Social Security": "OASDI", "Medicare": "MEDICARE",
		"State Income Tax": "SITW", "401(k)": "401K", "Medical": "MED PLAN", "Regular": "REGULAR PAY", "Overtime": "OVERTIME PAY", "Salary": "SALARY"}
	rows := func(ls []line, sign string) {
		for _, l := range ls {
			cell(pdf, 40, y, 200, abbrev[l.Name], "L")
			cell(pdf, 360, y, 100, money(l.Amount)+sign, "R")
			cell(pdf, 460, y, 112, money(l.YTD)+sign, "R")
			y += 12
		}
	}
	rows(s.Earnings, " ")
	cell(pdf, 40, y, 200, "GROSS PAY", "L")
	cell(pdf, 360, y, 100, money(s.Gross)+" ", "R")
	cell(pdf, 460, y, 112, money(s.GrossYTD)+" ", "R")
	y += 18
	rows(s.Taxes, "-")
	rows(s.Deds, "-")
	y += 6
	cell(pdf, 40, y, 200, "NET CHECK", "L")
	cell(pdf, 360, y, 100, money(s.Net)+" ", "R")
	cell(pdf, 460, y, 112, money(s.NetYTD)+" ", "R")
	return output(pdf)
}

// renderSideBySide (held out): a landscape statement in Helvetica and
// Times with the employee's block on the left, Taxes and Deductions
// tables side by side, ISO dates, no dollar signs, and a summary whose
// headings are "This Period" and "Y-T-D".
func renderSideBySide(s stub) ([]byte, error) {
	pdf := newPDF("L", "Tally Payroll Desktop 11", s.PayDate)
	pdf.SetFont("Times", "B", 15)
	cell(pdf, 36, 30, 400, s.Employer, "L")
	pdf.SetFont("Times", "", 9)
	cell(pdf, 36, 46, 400, s.Address+"  |  Employer ID "+s.EIN, "L")
	pdf.SetFont("Helvetica", "", 9)
	d := func(t time.Time) string { return t.Format("2006-01-02") }
	info := [][2]string{{"Paid To", s.Employee}, {"Payment Date", d(s.PayDate)},
		{"Pay Period", d(s.Start) + " to " + d(s.End)}, {"Frequency", s.Frequency}}
	for i, r := range info {
		pdf.SetFont("Helvetica", "B", 8)
		cell(pdf, 36, 80+float64(i)*28, 180, r[0], "L")
		pdf.SetFont("Helvetica", "", 9)
		cell(pdf, 36, 92+float64(i)*28, 180, r[1], "L")
	}
	y := 80.0
	pdf.SetFont("Helvetica", "B", 9)
	cell(pdf, 240, y, 120, "Earnings", "L")
	cell(pdf, 370, y, 50, "Hrs", "R")
	cell(pdf, 425, y, 55, "Rate", "R")
	cell(pdf, 490, y, 70, "This Period", "R")
	cell(pdf, 570, y, 70, "Y-T-D", "R")
	pdf.SetFont("Helvetica", "", 9)
	y += 15
	for _, l := range s.Earnings {
		cell(pdf, 240, y, 120, l.Name, "L")
		if l.Hours > 0 {
			cell(pdf, 370, y, 50, hours(l.Hours), "R")
			cell(pdf, 425, y, 55, money(l.Rate), "R")
		}
		cell(pdf, 490, y, 70, money(l.Amount), "R")
		cell(pdf, 570, y, 70, money(l.YTD), "R")
		y += 12
	}
	y += 16
	top := y
	side := func(x float64, title string, ls []line) float64 {
		yy := top
		pdf.SetFont("Helvetica", "B", 9)
		cell(pdf, x, yy, 120, title, "L")
		cell(pdf, x+120, yy, 70, "This Period", "R")
		cell(pdf, x+195, yy, 70, "Y-T-D", "R")
		pdf.SetFont("Helvetica", "", 9)
		yy += 15
		for _, l := range ls {
			cell(pdf, x, yy, 120, l.Name, "L")
			cell(pdf, x+120, yy, 70, money(l.Amount), "R")
			cell(pdf, x+195, yy, 70, money(l.YTD), "R")
			yy += 12
		}
		return yy
	}
	y1 := side(240, "Withholdings", s.Taxes)
	y2 := side(520, "Deductions", s.Deds)
	y = max(y1, y2) + 24
	pdf.SetFont("Times", "B", 10)
	cell(pdf, 240, y, 120, "Totals", "L")
	cell(pdf, 370, y, 90, "This Period", "R")
	cell(pdf, 470, y, 90, "Y-T-D", "R")
	y += 15
	pdf.SetFont("Times", "", 10)
	for _, r := range []struct {
		label    string
		cur, ytd int64
	}{{"Total Gross", s.Gross, s.GrossYTD}, {"Total Withholdings", s.TaxesTotal, s.TaxesYTD},
		{"Total Deductions", s.DedsTotal, s.DedsYTD}, {"Net Pay", s.Net, s.NetYTD}} {
		cell(pdf, 240, y, 120, r.label, "L")
		cell(pdf, 370, y, 90, money(r.cur), "R")
		cell(pdf, 470, y, 90, money(r.ytd), "R")
		y += 13
	}
	return output(pdf)
}

func upper(s string) string { return string(bytes.ToUpper([]byte(s))) }
