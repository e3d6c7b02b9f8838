package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// printHTML prints an HTML page to PDF with headless Chromium.
func printHTML(page, dir string, created time.Time) ([]byte, error) {
	in := filepath.Join(dir, "stub.html")
	out := filepath.Join(dir, "stub.pdf")
	if err := os.WriteFile(in, []byte(page), 0o600); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
		"--user-data-dir="+filepath.Join(dir, "profile"), "--print-to-pdf="+out, "file://"+in)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("chromium: %w: %s", err, b)
	}
	pdf, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	return fixDates(pdf, created), nil
}

// fixDates replaces the time a converter stamped on a PDF with the
// stub's pay date, written in the same number of bytes: the file's
// offsets hold, and the same stub makes the same bytes.
func fixDates(pdf []byte, created time.Time) []byte {
	// LibreOffice's file identifiers hash the time too: the same digits of
	// the date's own hash, the same number of them.
	sum := sha256.Sum256([]byte(created.String()))
	id := []byte(strings.ToUpper(hex.EncodeToString(sum[:])))
	pdf = pdfID.ReplaceAllFunc(pdf, func(m []byte) []byte {
		out := append([]byte{}, m...)
		copy(out[1:1+32], id)
		return out
	})
	return pdfDates.ReplaceAllFunc(pdf, func(m []byte) []byte {
		key, _, _ := bytes.Cut(m, []byte("("))
		stamp := []byte(created.UTC().Format("20060102150405"))
		out := append(append([]byte{}, key...), m[len(key):]...)
		copy(out[len(key)+3:], stamp)
		return out
	})
}

var pdfID = regexp.MustCompile(`<[0-9A-Fa-f]{32}>|/[0-9A-F]{32}\b`)

var pdfDates = regexp.MustCompile(`/(?:CreationDate|ModDate)\s*\(D:\d{14}`)

func esc(s string) string { return html.EscapeString(s) }

