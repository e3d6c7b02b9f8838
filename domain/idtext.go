package domain

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckIDText is the one rule for the characters of an id a caller
// chooses or sends (an end_user_id, any id in a path, a query or a body)
// and of a tracking id: no control character (C0, DEL, C1), which can
// end a log line or a header and start another, and no bidirectional
// formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066
// to U+2069), which makes an id display as something it is not on a
// report, in the dashboard or in a terminal. Transports apply it before
// anything is looked up; the domain's own checks of end_user_id and
// tracking_id apply it too. Errors: INVALID_FIELDS naming the field.
func CheckIDText(field, s string) error {
	if problem := idTextProblem(s); problem != "" {
		var p Problems
		p.Invalid(field, "%s", problem)
		return p.Err()
	}
	return nil
}

// idTextProblem says what is wrong with s as an id's text, "" if nothing
// is: the first refused character, by code point and byte offset (the
// character itself would do in a message what it does in the id).
func idTextProblem(s string) string {
	i := strings.IndexFunc(s, refusedInID)
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return fmt.Sprintf("must not contain control or bidirectional formatting characters (U+%04X at byte %d)", r, i)
}

// refusedInID reports whether r may not appear in an id. unicode.IsControl
// is exactly C0, DEL and C1 (category Cc).
func refusedInID(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}

// CleanText is the one rule for text that arrives from outside and is
// shown as it came rather than refused: an upload's file name, and what
// the reader read from a document (names, line labels). It drops what
// CheckIDText refuses in an id (control characters, which can end a log
// line or a CSV row, and bidirectional formatting characters, which make
// "invoice‮fdp.exe" display as "invoiceexe.pdf") and invalid UTF-8, turns
// tabs and line breaks into spaces, and collapses runs of spaces.
func CleanText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToValidUTF8(s, "") {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if refusedInID(r) {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CleanText cleans every text a document's reading holds (CleanText).
func (p *ParsedDocument) CleanText() {
	if s := p.Paystub; s != nil {
		for _, f := range []*string{&s.EmployerName, &s.EmployerEIN, &s.EmployeeName, &s.PayDate, &s.PayPeriodStart, &s.PayPeriodEnd, &s.Currency} {
			*f = CleanText(*f)
		}
		for _, lines := range [][]PayLine{s.Earnings, s.Taxes, s.Deductions} {
			for i := range lines {
				lines[i].Name = CleanText(lines[i].Name)
			}
		}
	}
	if w := p.W2; w != nil {
		a := &w.Applicant.Address
		for _, f := range []*string{&w.EmployerName, &w.EmployerEIN, &w.Applicant.Name, &w.Applicant.SSN, &w.TaxYear,
			&a.Raw, &a.Line1, &a.City, &a.State, &a.PostalCode, &a.Country} {
			*f = CleanText(*f)
		}
		if a.Line2 != nil {
			*a.Line2 = CleanText(*a.Line2)
		}
		if b := w.Boxes; b != nil {
			for _, f := range []*string{&b.EmployeeSSN, &b.EmployeeAddress, &b.EmployerAddress, &b.ControlNumber} {
				*f = CleanText(*f)
			}
			for i := range b.Box12 {
				b.Box12[i].Code = CleanText(b.Box12[i].Code)
			}
			for i := range b.States {
				st := &b.States[i]
				st.State, st.EmployerStateID, st.Locality = CleanText(st.State), CleanText(st.EmployerStateID), CleanText(st.Locality)
			}
		}
	}
}
