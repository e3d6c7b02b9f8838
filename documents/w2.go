package documents

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"payline/domain"
)

// A W-2 is read by its boxes' printed captions, as the IRS lays the form
// out: each box's figure is beside its caption or under it, within the
// box (from its caption to the next caption on its line). A page of two
// or four copies is read once, from its first copy, the others checked
// against it.

// w2Box is one box the reader takes: its caption's words, squashed.
type w2Box struct {
	caption string
	field   string
	set     func(b *domain.W2Boxes, v int64)
}

var w2Boxes = []w2Box{
	// Captions as short as a payroll tool's print abbreviates them
	// ("Wages, tips, other comp.", "Medicare tax").
	{"wagestipsother", "box1", func(b *domain.W2Boxes, v int64) { b.Box1 = &v }},
	{"federalincometax", "box2", func(b *domain.W2Boxes, v int64) { b.Box2 = &v }},
	{"socialsecuritywages", "box3", func(b *domain.W2Boxes, v int64) { b.Box3 = &v }},
	{"socialsecuritytax", "box4", func(b *domain.W2Boxes, v int64) { b.Box4 = &v }},
	{"medicarewages", "box5", func(b *domain.W2Boxes, v int64) { b.Box5 = &v }},
	{"medicaretax", "box6", func(b *domain.W2Boxes, v int64) { b.Box6 = &v }},
	{"socialsecuritytips", "box7", func(b *domain.W2Boxes, v int64) { b.Box7 = &v }},
	{"allocatedtips", "box8", func(b *domain.W2Boxes, v int64) { b.Box8 = &v }},
	{"dependentcarebenefits", "box10", func(b *domain.W2Boxes, v int64) { b.Box10 = &v }},
	{"nonqualifiedplans", "box11", func(b *domain.W2Boxes, v int64) { b.Box11 = &v }},
}

// Captions of the form's other parts, squashed.
const (
	captionEmployer    = "employersnameaddressandzipcode"
	captionEmployee    = "employeesfirstnameandinitial"
	captionEmployeeAlt = "employeesnameaddressandzipcode"
	captionAddress     = "employeesaddressandzipcode"
	captionEIN         = "employeridentificationnumber"
	captionSSN         = "employeessocialsecuritynumber"
	captionControl     = "controlnumber"
	captionStateWages  = "statewagestipsetc"
	captionStateTax    = "stateincometax"
	captionStateID     = "employersstateidnumber"
	captionLocalWages  = "localwagestipsetc"
	captionLocalTax    = "localincometax"
	captionLocality    = "localityname"
	captionBox12       = "seeinstructionsforbox12"
)

var (
	taxYearPattern = regexp.MustCompile(`\b(20\d\d|19\d\d)\b`)
	ssnPattern     = regexp.MustCompile(`\b(?:\d{3}|[Xx*]{3})-(?:\d{2}|[Xx*]{2})-\d{4}\b`)
	stateCode      = regexp.MustCompile(`^[A-Z]{2}$`)
	box12Code      = regexp.MustCompile(`^(A|B|C|D|E|F|G|H|J|K|L|M|N|P|Q|R|S|T|V|W|Y|Z|AA|BB|DD|EE|FF|GG|HH|II)$`)
)

// captionAt is a caption found on a line: which phrases it spans and
// the box's span across the line (to the next caption).
type captionAt struct {
	line     int
	from, to int // phrases [from, to)
	x0, x1   float64
	key      string
}

// findCaptions finds every occurrence of a caption: a run of up to three
// phrases of one line whose squashed words contain it.
func (in *interpreter) findCaptions(key string) []captionAt {
	if out := in.captionsMatching(key, strings.Contains); len(out) > 0 {
		return out
	}
	// None printed as such: OCR's misreadings of it, on phrases that are
	// no other caption ("Social security wages" must not be read as box
	// 4's "Social security tax" one letter in five off).
	return in.captionsMatching(key, func(text, key string) bool {
		for _, other := range allCaptionKeys {
			if other != key && strings.Contains(text, other) {
				return false
			}
		}
		return fuzzyContains(text, key)
	})
}

