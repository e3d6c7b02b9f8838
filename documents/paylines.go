package documents

import (
	"strings"
	"unicode"

	"payline/domain"
)

// payLines reads the tables of earnings, taxes and deductions: each
// starts at a section heading, and its rows (a name, then amounts placed
// by the table's column headers) run until a total, another heading or a
// gap. Side-by-side tables are told apart by the span of their heading.
func (in *interpreter) payLines() (earnings, taxes, deductions []domain.PayLine) {
	lines := in.doc.lines
	for li, l := range lines {
		for pi, p := range l.phrases {
			kind := sectionHeaders[normalize(firstWords(p.text))]
			if kind == sectionNone || (pi > 0 && kind == sectionEarnings && isLabel(l.phrases[pi-1])) {
				continue
			}
			right := 1e18
			for _, q := range l.phrases[pi+1:] {
				if sectionHeaders[normalize(firstWords(q.text))] != sectionNone {
					right = q.x0
					break
				}
			}
			rows := in.sectionRows(li, p.x0-l.height(), right, kind)
			switch kind {
			case sectionEarnings:
				earnings = append(earnings, rows...)
			case sectionTaxes:
				taxes = append(taxes, rows...)
			case sectionDeductions:
				deductions = append(deductions, rows...)
			case sectionTaxesAndDeductions:
				for _, r := range rows {
					if taxOrDeduction(r.Name) == sectionTaxes {
						taxes = append(taxes, r)
					} else {
						deductions = append(deductions, r)
					}
				}
			}
		}
	}
	if earnings == nil && taxes == nil && deductions == nil {
		return in.linesClosedByTotals()
	}
	return earnings, taxes, deductions
}

// linesClosedByTotals reads pay lines from a stub that prints them in one
// table without section headings: the rows above a "Total Gross Pay" are
// earnings, above a "Total Taxes" taxes, above a "Total Deductions"
// deductions. Rows followed by any other label belong to none.
func (in *interpreter) linesClosedByTotals() (earnings, taxes, deductions []domain.PayLine) {
	var pending []int
	for li, l := range in.doc.lines {
		if len(l.phrases) == 0 {
			continue
		}
		first := l.phrases[0]
		switch first.label {
		case fieldNone:
		case fieldGross:
			earnings = append(earnings, in.pendingLines(pending, sectionEarnings)...)
			pending = nil
			continue
		case fieldTaxes:
			taxes = append(taxes, in.pendingLines(pending, sectionTaxes)...)
			pending = nil
			continue
		case fieldDeductions:
			deductions = append(deductions, in.pendingLines(pending, sectionDeductions)...)
			pending = nil
			continue
		default:
			pending = nil
			continue
		}
		if len(l.phrases) >= 2 && len(amountsIn(first)) == 0 && strings.ContainsFunc(first.text, unicode.IsLetter) &&
			len(amountsIn(l.phrases[len(l.phrases)-1])) > 0 && columnHeaders[normalize(first.text)] == columnNone {
			pending = append(pending, li)
		} else {
			pending = nil
		}
	}
	return earnings, taxes, deductions
}

// pendingLines makes rows (line indexes) pay lines of a kind.
func (in *interpreter) pendingLines(rows []int, kind sectionKind) []domain.PayLine {
	var out []domain.PayLine
	for _, li := range rows {
		l := in.doc.lines[li]
		var amounts []amountAt
		for _, p := range l.phrases[1:] {
			amounts = append(amounts, amountsIn(p)...)
		}
		if line, ok := in.payLine(li, l.phrases[0].text, amounts, kind); ok {
			out = append(out, line)
		}
	}
	return out
}

// firstWords is a heading's text without headings of columns after it
// ("Earnings Hours Rate Current YTD" is the Earnings heading).
func firstWords(s string) string {
	ws := strings.Fields(s)
	for i := range ws {
		if columnHeaders[normalize(ws[i])] != columnNone {
			return strings.Join(ws[:i], " ")
		}
	}
	return s
}

