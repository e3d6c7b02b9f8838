package domain

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Forgery check codes: a FraudReason's code, each explained in
// docs/documents.md (## Forgery checks).
const (
	FraudArithmeticMismatch = "ARITHMETIC_MISMATCH"
	FraudPeriodExceedsYTD   = "PERIOD_EXCEEDS_YTD"
	FraudYTDNotCumulative   = "YTD_NOT_CUMULATIVE"
	FraudPayDateOffSchedule = "PAY_DATE_OFF_SCHEDULE"
	FraudEmployerUnknown    = "EMPLOYER_UNKNOWN"
	FraudFontsInconsistent  = "FONTS_INCONSISTENT"
	FraudEditedAfterCreate  = "EDITED_AFTER_CREATION"
	FraudFiguresReused      = "FIGURES_REUSED"
	// FraudTextLayerMismatch: what the page shows differs from its text
	// layer (a figure painted over and another drawn on top).
	FraudTextLayerMismatch = "TEXT_LAYER_MISMATCH"
	// FraudFieldsMissing: a paystub's pay date, gross or net pay, or a
	// W-2's wages, was not read.
	FraudFieldsMissing = "FIELDS_MISSING"
	// FraudFieldsUncertain: the reader is unsure of fields it read (faint
	// OCR, two readings of a figure).
	FraudFieldsUncertain = "FIELDS_UNCERTAIN"
	// FraudImplausible: figures that cannot all be right (more than 80
	// hours a week, a period that ends before it starts).
	FraudImplausible = "IMPLAUSIBLE"
	// FraudSeriesInconsistent: an end user's stubs do not add up to one
	// another and nothing tells which is off.
	FraudSeriesInconsistent = "SERIES_INCONSISTENT"
	// FraudAnotherVersion: the end user uploaded, now or before, a
	// paystub of the same employer and pay date with other figures.
	FraudAnotherVersion = "ANOTHER_VERSION"
)

// A document's fraud statuses (and FraudNeedsReview). A document's status
// is decided once, when it is uploaded, and never changes afterwards; a
// person's review is recorded beside it (docs/documents.md).
const (
	FraudSuspected    = "suspected"
	FraudNotSuspected = "not_suspected"
	FraudUnavailable  = "unavailable" // nothing was read: no check could run
)

// Tolerances of the checks, in cents, days and time.
const (
	// arithmeticTolerance: a payroll generator rounds every line to the
	// cent and adds rounded lines, so its figures add up exactly; some
	// compute net pay from unrounded taxes and so land one cent off. A
	// forger changes a figure by dollars, not by a cent.
	arithmeticTolerance = 1
	// weeklyToleranceDays and scheduleToleranceDays are how far a pay date
	// may move from its schedule: a pay day on a weekend or bank holiday
	// is paid on the business day before, at most three days earlier (a
	// Monday holiday after a weekend). A weekly schedule gets one: with
	// two, most dates would be within reach of some week's pay day; a
	// weekly pay day is a weekday (a Friday, mostly) that a holiday moves
	// to the day before.
	weeklyToleranceDays   = 1
	scheduleToleranceDays = 3
	// editedAfter is how long after its creation a file may be modified:
	// a generator writes a file in one pass; an hour leaves room for
	// clocks and for batch runs that stamp a file when queued.
	editedAfter = time.Hour
	// maxFontFamilies is how many font families a generated paystub may
	// draw its text in: a body font, a bold or heading face of another
	// family and a monospace for figures.
	maxFontFamilies = 3
)

// EmployerFacts is what the employer directory knows of the employer a
// document names: the employer with the EIN it prints (nil when none or
// no EIN was read) and the employers whose name matches the one it prints.
type EmployerFacts struct {
	ByEIN  *Employer
	ByName []Employer
}

