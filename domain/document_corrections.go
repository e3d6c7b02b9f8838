package domain

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A reviewer corrects the fields of what was read from an uploaded
// document by name, each value typed as text: amounts in dollars
// ("1,234.56", "$1234.5"), read into cents by the domain's money parser
// (never through a float); dates as YYYY-MM-DD; names as they are
// printed. An empty value clears a field (the document does not print
// it). This file holds the table of those fields and their parsers.

// correctionKind is how a correctable field's text is read.
type correctionKind int

const (
	correctText correctionKind = iota
	correctEIN
	correctDate
	correctYear
	correctMoney
)

// correctable is one field a reviewer may correct: its name in the parsed
// data's JSON, how its text is read, and where it is in the parsed data
// (exactly one of text and cents is set).
type correctable struct {
	name  string
	kind  correctionKind
	text  func(d *ParsedDocument) *string
	cents func(d *ParsedDocument) **int64
}

// MaxReviewedCents bounds a corrected amount: $100,000,000.00, past any
// paystub's or W-2's figure, so a slip of the keyboard is refused rather
// than stored.
const MaxReviewedCents = 100_000_000_00

// maxCorrectedText bounds a corrected name, in characters.
const maxCorrectedText = 200

func reviewPaystubText(name string, kind correctionKind, f func(p *ReadPaystub) *string) correctable {
	return correctable{name: name, kind: kind, text: func(d *ParsedDocument) *string { return f(d.Paystub) }}
}

func reviewPaystubMoney(name string, f func(p *ReadPaystub) **int64) correctable {
	return correctable{name: name, kind: correctMoney, cents: func(d *ParsedDocument) **int64 { return f(d.Paystub) }}
}

func reviewW2Text(name string, kind correctionKind, f func(w *W2) *string) correctable {
	return correctable{name: name, kind: kind, text: func(d *ParsedDocument) *string { return f(d.W2) }}
}

func reviewW2Box(name string, f func(b *W2Boxes) **int64) correctable {
	return correctable{name: name, kind: correctMoney, cents: func(d *ParsedDocument) **int64 { return f(d.W2.Boxes) }}
}

// paystubCorrectable and w2Correctable are the fields a reviewer may
// correct, in the order corrections are recorded.
var (
	paystubCorrectable = []correctable{
		reviewPaystubText("employer_name", correctText, func(p *ReadPaystub) *string { return &p.EmployerName }),
		reviewPaystubText("employer_ein", correctEIN, func(p *ReadPaystub) *string { return &p.EmployerEIN }),
		reviewPaystubText("employee_name", correctText, func(p *ReadPaystub) *string { return &p.EmployeeName }),
		reviewPaystubText("pay_date", correctDate, func(p *ReadPaystub) *string { return &p.PayDate }),
		reviewPaystubText("pay_period_start", correctDate, func(p *ReadPaystub) *string { return &p.PayPeriodStart }),
		reviewPaystubText("pay_period_end", correctDate, func(p *ReadPaystub) *string { return &p.PayPeriodEnd }),
		reviewPaystubMoney("gross_pay_amount", func(p *ReadPaystub) **int64 { return &p.GrossPayAmount }),
		reviewPaystubMoney("net_pay_amount", func(p *ReadPaystub) **int64 { return &p.NetPayAmount }),
		reviewPaystubMoney("gross_pay_ytd", func(p *ReadPaystub) **int64 { return &p.GrossPayYTD }),
		reviewPaystubMoney("net_pay_ytd", func(p *ReadPaystub) **int64 { return &p.NetPayYTD }),
		reviewPaystubMoney("total_taxes", func(p *ReadPaystub) **int64 { return &p.TotalTaxes }),
		reviewPaystubMoney("total_deductions", func(p *ReadPaystub) **int64 { return &p.TotalDeductions }),
		reviewPaystubMoney("reimbursements", func(p *ReadPaystub) **int64 { return &p.Reimbursements }),
	}
	w2Correctable = []correctable{
		reviewW2Text("tax_year", correctYear, func(w *W2) *string { return &w.TaxYear }),
		reviewW2Text("employer_name", correctText, func(w *W2) *string { return &w.EmployerName }),
		reviewW2Text("employer_ein", correctEIN, func(w *W2) *string { return &w.EmployerEIN }),
		reviewW2Box("box1", func(b *W2Boxes) **int64 { return &b.Box1 }),
		reviewW2Box("box2", func(b *W2Boxes) **int64 { return &b.Box2 }),
		reviewW2Box("box3", func(b *W2Boxes) **int64 { return &b.Box3 }),
		reviewW2Box("box4", func(b *W2Boxes) **int64 { return &b.Box4 }),
		reviewW2Box("box5", func(b *W2Boxes) **int64 { return &b.Box5 }),
		reviewW2Box("box6", func(b *W2Boxes) **int64 { return &b.Box6 }),
	}
)