// captionsMatching finds every run of up to three phrases of a line whose
// squashed words match a caption, the shortest run ending at each phrase.
func (in *interpreter) captionsMatching(key string, match func(text, key string) bool) []captionAt {
	var out []captionAt
	for li, l := range in.doc.lines {
		for k := range l.phrases {
			text := ""
			for i := k; i >= 0 && i > k-3; i-- {
				text = squash(l.phrases[i].text) + text
				if match(text, key) {
					if len(out) == 0 || out[len(out)-1].line != li || out[len(out)-1].to <= i {
						out = append(out, captionAt{line: li, from: i, to: k + 1, x0: l.phrases[i].x0, x1: l.phrases[k].x1, key: key})
					}
					break
				}
			}
		}
	}
	return out
}

// allCaptionKeys lists every caption the form prints, to bound boxes.
var allCaptionKeys = func() []string {
	out := []string{captionEmployer, captionEmployee, captionEmployeeAlt, captionAddress, captionEIN, captionSSN, captionControl,
		captionStateWages, captionStateTax, captionStateID, captionLocalWages, captionLocalTax, captionLocality, captionBox12}
	for _, b := range w2Boxes {
		out = append(out, b.caption)
	}
	return out
}()

// isCaption says whether a phrase holds a caption of the form.
func isCaption(p phrase) bool {
	s := squash(p.text)
	if len(s) < 5 {
		return false
	}
	for _, k := range allCaptionKeys {
		if strings.Contains(s, k) || (len(s) >= 8 && strings.Contains(k, s)) {
			return true
		}
	}
	return false
}

// boxFigure reads the figure of the box a caption opens: in the caption's
// phrases after its words, to its right up to the next caption, else on
// the next two lines within the box's span, stopping at a caption.
func (in *interpreter) boxFigure(c captionAt) (figure, bool) {
	lines := in.doc.lines
	l := lines[c.line]
	for k := c.from; k < len(l.phrases); k++ {
		p := l.phrases[k]
		if k >= c.to && isCaption(p) {
			break
		}
		for _, f := range amounts(figuresIn(p)) {
			return f, true
		}
	}
	right := 1e18
	for k := c.to; k < len(l.phrases); k++ {
		if isCaption(l.phrases[k]) {
			right = l.phrases[k].x0
			break
		}
	}
	h := in.lineHeight(c.line)
	for i := c.line + 1; i < len(lines) && i <= c.line+2 && lines[i].page == l.page; i++ {
		for _, p := range lines[i].phrases {
			if p.x1 < c.x0-h || p.x0 >= right {
				continue
			}
			if isCaption(p) {
				return figure{}, false
			}
			// The figure itself within the box: a text layer may run the
			// figures of two boxes side by side into one phrase.
			for _, f := range amounts(figuresIn(p)) {
				if f.x1 >= c.x0-h && f.center() < right {
					return f, true
				}
			}
		}
	}
	return figure{}, false
}

// textUnder is the text of the lines under a caption's line within its
// span, up to the next caption or n lines.
func (in *interpreter) textUnder(c captionAt, n int) ([]string, phrase) {
	lines := in.doc.lines
	l := lines[c.line]
	x0, x1 := c.x0, l.phrases[len(l.phrases)-1].x1
	for k := c.to; k < len(l.phrases); k++ {
		if isCaption(l.phrases[k]) && !strings.Contains(squash(l.phrases[k].text), "lastname") && !strings.Contains(squash(l.phrases[k].text), "suff") {
			x1 = l.phrases[k].x0
			break
		}
	}
	h := in.lineHeight(c.line)
	var out []string
	var first phrase
	for i := c.line + 1; i < len(lines) && i <= c.line+n && lines[i].page == l.page; i++ {
		if lines[i].y0-lines[i-1].y1 > 2*h {
			break
		}
		var parts []string
		for _, p := range lines[i].phrases {
			if p.x1 < x0-h || p.x0 >= x1 {
				continue
			}
			if isCaption(p) {
				return out, first
			}
			if len(out) == 0 && len(parts) == 0 {
				first = p
			}
			parts = append(parts, p.text)
		}
		if len(parts) > 0 {
			out = append(out, strings.Join(parts, " "))
		}
	}
	return out, first
}