// CheckDocument runs the checks that read one file alone: what its page
// shows against its text layer, whether what income needs was read, its
// arithmetic, its period against its year to date, whether its figures
// are plausible, its employer against the directory, its fonts and its
// metadata. It returns the checks that failed, none for a clean file;
// FraudOf says which are evidence and which doubts.
func CheckDocument(d ParsedDocument, f FileFacts, emp EmployerFacts) []FraudReason {
	var out []FraudReason
	out = append(out, checkMismatches(f.Mismatches)...)
	out = append(out, checkMissing(d)...)
	if p := d.Paystub; p != nil {
		out = append(out, checkArithmetic(*p)...)
		out = append(out, checkPeriodWithinYTD(*p)...)
		out = append(out, checkPlausible(*p)...)
		out = append(out, checkEmployer(p.EmployerName, p.EmployerEIN, emp)...)
	}
	if w := d.W2; w != nil {
		out = append(out, checkEmployer(w.EmployerName, "", emp)...)
	}
	out = append(out, checkFonts(f.Fonts)...)
	out = append(out, checkRedrawnFigures(f.FontUse)...)
	out = append(out, checkEdited(f)...)
	return out
}

// FraudOf is a document's fraud outcome: unavailable when nothing was
// read; suspected when any reason is evidence of tampering; needs_review
// when reasons are doubts only; not_suspected otherwise. Each reason is
// given its kind.
func FraudOf(read bool, reasons []FraudReason) DocumentFraud {
	if !read {
		return DocumentFraud{Status: FraudUnavailable}
	}
	if len(reasons) == 0 {
		return DocumentFraud{Status: FraudNotSuspected}
	}
	out := DocumentFraud{Status: FraudNeedsReview, Reasons: make([]FraudReason, len(reasons))}
	for i, r := range reasons {
		r.Kind = ReasonKind(r.Code)
		if r.Kind == ReasonEvidence {
			out.Status = FraudSuspected
		}
		out.Reasons[i] = r
	}
	return out
}

func dollars(cents int64) string { return USD(cents).Formatted() }

// sumLines adds lines' amounts; ok is false without lines.
func sumLines(ls []PayLine) (int64, bool) {
	var t int64
	for _, l := range ls {
		t += l.Amount.Amount
	}
	return t, len(ls) > 0
}

// total is a paystub's printed total, else the sum of its lines; ok is
// false when it has neither.
func total(printed *int64, ls []PayLine) (int64, bool) {
	if printed != nil {
		return *printed, true
	}
	return sumLines(ls)
}

func offBy(a, b int64) bool { return a-b > arithmeticTolerance || b-a > arithmeticTolerance }

