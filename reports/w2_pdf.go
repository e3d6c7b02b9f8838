package reports

import (
	"fmt"
	"time"

	"payline/domain"
)

// RenderW2 renders a W-2 as read from a payroll platform: the boxes the
// parsed data has, laid out as the form numbers them. created fixes the
// PDF's dates (the document's creation), so a W-2 renders the same bytes
// every time.
func RenderW2(docID string, w domain.W2, created time.Time) ([]byte, error) {
	return renderPDF(pdfMeta{Title: "Form W-2 " + w.TaxYear, Subject: "Wage and Tax Statement (Form W-2) for " + w.TaxYear,
		Keywords: []string{"Payline", "W-2", "tax year " + w.TaxYear, "document " + docID}}, created, "Payline · W-2 "+w.TaxYear+" · Document "+docID, func(d *pdfDoc) {
		d.titleBlock("Form W-2 · Wage and Tax Statement "+w.TaxYear, "As read from the payroll platform of "+w.EmployerName,
			[][2]string{{"Document", docID}, {"Tax year", w.TaxYear}, {"Generated", stamp(created)}})
		d.section("Employee and employer", 30)
		d.fields([][2]string{{"Employee", orDash(w.Applicant.Name)}, {"SSN", orDash(w.Applicant.SSN)},
			{"Address", orDash(w.Applicant.Address.Raw)}, {"Employer", orDash(w.EmployerName)}})
		d.section("Boxes", 60)
		boxes := []struct {
			n, label string
			cents    int64
		}{
			{"1", "Wages, tips, other compensation", w.TotalWages.Amount},
			{"2", "Federal income tax withheld", w.FederalTaxes.Amount},
			{"3", "Social security wages", w.SocialSecurityWages.Amount},
			{"4", "Social security tax withheld", w.SocialSecurityTaxes.Amount},
			{"5", "Medicare wages and tips", w.MedicareWages.Amount},
			{"6", "Medicare tax withheld", w.MedicareTaxes.Amount},
			{"16", "State wages, tips, etc.", w.StateWages.Amount},
			{"17", "State income tax", w.StateTaxes.Amount},
		}
		boxW, boxH := d.width/2, 14.0
		y := d.GetY()
		for i, b := range boxes {
			x := margin + float64(i%2)*boxW
			d.color(rule, "draw")
			d.SetLineWidth(0.3)
			d.Rect(x, y, boxW, boxH, "D")
			d.SetXY(x+2, y+1.5)
			d.text(7.5, "", muted)
			d.CellFormat(boxW-4, 4, fmt.Sprintf("%s  %s", b.n, b.label), "", 0, "L", false, 0, "")
			d.SetXY(x+2, y+6.5)
			d.text(11, "B", ink)
			d.CellFormat(boxW-4, 6, money(b.cents), "", 0, "R", false, 0, "")
			if i%2 == 1 {
				y += boxH
				d.SetY(y)
			}
		}
		d.Ln(4)
		d.note("This is Payline's rendering of the W-2 data the payroll platform reported, not an official IRS form. " +
			"Boxes the platform did not report are not shown.")
	})
}