// readW2 interprets a document's positioned text as a W-2.
func readW2(doc page, ocr bool) (*domain.W2, []domain.DocumentWarning, []domain.FieldReading, []domain.FraudReason) {
	in := &interpreter{doc: splitCaptions(doc), ocr: ocr}
	var boxes domain.W2Boxes
	var readings []domain.FieldReading
	var doubts []domain.FraudReason
	var disagree []string
	for _, b := range w2Boxes {
		caps := in.findCaptions(b.caption)
		var first *figure
		for _, c := range caps {
			f, ok := in.boxFigure(c)
			if !ok {
				continue
			}
			if first == nil {
				first = &f
				b.set(&boxes, f.cents())
				readings = append(readings, in.reading(b.field, f.page, f.x0, f.y0, f.x1, f.y1, f.conf))
			} else if f.cents() != first.cents() {
				disagree = appendOnce(disagree, b.field)
			}
		}
		if len(caps) > boxes.Copies && b.field == "box1" {
			boxes.Copies = len(caps)
		}
	}
	for _, t := range []struct {
		field      string
		wages, tax **int64
	}{{"box4", &boxes.Box3, &boxes.Box4}, {"box6", &boxes.Box5, &boxes.Box6}} {
		if *t.wages == nil || (*t.tax != nil && atStatutoryRate(t.field, **t.wages, **t.tax)) {
			continue
		}
		if f, ok := in.taxAtStatutoryRate(t.field, **t.wages); ok {
			v := f.cents()
			*t.tax = &v
			readings = slices.DeleteFunc(readings, func(r domain.FieldReading) bool { return r.Field == t.field })
			readings = append(readings, in.reading(t.field, f.page, f.x0, f.y0, f.x1, f.y1, f.conf))
		}
	}
	boxes.Box12 = in.box12()
	if len(boxes.Box12) == 0 {
		boxes.Box12 = in.box12Listed()
	}
	if region := in.box12Region(); len(region) > 0 && len(region) >= len(boxes.Box12) {
		boxes.Box12 = region
	}
	boxes.States = in.stateRows()
	out := &domain.W2{DocumentType: domain.DocumentW2}
	if caps := in.findCaptions(captionEmployer); len(caps) > 0 {
		if ls, at := in.textUnder(caps[0], 4); len(ls) > 0 {
			out.EmployerName = cleanName(beforeFigures(ls[0]))
			boxes.EmployerAddress = strings.Join(ls[1:], ", ")
			readings = append(readings, in.phraseReading("employer_name", at, at.conf))
		}
	}
	for _, key := range []string{captionEmployee, captionEmployeeAlt} {
		caps := in.findCaptions(key)
		if len(caps) == 0 || out.Applicant.Name != "" {
			continue
		}
		if ls, at := in.textUnder(caps[0], 4); len(ls) > 0 {
			out.Applicant.Name = cleanName(strings.TrimSuffix(beforeFigures(ls[0]), " X"))
			readings = append(readings, in.phraseReading("employee_name", at, at.conf))
			if key == captionEmployeeAlt || len(ls) > 1 {
				boxes.EmployeeAddress = strings.Join(ls[1:], ", ")
			}
		}
	}
	if caps := in.findCaptions(captionAddress); len(caps) > 0 && boxes.EmployeeAddress == "" {
		if ls, _ := in.textUnder(caps[0], 3); len(ls) > 0 {
			boxes.EmployeeAddress = strings.Join(ls, ", ")
		}
	}
	// A W-2 printed by a payroll tool may label its names instead.
	if out.EmployerName == "" || out.Applicant.Name == "" {
		rs := in.labelReadings(nil)
		for _, t := range rs.texts {
			switch {
			case t.field == fieldEmployer && out.EmployerName == "":
				out.EmployerName = cleanName(firstPart(t.text))
			case t.field == fieldEmployee && out.Applicant.Name == "":
				if name, ok := personName(t.text); ok {
					out.Applicant.Name = name
				}
			}
		}
	}
	out.EmployerEIN = in.w2Pattern(captionEIN, einPattern)
	boxes.EmployeeSSN = in.w2Pattern(captionSSN, ssnPattern)
	if caps := in.findCaptions(captionControl); len(caps) > 0 {
		if ls, _ := in.textUnder(caps[0], 1); len(ls) > 0 && !strings.Contains(squash(ls[0]), "employer") {
			boxes.ControlNumber = strings.TrimSpace(ls[0])
		}
	}
	out.TaxYear = in.w2TaxYear()
	out.FromBoxes(boxes)
	if len(disagree) > 0 {
		doubts = append(doubts, domain.FraudReason{Code: domain.FraudFieldsUncertain, Fields: disagree,
			Message: fmt.Sprintf("the copies of the form on the page do not agree on %s", strings.Join(disagree, ", "))})
	}
	doubts = append(doubts, w2Doubts(boxes, readings)...)
	return out, w2Warnings(out, boxes), readings, doubts
}

