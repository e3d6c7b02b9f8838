package documents

import (
	"sort"
	"strings"
	"unicode"
)

// field is a figure, date or name a paystub labels.
type field int

const (
	fieldNone field = iota
	fieldGross
	fieldNet
	fieldTaxes
	fieldDeductions
	// fieldPreTax and fieldPostTax are deduction totals printed apart
	// (Gusto's and Workday's summaries): together they are the deductions.
	fieldPreTax
	fieldPostTax
	fieldReimbursements
	fieldPayDate
	fieldPeriodStart
	fieldPeriodEnd
	fieldPeriod
	fieldEmployer
	fieldEmployee
	fieldEIN
	// fieldOther is a label of something the reader does not take
	// ("Net Pay Distribution", "Employee ID", "Fed Taxable Gross"): known
	// so that a shorter label inside it ("Net Pay", "Employee", "Gross")
	// is not taken for it.
	fieldOther
)

func (f field) money() bool {
	switch f {
	case fieldGross, fieldNet, fieldTaxes, fieldDeductions, fieldPreTax, fieldPostTax, fieldReimbursements:
		return true
	}
	return false
}

func (f field) date() bool {
	return f == fieldPayDate || f == fieldPeriodStart || f == fieldPeriodEnd || f == fieldPeriod
}

// labels are the ways payroll providers, public employers and small
// business tools write each field, in words; matching ignores case,
// spaces and punctuation ("NETPAY:", "Net Pay", "net-pay" are one), and
// "YTD", "Y-T-D", "Year to Date" before or after a money label ask for
// its year-to-date figure. The longest label wins. docs/documents.md
// lists them.
var labels = map[field][]string{
	fieldGross: {"gross pay", "total gross", "total gross pay", "gross earnings", "total earnings", "gross wages",
		"gross", "gross amount", "total gross earnings", "gross income", "total pay", "earnings total", "total gross wages",
		"gross pay total", "total hours and earnings", "employee gross earnings", "current gross", "gross this period"},
	fieldNet: {"net pay", "net check", "take home", "take home pay", "net amount", "net", "net earnings",
		"net wages", "net pay amount", "total net pay", "net deposit", "amount deposited", "net paid", "net pay total",
		"total net", "net this check", "net to employee", "your net pay"},
	fieldTaxes: {"total taxes", "taxes", "total tax", "employee taxes", "total employee taxes", "taxes withheld",
		"total withholdings", "total withholding", "tax withholdings", "total taxes withheld", "statutory deductions total",
		"total statutory deductions", "total statutory", "employee taxes withheld", "withholdings", "total employee tax"},
	fieldDeductions: {"total deductions", "deductions", "total other deductions", "total voluntary deductions",
		"other deductions", "deduction total", "total pre tax and post tax deductions", "total deduction", "voluntary deductions total",
		"total voluntary", "employee deductions"},
	fieldPreTax:         {"pre tax deductions", "pretax deductions", "before tax deductions", "total pre tax deductions", "total before tax deductions"},
	fieldPostTax:        {"post tax deductions", "posttax deductions", "after tax deductions", "total post tax deductions", "total after tax deductions"},
	fieldReimbursements: {"reimbursements", "total reimbursements", "adjustments to net pay", "non taxable reimbursements", "total adjustments"},
	fieldPayDate: {"pay date", "check date", "advice date", "payment date", "date paid", "paid on", "pay day", "payday",
		"deposit date", "date of payment", "check dt", "pay dt", "issue date", "date of check", "pay dte"},
	fieldPeriodStart: {"period beginning", "period start", "pay period start", "pay period begin", "period begin",
		"period starting", "start date", "period from", "pay period beginning", "begin date", "from date", "pay begin date",
		"period begin date", "pay period begin date", "period start date", "pay period start date", "beginning date", "period beg",
		"week beginning", "week starting", "week of"},
	fieldPeriodEnd: {"period ending", "period end", "pay period end", "pay period ending", "end date", "period to",
		"period ended", "through date", "to date", "pay end date", "period end date", "pay period end date", "period ending date",
		"ending date", "week ending", "period ending date"},
	fieldPeriod: {"pay period", "period", "earnings period", "pay period dates", "period covered", "work period",
		"pay period range", "dates of service", "pay stub for period", "for period", "for the period", "payroll period"},
	fieldEmployer: {"company", "employer", "employer name", "company name", "paid by", "organization", "agency",
		"employer information", "company information", "business name"},
	fieldEmployee: {"employee", "employee name", "pay to", "pay to the order of", "paid to", "payee", "name", "employee information",
		"associate name", "team member", "emp name", "driver", "driver name", "worker", "associate", "staff member"},
	fieldEIN: {"ein", "fein", "federal ein", "employer id", "employer identification number", "employer ein", "fed id",
		"federal id", "fed ein", "federal tax id", "employer fein", "employer id number"},
	fieldOther: {"net pay distribution", "net check amount distribution", "employee id", "employee number", "employee no",
		"employee num", "employee ssn", "employee status", "employee address", "fed taxable gross", "federal taxable gross",
		"federal taxable wages", "taxable gross", "gross taxable", "taxable wages", "net pay this period distribution",
		"employer contributions", "employer paid benefits", "employer taxes", "employer tax", "employer match",
		"company code", "company number", "company id", "name and address", "employee id number", "gross to net",
		"period to date", "pay period frequency", "pay frequency", "pay periods", "check number", "check no",
		"advice number", "advice no", "deposit number", "ytd hours", "hours ytd", "pay rate", "pay group",
		"employer ein number", "employee type", "pay type", "taxes and deductions", "deductions and taxes",
		"net pay distributions", "direct deposit", "direct deposits", "pay period hours", "period ending balance"},
}

