package documents

import (
	"strings"
	"unicode"

	"payline/domain"
)

// amountAt is an amount read at a place on the page.
type amountAt struct {
	cents  int64
	x0, x1 float64
	// ytd: the amount's own cell or row says it is year to date.
	ytd bool
}

// interpreter reads one document's positioned text.
type interpreter struct {
	doc page
}

// amountsIn lists the amounts a phrase holds, word by word ("$1,234.56"
// or "$ 1,234.56"), placed across the phrase in proportion.
func amountsIn(p phrase) []amountAt {
	ws := strings.Fields(p.text)
	var out []amountAt
	n := float64(len(p.text))
	pos := 0
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		start := strings.Index(p.text[pos:], w) + pos
		pos = start + len(w)
		if (w == "$" || w == "-" || w == "(" || w == "($") && i+1 < len(ws) {
			w += ws[i+1]
			i++
			pos = strings.Index(p.text[pos:], ws[i]) + pos + len(ws[i])
		}
		if c, ok := parseAmount(w); ok {
			x0 := p.x0 + (p.x1-p.x0)*float64(start)/n
			x1 := p.x0 + (p.x1-p.x0)*float64(pos)/n
			out = append(out, amountAt{cents: c, x0: x0, x1: x1})
		}
	}
	return out
}

// isLabel says whether a phrase is any field's label.
func isLabel(p phrase) bool { return p.label != fieldNone }

// headerColumns finds the table header that serves line li from above:
// the nearest line above (on the same page, within a table's reach) with
// Current or YTD headings, as column kinds and their spans. Headings on
// li itself count too (a section title line "Earnings Hours Rate Current
// YTD" heads its own table).
func (in *interpreter) headerColumns(li int) []column {
	lines := in.doc.lines
	for i := li; i >= 0 && i >= li-30 && lines[i].page == lines[li].page; i-- {
		var cols []column
		hasAmountColumn := false
		for _, p := range lines[i].phrases {
			if isLabel(p) || len(amountsIn(p)) > 0 {
				continue // "YTD Gross 12,000.00" is a row, not a heading
			}
			for _, part := range splitHeader(p) {
				if k := columnHeaders[normalize(part.text)]; k != columnNone {
					cols = append(cols, column{kind: k, x0: part.x0, x1: part.x1})
					hasAmountColumn = hasAmountColumn || k == columnCurrent || k == columnYTD
				}
			}
		}
		if hasAmountColumn && (i < li || len(cols) >= 2) {
			return cols
		}
	}
	return nil
}

// splitHeader splits a phrase of headings set close together ("Hours
// Rate Current YTD") into the headings it holds, placed in proportion.
func splitHeader(p phrase) []phrase {
	if columnHeaders[normalize(p.text)] != columnNone {
		return []phrase{p}
	}
	ws := strings.Fields(p.text)
	n := float64(len(p.text))
	var out []phrase
	pos := 0
	for i := 0; i < len(ws); i++ {
		start := strings.Index(p.text[pos:], ws[i]) + pos
		text, end := ws[i], start+len(ws[i])
		for _, two := range []int{2} {
			if i+two <= len(ws) {
				joined := strings.Join(ws[i:i+two], " ")
				if columnHeaders[normalize(joined)] != columnNone {
					text, i = joined, i+two-1
					end = strings.Index(p.text[start:], ws[i]) + start + len(ws[i])
				}
			}
		}
		pos = end
		if columnHeaders[normalize(text)] != columnNone {
			out = append(out, phrase{text: text, x0: p.x0 + (p.x1-p.x0)*float64(start)/n, x1: p.x0 + (p.x1-p.x0)*float64(end)/n,
				y0: p.y0, y1: p.y1, line: p.line})
		}
	}
	return out
}

type column struct {
	kind   columnKind
	x0, x1 float64
}

// columnOf gives the header column an amount sits under: the one its
// span overlaps most, else the nearest by the right edge (amounts are
// right-aligned; headings are not always).
func columnOf(cols []column, x0, x1 float64) columnKind {
	best, bestScore := columnNone, -1e18
	for _, c := range cols {
		overlap := min(x1, c.x1) - max(x0, c.x0)
		score := overlap
		if overlap <= 0 {
			score = -min(abs(x1-c.x1), abs((x0+x1)/2-(c.x0+c.x1)/2))
		}
		if score > bestScore {
			best, bestScore = c.kind, score
		}
	}
	return best
}

