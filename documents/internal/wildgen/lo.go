package main

import (
	"fmt"
	"strings"
)

// Layouts written as HTML and converted by LibreOffice Writer, and more
// Chromium ones: a state agency, trucking, a two-page stub, a restaurant,
// a salaried monthly stub, a "download all" export.

func loTable(heads []string, rows [][]string, num int, width string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<table width="%s" border="1" cellspacing="0" cellpadding="2" style="border-collapse:collapse">`, width)
	if heads != nil {
		b.WriteString("<tr>")
		for i, h := range heads {
			al := "left"
			if i >= num {
				al = "right"
			}
			fmt.Fprintf(&b, `<td align="%s" bgcolor="#d9d9d9"><font size="1"><b>%s</b></font></td>`, al, h)
		}
		b.WriteString("</tr>")
	}
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, v := range r {
			al := "left"
			if i >= num {
				al = "right"
			}
			fmt.Fprintf(&b, `<td align="%s"><font size="1">%s</font></td>`, al, v)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

// sideBySide is one table of six columns: taxes on the left, deductions on
// the right, row by row.
func sideBySide(h1 []string, r1 [][]string, h2 []string, r2 [][]string) string {
	var rows [][]string
	for i := 0; i < max(len(r1), len(r2)); i++ {
		row := []string{"", "", "", "", "", ""}
		if i < len(r1) {
			copy(row, r1[i])
		}
		if i < len(r2) {
			copy(row[3:], r2[i])
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	b.WriteString(`<table width="100%" border="1" cellspacing="0" cellpadding="2" style="border-collapse:collapse"><tr>`)
	for i, h := range append(append([]string{}, h1...), h2...) {
		al := "right"
		if i%3 == 0 {
			al = "left"
		}
		fmt.Fprintf(&b, `<td align="%s" bgcolor="#d9d9d9"><font size="1"><b>%s</b></font></td>`, al, h)
	}
	b.WriteString("</tr>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, v := range r {
			al := "right"
			if i%3 == 0 {
				al = "left"
			}
			fmt.Fprintf(&b, `<td align="%s"><font size="1">%s</font></td>`, al, v)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

// ---------- a state agency ----------

var stateEmployer = Employer{Name: "State of Vermont", EIN: "03-6009917", Street: "120 Capitol Way", City: "Montpelier", State: "VT", Zip: "05609", Phone: "(802) 555-0100", Code: "VT"}

func stateView(s Stub) View {
	return View{Printed: printedExcept("employer_ein"), LineYTD: true,
		Names: map[string]string{"salary": "Regular Salary", "regular": "Regular Pay", "overtime": "Overtime 1.5", "fed": "Federal Withholding", "ss": "OASDI",
			"med": "Medicare", "sit": "VT State Withholding", "pension": "VSERS Retirement", "medical": "Health Premium", "dental": "Dental Premium", "life": "Optional Life"}}
}

func cr(c int64) string { return money(c) + " CR" }
func dr(c int64) string { return money(c) + " DR" }

func stateRender(s Stub, v View) []byte {
	j := s.Job
	df := "01/02/2006"
	var b strings.Builder
	b.WriteString(`<html><head><meta charset="utf-8"></head><body style="font-family:'Liberation Serif'">`)
	fmt.Fprintf(&b, `<p align="center"><font size="4"><b>%s Earnings Statement</b></font><br><font size="2">Department of Finance and Management · Payroll Services · %s</font></p>`,
		esc(j.Emp.Name), esc(j.Emp.OneLine()))
	fmt.Fprintf(&b, `<p><font size="2">Agency: %s &nbsp; &nbsp; Position: %s &nbsp; &nbsp; Pay Period %s - %s</font></p>`,
		esc(j.Dept), esc(j.Title), s.Start.Format(df), s.End.Format(df))
	b.WriteString(loTable([]string{"Employee Name", "Employee ID", "Period Begin Date", "Period End Date", "Pay Date", "Pay Schedule"},
		[][]string{{esc(j.P.Full()), j.P.ID, s.Start.Format(df), s.End.Format(df), s.PayDate.Format(df), "Semi-Monthly"}}, 9, "100%"))
	b.WriteString("<p></p>")
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		er = append(er, []string{esc(v.name(l.Key)), h, r, cr(l.Amount), cr(l.YTD)})
	}
	er = append(er, []string{"<b>Total Earnings</b>", "", "", "<b>" + cr(s.Gross) + "</b>", "<b>" + cr(s.GrossYTD) + "</b>"})
	b.WriteString(loTable([]string{"Earnings", "Hours", "Rate", "Current", "Year to Date"}, er, 1, "100%"))
	b.WriteString("<p></p>")
	var tr, dd [][]string
	for _, l := range v.lines(s.Taxes) {
		tr = append(tr, []string{esc(v.name(l.Key)), dr(l.Amount), dr(l.YTD)})
	}
	tr = append(tr, []string{"<b>Total Taxes</b>", "<b>" + dr(s.TaxesTotal) + "</b>", "<b>" + dr(s.TaxesYTD) + "</b>"})
	for _, l := range v.lines(s.Deds) {
		n := v.name(l.Key)
		if l.PreTax {
			n += " (pre-tax)"
		}
		dd = append(dd, []string{esc(n), dr(l.Amount), dr(l.YTD)})
	}
	dd = append(dd, []string{"<b>Total Deductions</b>", "<b>" + dr(s.DedsTotal) + "</b>", "<b>" + dr(s.DedsYTD) + "</b>"})
	b.WriteString(sideBySide([]string{"Taxes", "Current", "Year to Date"}, tr, []string{"Deductions", "Current", "Year to Date"}, dd) + "<p></p>")
	fmt.Fprintf(&b, `<p><font size="3"><b>Net Pay: %s</b></font> &nbsp; Direct deposit, account ending %s</p>`, cr(s.Net), j.P.SSN4)
	fmt.Fprintf(&b, `<p><font size="2">Year To Date: Gross %s Net %s</font></p>`, money(s.GrossYTD), money(s.NetYTD))
	var lr [][]string
	for _, l := range s.Leave {
		lr = append(lr, []string{l.Name, hrs(l.Begin), hrs(l.Used), hrs(l.Earned), hrs(l.End)})
	}
	b.WriteString(loTable([]string{"Leave (hours)", "Beginning", "Used", "Earned", "Ending"}, lr, 1, "70%"))
	b.WriteString(`<p><font size="1">CR = credit to employee; DR = debit (withheld). VSERS: Vermont State Employees' Retirement System contribution, pre-tax.</font></p></body></html>`)
	return writerPDF(b.String(), s.PayDate)
}