// labelEntry is a label's spelling and the field it names; weight is how
// surely it names that field (a bare "Net" or "Net Check" less than "Net
// Pay": a check may be paid besides a deposit).
type labelEntry struct {
	text   string
	field  field
	ytd    bool
	weight float64
}

// weakLabels name their field less surely than the others do.
var weakLabels = map[string]float64{"gross": 0.8, "net": 0.75, "net check": 0.7, "total pay": 0.8, "taxes": 0.8, "deductions": 0.8,
	"withholdings": 0.75, "period": 0.7, "name": 0.6, "employee": 0.8, "company": 0.9, "employer": 0.9, "amount deposited": 0.7,
	"net deposit": 0.75, "total net": 0.85, "to date": 0.7, "end date": 0.85, "start date": 0.85, "agency": 0.6, "organization": 0.7, "driver": 0.7, "worker": 0.7, "associate": 0.7, "week of": 0.7}

// squash is how labels compare: lower-case letters and digits only, so
// that spacing, punctuation and a PDF printer that runs words together
// ("NETPAY:", "PeriodBeginning") make no difference.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// labelIndex maps a label's squashed spelling, with its YTD and Current
// variants, to its entry.
var labelIndex = func() map[string]labelEntry {
	out := map[string]labelEntry{}
	// A known label of something else wins a spelling; otherwise the
	// surer label does.
	add := func(key string, e labelEntry) {
		old, ok := out[key]
		switch {
		case !ok, e.field == fieldOther && old.field != fieldOther, old.field != fieldOther && e.weight > old.weight:
			out[key] = e
		}
	}
	fields := make([]field, 0, len(labels))
	for f := range labels {
		fields = append(fields, f)
	}
	sort.Slice(fields, func(i, j int) bool { return fields[i] < fields[j] })
	for _, f := range fields {
		for _, l := range labels[f] {
			w := 1.0
			if v, ok := weakLabels[l]; ok {
				w = v
			}
			e := labelEntry{text: l, field: f, weight: w}
			add(squash(l), e)
			if f.money() {
				y := e
				y.ytd = true
				for _, p := range []string{"ytd", "yeartodate", "ytdtotal"} {
					add(p+squash(l), y)
					add(squash(l)+p, y)
				}
				for _, p := range []string{"current", "thisperiod", "currentperiod"} {
					add(p+squash(l), e)
					add(squash(l)+p, e)
				}
			}
		}
	}
	return out
}()

// maxLabelWords bounds the words a label spans.
const maxLabelWords = 6

// labelAt finds the label that starts at word i of words: the longest
// run of up to maxLabelWords words whose squashed spelling is a label.
// n is the number of words it takes (0 when none).
func labelAt(words []string, i int) (e labelEntry, n int) {
	key := ""
	for k := i; k < len(words) && k < i+maxLabelWords; k++ {
		s := squash(words[k])
		if s == "" {
			continue
		}
		if hasDigitStart(words[k]) && !strings.EqualFold(words[k], "401k") {
			break // a figure or a date ends a label
		}
		key += s
		if found, ok := labelIndex[key]; ok {
			e, n = found, k-i+1
		}
	}
	return e, n
}

