package main

import (
	"fmt"
	"html"
	"strings"
)

func esc(s string) string { return html.EscapeString(s) }

// htbl writes a table: headings, then rows; columns from num on are
// right-aligned.
func htbl(class string, heads []string, rows [][]string, num int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<table class="%s"><tr>`, class)
	for i, h := range heads {
		c := ""
		if i >= num {
			c = ` class="n"`
		}
		fmt.Fprintf(&b, "<th%s>%s</th>", c, h)
	}
	b.WriteString("</tr>")
	for _, r := range rows {
		b.WriteString("<tr>")
		for i, v := range r {
			c := ""
			if i >= num {
				c = ` class="n"`
			}
			if strings.HasPrefix(v, "<b>") {
				c += ` style="font-weight:700"`
			}
			fmt.Fprintf(&b, "<td%s>%s</td>", c, v)
		}
		b.WriteString("</tr>")
	}
	b.WriteString("</table>")
	return b.String()
}

func page(css, body string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><style>@page{size:letter;margin:0.45in}` + css + `</style></head><body>` + body + `</body></html>`
}

// cur is the current amount of a line, blank when it has only a YTD.
func cur(l Line, f func(int64) string) string {
	if !l.Active {
		return ""
	}
	return f(l.Amount)
}

// ---------- Paychex style ----------

func paychexView(s Stub) View {
	st := s.Job.Emp.State
	return View{Printed: printedExcept("employer_ein"), LineYTD: true,
		Names: map[string]string{"fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare", "sit": st + " Income Tax",
			"401k": "401k", "medical": "Medical Pre-Tax", "dental": "Dental Pre-Tax", "loan": "401k Loan Repay", "roth": "Roth 401k",
			"sdi": st + " SDI", "expense": "Expense Reimbursement"}}
}

