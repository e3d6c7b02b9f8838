package reports

import (
	"strings"

	"payline/domain"
)

// RenderDepositForm renders a direct deposit authorization form: the
// employee, the employer, the bank account (masked) and the allocation,
// with a line to sign. Its dates come from the form, so it renders the
// same bytes every time.
func RenderDepositForm(f domain.DepositForm) ([]byte, error) {
	return renderPDF(pdfMeta{Title: "Direct deposit authorization", Subject: "Direct deposit authorization form for " + f.EmployerName,
		Keywords: []string{"Payline", "direct deposit", "document " + f.ID}}, f.CreatedAt, "Payline · Direct deposit authorization · Document "+f.ID, func(d *pdfDoc) {
		d.titleBlock("Direct Deposit Authorization", "Give this form to "+orDash(f.EmployerName)+" to change where your pay goes.",
			[][2]string{{"Document", f.ID}, {"Prepared", stamp(f.CreatedAt)}})
		name := f.EmployeeName
		if name == "" {
			name = "______________________________"
		}
		d.section("Employee and employer", 25)
		d.fields([][2]string{{"Employee", name}, {"Employer", orDash(f.EmployerName)}})
		d.section("Deposit to", 30)
		accountName := f.Target.Name
		if accountName == "" {
			accountName = titleCase(f.Target.Type)
		}
		d.fields([][2]string{{"Account", accountName}, {"Account type", titleCase(f.Target.Type)},
			{"Account number", "••••" + f.Target.LastFour}, {"Routing number", orDash(f.Target.RoutingNumber)}})
		d.section("Amount", 20)
		d.text(10, "", ink)
		d.MultiCell(d.width, 5.5, describeSplit(f.Params), "", "L", false)
		d.section("Authorization", 40)
		d.text(9, "", ink)
		d.MultiCell(d.width, 4.8, "I authorize my employer to deposit my pay as described above, and to correct any deposit made in error. "+
			"This authorization stays in effect until my employer receives written notice from me to end it.", "", "L", false)
		d.Ln(12)
		d.color(ink, "draw")
		d.SetLineWidth(0.3)
		y := d.GetY()
		d.Line(margin, y, margin+90, y)
		d.Line(margin+110, y, margin+d.width, y)
		d.Ln(1.5)
		d.text(8, "", muted)
		d.CellFormat(110, 4, "Employee signature", "", 0, "L", false, 0, "")
		d.CellFormat(d.width-110, 4, "Date", "", 1, "L", false, 0, "")
	})
}

// describeSplit says in words what a switch sends to the account.
func describeSplit(p domain.JobParams) string {
	if p.Action != domain.ActionPartialSwitch || p.Allocation == nil {
		return "My entire net pay, each pay period."
	}
	switch a := p.Allocation; a.Type {
	case domain.AllocationAmount:
		return a.Amount.Formatted() + " of each paycheck; the rest as before."
	case domain.AllocationPercentage:
		return strings.TrimSpace(titleCase(percent(a.Percentage))) + " of each paycheck; the rest as before."
	}
	return "What remains of each paycheck after my other deposits."
}

func percent(p int) string {
	return strings.TrimRight(strings.TrimRight(domain.USD(int64(p)*100).Decimal(), "0"), ".") + "%"
}