// checkArithmetic: gross - taxes - deductions + reimbursements = net,
// and the lines add up to the totals printed beside them. It runs only on
// what was read: a paystub whose taxes and deductions were both not read
// is not checked. A failure is a doubt, never evidence: the reader may
// have misread a figure, and a person settles which.
func checkArithmetic(p ReadPaystub) []FraudReason {
	var out []FraudReason
	bad := func(fields []string, format string, args ...any) {
		out = append(out, FraudReason{Code: FraudArithmeticMismatch, Fields: fields, Message: fmt.Sprintf(format, args...)})
	}
	taxes, taxesOK := total(p.TotalTaxes, p.Taxes)
	deductions, deductionsOK := total(p.TotalDeductions, p.Deductions)
	reimbursed := deref(p.Reimbursements)
	if p.GrossPayAmount != nil && p.NetPayAmount != nil && (taxesOK || deductionsOK) {
		gross, net := *p.GrossPayAmount, *p.NetPayAmount
		if want := gross - taxes - deductions + reimbursed; offBy(want, net) {
			if reimbursed != 0 {
				bad([]string{"gross_pay_amount", "total_taxes", "total_deductions", "reimbursements", "net_pay_amount"},
					"gross pay %s less taxes %s and deductions %s plus reimbursements %s is %s, but the net pay read is %s",
					dollars(gross), dollars(taxes), dollars(deductions), dollars(reimbursed), dollars(want), dollars(net))
			} else {
				bad([]string{"gross_pay_amount", "total_taxes", "total_deductions", "net_pay_amount"},
					"gross pay %s less taxes %s and deductions %s is %s, but the net pay read is %s",
					dollars(gross), dollars(taxes), dollars(deductions), dollars(want), dollars(net))
			}
		}
	}
	if sum, ok := sumLines(p.Earnings); ok && p.GrossPayAmount != nil && offBy(sum, *p.GrossPayAmount) {
		bad([]string{"earnings", "gross_pay_amount"}, "the earnings lines add up to %s, but the gross pay read is %s", dollars(sum), dollars(*p.GrossPayAmount))
	}
	if sum, ok := sumLines(p.Taxes); ok && p.TotalTaxes != nil && offBy(sum, *p.TotalTaxes) {
		bad([]string{"taxes", "total_taxes"}, "the tax lines add up to %s, but the total taxes read are %s", dollars(sum), dollars(*p.TotalTaxes))
	}
	if sum, ok := sumLines(p.Deductions); ok && p.TotalDeductions != nil && offBy(sum, *p.TotalDeductions) {
		bad([]string{"deductions", "total_deductions"}, "the deduction lines add up to %s, but the total deductions read are %s", dollars(sum), dollars(*p.TotalDeductions))
	}
	if p.GrossPayAmount != nil && p.NetPayAmount != nil && *p.NetPayAmount > *p.GrossPayAmount+reimbursed+arithmeticTolerance {
		bad([]string{"gross_pay_amount", "net_pay_amount"}, "the net pay %s is more than the gross pay %s", dollars(*p.NetPayAmount), dollars(*p.GrossPayAmount))
	}
	return out
}

// checkPeriodWithinYTD: a period's pay is part of its year to date.
func checkPeriodWithinYTD(p ReadPaystub) []FraudReason {
	var out []FraudReason
	for _, c := range []struct {
		what, field string
		period, ytd *int64
	}{{"gross pay", "gross_pay", p.GrossPayAmount, p.GrossPayYTD}, {"net pay", "net_pay", p.NetPayAmount, p.NetPayYTD}} {
		if c.period != nil && c.ytd != nil && *c.period > *c.ytd+arithmeticTolerance {
			out = append(out, FraudReason{Code: FraudPeriodExceedsYTD, Fields: []string{c.field + "_amount", c.field + "_ytd"},
				Message: fmt.Sprintf("the period's %s %s is more than the year-to-date %s %s", c.what, dollars(*c.period), c.what, dollars(*c.ytd))})
		}
	}
	return out
}

// NormalizeEIN is an EIN as nine digits ("12-3456789" is "123456789"),
// or "" when what was read is not nine digits.
func NormalizeEIN(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' || r == ' ':
		default:
			return ""
		}
	}
	if !ValidEIN(b.String()) {
		return ""
	}
	return b.String()
}

// unissuedEINPrefixes are the two-digit prefixes the IRS has never
// assigned to a campus or an online application: no EIN starts with them.
var unissuedEINPrefixes = []string{"00", "07", "08", "09", "17", "18", "19", "28", "29", "49", "69", "70", "78", "79", "89", "96", "97"}

// EmployerKey groups documents by employer: its EIN when one was read,
// otherwise its normalized name.
func EmployerKey(name, ein string) string {
	if e := NormalizeEIN(ein); e != "" {
		return "ein:" + e
	}
	return "name:" + NormalizeEmployerName(name)
}

// corporateSuffixes are the words a company's name may carry or drop
// without naming another company.
var corporateSuffixes = []string{"inc", "incorporated", "llc", "llp", "lp", "co", "company", "corp", "corporation", "ltd", "limited", "plc", "pc"}

// NormalizeEmployerName is a name as employers are compared: lower-case
// letters and digits, one space between words, without a trailing
// corporate suffix ("Acme Corp." and "ACME" agree).
func NormalizeEmployerName(s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '&' })
	for len(words) > 1 && slices.Contains(corporateSuffixes, words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	return strings.Join(words, " ")
}

