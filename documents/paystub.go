package documents

import (
	"fmt"
	"slices"
	"strings"

	"payline/domain"
)

// paystubRead is what the reader made of one paystub: its figures, the
// fields it could not find, where it read each field, and its doubts.
type paystubRead struct {
	stub     *domain.ReadPaystub
	warnings []domain.DocumentWarning
	readings []domain.FieldReading
	doubts   []domain.FraudReason
}

// uncertainConf is the reading confidence below which a figure the
// arithmetic does not confirm is left to a person.
const uncertainConf = 0.75

// readPaystub interprets a document's positioned text as a paystub: its
// tables of pay lines, the values of its labels, the arithmetic that
// decides between readings, its names and dates.
func readPaystub(doc page, ocr bool) paystubRead {
	in := &interpreter{doc: doc, ocr: ocr}
	tabs := in.tables()
	earn, taxes, deds, reimb, memo := in.payLines(tabs)
	rs := in.labelReadings(tabs)

	s := sums{}
	s.earnings, s.hasEarnings = sumOf(earn)
	s.memo, _ = sumOf(memo)
	s.reimbursed, _ = sumOf(reimb)
	s.taxes, s.hasTaxes = sumOf(taxes)
	s.deductions, s.hasDeductions = sumOf(deds)

	slots, ytd := map[field]*slot{}, map[field]*slot{}
	put := func(c candidate) {
		f := c.field
		switch f {
		case fieldPreTax, fieldPostTax:
			return // summed below
		}
		m := slots
		if c.ytd {
			m = ytd
		}
		if m[f] == nil {
			m[f] = &slot{}
		}
		m[f].add(c)
	}
	for _, c := range rs.money {
		put(c)
	}
	for _, c := range tableReadings(tabs) {
		put(c)
	}
	for _, c := range splitDeductions(rs.money) {
		put(c)
	}
	derived := func(f field, cents int64, w float64, ok bool) {
		if ok {
			put(candidate{field: f, cents: cents, weight: w, derived: true})
		}
	}
	derived(fieldGross, s.earnings, 0.5, s.hasEarnings)
	derived(fieldTaxes, s.taxes, 0.6, s.hasTaxes)
	derived(fieldDeductions, s.deductions, 0.6, s.hasDeductions)
	derived(fieldReimbursements, s.reimbursed, 0.7, len(reimb) > 0)
	if ytdSum, ok := ytdOf(tabs, sectionEarnings); ok {
		put(candidate{field: fieldGross, ytd: true, cents: ytdSum, weight: 0.4, derived: true})
	}

	c := judge(slots, ytd, s)
	out := &domain.ReadPaystub{DocumentType: domain.DocumentPaystub, Currency: domain.CurrencyUSD}
	r := paystubRead{stub: out}
	set := func(dst **int64, name string, cand *candidate) {
		if cand == nil {
			return
		}
		v := cand.cents
		*dst = &v
		if !cand.derived {
			r.readings = append(r.readings, in.reading(name, cand.at.page, cand.at.x0, cand.at.y0, cand.at.x1, cand.at.y1, cand.at.conf))
		}
	}
	set(&out.GrossPayAmount, "gross_pay_amount", c.gross)
	set(&out.NetPayAmount, "net_pay_amount", c.net)
	set(&out.GrossPayYTD, "gross_pay_ytd", c.grossYTD)
	set(&out.NetPayYTD, "net_pay_ytd", c.netYTD)
	if c.taxes != nil && !c.taxes.derived {
		set(&out.TotalTaxes, "total_taxes", c.taxes)
	}
	if c.deductions != nil && !c.deductions.derived {
		set(&out.TotalDeductions, "total_deductions", c.deductions)
	}
	if c.reimbursed != nil && c.reimbursed.cents != 0 && !c.reimbInGross {
		set(&out.Reimbursements, "reimbursements", c.reimbursed)
	}
	out.Earnings = earn
	if c.memoInGross {
		out.Earnings = append(out.Earnings, memo...)
	}
	if c.reimbInGross {
		out.Earnings = append(out.Earnings, reimb...)
	}
	out.Taxes, out.Deductions = taxes, deds

	in.readDates(rs, out, &r)
	// The employer first, without regard to the employee; the employee
	// never the employer's name; the employer then never the employee's.
	first, _, _ := in.employerName(rs, "")
	employee, at, conf := in.employeeName(rs, first)
	if employee != "" {
		out.EmployeeName = employee
		r.readings = append(r.readings, in.phraseReading("employee_name", at, conf))
	}
	if name, at, conf := in.employerName(rs, employee); name != "" {
		out.EmployerName = name
		r.readings = append(r.readings, in.phraseReading("employer_name", at, conf))
	}
	out.EmployerEIN = in.ein(rs)

	r.doubts = in.doubts(c, out, r.readings)
	r.warnings = paystubWarnings(out)
	return r
}