func paychexRender(s Stub, v View) []byte {
	j := s.Job
	df := "01/02/2006"
	css := `body{font-family:"Liberation Sans",Arial,sans-serif;font-size:10px;color:#111}
.top{display:flex;justify-content:space-between}.co{font-size:14px;font-weight:700}
table{border-collapse:collapse;width:100%;margin-top:8px}th{background:#dfe6ee;text-align:left;padding:3px 5px;font-size:9px;border:1px solid #9aa}
td{padding:2px 5px;border-left:1px solid #ccd;border-right:1px solid #ccd}.n{text-align:right}
.band td{border:1px solid #9aa;padding:4px 5px;font-size:11px}
.two{display:flex;gap:14px}.two>div{flex:1}
.sum td,.sum th{border:1px solid #9aa;padding:4px 6px;font-size:11px}.sum{width:100%;margin-top:14px}
h4{margin:12px 0 0 0;font-size:10px;text-transform:uppercase;letter-spacing:.5px}`
	var b strings.Builder
	fmt.Fprintf(&b, `<div class="top"><div><div class="co">%s</div>%s<br>%s</div><div style="text-align:right"><b style="font-size:13px">Earnings Statement</b><br>Pay Frequency: %s</div></div>`,
		esc(j.Emp.Name), esc(j.Emp.Street), esc(j.Emp.CityLine()), titleCase(j.Freq))
	b.WriteString(htbl("band", []string{"Employee Name", "Employee ID", "Check Date", "Period Start", "Period End", "Check #"},
		[][]string{{esc(j.P.Full()), j.P.ID, s.PayDate.Format(df), s.Start.Format(df), s.End.Format(df), fmt.Sprint(s.CheckNo)}}, 9))
	fmt.Fprintf(&b, `<div style="margin:8px 0 0 0">%s<br>%s</div>`, esc(j.P.Street), esc(j.P.CityLine()))
	var rows [][]string
	for _, l := range v.lines(s.Earnings) {
		h, rt, _ := v.hr(l)
		yh := ""
		if l.YTDHours > 0 {
			yh = hrs(l.YTDHours)
		}
		rows = append(rows, []string{esc(v.name(l.Key)), rt, h, cur(l, money), yh, money(l.YTD)})
	}
	rows = append(rows, []string{"<b>Total Earnings</b>", "", "<b>" + hrs(s.HoursTotal) + "</b>", "<b>" + money(s.Gross) + "</b>", "<b>" + hrs(s.HoursYTD) + "</b>", "<b>" + money(s.GrossYTD) + "</b>"})
	b.WriteString("<h4>Earnings</h4>" + htbl("", []string{"Description", "Rate", "Hours", "Amount", "YTD Hours", "YTD Amount"}, rows, 1))
	mk := func(ls []Line) [][]string {
		var out [][]string
		for _, l := range v.lines(ls) {
			out = append(out, []string{esc(v.name(l.Key)), cur(l, money), money(l.YTD)})
		}
		return out
	}
	b.WriteString(`<div class="two"><div><h4>Withholdings</h4>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(s.Taxes), 1) +
		`</div><div><h4>Deductions</h4>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(s.Deds), 1) + `</div></div>`)
	if rs := v.lines(s.Reimb); len(rs) > 0 {
		b.WriteString("<h4>Reimbursements (non-taxable)</h4>" + htbl("", []string{"Description", "Amount", "YTD"}, mk(s.Reimb), 1))
	}
	heads := []string{"", "Gross", "Taxes", "Deductions"}
	curRow := []string{"Current", money(s.Gross), money(s.TaxesTotal), money(s.DedsTotal)}
	ytdRow := []string{"YTD", money(s.GrossYTD), money(s.TaxesYTD), money(s.DedsYTD)}
	if s.ReimbYTD > 0 {
		heads = append(heads, "Reimbursements")
		curRow = append(curRow, money(s.ReimbTotal))
		ytdRow = append(ytdRow, money(s.ReimbYTD))
	}
	heads = append(heads, "Net Pay")
	curRow = append(curRow, "<b>"+money(s.Net)+"</b>")
	ytdRow = append(ytdRow, money(s.NetYTD))
	b.WriteString(htbl("sum", heads, [][]string{curRow, ytdRow}, 1))
	fmt.Fprintf(&b, `<p style="margin-top:12px">Direct Deposit xxxx%s &nbsp; &nbsp; $%s</p><p style="color:#666;font-size:8px">Vacation balance %s hrs · Sick balance %s hrs</p>`,
		j.P.SSN4, money(s.Net), hrs(s.Leave[0].End), hrs(s.Leave[1].End))
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// ---------- Gusto style ----------

func gustoView(s Stub) View {
	return View{Printed: printedExcept("total_deductions"), LineYTD: true,
		Names: map[string]string{"fed": "Federal Income Tax", "ss": "Social Security", "med": "Medicare", "sit": s.Job.Emp.State + " Withholding Tax",
			"sdi": "CA State Disability Insurance", "401k": "401(k)", "medical": "Medical Insurance", "dental": "Dental Insurance", "roth": "Roth 401(k)",
			"salary": "Salary", "expense": "Reimbursement"}}
}