// SameEmployerName reports whether two names name one employer.
func SameEmployerName(a, b string) bool {
	na, nb := NormalizeEmployerName(a), NormalizeEmployerName(b)
	return na != "" && na == nb
}

// checkEmployer: an EIN no employer can have, or one that belongs to
// another employer in the directory, or a directory employer's name with
// another EIN. An employer the directory does not know at all is not
// suspected: small employers are not in any directory (docs/documents.md).
func checkEmployer(name, einRead string, emp EmployerFacts) []FraudReason {
	bad := func(format string, args ...any) []FraudReason {
		return []FraudReason{{Code: FraudEmployerUnknown, Message: fmt.Sprintf(format, args...)}}
	}
	if einRead == "" {
		return nil
	}
	ein := NormalizeEIN(einRead)
	switch {
	case ein == "":
		return bad("the employer EIN %q is not nine digits", einRead)
	case slices.Contains(unissuedEINPrefixes, ein[:2]):
		return bad("the employer EIN %s starts with %s, a prefix the IRS does not issue", ein, ein[:2])
	case emp.ByEIN != nil && name != "" && !SameEmployerName(emp.ByEIN.Name, name):
		return bad("the EIN %s belongs to %q in the employer directory, but the paystub names %q", ein, emp.ByEIN.Name, name)
	}
	for _, e := range emp.ByName {
		if e.EIN != "" && e.EIN != ein && SameEmployerName(e.Name, name) {
			return bad("the paystub names %q, whose EIN in the employer directory is %s, but prints the EIN %s", e.Name, e.EIN, ein)
		}
	}
	return nil
}

// fontFamily splits a PDF base font name into its family and its subset
// tag: "ABCDEF+Arial-BoldMT" is ("arial", "ABCDEF").
func fontFamily(name string) (family, subset string) {
	if i := strings.IndexByte(name, '+'); i == 6 {
		subset, name = name[:6], name[7:]
	}
	if i := strings.IndexAny(name, "-,"); i > 0 {
		name = name[:i]
	}
	name = strings.ToLower(name)
	for _, suffix := range []string{"mt", "ps", "psmt", "bold", "italic", "oblique", "regular", "roman"} {
		name = strings.TrimSuffix(name, suffix)
	}
	return name, subset
}

// checkFonts: a generator embeds each font once, as one subset, and draws
// a paystub in few families. The same family embedded as two subsets, or
// both as a subset and whole, means a second program drew text into the
// file (an editor replacing a figure embeds the glyphs it needs anew);
// more than maxFontFamilies families means text pasted from elsewhere.
func checkFonts(fonts []string) []FraudReason {
	subsets := map[string][]string{}
	var families []string
	for _, f := range fonts {
		fam, sub := fontFamily(f)
		if fam == "" {
			continue
		}
		if !slices.Contains(families, fam) {
			families = append(families, fam)
		}
		if !slices.Contains(subsets[fam], sub) {
			subsets[fam] = append(subsets[fam], sub)
		}
	}
	var out []FraudReason
	for _, fam := range families {
		if len(subsets[fam]) > 1 {
			out = append(out, FraudReason{Code: FraudFontsInconsistent, Message: fmt.Sprintf(
				"the font family %s is embedded %d times (%s): a generator embeds a font once; text was added by another program", fam, len(subsets[fam]), subsetNames(subsets[fam]))})
		}
	}
	if len(families) > maxFontFamilies {
		out = append(out, FraudReason{Code: FraudFontsInconsistent, Message: fmt.Sprintf(
			"the text is drawn in %d font families (%s); a payroll generator uses at most %d", len(families), strings.Join(families, ", "), maxFontFamilies)})
	}
	return out
}

// redrawnFigures bounds the strings a font that draws only figures may
// draw for checkRedrawnFigures to call them redrawn, and figuresElsewhere
// the figures another family must draw for the file to have a figure font.
const (
	redrawnFigures   = 2
	figuresElsewhere = 5
)