// CorrectableFields names the fields a reviewer may correct on a document
// of the type (paystub or w2), in order; nil for any other type.
func CorrectableFields(documentType string) []string {
	var names []string
	for _, f := range correctableOf(documentType) {
		names = append(names, f.name)
	}
	return names
}

// IsMoneyField says whether a correctable field of the document type is
// an amount (its values before and after are cents).
func IsMoneyField(documentType, field string) bool {
	i := slices.IndexFunc(correctableOf(documentType), func(f correctable) bool { return f.name == field })
	return i >= 0 && correctableOf(documentType)[i].kind == correctMoney
}

func correctableOf(documentType string) []correctable {
	switch documentType {
	case DocumentPaystub:
		return paystubCorrectable
	case DocumentW2:
		return w2Correctable
	}
	return nil
}

// DocumentField is a field of what was read from an uploaded document as
// a reviewer reads and corrects it.
type DocumentField struct {
	// Name is the parsed data's field ("net_pay_amount", "box1").
	Name string
	// Kind is how its value is written: text, ein, date (YYYY-MM-DD),
	// year, or amount (dollars, "1972.98").
	Kind string
	// Value is what was read, written as a correction takes it; "" when
	// nothing was read.
	Value string
}

var correctionKindNames = map[correctionKind]string{correctText: "text", correctEIN: "ein", correctDate: "date",
	correctYear: "year", correctMoney: "amount"}

// DocumentFields are the fields a reviewer may correct on a document of
// the type, in order, each with the value read (none for another type).
func DocumentFields(documentType string, read ParsedDocument) []DocumentField {
	fields := correctableOf(documentType)
	if fields == nil {
		return nil
	}
	d := cloneParsed(documentType, read)
	out := make([]DocumentField, len(fields))
	for i, f := range fields {
		v := f.value(&d)
		if f.kind == correctMoney && v != "" {
			cents, _ := strconv.ParseInt(v, 10, 64)
			v = USD(cents).Decimal()
		}
		out[i] = DocumentField{Name: f.name, Kind: correctionKindNames[f.kind], Value: v}
	}
	return out
}

// value is a field's value as its corrections record it: text as it is,
// an amount as its cents (the parsed data's JSON), "" when not read.
func (f correctable) value(d *ParsedDocument) string {
	if f.cents != nil {
		if p := *f.cents(d); p != nil {
			return strconv.FormatInt(*p, 10)
		}
		return ""
	}
	return *f.text(d)
}

// set stores a parsed value: text as it is ("" clears), an amount from
// its cents text ("" clears).
func (f correctable) set(d *ParsedDocument, v string) {
	if f.cents == nil {
		*f.text(d) = v
		return
	}
	if v == "" {
		*f.cents(d) = nil
		return
	}
	c, _ := strconv.ParseInt(v, 10, 64) // parse made it
	*f.cents(d) = &c
}

// parse reads a reviewer's text for the field into the value stored, or
// says what is wrong with it (without the field's name).
func (f correctable) parse(text string, now time.Time) (string, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return "", nil
	}
	switch f.kind {
	case correctEIN:
		ein := NormalizeEIN(text)
		if ein == "" {
			return "", fmt.Errorf("must be an employer identification number of nine digits, such as 12-3456789")
		}
		return ein[:2] + "-" + ein[2:], nil
	case correctDate:
		d, err := ParseDate(text)
		if err != nil {
			return "", fmt.Errorf("must be a date written YYYY-MM-DD, such as 2026-03-15")
		}
		if y := d.Time().Year(); y < 1950 || d.Time().After(now.AddDate(1, 0, 0)) {
			return "", fmt.Errorf("%s is not a plausible date for a paystub", d)
		}
		return string(d), nil
	case correctYear:
		y, err := strconv.Atoi(text)
		if err != nil || len(text) != 4 || y < 1950 || y > now.Year() {
			return "", fmt.Errorf("must be a tax year of four digits, from 1950 to %d", now.Year())
		}
		return text, nil
	case correctMoney:
		cents, err := ParseAmountText(text)
		if err != nil {
			return "", err
		}
		return strconv.FormatInt(cents, 10), nil
	}
	if utf8.RuneCountInString(text) > maxCorrectedText {
		return "", fmt.Errorf("must be at most %d characters", maxCorrectedText)
	}
	if strings.ContainsFunc(text, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
		return "", fmt.Errorf("must be text without control characters")
	}
	return text, nil
}

// groupedDollars is an amount written with thousands separators:
// 1,234,567.89.
var groupedDollars = regexp.MustCompile(`^\d{1,3}(,\d{3})+(\.\d+)?$`)

