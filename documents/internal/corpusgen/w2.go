package main

import (
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"payline/domain"
	"payline/reports"
)

// w2 is a synthetic W-2 and its truth.
type w2 struct {
	Layout       string `json:"layout"`
	Means        string `json:"means"`
	DocumentType string `json:"document_type"`
	Employer     string `json:"employer"`
	EmployerEIN  string `json:"employer_ein,omitempty"`
	Employee     string `json:"employee"`
	TaxYear      string `json:"tax_year"`
	Box1         int64  `json:"box1_wages"`
	Box2         int64  `json:"box2_federal_tax"`
	Box3         int64  `json:"box3_social_security_wages"`
	Box5         int64  `json:"box5_medicare_wages"`
	address      string
}

func newW2(r *rand.Rand) w2 {
	e := employers[r.IntN(len(employers))]
	gross := int64(3_000_000 + r.IntN(9_000_000))
	pretax := gross * int64(r.IntN(8)) / 100
	return w2{DocumentType: "w2", Employer: e.name, EmployerEIN: e.ein, address: e.addr,
		Employee: firstNames[r.IntN(len(firstNames))] + " " + lastNames[r.IntN(len(lastNames))],
		TaxYear:  fmt.Sprint(2023 + r.IntN(3)), Box1: gross - pretax, Box2: (gross - pretax) * 11 / 100, Box3: gross, Box5: gross}
}

// renderIRSW2: a W-2 laid out as the IRS form is, in Helvetica: lettered
// and numbered boxes in a grid, each caption over its value.
func renderIRSW2(w w2) ([]byte, error) {
	year := 2023
	fmt.Sscan(w.TaxYear, &year)
	pdf := newPDF("P", "FormFiller W2 Edition", time.Date(year+1, 1, 20, 0, 0, 0, 0, time.UTC))
	box := func(x, y, wd, h float64, caption, value string) {
		pdf.Rect(x, y, wd, h, "D")
		pdf.SetFont("Helvetica", "", 6.5)
		cell(pdf, x+2, y+1, wd-4, caption, "L")
		pdf.SetFont("Courier", "", 10)
		cell(pdf, x+4, y+h-16, wd-8, value, "L")
	}
	x0, y := 36.0, 60.0
	box(x0, y, 180, 34, "a Employee's social security number", fmt.Sprintf("XXX-XX-%04d", w.Box1%10000))
	y += 34
	box(x0, y, 280, 34, "b Employer identification number (EIN)", w.EmployerEIN)
	box(x0+280, y, 130, 34, "1 Wages, tips, other compensation", money(w.Box1))
	box(x0+410, y, 130, 34, "2 Federal income tax withheld", money(w.Box2))
	y += 34
	box(x0, y, 280, 68, "c Employer's name, address, and ZIP code", w.address)
	pdf.SetFont("Courier", "", 10)
	cell(pdf, x0+4, y+14, 272, w.Employer, "L")
	box(x0+280, y, 130, 34, "3 Social security wages", money(w.Box3))
	box(x0+410, y, 130, 34, "4 Social security tax withheld", money(w.Box3*62/1000))
	box(x0+280, y+34, 130, 34, "5 Medicare wages and tips", money(w.Box5))
	box(x0+410, y+34, 130, 34, "6 Medicare tax withheld", money(w.Box5*145/10000))
	y += 68
	box(x0, y, 280, 34, "e Employee's first name and initial   Last name", w.Employee)
	box(x0+280, y, 260, 34, "12a See instructions for box 12", "")
	y += 60
	pdf.SetFont("Helvetica", "B", 14)
	cell(pdf, x0, y, 60, "W-2", "L")
	pdf.SetFont("Helvetica", "B", 11)
	cell(pdf, x0+60, y, 200, "Wage and Tax Statement", "L")
	pdf.SetFont("Helvetica", "B", 18)
	cell(pdf, x0+300, y, 80, w.TaxYear, "L")
	return output(pdf)
}

// writeW2s writes W-2s: Payline's own rendering and the IRS-like form,
// and a scanned copy of the latter.
func writeW2s(dir, work string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for i := range 6 {
		w := newW2(rand.New(rand.NewPCG(uint64(100+i), 42)))
		var data []byte
		var err error
		ext := "pdf"
		switch i % 3 {
		case 0:
			w.Layout, w.Means = "w2-payline", "Payline's reports.RenderW2 (fpdf)"
			w.EmployerEIN = "" // Payline's rendering prints no EIN
			data, err = reports.RenderW2(fmt.Sprintf("w2-%d", i), domain.W2{DocumentType: "w2", EmployerName: w.Employer, TaxYear: w.TaxYear,
				Applicant: domain.W2Employee{Name: w.Employee}, TotalWages: domain.USD(w.Box1), FederalTaxes: domain.USD(w.Box2),
				SocialSecurityWages: domain.USD(w.Box3), MedicareWages: domain.USD(w.Box5), StateWages: domain.USD(w.Box1)},
				time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC))
		case 1:
			w.Layout, w.Means = "w2-irs", "fpdf, the IRS form's grid of boxes"
			data, err = renderIRSW2(w)
		case 2:
			w.Layout, w.Means = "scan-w2-irs", "w2-irs rasterized at 200 dpi, turned, softened and speckled (jpg)"
			if data, err = renderIRSW2(w); err == nil {
				data, err = photocopy(data, work, 200, uint64(i), true)
			}
			ext = "jpg"
		}
		if err != nil {
			log.Fatal(err)
		}
		base := filepath.Join(dir, fmt.Sprintf("%s-%02d", w.Layout, i/3+1))
		if err := os.WriteFile(base+"."+ext, data, 0o644); err != nil {
			log.Fatal(err)
		}
		writeTruthOf(base, w)
	}
}