// w2Pattern finds a number the form prints under or beside a caption,
// else anywhere.
func (in *interpreter) w2Pattern(key string, re *regexp.Regexp) string {
	for _, c := range in.findCaptions(key) {
		l := in.doc.lines[c.line]
		for k := c.from; k < len(l.phrases) && k < c.to+2; k++ {
			if m := re.FindString(l.phrases[k].text); m != "" {
				return m
			}
		}
		if ls, _ := in.textUnder(c, 2); len(ls) > 0 {
			if m := re.FindString(strings.Join(ls, " ")); m != "" {
				return m
			}
		}
	}
	for _, l := range in.doc.lines {
		for _, p := range l.phrases {
			if m := re.FindString(p.text); m != "" {
				return m
			}
		}
	}
	return ""
}

// w2TaxYear is the year the form prints beside "Wage and Tax Statement"
// or "W-2", else the latest year of the 2000s it prints alone.
func (in *interpreter) w2TaxYear() string {
	for li, l := range in.doc.lines {
		text := ""
		for _, p := range l.phrases {
			text += " " + p.text
		}
		s := squash(text)
		if !fuzzyContains(s, "wageandtaxstatement") && !strings.Contains(s, "formw2") && !strings.Contains(s, "taxyear") {
			continue
		}
		for _, i := range []int{li, li + 1, li - 1} {
			if i < 0 || i >= len(in.doc.lines) {
				continue
			}
			t := ""
			for _, p := range in.doc.lines[i].phrases {
				t += " " + strings.ReplaceAll(strings.ReplaceAll(p.text, "W-2", ""), "W2", "")
			}
			for _, y := range taxYearPattern.FindAllString(t, -1) {
				if y >= "2000" && y <= "2099" {
					return y
				}
			}
		}
	}
	// The year printed alone, large, away from its caption: the one year
	// of the 2000s the page prints as a word of its own, when there is one.
	years := map[string]bool{}
	for _, l := range in.doc.lines {
		for _, p := range l.phrases {
			for _, w := range p.words {
				if t := strings.Trim(w.text, ".,:;()"); len(t) == 4 && t >= "2000" && t <= "2099" && taxYearPattern.MatchString(t) {
					years[t] = true
				}
			}
		}
	}
	if len(years) == 1 {
		for y := range years {
			return y
		}
	}
	return ""
}

// box12 reads box 12's entries: each "12a".."12d" caption's code (one or
// two capitals of the IRS's list) and amount, in order.
func (in *interpreter) box12() []domain.W2Code {
	var out []domain.W2Code
	seen := map[string]bool{}
	for _, letter := range []string{"a", "b", "c", "d"} {
		for li, l := range in.doc.lines {
			for pi, p := range l.phrases {
				ws := strings.Fields(p.text)
				next := box12CaptionEnd(ws, letter)
				if next < 0 || seen[letter] {
					continue
				}
				code, amt, ok := in.codeAndAmount(li, pi, ws[next:])
				if ok {
					seen[letter] = true
					out = append(out, domain.W2Code{Code: code, Amount: amt})
				}
			}
		}
	}
	return out
}

// box12CaptionEnd finds the caption of box 12's entry letter among a
// phrase's words ("12a", "12 a", "12a.", OCR's "l2a" or "I2a") and
// returns the index of the word after it, -1 when there is none.
func box12CaptionEnd(ws []string, letter string) int {
	for i, w := range ws {
		w = strings.ToLower(strings.Trim(w, ".:|"))
		if len(w) >= 2 && (w[0] == 'l' || w[0] == 'i') {
			w = "1" + w[1:]
		}
		switch {
		case w == "12"+letter:
			return i + 1
		case w == "12" && i+1 < len(ws) && strings.EqualFold(strings.Trim(ws[i+1], ".:|"), letter):
			return i + 2
		}
	}
	return -1
}