func gustoRender(s Stub, v View) []byte {
	j := s.Job
	df := "Jan 2, 2006"
	css := `body{font-family:Lato,"DejaVu Sans",sans-serif;font-size:10.5px;color:#2b2b2b}
h1{font-size:20px;font-weight:400;margin:0}.muted{color:#7a7a7a}
.blocks{display:flex;gap:60px;margin:14px 0}.blocks b{display:block;font-size:9px;color:#7a7a7a;text-transform:uppercase;letter-spacing:1px;margin-bottom:4px}
table{border-collapse:collapse;width:100%;margin:3px 0 9px 0}th{font-size:8.5px;color:#7a7a7a;font-weight:700;text-align:left;border-bottom:1px solid #ddd;padding:3px 4px}
td{padding:2.5px 4px;border-bottom:1px solid #f0f0f0}.n{text-align:right}
h3{font-size:12px;margin:4px 0;font-weight:700}
.summary{display:flex;border:1px solid #e3e3e3;border-radius:6px;margin:8px 0 14px 0}.summary>div{flex:1;padding:7px 9px;border-right:1px solid #e3e3e3}
.summary .k{font-size:9px;color:#7a7a7a}.summary .v{font-size:15px;margin:4px 0}.summary .y{font-size:9px;color:#7a7a7a}`
	var b strings.Builder
	fmt.Fprintf(&b, `<h1>Pay stub for period %s – %s</h1><div class="muted" style="font-size:13px;margin-top:4px">Pay Day: %s</div>`,
		s.Start.Format(df), s.End.Format(df), s.PayDate.Format(df))
	fmt.Fprintf(&b, `<div class="blocks"><div><b>Company</b>%s<br>%s<br>%s<br>EIN: %s</div><div><b>Employee</b>%s<br>%s<br>%s<br>SSN: %s</div></div>`,
		esc(j.Emp.Name), esc(j.Emp.Street), esc(j.Emp.CityLine()), j.Emp.EIN, esc(j.P.Full()), esc(j.P.Street), esc(j.P.CityLine()), j.P.SSN())
	preYTD, postYTD := int64(0), int64(0)
	for _, d := range s.Deds {
		if d.PreTax {
			preYTD += d.YTD
		} else {
			postYTD += d.YTD
		}
	}
	cell := func(k string, c, y int64) string {
		return fmt.Sprintf(`<div><div class="k">%s</div><div class="v">$%s</div><div class="y">YTD $%s</div></div>`, k, money(c), money(y))
	}
	b.WriteString(`<div class="summary">` + cell("Gross Earnings", s.Gross, s.GrossYTD) + cell("Pre-Tax Deductions", s.PreTax, preYTD) +
		cell("Taxes", s.TaxesTotal, s.TaxesYTD) + cell("Post-Tax Deductions", s.PostTax, postYTD))
	if s.ReimbYTD > 0 {
		b.WriteString(cell("Reimbursements", s.ReimbTotal, s.ReimbYTD))
	}
	b.WriteString(cell("Net Pay", s.Net, s.NetYTD) + `</div>`)
	var rows [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, ok := v.hr(l)
		if ok {
			r = "$" + r
		}
		rows = append(rows, []string{esc(v.name(l.Key)), h, r, "$" + money(l.Amount), "$" + money(l.YTD)})
	}
	b.WriteString("<h3>Employee Gross Earnings</h3>" + htbl("", []string{"Description", "Hours", "Rate", "Current", "Year-To-Date"}, rows, 1))
	rows = nil
	for _, l := range v.lines(s.Taxes) {
		rows = append(rows, []string{esc(v.name(l.Key)), "$" + money(l.Amount), "$" + money(l.YTD)})
	}
	b.WriteString("<h3>Employee Taxes Withheld</h3>" + htbl("", []string{"Description", "Current", "Year-To-Date"}, rows, 1))
	rows = nil
	for _, l := range v.lines(s.Deds) {
		pre := map[bool]string{true: "Yes", false: "No"}[l.PreTax]
		rows = append(rows, []string{esc(v.name(l.Key)), pre, "$" + money(l.Amount), "$" + money(l.YTD)})
	}
	b.WriteString("<h3>Employee Deductions</h3>" + htbl("", []string{"Description", "Pre-Tax?", "Current", "Year-To-Date"}, rows, 2))
	if len(v.lines(s.Reimb)) > 0 {
		rows = nil
		for _, l := range v.lines(s.Reimb) {
			rows = append(rows, []string{esc(v.name(l.Key)), "$" + money(l.Amount), "$" + money(l.YTD)})
		}
		b.WriteString("<h3>Reimbursements</h3>" + htbl("", []string{"Description", "Current", "Year-To-Date"}, rows, 1))
	}
	rows = nil
	for _, l := range s.Memo {
		if l.Active && (l.Key == "match" || l.Key == "erhealth") {
			n := map[string]string{"match": "401(k) Company Match", "erhealth": "Medical Insurance (company)"}[l.Key]
			rows = append(rows, []string{n, "$" + money(l.Amount), "$" + money(l.YTD)})
		}
	}
	b.WriteString("<h3>Employer Contributions</h3>" + htbl("", []string{"Company Contribution", "Current", "Year-To-Date"}, rows, 1))
	futa := min(s.Gross, max(0, 700000-(s.GrossYTD-s.Gross)))
	rows = [][]string{{"Social Security", "$" + money(lineAmt(s.Taxes, "ss")), "$" + money(findLine(s.Taxes, "ss").YTD)},
		{"Medicare", "$" + money(lineAmt(s.Taxes, "med")), "$" + money(findLine(s.Taxes, "med").YTD)},
		{"FUTA", "$" + money(pct(futa, 60)), "$" + money(pct(min(s.GrossYTD, 700000), 60))}}
	b.WriteString("<h3>Employer Tax</h3>" + htbl("", []string{"Company Tax", "Current", "Year-To-Date"}, rows, 1))
	b.WriteString(`<p class="muted" style="font-size:8px">Employer contributions and employer taxes are paid by the company and are not deducted from your pay.</p>`)
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// ---------- PeopleSoft style ----------

func peoplesoftView(s Stub) View {
	st := s.Job.Emp.State
	return View{Printed: printedExcept("employer_ein"), Employee: s.Job.P.LastFirst(), Rate4: s.Job.Kind == "salary", LineYTD: true,
		Names: map[string]string{"regular": "REGULAR", "overtime": "OVERTIME", "salary": "REGULAR", "bonus": "BONUS", "fed": "FED WITHHLDG",
			"ss": "FED OASDI/EE", "med": "FED MED/EE", "sit": st + " WITHHLDG", "sdi": "CA SDI", "401k": "401K PRE-TAX", "medical": "MEDICAL",
			"dental": "DENTAL", "vision": "VISION", "roth": "401K ROTH", "life": "SUPP LIFE", "loan": "401K LOAN"}}
}

func psDate(t interface{ Format(string) string }) string {
	return strings.ToUpper(t.Format("02-Jan-2006"))
}

func peoplesoftRender(s Stub, v View) []byte {
	j := s.Job
	css := `body{font-family:"Liberation Sans",Arial,sans-serif;font-size:8.5px;text-transform:none}
.hd{display:flex;justify-content:space-between;align-items:flex-start}.hd .t{font-size:15px;font-weight:700}
table{border-collapse:collapse;width:100%;margin-top:6px}th{font-size:7.5px;text-align:left;padding:2px 3px;border-bottom:1px solid #000;text-transform:uppercase}
td{padding:2px 3px}.n{text-align:right}.grid td{border:1px solid #000;padding:1px 4px 3px 4px;vertical-align:top}.grid .l{font-size:7px;font-weight:700;display:block}
.sec{border:1px solid #000;margin-top:8px}.sec .h{background:#000;color:#fff;font-weight:700;padding:2px 4px;text-align:center}
.row{display:flex;gap:6px}.row>div{flex:1}.grp th{border-bottom:none;text-align:center}
.band td,.band th{border:1px solid #000;padding:3px 4px}`
	var b strings.Builder
	rate := "$" + money(j.Rate/100) + " Hourly"
	if j.Kind == "salary" {
		rate = "$" + money(j.Annual) + " Annual"
	}
	fmt.Fprintf(&b, `<div class="hd"><div><div class="t">%s</div>%s<br>%s</div><div style="text-align:right"><div class="t">Advice of Deposit</div>Pay Advice</div></div>`,
		esc(strings.ToUpper(j.Emp.Name)), esc(strings.ToUpper(j.Emp.Street)), esc(strings.ToUpper(j.Emp.CityLine())))
	g := func(label, val string) string { return fmt.Sprintf(`<td><span class="l">%s</span>%s</td>`, label, val) }
	fmt.Fprintf(&b, `<table class="grid" style="margin-top:10px"><tr>%s%s%s%s%s</tr><tr>%s%s%s%s%s</tr></table>`,
		g("Pay Group", j.Emp.Code+"-"+strings.ToUpper(j.Freq[:2])), g("Pay Begin Date", psDate(s.Start)), g("Pay End Date", psDate(s.End)),
		g("Advice #", fmt.Sprintf("%08d", s.AdviceNo)), g("Advice Date", psDate(s.PayDate)),
		g("Employee ID", j.P.ID), g("Department", fmt.Sprintf("%05d-%s", 10000+int(j.seed%80000), strings.ToUpper(j.Dept))), g("Location", strings.ToUpper(j.Location)),
		g("Job Title", strings.ToUpper(j.Title)), g("Pay Rate", rate))
	fmt.Fprintf(&b, `<div style="margin-top:8px"><b>%s</b><br>%s<br>%s</div>`, esc(v.Employee), esc(strings.ToUpper(j.P.Street)), esc(strings.ToUpper(j.P.CityLine())))
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, rt, _ := v.hr(l)
		yh := ""
		if l.YTDHours > 0 {
			yh = hrs(l.YTDHours)
		}
		er = append(er, []string{esc(v.name(l.Key)), rt, h, cur(l, money), yh, money(l.YTD)})
	}
	er = append(er, []string{"<b>TOTAL:</b>", "", "<b>" + hrs(s.HoursTotal) + "</b>", "<b>" + money(s.Gross) + "</b>", "<b>" + hrs(s.HoursYTD) + "</b>", "<b>" + money(s.GrossYTD) + "</b>"})
	earn := htbl("", []string{"Description", "Rate", "Hours", "Earnings", "Hours", "Earnings"}, er, 1)
	earn = strings.Replace(earn, `<table class="">`, `<table class=""><tr class="grp"><th></th><th colspan="3">------------ Current ------------</th><th colspan="2">------ YTD ------</th></tr>`, 1)
	mk := func(ls []Line) ([][]string, int64, int64) {
		var out [][]string
		var c, y int64
		for _, l := range v.lines(ls) {
			out = append(out, []string{esc(v.name(l.Key)), cur(l, money), money(l.YTD)})
			c += l.Amount
			y += l.YTD
		}
		return out, c, y
	}
	tx, tc, ty := mk(s.Taxes)
	tx = append(tx, []string{"<b>TOTAL:</b>", "<b>" + money(tc) + "</b>", "<b>" + money(ty) + "</b>"})
	fmt.Fprintf(&b, `<div class="row"><div class="sec" style="flex:1.6"><div class="h">HOURS AND EARNINGS</div>%s</div><div class="sec"><div class="h">TAXES</div>%s</div></div>`,
		earn, htbl("", []string{"Description", "Current", "YTD"}, tx, 1))
	var pre, post []Line
	for _, d := range s.Deds {
		if d.PreTax {
			pre = append(pre, d)
		} else {
			post = append(post, d)
		}
	}
	pr, pc, py := mk(pre)
	pr = append(pr, []string{"<b>TOTAL:</b>", "<b>" + money(pc) + "</b>", "<b>" + money(py) + "</b>"})
	po, oc, oy := mk(post)
	po = append(po, []string{"<b>TOTAL:</b>", "<b>" + money(oc) + "</b>", "<b>" + money(oy) + "</b>"})
	var ep [][]string
	for _, m := range s.Memo {
		if m.Active {
			n := map[string]string{"match": "401K MATCH", "erhealth": "MEDICAL", "gtl": "GROUP TERM LIFE"}[m.Key]
			if n != "" {
				ep = append(ep, []string{n, money(m.Amount), money(m.YTD)})
			}
		}
	}
	fmt.Fprintf(&b, `<div class="row"><div class="sec"><div class="h">BEFORE-TAX DEDUCTIONS</div>%s</div><div class="sec"><div class="h">AFTER-TAX DEDUCTIONS</div>%s</div><div class="sec"><div class="h">EMPLOYER PAID BENEFITS</div>%s</div></div>`,
		htbl("", []string{"Description", "Current", "YTD"}, pr, 1), htbl("", []string{"Description", "Current", "YTD"}, po, 1), htbl("", []string{"Description", "Current", "YTD"}, ep, 1))
	b.WriteString(`<div style="margin-top:10px">` + htbl("band", []string{"", "TOTAL GROSS", "FED TAXABLE GROSS", "TOTAL TAXES", "TOTAL DEDUCTIONS", "NET PAY"},
		[][]string{{"<b>Current</b>", money(s.Gross), money(s.FedTaxable), money(s.TaxesTotal), money(s.DedsTotal), money(s.Net)},
			{"<b>YTD</b>", money(s.GrossYTD), money(s.FedTaxableYTD), money(s.TaxesYTD), money(s.DedsYTD), money(s.NetYTD)}}, 1) + `</div>`)
	fmt.Fprintf(&b, `<div class="row" style="margin-top:8px"><div class="sec"><div class="h">NET PAY DISTRIBUTION</div>%s</div><div class="sec"><div class="h">LEAVE BALANCES (HOURS)</div>%s</div></div>`,
		htbl("", []string{"Advice #", "Account Type", "Account Number", "Deposit Amount"}, [][]string{{fmt.Sprintf("%08d", s.AdviceNo), "Checking", "XXXXXX" + j.P.SSN4, money(s.Net)}}, 3),
		htbl("", []string{"Plan", "Start Balance", "Earned", "Taken", "End Balance"}, [][]string{
			{"VACATION", hrs(s.Leave[0].Begin), hrs(s.Leave[0].Earned), hrs(s.Leave[0].Used), hrs(s.Leave[0].End)},
			{"SICK", hrs(s.Leave[1].Begin), hrs(s.Leave[1].Earned), hrs(s.Leave[1].Used), hrs(s.Leave[1].End)}}, 1))
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// ---------- Workday style ----------

func workdayView(s Stub) View {
	return View{Printed: printedExcept("employer_ein", "total_deductions"), LineYTD: true,
		Names: map[string]string{"regular": "Regular Hours", "overtime": "Overtime Hours", "salary": "Salary", "bonus": "Bonus",
			"fed": "Federal Withholding", "ss": "OASDI", "med": "Medicare", "sit": "State Tax - " + s.Job.Emp.State, "sdi": "CA SDI",
			"401k": "401(k)", "medical": "Medical", "dental": "Dental", "vision": "Vision", "roth": "Roth 401(k)", "life": "Supplemental Life",
			"loan": "401(k) Loan", "expense": "Expense Reimbursement"}}
}

func workdayRender(s Stub, v View) []byte {
	j := s.Job
	df := "01/02/2006"
	css := `body{font-family:"DejaVu Sans",sans-serif;font-size:8.5px;color:#000}
table{border-collapse:collapse;width:100%;margin-bottom:8px}th{background:#e8e8e8;border:1px solid #999;padding:3px;text-align:left;font-weight:700}
td{border:1px solid #bbb;padding:2px 3px}.n{text-align:right}.cap{font-weight:700;font-size:9.5px;margin:8px 0 2px 0}
.two{display:flex;gap:8px}.two>div{flex:1}`
	var b strings.Builder
	fmt.Fprintf(&b, `<div style="display:flex;justify-content:space-between"><div><b style="font-size:12px">%s</b><br>%s<br>%s<br>%s</div><div style="font-size:14px;font-weight:700">Pay Slip</div></div>`,
		esc(j.Emp.Name), esc(j.Emp.Street), esc(j.Emp.CityLine()), j.Emp.Phone)
	b.WriteString(htbl("", []string{"Name", "Company", "Employee ID", "Pay Period Begin", "Pay Period End", "Check Date", "Check Number"},
		[][]string{{esc(j.P.Full()), esc(j.Emp.Name), j.P.ID, s.Start.Format(df), s.End.Format(df), s.PayDate.Format(df), fmt.Sprint(s.CheckNo)}}, 9))
	preYTD, postYTD := int64(0), int64(0)
	for _, d := range s.Deds {
		if d.PreTax {
			preYTD += d.YTD
		} else {
			postYTD += d.YTD
		}
	}
	heads := []string{"", "Gross Pay", "Pre Tax Deductions", "Employee Taxes", "Post Tax Deductions"}
	c := []string{"Current", money(s.Gross), money(s.PreTax), money(s.TaxesTotal), money(s.PostTax)}
	y := []string{"YTD", money(s.GrossYTD), money(preYTD), money(s.TaxesYTD), money(postYTD)}
	if s.ReimbYTD > 0 {
		heads = append(heads, "Reimbursements")
		c = append(c, money(s.ReimbTotal))
		y = append(y, money(s.ReimbYTD))
	}
	heads = append(heads, "Net Pay")
	c = append(c, money(s.Net))
	y = append(y, money(s.NetYTD))
	b.WriteString(`<div class="cap">Current and YTD Summary</div>` + htbl("", heads, [][]string{c, y}, 1))
	var er [][]string
	for _, l := range v.lines(s.Earnings) {
		h, r, _ := v.hr(l)
		yh, d := "", ""
		if l.Active {
			d = s.Start.Format(df) + " - " + s.End.Format(df)
		}
		if l.YTDHours > 0 {
			yh = hrs(l.YTDHours)
		}
		er = append(er, []string{esc(v.name(l.Key)), d, h, r, cur(l, money), yh, money(l.YTD)})
	}
	er = append(er, []string{"Earnings", "", hrs(s.HoursTotal), "", money(s.Gross), hrs(s.HoursYTD), money(s.GrossYTD)})
	b.WriteString(`<div class="cap">Earnings</div>` + htbl("", []string{"Description", "Dates", "Hours", "Rate", "Amount", "YTD Hours", "YTD Amount"}, er, 2))
	mk := func(ls []Line, total string) [][]string {
		var out [][]string
		var c, y int64
		for _, l := range ls {
			out = append(out, []string{esc(v.name(l.Key)), cur(l, money), money(l.YTD)})
			c += l.Amount
			y += l.YTD
		}
		return append(out, []string{total, money(c), money(y)})
	}
	var pre, post []Line
	for _, d := range v.lines(s.Deds) {
		if d.PreTax {
			pre = append(pre, d)
		} else {
			post = append(post, d)
		}
	}
	b.WriteString(`<div class="two"><div><div class="cap">Employee Taxes</div>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(v.lines(s.Taxes), "Employee Taxes"), 1) +
		`</div><div><div class="cap">Pre Tax Deductions</div>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(pre, "Pre Tax Deductions"), 1) +
		`<div class="cap">Post Tax Deductions</div>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(post, "Post Tax Deductions"), 1) + `</div></div>`)
	if rs := v.lines(s.Reimb); len(rs) > 0 {
		b.WriteString(`<div class="cap">Reimbursements</div>` + htbl("", []string{"Description", "Amount", "YTD"}, mk(rs, "Reimbursements"), 1))
	}
	var ep [][]string
	for _, m := range s.Memo {
		if n := map[string]string{"match": "401(k) Employer Match", "erhealth": "Medical - Employer", "gtl": "Group Term Life"}[m.Key]; n != "" && m.Active {
			ep = append(ep, []string{n, money(m.Amount), money(m.YTD)})
		}
	}
	b.WriteString(`<div class="two"><div><div class="cap">Employer Paid Benefits</div>` + htbl("", []string{"Description", "Amount", "YTD"}, ep, 1) + `</div>`)
	b.WriteString(`<div><div class="cap">Taxable Wages</div>` + htbl("", []string{"Description", "Amount", "YTD"}, [][]string{
		{"Federal Withholding - Taxable Wages", money(s.FedTaxable), money(s.FedTaxableYTD)},
		{"OASDI - Taxable Wages", money(findLine(s.Taxes, "ss").Hours), money(findLine(s.Taxes, "ss").YTDHours)}}, 1) + `</div></div>`)
	b.WriteString(`<div class="cap">Payment Information</div>` + htbl("", []string{"Bank", "Account Name", "Account Number", "USD Amount"},
		[][]string{{"Prairie Commerce Bank", "Checking", "******" + j.P.SSN4, money(s.Net)}}, 3))
	return chromiumPDF(page(css, b.String()), s.PayDate)
}

// titleCase capitalises each word's first letter ("semi-monthly" stays
// one word), as strings.Title did for the ASCII frequencies it is given.
func titleCase(s string) string {
	b := []byte(s)
	start := true
	for i, c := range b {
		if start && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		start = c == ' ' || c == '-'
	}
	return string(b)
}