// ---------- trucking ----------

func truckingView(s Stub) View {
	return View{Printed: printedExcept(), LineYTD: true,
		Names: map[string]string{"regular": "Regular", "overtime": "Overtime 1.5x", "doubletime": "Double Time 2.0x", "fed": "Federal W/H", "ss": "Social Security",
			"med": "Medicare", "sit": s.Job.Emp.State + " State W/H", "sit2": s.Job.State2 + " State W/H", "401k": "401(k)", "medical": "Medical",
			"union": "Teamsters Local 142 Dues", "childsupport": "Child Support Garnishment", "perdiem": "Per Diem (non-taxable)", "mileage": "Mileage (non-taxable)"}}
}

func truckingRender(s Stub, v View) []byte {
	j := s.Job
	df := "01/02/2006"
	var b strings.Builder
	b.WriteString(`<html><head><meta charset="utf-8"></head><body style="font-family:'Liberation Sans'">`)
	fmt.Fprintf(&b, `<p><font size="4"><b>%s</b></font><br><font size="2">%s · FEIN %s · DOT 2841177</font></p>`, esc(j.Emp.Name), esc(j.Emp.OneLine()), j.Emp.EIN)
	b.WriteString(loTable([]string{"Driver", "Driver No.", "Terminal", "Check Date", "Week Beginning", "Week Ending", "Check No."},
		[][]string{{esc(j.P.Full()), j.P.ID, j.Emp.City, s.PayDate.Format(df), s.Start.Format(df), s.End.Format(df), fmt.Sprint(s.CheckNo)}}, 9, "100%"))
	b.WriteString("<p></p>")
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		er = append(er, []string{esc(v.name(l.Key)), h, r, money(l.Amount), money(l.YTD)})
	}
	er = append(er, []string{"", "<b>" + hrs(s.HoursTotal) + "</b>", "", "<b>" + money(s.Gross) + "</b>", "<b>" + money(s.GrossYTD) + "</b>"})
	b.WriteString(loTable([]string{"Earnings", "Hours", "Rate", "Current", "YTD"}, er, 1, "100%"))
	b.WriteString("<p></p>")
	mk := func(ls []Line, neg bool) [][]string {
		var out [][]string
		for _, l := range v.lines(ls) {
			a, y := money(l.Amount), money(l.YTD)
			if neg {
				a, y = "-"+a, "-"+y
			}
			out = append(out, []string{esc(v.name(l.Key)), a, y})
		}
		return out
	}
	tx := append(mk(s.Taxes, true), []string{"", "<b>-" + money(s.TaxesTotal) + "</b>", "<b>-" + money(s.TaxesYTD) + "</b>"})
	dd := append(mk(s.Deds, true), []string{"", "<b>-" + money(s.DedsTotal) + "</b>", "<b>-" + money(s.DedsYTD) + "</b>"})
	var rb [][]string
	for _, l := range v.lines(s.Reimb) {
		rb = append(rb, []string{esc(v.name(l.Key)), fmt.Sprintf("%s @ %s", map[string]string{"perdiem": hrs(l.Hours)[:len(hrs(l.Hours))-3] + " days", "mileage": hrs(l.Hours)[:len(hrs(l.Hours))-3] + " mi"}[l.Key], rate2(l.Rate)), money(l.Amount), money(l.YTD)})
	}
	b.WriteString(sideBySide([]string{"Taxes", "Current", "YTD"}, tx, []string{"Deductions", "Current", "YTD"}, dd) + "<p></p>")
	b.WriteString(loTable([]string{"Reimbursements (added to net, not taxed)", "Basis", "Current", "YTD"}, rb, 2, "100%"))
	b.WriteString("<p></p>")
	b.WriteString(loTable([]string{"", "Gross", "Taxes", "Deductions", "Reimbursements", "Net Pay"}, [][]string{
		{"This Check", money(s.Gross), money(s.TaxesTotal), money(s.DedsTotal), money(s.ReimbTotal), "<b>" + money(s.Net) + "</b>"},
		{"Year to Date", money(s.GrossYTD), money(s.TaxesYTD), money(s.DedsYTD), money(s.ReimbYTD), money(s.NetYTD)}}, 1, "100%"))
	fmt.Fprintf(&b, `<p><font size="1">Taxable wages are split between %s and %s by miles driven in each state. Garnishment per order no. CS-%d.</font></p></body></html>`,
		j.Emp.State, j.State2, 10000+j.seed%80000)
	return writerPDF(b.String(), s.PayDate)
}