// box12Listed reads box 12 printed as one box of entries ("12 Codes (a-d)"
// over "D 5,308.80" and "DD 7,350.64"), in order, when the form prints no
// 12a to 12d captions.
func (in *interpreter) box12Listed() []domain.W2Code {
	lines := in.doc.lines
	for li, l := range lines {
		for pi, p := range l.phrases {
			if !box12Box.MatchString(p.text) {
				continue
			}
			right := 1e18
			if pi+1 < len(l.phrases) {
				right = l.phrases[pi+1].x0
			}
			h := in.lineHeight(li)
			var out []domain.W2Code
			for i := li + 1; i < len(lines) && i <= li+4 && lines[i].page == l.page; i++ {
				for _, q := range lines[i].phrases {
					if q.x1 < p.x0-2*h || q.x0 >= right {
						continue
					}
					if isCaption(q) || box12Caption.MatchString(q.text) {
						return out
					}
					if code, amt, ok := parseCodeAmount(strings.Fields(q.text)); ok {
						out = append(out, domain.W2Code{Code: code, Amount: amt})
					}
				}
			}
			return out
		}
	}
	return nil
}

var box12Box = regexp.MustCompile(`(?i)^\s*(box\s*)?12\b[^0-9]*(code|see|instr)`)

// codeAndAmount finds a box 12 entry after its caption: in the rest of
// its phrase and the phrases to its right, or in the next three lines
// under it, up to the next entry's caption.
func (in *interpreter) codeAndAmount(li, pi int, rest []string) (string, int64, bool) {
	var words []string
	words = append(words, rest...)
	l := in.doc.lines[li]
	for _, q := range l.phrases[pi+1:] {
		if box12Caption.MatchString(q.text) {
			break
		}
		words = append(words, strings.Fields(q.text)...)
		if len(words) > 6 {
			break
		}
	}
	if code, amt, ok := parseCodeAmount(words); ok {
		return code, amt, true
	}
	p := l.phrases[pi]
	h := in.lineHeight(li)
	// The box runs from its caption to the next caption on its line, or
	// to the page's edge.
	right := 1e18
	if pi+1 < len(l.phrases) {
		right = l.phrases[pi+1].x0
	}
	for i := li + 1; i < len(in.doc.lines) && i <= li+3 && in.doc.lines[i].page == l.page; i++ {
		var below []string
		for _, q := range in.doc.lines[i].phrases {
			if q.x1 < p.x0-2*h || q.x0 >= right {
				continue
			}
			if box12Caption.MatchString(q.text) {
				return "", 0, false
			}
			// Its words within the box (a phrase may run on from the box
			// beside it).
			for _, w := range q.words {
				if c := (w.x0 + w.x1) / 2; c >= p.x0-2*h && c < right {
					below = append(below, w.text)
				}
			}
		}
		if code, amt, ok := parseCodeAmount(below); ok {
			return code, amt, true
		}
	}
	return "", 0, false
}

var box12Caption = regexp.MustCompile(`(?i)^\s*[1il]2\s?[a-d]\b`)