// htmlCards: a modern web payroll's statement: cards of figures
// ("Total Earnings", "Take Home"), "Payment Date" written out, a period
// as a range with an en dash, and a YTD column in a separate table.
func htmlCards(s stub) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:"DejaVu Sans",Arial,sans-serif;margin:36px;color:#222;font-size:12px}
.top{display:flex;justify-content:space-between;align-items:flex-start}
.brand{font-size:20px;font-weight:700}
.cards{display:flex;gap:12px;margin:24px 0}
.card{border:1px solid #ccd;border-radius:8px;padding:10px 14px;flex:1}
.card .k{color:#667;font-size:11px}.card .v{font-size:17px;font-weight:700;margin-top:4px}
table{border-collapse:collapse;width:100%%;margin-top:14px}th,td{padding:4px 6px;border-bottom:1px solid #eee}
th{text-align:left;color:#556;font-weight:600}td.n,th.n{text-align:right}
</style></head><body>
<div class="top"><div><div class="brand">%s</div><div>%s</div></div>
<div style="text-align:right"><div>Payment Date: %s</div><div>Pay Period: %s – %s</div><div>Employee: %s</div></div></div>
<div class="cards">
<div class="card"><div class="k">Total Earnings</div><div class="v">$%s</div></div>
<div class="card"><div class="k">Taxes Withheld</div><div class="v">$%s</div></div>
<div class="card"><div class="k">Total Deductions</div><div class="v">$%s</div></div>
<div class="card"><div class="k">Take Home</div><div class="v">$%s</div></div>
</div>`, esc(s.Employer), esc(s.Address), s.PayDate.Format("January 2, 2006"), s.Start.Format("01/02/2006"), s.End.Format("01/02/2006"),
		esc(s.Employee), money(s.Gross), money(s.TaxesTotal), money(s.DedsTotal), money(s.Net))
	section := func(title string, ls []line, withHours bool) {
		fmt.Fprintf(&b, `<table><tr><th>%s</th>`, title)
		if withHours {
			b.WriteString(`<th class="n">Hours</th><th class="n">Rate</th>`)
		}
		b.WriteString(`<th class="n">Current</th><th class="n">Year to Date</th></tr>`)
		for _, l := range ls {
			fmt.Fprintf(&b, `<tr><td>%s</td>`, esc(l.Name))
			if withHours {
				if l.Hours > 0 {
					fmt.Fprintf(&b, `<td class="n">%s</td><td class="n">$%s</td>`, hours(l.Hours), money(l.Rate))
				} else {
					b.WriteString(`<td></td><td></td>`)
				}
			}
			fmt.Fprintf(&b, `<td class="n">$%s</td><td class="n">$%s</td></tr>`, money(l.Amount), money(l.YTD))
		}
		b.WriteString(`</table>`)
	}
	section("Earnings", s.Earnings, true)
	section("Taxes", s.Taxes, false)
	section("Deductions", s.Deds, false)
	fmt.Fprintf(&b, `<table><tr><th>Year to Date</th><th class="n"></th></tr>
<tr><td>YTD Gross</td><td class="n">$%s</td></tr><tr><td>YTD Net Pay</td><td class="n">$%s</td></tr></table>
<p style="color:#889;margin-top:24px">EIN %s · This is not a check.</p></body></html>`, money(s.GrossYTD), money(s.NetYTD), s.EIN)
	return b.String()
}

// htmlSummary: a statement whose summary is a table of rows (Gross Pay,
// Employee Taxes, Deductions, Net Pay) and columns (Current, YTD), with
// "Check Date" and a period written "01/01/2026 - 01/15/2026".
func htmlSummary(s stub) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:"Liberation Serif","Times New Roman",serif;margin:40px;font-size:13px}
h1{font-size:18px;margin:0 0 4px 0}.muted{color:#555}
.grid{display:grid;grid-template-columns:1fr 1fr;gap:8px 40px;margin:18px 0}
table{border-collapse:collapse;width:100%%;margin:10px 0}td,th{border:1px solid #999;padding:3px 8px}
th{background:#eee;text-align:left}.n{text-align:right}
</style></head><body>
<h1>%s</h1><div class="muted">%s · EIN %s</div>
<div class="grid"><div><b>Employee</b><br>%s<br>%s</div>
<div><b>Check Date</b> %s<br><b>Pay Period</b> %s - %s</div></div>
<table><tr><th></th><th class="n">Current</th><th class="n">YTD</th></tr>
<tr><td>Gross Pay</td><td class="n">$%s</td><td class="n">$%s</td></tr>
<tr><td>Employee Taxes</td><td class="n">$%s</td><td class="n">$%s</td></tr>
<tr><td>Deductions</td><td class="n">$%s</td><td class="n">$%s</td></tr>
<tr><td>Net Pay</td><td class="n">$%s</td><td class="n">$%s</td></tr></table>`,
		esc(s.Employer), esc(s.Address), s.EIN, esc(s.Employee), esc(s.EmployeeAddr), s.PayDate.Format("01/02/2006"),
		s.Start.Format("01/02/2006"), s.End.Format("01/02/2006"), money(s.Gross), money(s.GrossYTD), money(s.TaxesTotal), money(s.TaxesYTD),
		money(s.DedsTotal), money(s.DedsYTD), money(s.Net), money(s.NetYTD))
	for _, t := range []struct {
		title string
		ls    []line
	}{{"Earnings", s.Earnings}, {"Taxes", s.Taxes}, {"Deductions", s.Deds}} {
		fmt.Fprintf(&b, `<table><tr><th>%s</th><th class="n">Current</th><th class="n">YTD</th></tr>`, t.title)
		for _, l := range t.ls {
			fmt.Fprintf(&b, `<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td></tr>`, esc(l.Name), money(l.Amount), money(l.YTD))
		}
		b.WriteString(`</table>`)
	}
	b.WriteString(`</body></html>`)
	return b.String()
}

// htmlPublic (held out): a public employer's pay advice: a department
// heading, "Advice Date 15-Jan-2026", "Earnings Period ... to ...", and a
// transposed summary whose columns are the figures (Gross Earnings, Total
// Taxes, Total Deductions, Net Amount) and whose rows are Current and
// Y-T-D.
func htmlPublic(s stub) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:"DejaVu Serif",Georgia,serif;margin:32px;font-size:11px}
.hdr{border-bottom:3px double #000;padding-bottom:6px;margin-bottom:12px}
.hdr .t{font-size:15px;font-weight:700}
table{border-collapse:collapse;width:100%%;margin:8px 0}td,th{padding:3px 6px}th{border-bottom:1px solid #000;text-align:left}
.n{text-align:right}.box td{border:1px solid #000}
</style></head><body>
<div class="hdr"><div class="t">%s</div><div>Office of Payroll Services · %s</div></div>
<table class="box"><tr><td>Agency: %s</td><td>Advice Date: %s</td></tr>
<tr><td>Payee: %s</td><td>Earnings Period: %s to %s</td></tr>
<tr><td>FEIN: %s</td><td>Employee No. %s</td></tr></table>
<table><tr><th></th><th class="n">Gross Earnings</th><th class="n">Total Taxes</th><th class="n">Total Deductions</th><th class="n">Net Amount</th></tr>
<tr><td>Current</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr>
<tr><td>Y-T-D</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr></table>`,
		esc(s.Employer), esc(s.Address), esc(s.Employer), s.PayDate.Format("02-Jan-2006"), esc(s.Employee),
		s.Start.Format("1/2/06"), s.End.Format("1/2/06"), s.EIN, s.EmployeeID,
		money(s.Gross), money(s.TaxesTotal), money(s.DedsTotal), money(s.Net),
		money(s.GrossYTD), money(s.TaxesYTD), money(s.DedsYTD), money(s.NetYTD))
	b.WriteString(`<table><tr><th>Earnings</th><th class="n">Hours</th><th class="n">Rate</th><th class="n">Current</th><th class="n">Y-T-D</th></tr>`)
	for _, l := range s.Earnings {
		h, r := "", ""
		if l.Hours > 0 {
			h, r = hours(l.Hours), money(l.Rate)
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr>`,
			esc(l.Name), h, r, money(l.Amount), money(l.YTD))
	}
	b.WriteString(`</table><table><tr><th>Taxes and Deductions</th><th class="n">Current</th><th class="n">Y-T-D</th></tr>`)
	for _, l := range append(append([]line{}, s.Taxes...), s.Deds...) {
		fmt.Fprintf(&b, `<tr><td>%s</td><td class="n">(%s)</td><td class="n">(%s)</td></tr>`, esc(l.Name), money(l.Amount), money(l.YTD))
	}
	b.WriteString(`</table></body></html>`)
	return b.String()
}