// ---------- a two-page stub ----------

func twopageView(s Stub) View {
	return View{Printed: printedExcept("employer_ein"), LineYTD: true,
		Names: map[string]string{"fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare", "sit": "State Income Tax", "sdi": "State Disability"}}
}

func twopageRender(s Stub, v View) []byte {
	j := s.Job
	df := "January 2, 2006"
	var b strings.Builder
	b.WriteString(`<html><head><meta charset="utf-8"></head><body style="font-family:'DejaVu Serif'">`)
	fmt.Fprintf(&b, `<p><font size="5"><b>%s</b></font><br>%s</p><p align="right"><b>Pay Statement</b> &nbsp; Page 1 of 2</p>`, esc(j.Emp.Name), esc(j.Emp.OneLine()))
	fmt.Fprintf(&b, `<table width="100%%" border="0" cellpadding="3"><tr><td>Employee:</td><td>%s</td><td>Pay date:</td><td>%s</td></tr>
<tr><td>Employee number:</td><td>%s</td><td>Pay period:</td><td>%s to %s</td></tr>
<tr><td>Address:</td><td>%s, %s</td><td>Frequency:</td><td>%s</td></tr></table><p></p>`,
		esc(j.P.Full()), s.PayDate.Format(df), j.P.ID, s.Start.Format(df), s.End.Format(df), esc(j.P.Street), esc(j.P.CityLine()), titleCase(j.Freq))
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		er = append(er, []string{esc(v.name(l.Key)), h, r, "$" + money(l.Amount), "$" + money(l.YTD)})
	}
	er = append(er, []string{"<b>Gross Pay</b>", "", "", "<b>$" + money(s.Gross) + "</b>", "<b>$" + money(s.GrossYTD) + "</b>"})
	b.WriteString("<h3>Earnings</h3>" + loTable([]string{"Description", "Hours", "Rate", "Current", "Year to Date"}, er, 1, "100%"))
	var lr [][]string
	for _, l := range s.Leave {
		lr = append(lr, []string{l.Name, hrs(l.Begin), hrs(l.Earned), hrs(l.Used), hrs(l.End)})
	}
	b.WriteString("<h3>Time Off (hours)</h3>" + loTable([]string{"Plan", "Beginning", "Accrued", "Used", "Available"}, lr, 1, "100%"))
	b.WriteString(`<p><i>Continued on page 2.</i></p>`)
	fmt.Fprintf(&b, `<p style="page-break-before: always" align="right"><b>%s</b> · %s · Pay date %s · Page 2 of 2</p>`, esc(j.Emp.Name), esc(j.P.Full()), s.PayDate.Format(df))
	mk := func(ls []Line) [][]string {
		var out [][]string
		for _, l := range v.lines(ls) {
			out = append(out, []string{esc(v.name(l.Key)), "$" + money(l.Amount), "$" + money(l.YTD)})
		}
		return out
	}
	tx := append(mk(s.Taxes), []string{"<b>Total Taxes</b>", "<b>$" + money(s.TaxesTotal) + "</b>", "<b>$" + money(s.TaxesYTD) + "</b>"})
	dd := append(mk(s.Deds), []string{"<b>Total Deductions</b>", "<b>$" + money(s.DedsTotal) + "</b>", "<b>$" + money(s.DedsYTD) + "</b>"})
	b.WriteString("<h3>Taxes (continued from page 1)</h3>" + loTable([]string{"Description", "Current", "Year to Date"}, tx, 1, "100%"))
	b.WriteString("<h3>Deductions</h3>" + loTable([]string{"Description", "Current", "Year to Date"}, dd, 1, "100%"))
	b.WriteString("<p></p>" + loTable([]string{"", "Current", "Year to Date"}, [][]string{{"<b>Net Pay</b>", "<b>$" + money(s.Net) + "</b>", "<b>$" + money(s.NetYTD) + "</b>"}}, 1, "100%"))
	b.WriteString(`</body></html>`)
	return writerPDF(b.String(), s.PayDate)
}