// checkRedrawnFigures: a generator draws a paystub's figures in one font
// (or a few, used throughout). A font of another family that draws one or
// two strings, all of them figures, while another family draws the
// paystub's other figures is an editor's: a figure was typed over in the
// font the editor had at hand. Bold and regular of one family are
// styling, never a reason.
func checkRedrawnFigures(uses []FontUse) []FraudReason {
	main, most := "", 0
	for _, u := range uses {
		if u.Figures > most {
			main, most = u.Font, u.Figures
		}
	}
	if most < figuresElsewhere {
		return nil
	}
	mainFamily, _ := fontFamily(main)
	var out []FraudReason
	for _, u := range uses {
		fam, _ := fontFamily(u.Font)
		if fam == mainFamily || u.Figures == 0 || u.Figures != u.Strings || u.Strings > redrawnFigures {
			continue
		}
		out = append(out, FraudReason{Code: FraudFontsInconsistent, Message: fmt.Sprintf(
			"%d figure(s) are drawn in %s, which draws nothing else, while the paystub's other %d figures are in %s: a figure was typed over",
			u.Figures, u.Font, most, main)})
	}
	return out
}

func subsetNames(subsets []string) string {
	names := make([]string, len(subsets))
	for i, s := range subsets {
		names[i] = cmp.Or(s, "whole font")
	}
	return strings.Join(names, ", ")
}

// pdfEditors are programs whose name among a file's producers says it
// was opened and saved in an editor after it was made.
var pdfEditors = []string{"acrobat", "pdfescape", "sejda", "ilovepdf", "smallpdf", "pdf-xchange", "phantompdf", "foxit pdf editor",
	"pdffiller", "dochub", "pdfelement", "nitro pro", "libreoffice draw", "inkscape"}

// checkEdited: modified more than editedAfter after creation, or updated
// in increments by a second program, or saved by a PDF editor beside the
// program that made it.
func checkEdited(f FileFacts) []FraudReason {
	var out []FraudReason
	if !f.Created.IsZero() && f.Modified.Sub(f.Created) > editedAfter {
		out = append(out, FraudReason{Code: FraudEditedAfterCreate, Message: fmt.Sprintf(
			"the file was modified %s, %s after it was created (%s)", f.Modified.UTC().Format(time.RFC3339), roundDuration(f.Modified.Sub(f.Created)), f.Created.UTC().Format(time.RFC3339))})
	}
	producers := distinctProducers(f)
	if f.Revisions > 0 && len(producers) > 1 {
		out = append(out, FraudReason{Code: FraudEditedAfterCreate, Message: fmt.Sprintf(
			"the file has %d incremental update(s) and was written by %d programs (%s)", f.Revisions, len(producers), strings.Join(producers, "; "))})
	} else if len(producers) > 1 {
		for _, p := range producers {
			if isEditor(p) {
				out = append(out, FraudReason{Code: FraudEditedAfterCreate, Message: fmt.Sprintf(
					"the file was saved by the PDF editor %q besides %s", p, strings.Join(slices.DeleteFunc(slices.Clone(producers), func(s string) bool { return s == p }), "; "))})
				break
			}
		}
	}
	return out
}

func isEditor(producer string) bool {
	p := strings.ToLower(producer)
	return slices.ContainsFunc(pdfEditors, func(e string) bool { return strings.Contains(p, e) })
}

func distinctProducers(f FileFacts) []string {
	var out []string
	for _, p := range append([]string{f.Producer, f.Creator}, f.Producers...) {
		p = strings.TrimSpace(p)
		if p != "" && !slices.ContainsFunc(out, func(s string) bool { return strings.EqualFold(s, p) }) {
			out = append(out, p)
		}
	}
	return out
}

func roundDuration(d time.Duration) string {
	switch {
	case d >= 48*time.Hour:
		return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
	case d >= 2*time.Hour:
		return fmt.Sprintf("%d hours", int(d/time.Hour))
	}
	return d.Round(time.Minute).String()
}