// box12Region reads box 12 as the place it is on the form, not through
// its entries' captions, which forms print in many ways (a "12a" caption
// beside its code, over it, next to the letters of "Code" stacked in a
// column) and OCR often misreads ("De" for "12c"): from the first of box
// 12's captions down to the line of boxes 15 to 20, within the column the
// caption opens, every code followed by an amount is an entry, in order.
// Captions' own words and letters much smaller than the fill (the
// stacked "C o d e") are passed over; a code glued to its amount
// ("D5,241.60") is read apart.
func (in *interpreter) box12Region() []domain.W2Code {
	lines := in.doc.lines
	top, x0, right := -1, 0.0, 1e18
	for li, l := range lines {
		for pi, p := range l.phrases {
			ws := strings.Fields(p.text)
			if !box12Caption.MatchString(p.text) && box12CaptionEnd(ws, "a") < 0 && !strings.Contains(squash(p.text), captionBox12) {
				continue
			}
			top, x0 = li, p.x0
			// Another copy's box 12 to its right (four copies on a sheet)
			// bounds this one.
			for _, q := range l.phrases[pi+1:] {
				if q.x0 > p.x1 && (box12Caption.MatchString(q.text) || strings.Contains(squash(q.text), captionBox12)) {
					right = q.x0 - in.lineHeight(li)
					break
				}
			}
			break
		}
		if top >= 0 {
			break
		}
	}
	if top < 0 {
		return nil
	}
	h := in.lineHeight(top)
	left := x0 - 2*h
	var heights []float64
	for i := top; i < len(lines) && lines[i].page == lines[top].page; i++ {
		for _, p := range lines[i].phrases {
			for _, w := range p.words {
				heights = append(heights, w.height())
			}
		}
	}
	slices.Sort(heights)
	typical := 0.0
	if len(heights) > 0 {
		typical = heights[len(heights)/2]
	}
	var out []domain.W2Code
	code := ""
	for i := top; i < len(lines) && lines[i].page == lines[top].page; i++ {
		if i > top && in.stateCaptionLine(i) {
			break
		}
		for _, p := range lines[i].phrases {
			for _, w := range p.words {
				if c := (w.x0 + w.x1) / 2; c < left || c >= right {
					continue
				}
				if !in.ocr && typical > 0 && w.height() < 0.6*typical {
					continue // the letters of "Code", printed small
				}
				t := strings.Trim(w.text, "|:;,")
				if box12Caption.MatchString(t) {
					code = ""
					continue
				}
				if c, amt, ok := gluedCodeAmount(t); ok {
					out = append(out, domain.W2Code{Code: c, Amount: amt})
					code = ""
					continue
				}
				if c := w2Code(t); c != "" {
					code = c
					continue
				}
				if v, ok := parseAmount(t); ok && code != "" {
					out = append(out, domain.W2Code{Code: code, Amount: abs64(v)})
					code = ""
				}
			}
		}
		code = "" // a code and its amount share a line
	}
	seen := map[string]bool{}
	for _, e := range out {
		if seen[e.Code] {
			return nil // a code twice: the region ran into another copy
		}
		seen[e.Code] = true
	}
	if len(out) > 4 {
		return nil // more than a box holds: not box 12 alone
	}
	return out
}

// stateCaptionLine says whether line li holds the captions of boxes 15
// to 20, where box 12's column ends.
func (in *interpreter) stateCaptionLine(li int) bool {
	for _, p := range in.doc.lines[li].phrases {
		s := squash(p.text)
		if strings.Contains(s, captionStateWages) || strings.Contains(s, captionStateID) || strings.Contains(s, captionStateTax) {
			return true
		}
	}
	return false
}

// w2Code is a word read as one of box 12's codes: the IRS's capitals, or
// OCR's doubling of a one-letter code ("Cc").
func w2Code(t string) string {
	if box12Code.MatchString(t) {
		return t
	}
	if len(t) == 2 && t[0] >= 'A' && t[0] <= 'Z' && t[1] == t[0]+('a'-'A') && box12Code.MatchString(t[:1]) {
		return t[:1]
	}
	return ""
}

// gluedCodeAmount reads a code printed against its amount ("D5,241.60",
// "DD-9,125.18").
func gluedCodeAmount(t string) (string, int64, bool) {
	i := 0
	for i < len(t) && i < 2 && t[i] >= 'A' && t[i] <= 'Z' {
		i++
	}
	if i == 0 || i == len(t) || !box12Code.MatchString(t[:i]) {
		return "", 0, false
	}
	v, ok := parseAmount(strings.TrimLeft(t[i:], "-$ "))
	if !ok {
		return "", 0, false
	}
	return t[:i], abs64(v), true
}