// moneyAt reads the current and year-to-date amounts a money label at
// phrase pi of line li names: amounts in the label's own phrase and to
// its right on the line (up to the next label), placed by the table's
// column headers when there are any; else amounts below the label (a
// label heading a column, or a box).
func (in *interpreter) moneyAt(li, pi int, ytdLabel bool) (cur, ytd *int64) {
	l := in.doc.lines[li]
	amounts := amountsIn(l.phrases[pi])
	for _, p := range l.phrases[pi+1:] {
		if isLabel(p) {
			break
		}
		amounts = append(amounts, amountsIn(p)...)
	}
	set := func(dst **int64, v int64) {
		if *dst == nil {
			*dst = &v
		}
	}
	if len(amounts) > 0 {
		if ytdLabel {
			set(&ytd, amounts[0].cents)
			return
		}
		if cols := in.headerColumns(li); cols != nil {
			for _, a := range amounts {
				switch columnOf(cols, a.x0, a.x1) {
				case columnCurrent:
					set(&cur, a.cents)
				case columnYTD:
					set(&ytd, a.cents)
				}
			}
			if cur != nil || ytd != nil {
				return
			}
		}
		if len(amounts) >= 2 {
			set(&cur, amounts[len(amounts)-2].cents)
			set(&ytd, amounts[len(amounts)-1].cents)
			return
		}
		set(&cur, amounts[0].cents)
		return
	}
	for _, a := range in.below(li, pi) {
		if a.ytd || ytdLabel {
			set(&ytd, a.cents)
		} else {
			set(&cur, a.cents)
		}
	}
	return
}

// cellBelow is a phrase under a label, and whether its row says year to
// date (its first phrase does, as in a "Y-T-D" row of a transposed
// summary).
type cellBelow struct {
	phrase
	rowYTD bool
}

// cellsBelow lists the phrases under the label at phrase pi of line li,
// overlapping its span, over the next few lines on the page, stopping at
// another label under it.
func (in *interpreter) cellsBelow(li, pi int) []cellBelow {
	lines := in.doc.lines
	lab := lines[li].phrases[pi]
	h := lines[li].height()
	var out []cellBelow
	for i := li + 1; i < len(lines) && i <= li+4 && lines[i].page == lines[li].page; i++ {
		if lines[i].y0-lines[i-1].y1 > 3*h {
			break
		}
		rowYTD := len(lines[i].phrases) > 0 && strings.Contains(normalize(lines[i].phrases[0].text), "ytd")
		for _, p := range lines[i].phrases {
			if p.x1 < lab.x0-h || p.x0 > lab.x1+h {
				continue
			}
			if isLabel(p) {
				return out
			}
			out = append(out, cellBelow{p, rowYTD})
		}
	}
	return out
}

// below lists the amounts under a label (cellsBelow), each marked ytd
// when its own phrase or its row says year to date.
func (in *interpreter) below(li, pi int) []amountAt {
	var out []amountAt
	for _, c := range in.cellsBelow(li, pi) {
		for _, a := range amountsIn(c.phrase) {
			a.ytd = c.rowYTD || strings.Contains(normalize(c.text), "ytd")
			out = append(out, a)
		}
	}
	return out
}

// textAfter reads a text value a label names: after its colon in the
// same phrase, else the next phrase to the right, else the phrase below.
func (in *interpreter) textAfter(li, pi int) string {
	l := in.doc.lines[li]
	p := l.phrases[pi]
	if _, after, ok := strings.Cut(p.text, ":"); ok && strings.TrimSpace(after) != "" {
		return strings.TrimSpace(after)
	}
	if pi+1 < len(l.phrases) && !isLabel(l.phrases[pi+1]) && !namesSomething(l.phrases[pi+1].text) {
		return l.phrases[pi+1].text
	}
	lines := in.doc.lines
	for i := li + 1; i < len(lines) && i <= li+2 && lines[i].page == l.page; i++ {
		for _, q := range lines[i].phrases {
			if q.x1 >= p.x0-2 && q.x0 <= p.x1+2 {
				if isLabel(q) {
					return ""
				}
				return q.text
			}
		}
	}
	return ""
}

// namesSomething says whether a phrase is itself a label or heading (it
// ends in a colon, or heads a table), so never a value of the label on
// its left.
func namesSomething(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasSuffix(t, ":") || sectionHeaders[normalize(firstWords(t))] != sectionNone || columnHeaders[normalize(t)] != columnNone
}

// datesAt reads the dates a date label names: in its phrase and to its
// right up to the next label, else below it.
func (in *interpreter) datesAt(li, pi int) []string {
	l := in.doc.lines[li]
	text := l.phrases[pi].text
	for _, p := range l.phrases[pi+1:] {
		if isLabel(p) {
			break
		}
		text += " " + p.text
	}
	if ds := findDates(text); len(ds) > 0 {
		return ds
	}
	var below []string
	for _, c := range in.cellsBelow(li, pi) {
		below = append(below, c.text)
	}
	return findDates(strings.Join(below, " "))
}