// sectionRows reads the rows under the heading on line li, within
// [left, right).
func (in *interpreter) sectionRows(li int, left, right float64, kind sectionKind) []domain.PayLine {
	lines := in.doc.lines
	var out []domain.PayLine
	for i := li + 1; i < len(lines) && i <= li+25 && lines[i].page == lines[li].page; i++ {
		if lines[i].y0-lines[i-1].y1 > 2.5*lines[i].height() {
			break
		}
		var cells []phrase
		for _, p := range lines[i].phrases {
			if p.x0 >= left && p.x0 < right {
				cells = append(cells, p)
			}
		}
		if len(cells) == 0 {
			continue
		}
		name := cells[0].text
		n := normalize(name)
		if sectionHeaders[normalize(firstWords(name))] != sectionNone || strings.HasPrefix(n, "total") || isLabel(cells[0]) {
			break
		}
		if len(out) > 0 && headsColumns(cells) {
			break // the header row of a table below, its title not a known heading
		}
		if len(amountsIn(cells[0])) > 0 || !strings.ContainsFunc(name, unicode.IsLetter) {
			continue // a header row or a row of figures only
		}
		if columnHeaders[n] != columnNone || columnHeaders[normalize(firstWords(name))] != columnNone || n == "description" {
			continue
		}
		var amounts []amountAt
		for _, c := range cells[1:] {
			amounts = append(amounts, amountsIn(c)...)
		}
		if line, ok := in.payLine(i, name, amounts, kind); ok {
			out = append(out, line)
		}
	}
	return out
}

// headsColumns says whether a row is a table's header: no figures, and
// a Current or YTD column heading among its cells.
func headsColumns(cells []phrase) bool {
	heads := false
	for _, c := range cells {
		if len(amountsIn(c)) > 0 {
			return false
		}
		for _, part := range splitHeader(c) {
			k := columnHeaders[normalize(part.text)]
			heads = heads || k == columnCurrent || k == columnYTD
		}
	}
	return heads
}

// payLine makes one row into a pay line: its current amount, and hours
// and rate for earnings, by the table's column headers or, without
// them, by position (the last amount or the last but one before a YTD).
func (in *interpreter) payLine(li int, name string, amounts []amountAt, kind sectionKind) (domain.PayLine, bool) {
	if len(amounts) == 0 {
		return domain.PayLine{}, false
	}
	var cur *int64
	var hours, rate *int64
	if cols := in.headerColumns(li); cols != nil {
		for _, a := range amounts {
			v := a.cents
			switch columnOf(cols, a.x0, a.x1) {
			case columnCurrent:
				if cur == nil {
					cur = &v
				}
			case columnHours:
				hours = &v
			case columnRate:
				rate = &v
			}
		}
	}
	if cur == nil {
		switch len(amounts) {
		case 1, 2:
			cur = &amounts[0].cents
		case 3:
			hours, rate, cur = &amounts[0].cents, &amounts[1].cents, &amounts[2].cents
		default:
			hours, rate, cur = &amounts[0].cents, &amounts[1].cents, &amounts[2].cents
		}
	}
	line := domain.PayLine{Name: name, Amount: domain.USD(abs64(*cur))}
	switch kind {
	case sectionEarnings:
		if hours != nil {
			h := float64(*hours) / 100
			line.Hours = &h
		}
		if rate != nil {
			r := domain.USD(*rate)
			line.Rate = &r
		}
		line.Category = earningCategory(name, hours != nil)
	case sectionTaxes:
		line.Category = taxCategory(name)
	case sectionDeductions:
		line.Category = deductionCategory(name)
	case sectionTaxesAndDeductions:
		if taxOrDeduction(name) == sectionTaxes {
			line.Category = taxCategory(name)
		} else {
			line.Category = deductionCategory(name)
		}
	}
	return line, true
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