func parseCodeAmount(words []string) (string, int64, bool) {
	code := ""
	for _, w := range words {
		w = strings.Trim(w, "|:")
		if code == "" && box12Code.MatchString(w) {
			code = w
			continue
		}
		if code != "" {
			if v, ok := parseAmount(w); ok {
				return code, abs64(v), true
			}
		}
	}
	return "", 0, false
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// stateRows reads boxes 15 to 20: the rows under the line of their
// captions, each a state's code, the employer's state ID and figures
// placed under boxes 16 to 19 by their positions.
func (in *interpreter) stateRows() []domain.W2State {
	caps := in.findCaptions(captionStateWages)
	if len(caps) == 0 {
		return nil
	}
	c := caps[0]
	lines := in.doc.lines
	l := lines[c.line]
	type col struct {
		key    string
		x0, x1 float64
	}
	var cols []col
	for _, key := range []string{captionStateWages, captionStateTax, captionLocalWages, captionLocalTax, captionLocality} {
		for _, k := range in.findCaptions(key) {
			if lines[k.line].page == l.page && abs(lines[k.line].y0-l.y0) < 3*in.lineHeight(c.line) {
				cols = append(cols, col{key, k.x0, k.x1})
				break
			}
		}
	}
	var out []domain.W2State
	h := in.lineHeight(c.line)
	for i := c.line + 1; i < len(lines) && i <= c.line+4 && lines[i].page == l.page; i++ {
		var row domain.W2State
		got := false
		for _, p := range lines[i].phrases {
			if isCaption(p) {
				return out
			}
			for _, w := range strings.Fields(p.text) {
				if row.State == "" && stateCode.MatchString(w) && p.x0 < cols[0].x0-h {
					row.State = w
					got = true
				}
			}
			for _, f := range figuresIn(p) {
				if f.x1 < cols[0].x0-h {
					if !f.isAmount() && row.EmployerStateID == "" {
						row.EmployerStateID = f.text
					}
					continue
				}
				if !f.isAmount() {
					continue
				}
				best, dist := "", 1e18
				for _, k := range cols {
					if d := abs((f.x0+f.x1)/2 - (k.x0+k.x1)/2); d < dist && f.x1 >= k.x0-2*h {
						best, dist = k.key, d
					}
				}
				v := f.cents()
				switch best {
				case captionStateWages:
					row.Wages = &v
				case captionStateTax:
					row.Tax = &v
				case captionLocalWages:
					row.LocalWages = &v
				case captionLocalTax:
					row.LocalTax = &v
				}
				got = true
			}
			if row.EmployerStateID == "" && row.State != "" {
				for _, w := range strings.Fields(p.text) {
					if w != row.State && strings.ContainsAny(w, "0123456789") && !strings.Contains(w, ".") {
						row.EmployerStateID = strings.Trim(w, "|")
					}
				}
			}
		}
		if got && (row.Wages != nil || row.State != "") {
			out = append(out, row)
		}
	}
	return out
}

// statutoryTax is the social security (box 4, 6.2% of box 3) or Medicare
// (box 6, 1.45% of box 5, 2.35% past $200,000) tax withheld on wages, in
// cents.
func statutoryTax(field string, wages int64) int64 {
	if field == "box4" {
		return wages * 620 / 10000
	}
	tax := wages * 145 / 10000
	if wages > 20_000_000 {
		tax += (wages - 20_000_000) * 90 / 10000
	}
	return tax
}

// atStatutoryRate says whether a tax box holds its wages' statutory tax,
// to the dollar (an employer rounds each period's withholding).
func atStatutoryRate(field string, wages, tax int64) bool {
	d := tax - statutoryTax(field, wages)
	return d <= 100 && d >= -100
}

// taxAtStatutoryRate finds, when a tax box was not read or read as a
// figure its wages contradict, the one figure the page prints that is
// its wages' statutory tax to the cent: the arithmetic decides where
// the box's place on the page did not. More than one such figure (none
// is likely) decides nothing.
func (in *interpreter) taxAtStatutoryRate(field string, wages int64) (figure, bool) {
	want := statutoryTax(field, wages)
	var found []figure
	for _, l := range in.doc.lines {
		for _, p := range l.phrases {
			for _, f := range amounts(figuresIn(p)) {
				if d := f.cents() - want; d <= 1 && d >= -1 && !slices.ContainsFunc(found, func(g figure) bool { return g.cents() == f.cents() }) {
					found = append(found, f)
				}
			}
		}
	}
	if len(found) != 1 {
		return figure{}, false
	}
	return found[0], true
}

// w2Doubts: boxes that cannot all be right (social security tax is 6.2%
// of its wages, Medicare tax 1.45% of its own, 2.35% past $200,000), and
// boxes read faintly.
func w2Doubts(b domain.W2Boxes, readings []domain.FieldReading) []domain.FraudReason {
	var fields []string
	near := func(tax, wages int64, rateBP int64) bool {
		want := wages * rateBP / 10000
		return tax-want <= 100 && want-tax <= 100
	}
	if b.Box3 != nil && b.Box4 != nil && !near(*b.Box4, *b.Box3, 620) {
		fields = append(fields, "box3", "box4")
	}
	if b.Box5 != nil && b.Box6 != nil {
		want := *b.Box5 * 145 / 10000
		if *b.Box5 > 20_000_000 {
			want += (*b.Box5 - 20_000_000) * 90 / 10000
		}
		if d := *b.Box6 - want; d > 100 || d < -100 {
			fields = append(fields, "box5", "box6")
		}
	}
	for _, r := range readings {
		if r.Confidence < uncertainConf && !slices.Contains(fields, r.Field) {
			fields = append(fields, r.Field)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	return []domain.FraudReason{{Code: domain.FraudFieldsUncertain, Fields: fields,
		Message: fmt.Sprintf("the reader is unsure of %s: read faintly, or the taxes do not match their wages at the statutory rates", strings.Join(fields, ", "))}}
}

// w2Warnings names what could not be read.
func w2Warnings(w *domain.W2, b domain.W2Boxes) []domain.DocumentWarning {
	var out []domain.DocumentWarning
	for _, c := range []struct {
		ok         bool
		name, what string
	}{
		{b.Box1 != nil, "box1", "box 1 (wages, tips, other compensation)"},
		{b.Box2 != nil, "box2", "box 2 (federal income tax withheld)"},
		{b.Box3 != nil, "box3", "box 3 (social security wages)"},
		{b.Box5 != nil, "box5", "box 5 (Medicare wages and tips)"},
		{w.EmployerName != "", "employer_name", "employer's name"},
		{w.EmployerEIN != "", "employer_ein", "employer identification number"},
		{w.TaxYear != "", "tax_year", "tax year"},
		{w.Applicant.Name != "", "employee_name", "employee's name"},
	} {
		if !c.ok {
			out = append(out, domain.DocumentWarning{Field: c.name, Status: "unparsable", Message: "The W-2's " + c.what + " could not be found in the file."})
		}
	}
	return out
}

// beforeFigures is a line's words up to its first amount: a name, without
// the figures of boxes beside it that a layout ran into its line.
func beforeFigures(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		if n, ok := parseNumber(w); ok && n.isAmount() {
			return strings.Join(ws[:i], " ")
		}
	}
	return s
}

// fuzzyContains says whether text holds key, allowing OCR's misreadings
// of a long caption ("Social secunty wages", "Medicare lax withheld"): an
// edit distance of one in six letters of the key, for keys of eight
// letters or more.
func fuzzyContains(text, key string) bool {
	if strings.Contains(text, key) {
		return true
	}
	if len(key) < 8 || len(text) < len(key)-len(key)/5 {
		return false
	}
	limit := len(key) / 6
	// Approximate substring matching: the best alignment of key anywhere
	// in text (Sellers' dynamic programme, one row at a time).
	prev := make([]int, len(text)+1)
	cur := make([]int, len(text)+1)
	for i := 1; i <= len(key); i++ {
		cur[0] = i
		for j := 1; j <= len(text); j++ {
			cost := 1
			if key[i-1] == text[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j-1]+cost, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return slices.Min(prev) <= limit
}

// boxNumber is a W-2 box's number or letter as the form prints it before
// its caption.
var boxNumber = regexp.MustCompile(`^([1-9]|1[0-9]|20|12[a-d]|[a-f])$`)

// splitCaptions parts phrases that run two boxes' captions together ("1
// Wages, tips, other compensation 2 Federal income tax withheld", where
// the form's boxes sit close): a box's number followed by a capitalised
// word starts a phrase of its own, so each caption has its own place.
func splitCaptions(doc page) page {
	out := page{sizes: doc.sizes}
	for _, l := range doc.lines {
		nl := textLine{page: l.page, y0: l.y0, y1: l.y1}
		for _, p := range l.phrases {
			from := 0
			for k := 1; k+1 < len(p.words); k++ {
				next := p.words[k+1].text
				if boxNumber.MatchString(p.words[k].text) && next != "" && next[0] >= 'A' && next[0] <= 'Z' {
					nl.phrases = append(nl.phrases, clipped(p, from, k))
					from = k
				}
			}
			nl.phrases = append(nl.phrases, clipped(p, from, len(p.words)))
		}
		for i := range nl.phrases {
			nl.phrases[i].line = len(out.lines)
		}
		out.lines = append(out.lines, nl)
	}
	return out
}