// readPaystub interprets a document's positioned text as a paystub and
// names the fields it could not find.
func readPaystub(doc page) (*domain.ReadPaystub, []domain.DocumentWarning) {
	in := &interpreter{doc: doc}
	out := &domain.ReadPaystub{DocumentType: domain.DocumentPaystub, Currency: domain.CurrencyUSD}
	var periodDates []string
	setMoney := func(cur, ytd **int64, c, y *int64) {
		if *cur == nil {
			*cur = c
		}
		if ytd != nil && *ytd == nil {
			*ytd = y
		}
	}
	for li, l := range doc.lines {
		for pi, p := range l.phrases {
			f, ytd, _ := matchLabel(p.text)
			switch f {
			case fieldGross:
				c, y := in.moneyAt(li, pi, ytd)
				setMoney(&out.GrossPayAmount, &out.GrossPayYTD, c, y)
			case fieldNet:
				c, y := in.moneyAt(li, pi, ytd)
				setMoney(&out.NetPayAmount, &out.NetPayYTD, c, y)
			case fieldTaxes:
				if !ytd {
					c, _ := in.moneyAt(li, pi, false)
					setMoney(&out.TotalTaxes, nil, c, nil)
				}
			case fieldDeductions:
				if !ytd {
					c, _ := in.moneyAt(li, pi, false)
					setMoney(&out.TotalDeductions, nil, c, nil)
				}
			case fieldPayDate:
				if ds := in.datesAt(li, pi); len(ds) > 0 && out.PayDate == "" {
					out.PayDate = ds[0]
				}
			case fieldPeriodStart:
				if ds := in.datesAt(li, pi); len(ds) > 0 && out.PayPeriodStart == "" {
					out.PayPeriodStart = ds[0]
					if len(ds) > 1 && out.PayPeriodEnd == "" && ds[1] >= ds[0] {
						out.PayPeriodEnd = ds[1]
					}
				}
			case fieldPeriodEnd:
				if ds := in.datesAt(li, pi); len(ds) > 0 && out.PayPeriodEnd == "" {
					out.PayPeriodEnd = ds[0]
				}
			case fieldPeriod:
				if ds := in.datesAt(li, pi); len(ds) >= 2 && periodDates == nil {
					periodDates = ds[:2]
				}
			case fieldEmployer:
				if out.EmployerName == "" {
					out.EmployerName = cleanName(in.textAfter(li, pi))
				}
			case fieldEmployee:
				if out.EmployeeName == "" {
					out.EmployeeName = cleanName(in.textAfter(li, pi))
				}
			case fieldEIN:
				if out.EmployerEIN == "" {
					out.EmployerEIN = findEIN(p.text + " " + in.textAfter(li, pi))
				}
			}
		}
	}
	if periodDates != nil {
		if out.PayPeriodStart == "" {
			out.PayPeriodStart = periodDates[0]
		}
		if out.PayPeriodEnd == "" {
			out.PayPeriodEnd = periodDates[1]
		}
	}
	if out.EmployerName == "" {
		out.EmployerName = in.topLeftName()
	}
	if out.EmployerEIN == "" {
		for _, l := range doc.lines {
			for _, p := range l.phrases {
				if e := findEIN(p.text); e != "" && out.EmployerEIN == "" {
					out.EmployerEIN = e
				}
			}
		}
	}
	out.Earnings, out.Taxes, out.Deductions = in.payLines()
	return out, paystubWarnings(out)
}

// cleanName trims what is not part of a name from a value read after a
// label.
func cleanName(s string) string {
	s = strings.TrimSpace(strings.Trim(s, ":;,|"))
	if s == "" || !strings.ContainsFunc(s, unicode.IsLetter) {
		return ""
	}
	return s
}

// topLeftName is the employer a paystub names without a label: the
// first line of text at the top of the first page that is no heading,
// label or figure.
func (in *interpreter) topLeftName() string {
	for i, l := range in.doc.lines {
		if l.page != 1 || i > 8 {
			break
		}
		for _, p := range l.phrases {
			n := normalize(p.text)
			if isTitle(n) || isLabel(p) || len(findDates(p.text)) > 0 || len(amountsIn(p)) > 0 {
				continue
			}
			letters := 0
			for _, r := range p.text {
				if unicode.IsLetter(r) {
					letters++
				}
			}
			if letters >= 3 {
				return p.text
			}
		}
	}
	return ""
}

func isTitle(n string) bool {
	for _, t := range titles {
		if n == t || strings.HasPrefix(n, t+" ") {
			return true
		}
	}
	return false
}

// paystubWarnings names each field the reader could not find.
func paystubWarnings(p *domain.ReadPaystub) []domain.DocumentWarning {
	var w []domain.DocumentWarning
	missing := func(name, what string) {
		w = append(w, domain.DocumentWarning{Field: name, Status: "unparsable",
			Message: "The paystub's " + what + " could not be found in the file."})
	}
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
			missing(c.name, c.what)
		}
	}
	return w
}
