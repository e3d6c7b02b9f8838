package reports

import (
	"fmt"
	"strings"
	"time"

	"payline/domain"
)

// SetAside is an uploaded paystub or W-2 a report leaves out
// (domain.ExcludedDocument), with the words an analyst reads of it: what
// the document is and why it is set aside. It is listed in the report's
// excluded_documents and raised as a point to review (FlagDocumentSetAside)
// in the JSON and on the PDF alike.
type SetAside struct {
	domain.ExcludedDocument
	// What names the document: "The paystub dated Mar 4, 2026 from Acme
	// Corp (stub-5.pdf)".
	What string
	// Why says why it is set aside, without accusing anyone: "set aside:
	// a person has not yet checked its gross pay and net pay (...)".
	Why string
}

// Flag is the point to review a set-aside document raises.
func (x SetAside) Flag() domain.ReportFlag {
	return domain.ReportFlag{Code: domain.FlagDocumentSetAside, DocumentIDs: []string{x.DocumentID},
		Message: fmt.Sprintf("%s: %s (document %s).", x.What, x.Why, x.DocumentID)}
}

// setAsideOf says what a left-out document is and why it is left out.
// Its words never call anyone a forger: a doubt is something a person
// has not yet checked, and evidence is said as what the file shows.
func setAsideOf(x domain.ExcludedDocument, d domain.Record) SetAside {
	out := SetAside{ExcludedDocument: x, What: documentWhat(d)}
	var why []string
	switch x.Reason {
	case domain.ExcludedRejected:
		why = append(why, "a person who reviewed it did not accept its figures"+reviewWhen(d.Document))
	case domain.ExcludedUnread:
		why = append(why, "nothing could be read from it")
	case domain.ExcludedIncomplete:
		why = append(why, incompleteWords(d))
	}
	if x.Reason == domain.ExcludedSuspected || x.Reason == domain.ExcludedNeedsReview {
		why = append(why, evidenceWords(x.Fraud)...)
		if doubts := doubtWords(x.Fraud); doubts != "" {
			why = append(why, doubts)
		}
	}
	if len(why) == 0 {
		why = append(why, "a person has not yet checked its figures")
	}
	out.Why = "set aside: " + strings.Join(why, "; ")
	return out
}

// documentWhat names a document as an analyst finds it: its kind, date or
// tax year, employer and file, as far as they were read.
func documentWhat(d domain.Record) string {
	b := d.Document
	if b == nil {
		return "An uploaded document"
	}
	what, employer := "The paystub", ""
	switch pd := b.ParsedData; {
	case pd.Paystub != nil:
		employer = pd.Paystub.EmployerName
		if isDate(pd.Paystub.PayDate) {
			what += " dated " + day(pd.Paystub.PayDate)
		}
	case pd.W2 != nil:
		what, employer = "The W-2", pd.W2.EmployerName
		if pd.W2.TaxYear != "" {
			what += " for " + pd.W2.TaxYear
		}
	case b.DocumentType == domain.DocumentW2:
		what = "The W-2"
	}
	if employer = strings.TrimSpace(employer); employer != "" {
		what += " from " + employer
	}
	var file []string
	if b.FileName != "" {
		file = append(file, b.FileName)
	}
	if b.FilePart > 0 {
		file = append(file, fmt.Sprintf("document %d of the file", b.FilePart))
	}
	if !d.CreatedAt.IsZero() {
		file = append(file, "uploaded "+d.CreatedAt.UTC().Format("Jan 2, 2006"))
	}
	if len(file) > 0 {
		what += " (" + strings.Join(file, ", ") + ")"
	}
	return what
}