// splitDeductions makes a deductions reading of pre-tax and post-tax
// deduction totals printed apart: their sum, as surely as the less sure.
func splitDeductions(money []candidate) []candidate {
	var pre, post *candidate
	for i, c := range money {
		switch {
		case c.field == fieldPreTax && !c.ytd && pre == nil:
			pre = &money[i]
		case c.field == fieldPostTax && !c.ytd && post == nil:
			post = &money[i]
		}
	}
	if pre == nil && post == nil {
		return nil
	}
	out := candidate{field: fieldDeductions, weight: 0.85}
	for _, c := range []*candidate{pre, post} {
		if c != nil {
			out.cents += c.cents
			out.weight = min(out.weight, c.weight)
			out.at = c.at
		}
	}
	if pre == nil || post == nil {
		out.weight *= 0.6 // one of the two may be missing
	}
	return []candidate{out}
}

func sumOf(ls []domain.PayLine) (int64, bool) {
	var t int64
	for _, l := range ls {
		t += l.Amount.Amount
	}
	return t, len(ls) > 0
}

// ytdOf adds the year-to-date figures of a kind of table's lines.
func ytdOf(tabs []table, kind sectionKind) (int64, bool) {
	var t int64
	ok := false
	for _, tb := range tabs {
		for _, r := range tb.rows {
			if r.kind == kind && !r.total && r.ytd != nil && !reimbursementName(r.name) && !memoName(r.name) {
				t += r.ytd.cents()
				ok = true
			}
		}
	}
	return t, ok
}

// payLines makes the tables' rows pay lines: earnings (with the
// reimbursements and memo lines printed among them set apart), taxes,
// deductions and reimbursements. A row with no figure for the period (a
// deduction that stopped, printed for its year to date) is no line of
// this period.
func (in *interpreter) payLines(tabs []table) (earn, taxes, deds, reimb, memo []domain.PayLine) {
	for _, t := range tabs {
		kind := t.kind
		if kind == sectionNone {
			kind = inferKind(t.rows)
		}
		for _, r := range t.rows {
			k := r.kind
			if k == sectionNone {
				k = kind
			}
			if r.total || r.name == "" || r.cur == nil || letters(r.name) < 1 {
				continue
			}
			line := domain.PayLine{Name: r.name, Amount: domain.USD(r.cur.cents())}
			switch k {
			case sectionEarnings:
				if r.hours != nil && r.hours.value > 0 {
					h := r.hours.hours()
					line.Hours = &h
				}
				if r.rate != nil && r.rate.value > 0 {
					rate := domain.USD(r.rate.rateCents())
					line.Rate = &rate
				}
				line.Category = earningCategory(r.name, line.Hours != nil)
				switch {
				case reimbursementName(r.name):
					line.Category = "other"
					reimb = append(reimb, line)
				case memoName(r.name):
					line.Category = "other"
					memo = append(memo, line)
				default:
					earn = append(earn, line)
				}
			case sectionTaxes:
				line.Category = taxCategory(r.name)
				taxes = append(taxes, line)
			case sectionDeductions, sectionTaxesAndDeductions:
				// Taxes printed among deductions are taxes.
				if taxOrDeduction(r.name) == sectionTaxes {
					line.Category = taxCategory(r.name)
					taxes = append(taxes, line)
				} else {
					line.Category = deductionCategory(r.name)
					deds = append(deds, line)
				}
			case sectionReimbursements:
				line.Category = "other"
				reimb = append(reimb, line)
			}
		}
	}
	return earn, taxes, deds, reimb, memo
}

// readDates keeps the pay date and the pay period: the surest reading of
// each label, a period's range giving start and end, a pay date no
// earlier than three days before the period's end.
func (in *interpreter) readDates(rs readings, out *domain.ReadPaystub, r *paystubRead) {
	best := map[field]dateReading{}
	for _, d := range rs.dates {
		if b, ok := best[d.field]; !ok || d.weight > b.weight {
			best[d.field] = d
		}
	}
	if d, ok := best[fieldPeriodStart]; ok {
		out.PayPeriodStart = d.dates[0]
		if len(d.dates) > 1 && d.dates[1] >= d.dates[0] {
			out.PayPeriodEnd = d.dates[1]
		}
		r.readings = append(r.readings, in.phraseReading("pay_period_start", d.at, d.weight))
	}
	if d, ok := best[fieldPeriodEnd]; ok {
		out.PayPeriodEnd = d.dates[0]
		r.readings = append(r.readings, in.phraseReading("pay_period_end", d.at, d.weight))
	}
	if d, ok := best[fieldPeriod]; ok && len(d.dates) >= 2 {
		if out.PayPeriodStart == "" {
			out.PayPeriodStart = d.dates[0]
			r.readings = append(r.readings, in.phraseReading("pay_period_start", d.at, d.weight))
		}
		if out.PayPeriodEnd == "" {
			out.PayPeriodEnd = d.dates[1]
			r.readings = append(r.readings, in.phraseReading("pay_period_end", d.at, d.weight))
		}
	}
	if d, ok := best[fieldPayDate]; ok {
		out.PayDate = d.dates[0]
		// A pay date label followed by the period's dates and then its
		// own: take the one on or after the period's end.
		for _, v := range d.dates {
			if out.PayPeriodEnd != "" && v >= out.PayPeriodEnd {
				out.PayDate = v
				break
			}
		}
		r.readings = append(r.readings, in.phraseReading("pay_date", d.at, d.weight))
	}
}