func hasDigitStart(w string) bool {
	w = strings.TrimLeft(w, "$(-+")
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// matchLabel says which field a phrase's text labels from its start,
// whether it asks for the year-to-date figure, and how many words the
// label takes. A phrase whose label is followed by more words that are
// no value ("Net Pay Distribution" is a label of its own, known; "Gross
// Margin Report" is none) labels nothing.
func matchLabel(text string) (f field, ytd bool, words int) {
	ws := strings.Fields(text)
	e, n := labelAt(ws, 0)
	if n == 0 || e.field == fieldOther {
		return fieldNone, false, 0
	}
	if rest := ws[n:]; len(rest) > 0 && !valueLike(rest) && !endsWithColon(ws[n-1]) {
		return fieldNone, false, 0
	}
	return e.field, e.ytd, n
}

func endsWithColon(w string) bool { return strings.HasSuffix(w, ":") }

// valueLike says whether the words after a label look like its value
// (a figure, a date, a currency sign, a month name) rather than more
// words of a longer name.
func valueLike(rest []string) bool {
	if len(rest) == 0 {
		return false
	}
	w := rest[0]
	if w == ":" || w == "-" || w == "$" || w == "(" {
		return true
	}
	c := w[0]
	if c >= '0' && c <= '9' || c == '$' || c == '(' || c == '-' {
		return true
	}
	_, isMonth := month(strings.Trim(w, ".,"))
	return isMonth
}

// columnKind is what a table's column holds.
type columnKind int

const (
	columnNone columnKind = iota
	columnDescription
	columnCurrent
	columnYTD
	columnHours
	columnRate
	columnYTDHours
	// columnOther: a column the reader does not take (dates, codes,
	// "Pre-Tax?"): known so that its figures are not taken for another's.
	columnOther
)

// columnHeaders are the headings of a table's columns, squashed.
var columnHeaders = func() map[string]columnKind {
	out := map[string]columnKind{}
	for kind, spellings := range map[columnKind][]string{
		columnCurrent: {"current", "this period", "current period", "amount", "current amount", "curr", "period amount", "current amt",
			"this pay", "this check", "current pay", "cur", "this pay period", "current total", "period", "amt", "this period amount",
			"current earnings", "earnings amount", "current month", "this stub"},
		columnYTD: {"ytd", "ytd amount", "ytd total", "ytd amt", "ytd totals", "year to date", "y t d", "ytd earnings",
			"year to date amount", "ytd deductions", "ytd taxes", "ytd amounts", "year to date total", "ytd balance", "to date"},
		columnHours: {"hours", "hrs", "units", "hours units", "qty", "quantity", "hrs units", "hours worked", "current hours", "hours this period"},
		columnRate:  {"rate", "pay rate", "hourly rate", "rate per hour", "rate unit", "per hour"},
		columnYTDHours: {"ytd hours", "ytd hrs", "ytd units", "hours ytd", "year to date hours", "ytd qty", "ytd hours units",
			"ytd hrs units"},
		columnDescription: {"description", "item", "code", "type", "desc", "deduction", "earning", "tax", "name", "descr"},
		columnOther:       {"dates", "pre tax", "pretax", "pre tax?", "begin", "end", "start", "balance", "used", "earned", "available", "accrued", "taken"},
	} {
		for _, s := range spellings {
			out[squash(s)] = kind
		}
	}
	return out
}()

// sectionKind of a table of pay lines.
type sectionKind int

const (
	sectionNone sectionKind = iota
	sectionEarnings
	sectionTaxes
	sectionDeductions
	// sectionTaxesAndDeductions: one table of both, each row a tax or a
	// deduction by its name (taxOrDeduction).
	sectionTaxesAndDeductions
	sectionReimbursements
	// sectionMemo: a table the reader reads nothing from (employer-paid
	// benefits, taxable wages, leave balances, the net pay's
	// distribution): its rows are part of neither gross nor net.
	sectionMemo
	// sectionSummary: a table of totals (Gross, Taxes, Deductions, Net).
	sectionSummary
)

// sectionHeaders are the titles of tables, squashed.
var sectionHeaders = func() map[string]sectionKind {
	out := map[string]sectionKind{}
	for kind, spellings := range map[sectionKind][]string{
		sectionEarnings: {"earnings", "earnings description", "earning", "pay type", "earnings type", "hours and earnings",
			"employee gross earnings", "gross earnings", "earnings and hours", "earnings detail",
			"current earnings", "gross pay detail", "hours and earnings detail"},
		sectionTaxes: {"taxes", "tax", "taxes withheld", "withholdings", "statutory deductions", "employee taxes", "tax deductions",
			"withholding", "taxes description", "employee taxes withheld", "statutory", "tax withholdings", "federal and state taxes",
			"taxes withholdings", "employee tax"},
		sectionDeductions: {"deductions", "pre tax deductions", "post tax deductions", "voluntary deductions", "other deductions",
			"benefits", "deductions description", "benefits and deductions", "before tax deductions", "after tax deductions",
			"employee deductions", "pretax deductions", "posttax deductions", "deductions from net pay", "voluntary",
			"benefit deductions", "deduction"},
		sectionTaxesAndDeductions: {"taxes and deductions", "deductions and taxes", "withholdings and deductions", "taxes deductions",
			"deductions taxes"},
		sectionReimbursements: {"reimbursements", "adjustments to net pay", "non taxable reimbursements", "other payments",
			"expense reimbursements", "reimbursements and other payments", "adjustments"},
		sectionMemo: {"employer contributions", "employer paid benefits", "employer tax", "employer taxes", "taxable wages",
			"other benefits and information", "leave", "leave balances", "time off", "time off balances", "accruals",
			"net pay distribution", "direct deposit", "direct deposits", "payment information", "memo", "memo information",
			"paid time off", "pto balances", "leave balance", "benefits information", "important notes", "deposits",
			"employer contribution", "company contributions", "other information", "distribution", "net pay distributions",
			"fringe benefits", "employer benefits", "leave and time off", "vacation and sick", "hours summary", "employer paid",
			"imputed income", "memo items", "other information and memo"},
		sectionSummary: {"summary", "current and ytd summary", "pay summary", "earnings summary", "totals", "current and ytd totals"},
	} {
		for _, s := range spellings {
			out[squash(s)] = kind
		}
	}
	return out
}()

// sectionOf is the kind of table a heading's text titles, with the
// column headings that may follow the title on its line left out
// ("Earnings Hours Rate Current YTD" titles earnings).
func sectionOf(text string) sectionKind {
	ws := strings.Fields(text)
	for n := len(ws); n >= 1; n-- {
		if k := sectionHeaders[squash(strings.Join(ws[:n], " "))]; k != sectionNone {
			return k
		}
	}
	return sectionNone
}

// taxOrDeduction says which a row of a combined taxes and deductions
// table is: a deduction when its name is a known deduction ("Medical"
// before "Medicare", whose "medi" would take it), a tax when its name
// is a known tax or says tax, else a deduction.
func taxOrDeduction(name string) sectionKind {
	if deductionCategory(name) != "other" {
		return sectionDeductions
	}
	if taxCategory(name) != "other" || strings.Contains(normalize(name), "tax") {
		return sectionTaxes
	}
	return sectionDeductions
}

// titles are a paystub's own headings, never its employer's name.
var titles = []string{"earnings statement", "pay stub", "paystub", "statement of earnings", "pay statement",
	"payroll advice", "direct deposit advice", "earnings statement and advice", "pay advice", "statement of earnings and deductions",
	"remittance advice", "employee pay stub", "payslip", "pay slip", "non negotiable", "this is not a check", "void", "paycheck stub",
	"earnings and deductions", "earnings statement summary", "advice of deposit", "deposit advice", "wage statement",
	"earnings record", "employee earnings statement", "payroll statement", "pay statement summary", "employee information",
	"employer information", "company information", "pay period", "payperiod", "check stub", "statement of pay",
	"employee paystub", "payroll check stub", "pay voucher", "earnings advice", "check voucher", "payment advice", "pay record"}

// earningCategory, taxCategory and deductionCategory give a pay line the
// category Payline's paystubs use for it.
func earningCategory(name string, hasHours bool) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "overtime") || strings.HasPrefix(n, "ot ") || n == "ot" || strings.Contains(n, "double time"):
		return "overtime"
	case strings.Contains(n, "bonus"):
		return "bonus"
	case strings.Contains(n, "commission"):
		return "commission"
	case strings.Contains(n, "tip"):
		return "tips"
	case strings.Contains(n, "salary"):
		return "salary"
	case strings.Contains(n, "pto") || strings.Contains(n, "vacation") || strings.Contains(n, "holiday") || strings.Contains(n, "sick"):
		return "pto"
	case strings.Contains(n, "regular") || strings.Contains(n, "hourly") || n == "reg" || hasHours:
		return "hourly"
	}
	return "other"
}