// reviewWhen is " (reviewed by a member of Acme Lending, Mar 5, 2026)",
// as far as the review says.
func reviewWhen(b *domain.DocumentBody) string {
	if b == nil || b.Review == nil {
		return ""
	}
	var parts []string
	if b.Review.Basis != "" {
		parts = append(parts, b.Review.Basis)
	}
	if at := b.Review.ReviewedAt; at != nil {
		parts = append(parts, time.Time(*at).UTC().Format("Jan 2, 2006"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// evidenceWords say what the reasons of kind evidence show, as the file
// shows it: "the page shows a figure other than the file's text (...)",
// each kind of evidence once with what the checks found.
func evidenceWords(f domain.DocumentFraud) []string {
	var codes []string
	found := map[string][]string{}
	for _, r := range f.Reasons {
		if domain.ReasonKind(r.Code) != domain.ReasonEvidence {
			continue
		}
		if _, seen := found[r.Code]; !seen {
			codes = append(codes, r.Code)
			found[r.Code] = nil
		}
		if r.Message != "" {
			found[r.Code] = append(found[r.Code], r.Message)
		}
	}
	var out []string
	for _, code := range codes {
		words, known := evidenceSaid[code]
		switch {
		case !known:
			words = strings.Join(found[code], "; ")
		case len(found[code]) > 0:
			words += " (" + strings.Join(found[code], "; ") + ")"
		}
		out = append(out, words)
	}
	return out
}

// evidenceSaid are the evidence checks in an analyst's words: what the
// file or the series shows, not what anyone did.
var evidenceSaid = map[string]string{
	domain.FraudTextLayerMismatch:  "the page shows a figure other than the file's text",
	domain.FraudFiguresReused:      "its figures are those of another uploaded paystub under another date",
	domain.FraudYTDNotCumulative:   "its year-to-date figures do not follow from the end user's other paystubs of the employer",
	domain.FraudPayDateOffSchedule: "its pay date is off the pay schedule of the end user's other paystubs of the employer",
}

// doubtWords say the reasons of kind doubt as what a person has not yet
// checked: "a person has not yet checked its gross pay and net pay (the
// reader found: ...)"; "" without any.
func doubtWords(f domain.DocumentFraud) string {
	var fields, found []string
	for _, r := range f.Reasons {
		if domain.ReasonKind(r.Code) == domain.ReasonEvidence {
			continue
		}
		for _, field := range r.Fields {
			if w := readFieldWords(field); !contains(fields, w) {
				fields = append(fields, w)
			}
		}
		if r.Message != "" {
			found = append(found, r.Message)
		}
	}
	if len(fields) == 0 && len(found) == 0 {
		return ""
	}
	what := "its figures"
	if len(fields) > 0 {
		what = "its " + andList(fields)
	}
	out := "a person has not yet checked " + what
	if len(found) > 0 {
		out += " (the reader found: " + strings.Join(found, "; ") + ")"
	}
	return out
}

// incompleteWords say what an incomplete document lacks for income.
func incompleteWords(d domain.Record) string {
	var missing []string
	if b := d.Document; b != nil {
		switch pd := b.ParsedData; {
		case pd.Paystub != nil:
			p := pd.Paystub
			if !isDate(p.PayDate) {
				missing = append(missing, "pay date")
			}
			if p.GrossPayAmount == nil {
				missing = append(missing, "gross pay")
			}
			if p.NetPayAmount == nil {
				missing = append(missing, "net pay")
			}
		case pd.W2 != nil:
			w := pd.W2
			if len(w.TaxYear) != 4 {
				missing = append(missing, "tax year")
			}
			if strings.TrimSpace(w.EmployerName) == "" && domain.NormalizeEIN(w.EmployerEIN) == "" {
				missing = append(missing, "employer")
			}
			if w.Boxes != nil && w.Boxes.Box1 == nil {
				missing = append(missing, "wages (box 1)")
			}
			if w.Boxes != nil && w.Boxes.Box5 == nil {
				missing = append(missing, "Medicare wages (box 5)")
			}
		}
	}
	if len(missing) == 0 {
		return "what income needs of it could not be read"
	}
	return "its " + andList(missing) + " could not be read, which income needs"
}

// fieldSaid are a read document's fields in an analyst's words.
var fieldSaid = map[string]string{
	"pay_date": "pay date", "pay_period_start": "pay period start", "pay_period_end": "pay period end",
	"gross_pay_amount": "gross pay", "net_pay_amount": "net pay", "gross_pay_ytd": "year-to-date gross pay",
	"net_pay_ytd": "year-to-date net pay", "total_taxes": "total taxes", "total_deductions": "total deductions",
	"reimbursements": "reimbursements", "earnings": "earnings lines", "taxes": "tax lines", "deductions": "deduction lines",
	"employer_name": "employer name", "employer_ein": "employer EIN", "employee_name": "employee name",
	"tax_year": "tax year", "box12": "box 12", "states": "state boxes (15 to 20)",
}

// readFieldWords writes a read field ("gross_pay_amount", "box5") in
// words.
func readFieldWords(field string) string {
	if w, ok := fieldSaid[field]; ok {
		return w
	}
	var n int
	if _, err := fmt.Sscanf(field, "box%d", &n); err == nil {
		return fmt.Sprintf("box %d", n)
	}
	return strings.ReplaceAll(field, "_", " ")
}

// andList writes "a", "a and b", "a, b and c".
func andList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}