// ParseAmountText reads an amount a person typed, in dollars, into cents:
// "1234.56", "1,234.56", "$1,234.5" and "1234" are taken; a sign, more
// than two decimals, an exponent, separators out of place and amounts
// over MaxReviewedCents are refused with the reason. The figures go
// through the domain's decimal parser, never a float.
func ParseAmountText(s string) (int64, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$"))
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "(") {
		return 0, fmt.Errorf("must not be negative: write the amount as the paystub prints it, without a sign")
	}
	if strings.Contains(s, ",") {
		if !groupedDollars.MatchString(s) {
			return 0, fmt.Errorf("must be an amount in dollars such as 1,234.56 (commas only between groups of three digits)")
		}
		s = strings.ReplaceAll(s, ",", "")
	}
	v, err := parseHundredths(Number(s), UpToTwoPlaces, MaxReviewedCents)
	switch {
	case errors.Is(err, errTooLarge):
		return 0, fmt.Errorf("must be at most %s", USD(MaxReviewedCents).Formatted())
	case errors.Is(err, errNotDecimal):
		return 0, fmt.Errorf("must be an amount in dollars such as 1234.56")
	case err != nil:
		return 0, err
	}
	return v, nil
}

// corrected applies a reviewer's corrections (field name to text) to what
// was read from a document of the type, and returns the corrected data and
// the corrections that changed something, in the table's order. A value
// equal to what was read is no correction. Every bad field is named at
// once: INVALID_FIELDS with corrections.<field>.
func corrected(documentType string, read ParsedDocument, corrections map[string]string, now time.Time) (ParsedDocument, []FieldCorrection, error) {
	fields := correctableOf(documentType)
	d := cloneParsed(documentType, read)
	var p Problems
	for name := range corrections {
		if !slices.ContainsFunc(fields, func(f correctable) bool { return f.name == name }) {
			p.Invalid("corrections."+name, "is not a field of a %s a reviewer may correct; the fields are %s",
				documentType, strings.Join(CorrectableFields(documentType), ", "))
		}
	}
	var out []FieldCorrection
	for _, f := range fields {
		text, ok := corrections[f.name]
		if !ok {
			continue
		}
		v, err := f.parse(text, now)
		if err != nil {
			p.Invalid("corrections."+f.name, "%s", err)
			continue
		}
		if before := f.value(&d); v != before {
			f.set(&d, v)
			out = append(out, FieldCorrection{Field: f.name, Before: before, After: v})
		}
	}
	if ps := d.Paystub; ps != nil && ps.PayPeriodStart != "" && ps.PayPeriodEnd != "" && ps.PayPeriodStart > ps.PayPeriodEnd {
		p.Invalid("corrections.pay_period_start", "the pay period starts (%s) after it ends (%s)", ps.PayPeriodStart, ps.PayPeriodEnd)
	}
	if err := p.Err(); err != nil {
		return ParsedDocument{}, nil, err
	}
	if d.W2 != nil && slices.ContainsFunc(out, func(c FieldCorrection) bool { return strings.HasPrefix(c.Field, "box") }) {
		d.W2.FromBoxes(*d.W2.Boxes)
	}
	return d, out, nil
}

// cloneParsed copies what was read from a document so corrections leave
// the original as it was; a document nothing was read from starts empty.
// A W-2 without boxes (none was read one by one) starts from its figures.
func cloneParsed(documentType string, read ParsedDocument) ParsedDocument {
	var d ParsedDocument
	switch documentType {
	case DocumentPaystub:
		p := ReadPaystub{DocumentType: DocumentPaystub, Currency: CurrencyUSD}
		if read.Paystub != nil {
			p = *read.Paystub
		}
		d.Paystub = &p
	case DocumentW2:
		w := W2{DocumentType: DocumentW2}
		if read.W2 != nil {
			w = *read.W2
		}
		boxes := W2Boxes{}
		if w.Boxes != nil {
			boxes = *w.Boxes
		} else if read.W2 != nil {
			figure := func(m Money) *int64 { v := m.Amount; return &v }
			boxes = W2Boxes{Box1: figure(w.TotalWages), Box2: figure(w.FederalTaxes), Box3: figure(w.SocialSecurityWages),
				Box4: figure(w.SocialSecurityTaxes), Box5: figure(w.MedicareWages), Box6: figure(w.MedicareTaxes)}
		}
		w.Boxes = &boxes
		d.W2 = &w
	}
	return d
}

// missingToAccept names, in words and as fields, what a document still
// lacks to count once accepted: a paystub's pay date, gross and net pay;
// a W-2's tax year and box 1.
func missingToAccept(documentType string, d ParsedDocument) (words, fields []string) {
	need := func(ok bool, field, word string) {
		if !ok {
			words, fields = append(words, word), append(fields, "corrections."+field)
		}
	}
	switch {
	case documentType == DocumentPaystub && d.Paystub != nil:
		need(Date(d.Paystub.PayDate).Valid(), "pay_date", "the pay date")
		need(d.Paystub.GrossPayAmount != nil, "gross_pay_amount", "the gross pay")
		need(d.Paystub.NetPayAmount != nil, "net_pay_amount", "the net pay")
	case documentType == DocumentW2 && d.W2 != nil:
		need(d.W2.TaxYear != "", "tax_year", "the tax year")
		need(d.W2.Boxes != nil && d.W2.Boxes.Box1 != nil, "box1", "box 1 (wages)")
	}
	return words, fields
}

// inWords joins ["a", "b", "c"] as "a, b and c".
func inWords(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