// ---------- restaurant with tips (Chromium) ----------

func restaurantView(s Stub) View {
	return View{Printed: printedExcept("employer_ein"), LineYTD: true,
		Names: map[string]string{"tipped": "Server Wages (Tipped)", "overtime": "Overtime", "cctips": "Credit Card Tips", "cashtips": "Cash Tips", "fed": "Federal Income Tax",
			"ss": "Social Security", "med": "Medicare", "sit": s.Job.Emp.State + " Income Tax", "cashtipsrecv": "Cash Tips Received", "medical": "Medical", "dental": "Dental"}}
}

func pd(c int64) string { return "($" + money(c) + ")" }

func restaurantRender(s Stub, v View) []byte {
	j := s.Job
	df := "01/02/2006"
	css := `body{font-family:"URW Bookman","DejaVu Serif",serif;font-size:9.5px}table{border-collapse:collapse;width:100%;margin:4px 0 10px 0}
th{border-bottom:1.5px solid #000;text-align:left;padding:2px 4px}td{padding:2px 4px}.n{text-align:right}.hl{font-size:10px;border-top:2px solid #000;border-bottom:2px solid #000}`
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="text-align:center"><b style="font-size:17px">%s</b><br>%s · %s</div>`, esc(j.Emp.Name), esc(j.Emp.OneLine()), j.Emp.Phone)
	fmt.Fprintf(&b, `<div style="display:flex;justify-content:space-between;margin-top:10px"><div>Pay Date: %s</div><div>Pay Period: %s - %s</div><div>Check No. %d</div></div>`,
		s.PayDate.Format(df), s.Start.Format(df), s.End.Format(df), s.CheckNo)
	b.WriteString(`<table class="hl" style="margin-top:8px"><tr><td><b>Name | Emp # | Dept</b></td></tr><tr><td>` + esc(j.P.Full()) + ` | ` + j.P.ID + ` | Front of House</td></tr></table>`)
	var sh [][]string
	for _, x := range s.Shifts {
		sh = append(sh, []string{s.Start.AddDate(0, 0, int(x[0])).Format("Mon 01/02"), hrs(x[1])})
	}
	b.WriteString(`<div style="display:flex;gap:14px"><div style="flex:1">` + htbl("", []string{"Shift", "Hours"}, sh, 1) + `</div><div style="flex:3">`)
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		er = append(er, []string{esc(v.name(l.Key)), h, r, "$" + money(l.Amount), "$" + money(l.YTD)})
	}
	er = append(er, []string{"<b>Gross Pay</b>", "", "", "<b>$" + money(s.Gross) + "</b>", "<b>$" + money(s.GrossYTD) + "</b>"})
	b.WriteString(htbl("", []string{"Earnings", "Hours", "Rate", "Current", "YTD"}, er, 1) + `</div></div>`)
	var tx [][]string
	for _, l := range v.lines(s.Taxes) {
		tx = append(tx, []string{esc(v.name(l.Key)), pd(l.Amount), pd(l.YTD)})
	}
	tx = append(tx, []string{"<b>Total Taxes</b>", "<b>" + pd(s.TaxesTotal) + "</b>", "<b>" + pd(s.TaxesYTD) + "</b>"})
	var dd [][]string
	for _, l := range v.lines(s.Deds) {
		dd = append(dd, []string{esc(v.name(l.Key)), pd(l.Amount), pd(l.YTD)})
	}
	dd = append(dd, []string{"<b>Total Deductions</b>", "<b>" + pd(s.DedsTotal) + "</b>", "<b>" + pd(s.DedsYTD) + "</b>"})
	b.WriteString(`<div style="display:flex;gap:14px"><div style="flex:1">` + htbl("", []string{"Taxes", "Current", "YTD"}, tx, 1) +
		`</div><div style="flex:1">` + htbl("", []string{"Deductions", "Current", "YTD"}, dd, 1) + `</div></div>`)
	tc := findLine(s.Memo, "tipcredit")
	fmt.Fprintf(&b, `<table><tr><th>Memo (not paid, not in net)</th><th class="n">Hours</th><th class="n">Rate</th><th class="n">Current</th><th class="n">YTD</th></tr>
<tr><td>Tip Credit</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr></table>`, hrs(tc.Hours), rate2(tc.Rate), money(tc.Amount), money(tc.YTD))
	fmt.Fprintf(&b, `<div style="font-size:13px;margin-top:6px"><b>Net Pay: $%s</b> &nbsp; &nbsp; <span style="font-size:10px">YTD Net Pay: $%s</span></div>`, money(s.Net), money(s.NetYTD))
	b.WriteString(`<p style="font-size:8px">Cash tips you reported are wages: they are added to gross for taxes and taken back as "Cash Tips Received" because you already hold them. Tipped minimum wage $2.13/hr; tip credit $5.12/hr.</p>`)
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// ---------- salaried monthly with bonus, GTL and RSU (Chromium) ----------

