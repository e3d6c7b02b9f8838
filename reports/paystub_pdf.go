package reports

import (
	"time"

	"payline/domain"
)

// paystubTitle heads a paystub Payline renders.
const paystubTitle = "Earnings Statement"

// Labels of the paystub's fields, written by RenderPaystub (the documents
// package reads them back, as it reads any paystub's labels).
const (
	labelEmployer    = "Employer"
	labelPayDate     = "Pay date"
	labelPeriodStart = "Period start"
	labelPeriodEnd   = "Period end"
	labelGross       = "Gross pay"
	labelNet         = "Net pay"
	labelGrossYTD    = "Gross pay YTD"
	labelNetYTD      = "Net pay YTD"
)

// RenderPaystub renders one paystub as a one-page PDF: the employer, pay
// date and period, the pay and year-to-date totals on labelled lines, and
// the earnings, taxes and deductions. The same paystub renders the same
// bytes.
func RenderPaystub(p domain.Paystub) ([]byte, error) {
	created := p.CreatedAt
	if created.IsZero() {
		// The PDF's creation date; a pay date that does not parse leaves
		// the Unix epoch, never year 1.
		var err error
		if created, err = p.PayDate.Parse(); err != nil {
			created = time.Unix(0, 0).UTC()
		}
	}
	return renderPDF(pdfMeta{Title: "Paystub " + p.PayDate.String(), Subject: "Paystub of the pay date " + p.PayDate.String(),
		Keywords: []string{"Payline", "paystub", "paystub " + p.ID}}, created, "Payline · Paystub · "+p.ID, func(d *pdfDoc) {
		d.titleBlock(paystubTitle, orDash(p.EmployerName), [][2]string{{"Paid on", day(p.PayDate.String())}, {"Paystub", p.ExternalPaystubID}})
		d.section("Pay", 40)
		d.fields([][2]string{
			{labelEmployer, p.EmployerName}, {labelPayDate, p.PayDate.String()},
			{labelPeriodStart, p.PayPeriodStart.String()}, {labelPeriodEnd, p.PayPeriodEnd.String()},
			{labelGross, money(p.GrossPayAmount.Amount)}, {labelNet, money(p.NetPayAmount.Amount)},
			{labelGrossYTD, money(p.GrossPayYTD.Amount)}, {labelNetYTD, money(p.NetPayYTD.Amount)},
		})
		lines := func(title string, ls []domain.PayLine) {
			if len(ls) == 0 {
				return
			}
			rows := make([][]string, len(ls))
			for i, l := range ls {
				rows[i] = []string{l.Name, titleCase(l.Category), money(l.Amount.Amount)}
			}
			d.sectionTable(title, []column{{"Name", 80, "L"}, {"Category", 60, "L"}, {"Amount", d.width - 140, "R"}}, rows, "")
		}
		lines("Earnings", p.Earnings)
		lines("Taxes", p.Taxes)
		lines("Deductions", p.Deductions)
	})
}