// checkMismatches: the page shows something other than its text layer
// where a figure is (a white box over it and another figure drawn on
// top). This is evidence: a reader's misread cannot make it, since the
// text layer is read exactly and the page was rendered to compare.
func checkMismatches(ms []TextMismatch) []FraudReason {
	var out []FraudReason
	for _, m := range ms {
		shown := "nothing"
		if m.Shown != "" {
			shown = fmt.Sprintf("%q", m.Shown)
		}
		r := FraudReason{Code: FraudTextLayerMismatch, Message: fmt.Sprintf(
			"on page %d the file's text says %q where the page shows %s: something was drawn over the text", m.Page, m.Layer, shown)}
		if m.Field != "" {
			r.Fields = []string{m.Field}
		}
		out = append(out, r)
	}
	return out
}

// checkComplete: income needs a paystub's pay date, gross and net pay; a
// paystub without them goes to a person, who may read what the reader
// could not.
func checkComplete(p ReadPaystub) []FraudReason {
	var missing []string
	if !Date(p.PayDate).Valid() {
		missing = append(missing, "pay_date")
	}
	if p.GrossPayAmount == nil {
		missing = append(missing, "gross_pay_amount")
	}
	if p.NetPayAmount == nil {
		missing = append(missing, "net_pay_amount")
	}
	if len(missing) == 0 {
		return nil
	}
	return []FraudReason{{Code: FraudFieldsMissing, Fields: missing,
		Message: fmt.Sprintf("%s could not be read; income needs the pay date, gross and net pay", strings.Join(missing, ", "))}}
}

// checkMissing: what income needs of a document that was not read (a
// paystub's pay date, gross and net pay; a W-2's box 1). It reads only
// the reading, so a preview may tell the user.
func checkMissing(d ParsedDocument) []FraudReason {
	var out []FraudReason
	if p := d.Paystub; p != nil {
		out = append(out, checkComplete(*p)...)
	}
	if w := d.W2; w != nil {
		out = append(out, checkW2Complete(*w)...)
	}
	return out
}

// checkW2Complete: a W-2 of which box 1 (wages) was not read cannot say
// what the person earned.
func checkW2Complete(w W2) []FraudReason {
	if w.Boxes == nil || w.Boxes.Box1 != nil {
		return nil
	}
	return []FraudReason{{Code: FraudFieldsMissing, Fields: []string{"box1"}, Message: "box 1 (wages, tips, other compensation) could not be read"}}
}

// maxWeeklyHours bounds a pay period's hours a week on average: more is
// more than a person works (a misread rate or YTD column, mostly).
const maxWeeklyHours = 80

// checkPlausible: figures that cannot all be right. Each is a doubt:
// most come from a misread column.
func checkPlausible(p ReadPaystub) []FraudReason {
	var out []FraudReason
	doubt := func(fields []string, format string, args ...any) {
		out = append(out, FraudReason{Code: FraudImplausible, Fields: fields, Message: fmt.Sprintf(format, args...)})
	}
	start, end := Date(p.PayPeriodStart), Date(p.PayPeriodEnd)
	if start.Valid() && end.Valid() && end < start {
		doubt([]string{"pay_period_start", "pay_period_end"}, "the pay period ends (%s) before it starts (%s)", end, start)
	}
	if msg := payDateOutsidePeriod(p); msg != "" {
		doubt([]string{"pay_date", "pay_period_end"}, "%s", msg)
	}
	if start.Valid() && end.Valid() && end >= start {
		var hours float64
		for _, l := range p.Earnings {
			if l.Hours != nil {
				hours += *l.Hours
			}
		}
		days := end.Time().Sub(start.Time()).Hours()/24 + 1
		if weekly := hours / (days / 7); days >= 5 && weekly > maxWeeklyHours {
			doubt([]string{"earnings"}, "the earnings lines add up to %.2f hours over %.0f days, %.1f hours a week", hours, days, weekly)
		}
	}
	return out
}