func taxCategory(name string) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "social security") || strings.Contains(n, "oasdi") || strings.Contains(n, "fica ss") ||
		strings.Contains(n, "soc sec") || n == "ss" || strings.HasPrefix(n, "ss ") || strings.Contains(n, "ss tax") || n == "fica":
		return "social_security"
	case strings.Contains(n, "medicare") || strings.Contains(n, "fica med") || n == "med" || strings.HasPrefix(n, "med ") ||
		strings.Contains(n, "fica hi") || n == "medi":
		return "medicare"
	case strings.Contains(n, "federal") || strings.Contains(n, "fitw") || strings.Contains(n, "fed ") || n == "fed" ||
		strings.HasPrefix(n, "fit") || strings.Contains(n, "fed withholding") || strings.Contains(n, "fwt"):
		return "federal_income"
	case strings.Contains(n, "local") || strings.Contains(n, "city") || strings.Contains(n, "county") || strings.Contains(n, "school"):
		return "local_income"
	case strings.Contains(n, "state") || strings.Contains(n, "sit") || strings.Contains(n, "swt") || strings.Contains(n, "income tax") ||
		strings.Contains(n, "sdi") || strings.Contains(n, "sui") || strings.Contains(n, "pfl") || strings.Contains(n, "fli"):
		return "state_income"
	}
	return "other"
}