// ein is the EIN a label names, else the first one printed.
func (in *interpreter) ein(rs readings) string {
	for _, t := range rs.texts {
		if t.field == fieldEIN && t.text != "" {
			return t.text
		}
	}
	for _, l := range in.doc.lines {
		for _, p := range l.phrases {
			if e := findEIN(p.text); e != "" {
				return e
			}
		}
	}
	return ""
}

// doubts are what the reader is unsure of: readings as sure as the one
// kept that give other figures, and figures read faintly that the
// arithmetic does not confirm.
func (in *interpreter) doubts(c choice, out *domain.ReadPaystub, rs []domain.FieldReading) []domain.FraudReason {
	var fields []string
	fields = append(fields, c.rivals...)
	confirmed := map[string]bool{}
	if c.closes {
		confirmed["gross_pay_amount"], confirmed["net_pay_amount"] = true, true
		confirmed["total_taxes"], confirmed["total_deductions"] = true, true
	}
	if c.linesMatch {
		confirmed["gross_pay_amount"] = true
	}
	// A figure OCR read faintly is in doubt unless the arithmetic confirms
	// it; a text layer's figures are exact, and names are not figures.
	for _, r := range rs {
		if in.ocr && r.Confidence < uncertainConf && !confirmed[r.Field] && !slices.Contains(fields, r.Field) && figureField(r.Field) {
			fields = append(fields, r.Field)
		}
	}
	var reasons []domain.FraudReason
	if len(fields) > 0 {
		slices.Sort(fields)
		reasons = append(reasons, domain.FraudReason{Code: domain.FraudFieldsUncertain, Fields: fields,
			Message: fmt.Sprintf("the reader is unsure of %s: the figures were read faintly or could be read two ways, and the arithmetic does not settle them", strings.Join(fields, ", "))})
	}
	// A picture's figures that could not be checked against one another
	// (its taxes and deductions not read) are a person's to confirm: OCR
	// can misread a digit, and nothing else would notice.
	if in.ocr && !c.closes && !c.linesMatch && reasons == nil && c.gross != nil && c.net != nil && (c.taxes == nil && c.deductions == nil) {
		reasons = append(reasons, domain.FraudReason{Code: domain.FraudFieldsUncertain, Fields: []string{"gross_pay_amount", "net_pay_amount"},
			Message: "the gross and net pay were read from a picture, and no taxes or deductions could be read to check them against each other"})
	}
	return reasons
}

// figureField says whether a field is a figure or a date.
func figureField(name string) bool {
	switch name {
	case "employer_name", "employee_name", "employer_ein":
		return false
	}
	return true
}

// paystubWarnings names each field the reader could not find.
func paystubWarnings(p *domain.ReadPaystub) []domain.DocumentWarning {
	var w []domain.DocumentWarning
	for _, c := range []struct {
		ok         bool
		name, what string
	}{
		{p.EmployerName != "", "employer_name", "employer name"},
		{p.EmployeeName != "", "employee_name", "employee name"},
		{p.PayDate != "", "pay_date", "pay date"},
		{p.PayPeriodStart != "", "pay_period_start", "pay period start"},
		{p.PayPeriodEnd != "", "pay_period_end", "pay period end"},
		{p.GrossPayAmount != nil, "gross_pay_amount", "gross pay for the period"},
		{p.NetPayAmount != nil, "net_pay_amount", "net pay for the period"},
		{p.GrossPayYTD != nil, "gross_pay_ytd", "year-to-date gross pay"},
		{p.NetPayYTD != nil, "net_pay_ytd", "year-to-date net pay"},
	} {
		if !c.ok {
			w = append(w, domain.DocumentWarning{Field: c.name, Status: "unparsable",
				Message: "The paystub's " + c.what + " could not be found in the file."})
		}
	}
	return w
}

// reading says where a field was read, its box as fractions of its page.
func (in *interpreter) reading(name string, page int, x0, y0, x1, y1, conf float64) domain.FieldReading {
	w, h := in.pageWidth(page), in.pageHeight(page)
	src := "text_layer"
	if in.ocr {
		src = "ocr"
	}
	clamp := func(v float64) float64 { return min(1, max(0, v)) }
	return domain.FieldReading{Field: name, Page: page, Box: [4]float64{clamp(x0 / w), clamp(y0 / h), clamp(x1 / w), clamp(y1 / h)},
		Confidence: float64(int(min(1, conf)*100+0.5)) / 100, Source: src}
}

func (in *interpreter) phraseReading(name string, p phrase, conf float64) domain.FieldReading {
	return in.reading(name, max(p.page, 1), p.x0, p.y0, p.x1, p.y1, conf)
}
