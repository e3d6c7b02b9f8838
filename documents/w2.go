package documents

import (
	"regexp"
	"strings"

	"payline/domain"
)

// w2Boxes are the W-2 boxes the reader takes, by the words of their
// printed captions (normalized).
var w2Boxes = []struct {
	caption string
	field   string
	set     func(*domain.W2, int64)
}{
	{"wages tips other comp", "total_wages", func(w *domain.W2, v int64) { w.TotalWages = domain.USD(v) }},
	{"federal income tax withheld", "federal_taxes", func(w *domain.W2, v int64) { w.FederalTaxes = domain.USD(v) }},
	{"social security wages", "social_security_wages", func(w *domain.W2, v int64) { w.SocialSecurityWages = domain.USD(v) }},
	{"social security tax withheld", "social_security_taxes", func(w *domain.W2, v int64) { w.SocialSecurityTaxes = domain.USD(v) }},
	{"medicare wages and tips", "medicare_wages", func(w *domain.W2, v int64) { w.MedicareWages = domain.USD(v) }},
	{"medicare tax withheld", "medicare_taxes", func(w *domain.W2, v int64) { w.MedicareTaxes = domain.USD(v) }},
}

var taxYear = regexp.MustCompile(`\b(19|20)\d\d\b`)

// readW2 interprets a document's positioned text as a W-2: each box's
// amount is to the right of its caption or under it; the employer's name
// is under "Employer's name"; the EIN is the first NN-NNNNNNN; the tax
// year is the year printed with "Wage and Tax Statement" or "W-2".
func readW2(doc page) (*domain.W2, []domain.DocumentWarning) {
	in := &interpreter{doc: doc}
	out := &domain.W2{DocumentType: domain.DocumentW2}
	found := map[string]bool{}
	for li, l := range doc.lines {
		for pi, p := range l.phrases {
			n := normalize(p.text)
			for _, b := range w2Boxes {
				if found[b.field] || !strings.Contains(n, b.caption) {
					continue
				}
				if v, ok := in.boxAmount(li, pi); ok {
					b.set(out, v)
					found[b.field] = true
				}
			}
			switch {
			case out.EmployerName == "" && (strings.HasPrefix(n, "c employer s name") || strings.HasPrefix(n, "employer s name")):
				out.EmployerName = cleanName(firstPart(in.textBelow(li, pi)))
			case out.EmployerName == "" && matchField(p.text) == fieldEmployer:
				out.EmployerName = cleanName(in.textAfter(li, pi))
			case out.EmployerEIN == "" && findEIN(p.text) != "":
				out.EmployerEIN = findEIN(p.text)
			case out.TaxYear == "" && (strings.Contains(n, "wage and tax statement") || strings.Contains(n, "w 2") || n == "tax year"):
				text := p.text
				for _, q := range l.phrases {
					text += " " + q.text
				}
				if y := taxYear.FindString(strings.ReplaceAll(text, "W-2", "")); y != "" {
					out.TaxYear = y
				}
			}
		}
	}
	var warnings []domain.DocumentWarning
	for _, b := range w2Boxes[:] {
		if !found[b.field] && b.field != "social_security_taxes" && b.field != "medicare_taxes" {
			warnings = append(warnings, domain.DocumentWarning{Field: b.field, Status: "unparsable",
				Message: "The W-2's " + strings.ReplaceAll(b.field, "_", " ") + " box could not be found in the file."})
		}
	}
	for _, c := range []struct {
		ok   bool
		name string
	}{
		{out.EmployerName != "", "employer_name"}, {out.EmployerEIN != "", "employer_ein"}, {out.TaxYear != "", "tax_year"}} {
		if !c.ok {
			warnings = append(warnings, domain.DocumentWarning{Field: c.name, Status: "unparsable",
				Message: "The W-2's " + strings.ReplaceAll(c.name, "_", " ") + " could not be found in the file."})
		}
	}
	return out, warnings
}

// boxAmount is the amount of a W-2 box whose caption is phrase pi of
// line li: in the caption's phrase, else the first amount on the next
// lines within the caption's column (from the caption to the next one on
// its line): a box's figure sits under its caption, often to the right.
func (in *interpreter) boxAmount(li, pi int) (int64, bool) {
	l := in.doc.lines[li]
	if as := amountsIn(l.phrases[pi]); len(as) > 0 {
		return as[0].cents, true
	}
	left, right := l.phrases[pi].x0-l.height(), 1e18
	if pi+1 < len(l.phrases) {
		right = l.phrases[pi+1].x0
	}
	lines := in.doc.lines
	for i := li + 1; i < len(lines) && i <= li+2 && lines[i].page == l.page; i++ {
		for _, p := range lines[i].phrases {
			if c := p.center(); c < left || c >= right {
				continue
			}
			if as := amountsIn(p); len(as) > 0 {
				return as[0].cents, true
			}
		}
	}
	return 0, false
}

func matchField(text string) field {
	f, _, _ := matchLabel(text)
	return f
}

// textBelow is the first phrase under a caption, overlapping it: a W-2's
// boxes hold their value under the caption.
func (in *interpreter) textBelow(li, pi int) string {
	lines := in.doc.lines
	p := lines[li].phrases[pi]
	for i := li + 1; i < len(lines) && i <= li+2 && lines[i].page == lines[li].page; i++ {
		for _, q := range lines[i].phrases {
			if q.x1 >= p.x0-2 && q.x0 <= p.x1+2 {
				return q.text
			}
		}
	}
	return ""
}

// firstPart is a name without the address a W-2 prints after it on the
// same line.
func firstPart(s string) string {
	name, _, _ := strings.Cut(s, ",")
	return name
}