func deductionCategory(name string) string {
	n := normalize(name)
	switch {
	case strings.Contains(n, "401") || strings.Contains(n, "403") || strings.Contains(n, "457") || strings.Contains(n, "retire") ||
		strings.Contains(n, "pension") || strings.Contains(n, "ira") || strings.Contains(n, "pers"):
		return "retirement"
	case strings.Contains(n, "dental"):
		return "dental_insurance"
	case strings.Contains(n, "vision"):
		return "vision_insurance"
	case strings.Contains(n, "medical") || strings.Contains(n, "health") || strings.Contains(n, "hsa") || strings.Contains(n, "fsa"):
		return "medical_insurance"
	case strings.Contains(n, "life"):
		return "life_insurance"
	case strings.Contains(n, "garnish") || strings.Contains(n, "child support") || strings.Contains(n, "levy"):
		return "garnishment"
	}
	return "other"
}

// reimbursementName says whether a pay line's name is a non-taxable
// payment added to net pay rather than earnings.
func reimbursementName(name string) bool {
	n := normalize(name)
	for _, w := range []string{"reimb", "per diem", "perdiem", "mileage", "expense", "travel allowance", "non taxable", "nontaxable"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// memoName says whether an earnings line is imputed income or a memo
// figure that a stub prints among its earnings but does not pay
// (group-term life, RSU income settled in shares): paystubs differ in
// whether gross includes it, which the arithmetic then decides.
func memoName(name string) bool {
	n := normalize(name)
	for _, w := range []string{"gtl", "group term life", "imputed", "rsu", "memo", "employer paid", "er paid", "fringe"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// normalize makes text comparable across spellings: lower case, no
// punctuation but the words, and "Y-T-D", "Year to Date" and "YTD" all
// "ytd".
func normalize(s string) string {
	return strings.Join(strings.Fields(labelSpelling.Replace(strings.ToLower(s))), " ")
}

var labelSpelling = strings.NewReplacer("y-t-d", "ytd", "y.t.d.", "ytd", "y.t.d", "ytd", "year-to-date", "ytd", "year to date", "ytd",
	"-", " ", "_", " ", ":", " ", ",", " ", "'", " ", "’", " ", "(", " ", ")", " ", ".", " ", "*", " ", "#", " ", "|", " ", "/", " ", "?", " ")
