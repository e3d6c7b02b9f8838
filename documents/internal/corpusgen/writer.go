package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// convertWithWriter turns an HTML page into a PDF with LibreOffice
// Writer (soffice --headless --convert-to pdf), the way an office
// keeps its pay advices as word-processor documents.
func convertWithWriter(page, dir string, created time.Time) ([]byte, error) {
	in := filepath.Join(dir, "advice.html")
	if err := os.WriteFile(in, []byte(page), 0o600); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "soffice", "--headless", "--norestore", "-env:UserInstallation=file://"+filepath.Join(dir, "lo-profile"),
		"--infilter=HTML (StarWriter)", "--convert-to", "pdf:writer_pdf_Export", "--outdir", dir, in)
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("soffice: %w: %s", err, b)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "advice.pdf"))
	if err != nil {
		return nil, err
	}
	return fixDates(pdf, created), nil
}

// writerAdvice: an office's pay advice written as a document: a letter
// heading, "Date of Payment" and "Pay Period Beginning/Ending" in a
// two-column table, one table of this period's figures (Description,
// Amount) and a separate block of year-to-date totals.
func writerAdvice(s stub) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<html><head><meta charset="utf-8"></head><body style="font-family:'Liberation Sans'">
<p><b><font size="5">%s</font></b><br>%s<br>Employer Identification Number: %s</p>
<p align="right"><b>Statement of Earnings and Deductions</b></p>
<table width="100%%" border="0" cellpadding="3">
<tr><td>Employee Name:</td><td>%s</td><td>Date of Payment:</td><td>%s</td></tr>
<tr><td>Employee Number:</td><td>%s</td><td>Pay Period Beginning:</td><td>%s</td></tr>
<tr><td>Pay Frequency:</td><td>%s</td><td>Pay Period Ending:</td><td>%s</td></tr>
</table>
<h3>This Pay Period</h3>
<table width="70%%" border="1" cellpadding="3"><tr><th align="left">Description</th><th align="right">Amount</th></tr>`,
		esc(s.Employer), esc(s.Address), s.EIN, esc(s.Employee), s.PayDate.Format("January 2, 2006"), s.EmployeeID,
		s.Start.Format("January 2, 2006"), s.Frequency, s.End.Format("January 2, 2006"))
	row := func(name string, cents int64, bold bool) {
		if bold {
			fmt.Fprintf(&b, `<tr><td><b>%s</b></td><td align="right"><b>$%s</b></td></tr>`, esc(name), money(cents))
			return
		}
		fmt.Fprintf(&b, `<tr><td>%s</td><td align="right">$%s</td></tr>`, esc(name), money(cents))
	}
	for _, l := range s.Earnings {
		if l.Amount != 0 {
			row(l.Name, l.Amount, false)
		}
	}
	row("Total Gross Pay", s.Gross, true)
	for _, l := range s.Taxes {
		row(l.Name, -l.Amount, false)
	}
	row("Total Taxes", s.TaxesTotal, true)
	for _, l := range s.Deds {
		row(l.Name, -l.Amount, false)
	}
	row("Total Deductions", s.DedsTotal, true)
	row("Net Pay Amount", s.Net, true)
	fmt.Fprintf(&b, `</table>
<h3>Year-to-Date Totals</h3>
<table width="70%%" border="1" cellpadding="3">
<tr><td>YTD Gross Pay</td><td align="right">$%s</td></tr>
<tr><td>YTD Taxes</td><td align="right">$%s</td></tr>
<tr><td>YTD Deductions</td><td align="right">$%s</td></tr>
<tr><td>YTD Net Pay</td><td align="right">$%s</td></tr>
</table></body></html>`, money(s.GrossYTD), money(s.TaxesYTD), money(s.DedsYTD), money(s.NetYTD))
	return b.String()
}