func salariedView(s Stub) View {
	return View{Printed: printedExcept(), LineYTD: true,
		Names: map[string]string{"salary": "Base Salary", "bonus": "Annual Bonus", "fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare",
			"sit": s.Job.Emp.State + " State Income Tax", "sdi": "CA SDI", "401k": "401(k) Pre-Tax", "medical": "Medical PPO", "dental": "Dental", "vision": "Vision",
			"roth": "Roth 401(k)", "life": "Supplemental Life"}}
}

func neg(c int64) string { return "-$" + money(c) }

func salariedRender(s Stub, v View) []byte {
	j := s.Job
	df := "Jan 2, 2006"
	css := `body{font-family:"Nimbus Sans","Liberation Sans",sans-serif;font-size:9.5px}table{border-collapse:collapse;width:100%;margin:3px 0 10px 0}
th{background:#223;color:#fff;text-align:left;padding:3px 5px}td{padding:2px 5px;border-bottom:1px solid #ddd}.n{text-align:right}
.kv{display:grid;grid-template-columns:auto auto auto auto;gap:2px 14px;margin:10px 0}`
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="display:flex;justify-content:space-between"><div><b style="font-size:15px">%s</b><br>%s<br>EIN %s</div><div style="text-align:right"><b style="font-size:13px">Statement of Earnings</b><br>Monthly payroll</div></div>`,
		esc(j.Emp.Name), esc(j.Emp.OneLine()), j.Emp.EIN)
	fmt.Fprintf(&b, `<div class="kv"><b>Employee</b><span>%s</span><b>Pay Date</b><span>%s</span><b>Employee ID</b><span>%s</span><b>Period</b><span>%s - %s</span><b>Title</b><span>%s</span><b>Annual Salary</b><span>$%s</span></div>`,
		esc(j.P.Full()), s.PayDate.Format(df), j.P.ID, s.Start.Format(df), s.End.Format(df), esc(j.Title), money(j.Annual))
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		er = append(er, []string{esc(v.name(l.Key)), cur(l, usd), usd(l.YTD)})
	}
	er = append(er, []string{"<b>Gross Pay</b>", "<b>" + usd(s.Gross) + "</b>", "<b>" + usd(s.GrossYTD) + "</b>"})
	b.WriteString(htbl("", []string{"Earnings", "Current", "Year to Date"}, er, 1))
	var im [][]string
	for _, m := range s.Memo {
		if (m.Key == "gtl" || m.Key == "rsu") && m.YTD > 0 {
			im = append(im, []string{map[string]string{"gtl": "Group Term Life (imputed)", "rsu": "RSU Vest (imputed, shares withheld)"}[m.Key], cur(m, usd), usd(m.YTD)})
		}
	}
	b.WriteString(htbl("", []string{"Imputed Income - memo: taxed, not paid, not in gross or net", "Current", "Year to Date"}, im, 1))
	var tx, dd [][]string
	for _, l := range v.lines(s.Taxes) {
		tx = append(tx, []string{esc(v.name(l.Key)), cur(l, neg), neg(l.YTD)})
	}
	tx = append(tx, []string{"<b>Total Taxes</b>", "<b>" + neg(s.TaxesTotal) + "</b>", "<b>" + neg(s.TaxesYTD) + "</b>"})
	for _, l := range v.lines(s.Deds) {
		dd = append(dd, []string{esc(v.name(l.Key)), cur(l, neg), neg(l.YTD)})
	}
	dd = append(dd, []string{"<b>Total Deductions</b>", "<b>" + neg(s.DedsTotal) + "</b>", "<b>" + neg(s.DedsYTD) + "</b>"})
	b.WriteString(`<div style="display:flex;gap:12px"><div style="flex:1">` + htbl("", []string{"Taxes", "Current", "Year to Date"}, tx, 1) +
		`</div><div style="flex:1">` + htbl("", []string{"Deductions", "Current", "Year to Date"}, dd, 1) + `</div></div>`)
	var ep [][]string
	for _, m := range s.Memo {
		if (m.Key == "match" || m.Key == "erhealth") && m.Active {
			ep = append(ep, []string{map[string]string{"match": "401(k) Company Match", "erhealth": "Company Medical Contribution"}[m.Key], usd(m.Amount), usd(m.YTD)})
		}
	}
	b.WriteString(htbl("", []string{"Employer Paid (not in net pay)", "Current", "Year to Date"}, ep, 1))
	b.WriteString(htbl("", []string{"", "Current", "Year to Date"}, [][]string{{"<b>Net Pay</b>", "<b>" + usd(s.Net) + "</b>", "<b>" + usd(s.NetYTD) + "</b>"}}, 1))
	fmt.Fprintf(&b, `<p style="font-size:8px">Federal taxable wages this period %s include imputed income. Net pay deposited to account ending %s.</p>`, usd(s.FedTaxable), j.P.SSN4)
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// ---------- three stubs in one PDF, one a page ("download all") ----------

func exportView(s Stub) View {
	return View{Printed: printedExcept("employer_ein", "total_deductions"), LineYTD: true,
		Names: map[string]string{"fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare", "sit": "State Tax", "401k": "401k", "medical": "Medical", "dental": "Dental"}}
}

func exportPage(s Stub, v View) string {
	j := s.Job
	df := "01/02/2006"
	var b strings.Builder
	fmt.Fprintf(&b, `<section style="page-break-after:always"><div style="display:flex;justify-content:space-between;border-bottom:3px solid #0a6;padding-bottom:6px"><div><b style="font-size:15px">%s</b><br>%s</div><div style="text-align:right">Paystub<br>Check Date %s<br>Pay Period %s - %s</div></div>`,
		esc(j.Emp.Name), esc(j.Emp.OneLine()), s.PayDate.Format(df), s.Start.Format(df), s.End.Format(df))
	fmt.Fprintf(&b, `<p><b>%s</b><br>%s, %s</p>`, esc(j.P.Full()), esc(j.P.Street), esc(j.P.CityLine()))
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		er = append(er, []string{esc(v.name(l.Key)), h, r, money(l.Amount), money(l.YTD)})
	}
	b.WriteString(htbl("", []string{"Earnings", "Hours", "Rate", "Current", "YTD"}, er, 1))
	var tx, dd [][]string
	for _, l := range v.lines(s.Taxes) {
		tx = append(tx, []string{esc(v.name(l.Key)), money(l.Amount), money(l.YTD)})
	}
	tx = append(tx, []string{"<b>Total Taxes</b>", money(s.TaxesTotal), money(s.TaxesYTD)})
	for _, l := range v.lines(s.Deds) {
		dd = append(dd, []string{esc(v.name(l.Key)), money(l.Amount), money(l.YTD)})
	}
	b.WriteString(`<div style="display:flex;gap:12px"><div style="flex:1">` + htbl("", []string{"Taxes", "Current", "YTD"}, tx, 1) +
		`</div><div style="flex:1">` + htbl("", []string{"Deductions", "Current", "YTD"}, dd, 1) + `</div></div>`)
	b.WriteString(htbl("", []string{"", "Gross Pay", "Net Pay"}, [][]string{{"Current", money(s.Gross), money(s.Net)}, {"YTD", money(s.GrossYTD), money(s.NetYTD)}}, 1))
	b.WriteString(`</section>`)
	return b.String()
}

func exportRender(stubs []Stub, v View) []byte {
	css := `body{font-family:"DejaVu Sans",sans-serif;font-size:9.5px}table{border-collapse:collapse;width:100%;margin:6px 0}th{background:#e6f4ee;text-align:left;padding:3px 5px}
td{padding:2px 5px;border-bottom:1px solid #e5e5e5}.n{text-align:right}section:last-child{page-break-after:auto}`
	var b strings.Builder
	for _, s := range stubs {
		b.WriteString(exportPage(s, v))
	}
	return chromiumPDF(page(css, b.String()), stubs[len(stubs)-1].PayDate)
}
