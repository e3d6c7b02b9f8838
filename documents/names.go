package documents

import (
	"regexp"
	"strings"
	"unicode"
)

// Names are found by what they are, not only by their labels: a
// person's name is two to five words of letters near "Employee" or "Pay
// to", never a column's heading; an employer's is the name at the top of
// the page that is no heading, most surely one with a corporate suffix
// or an address under it.

// notNameWords are words a column heading or a label has and a person's
// or company's name has not.
var notNameWords = map[string]bool{"id": true, "ssn": true, "file": true, "dept": true, "department": true, "number": true,
	"no": true, "emp": true, "employee": true, "name": true, "location": true, "loc": true, "status": true, "rate": true,
	"period": true, "date": true, "check": true, "pay": true, "earnings": true, "statement": true, "address": true,
	"information": true, "info": true, "social": true, "security": true, "marital": true, "exemptions": true,
	"allowances": true, "federal": true, "state": true, "taxable": true, "code": true, "company": true, "employer": true,
	"advice": true, "deposit": true, "net": true, "gross": true, "total": true, "ytd": true, "current": true, "hours": true,
	"job": true, "title": true, "position": true, "group": true, "filing": true, "payroll": true, "voucher": true,
	"amount": true, "description": true, "page": true, "of": true, "to": true, "the": true, "order": true, "stub": true,
	"wage": true, "wages": true, "salary": true, "week": true, "ending": true, "type": true, "frequency": true,
	"account": true, "bank": true, "routing": true, "direct": true, "summary": true, "deductions": true, "taxes": true}

// personName reads a person's name from a value: two to five words of
// letters (initials, hyphens and apostrophes allowed; "Last, First M"
// and "LAST,FIRST" forms kept as printed), none of them a heading's word.
// ok is false for anything else.
func personName(s string) (string, bool) {
	s = cleanName(s)
	// A number after the name (an employee ID) is not part of it.
	if i := strings.IndexFunc(s, unicode.IsDigit); i > 0 {
		s = cleanName(s[:i])
	}
	if s == "" {
		return "", false
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
	if len(words) < 2 || len(words) > 5 {
		return "", false
	}
	// A name has a word of three letters or more ("St St Ste" is OCR's
	// reading of a shadow).
	long := 0
	for _, w := range words {
		if letters(w) >= 3 {
			long++
		}
	}
	if long < 2 && !(long == 1 && len(words) == 2 && letters(words[0])+letters(words[1]) >= 5) {
		return "", false
	}
	for _, w := range words {
		t := strings.Trim(w, ".'-")
		if t == "" {
			continue
		}
		if notNameWords[strings.ToLower(t)] {
			return "", false
		}
		for _, r := range t {
			if !unicode.IsLetter(r) && r != '.' && r != '\'' && r != '-' && r != '’' {
				return "", false
			}
		}
	}
	return s, true
}

// corporate words mark a name as an organization's.
var corporateWords = []string{"inc", "llc", "corp", "corporation", "co", "company", "ltd", "lp", "llp", "pllc", "pc", "pa",
	"group", "holdings", "services", "service", "hospital", "university", "college", "school", "district", "county", "city",
	"state", "department", "restaurant", "restaurants", "logistics", "systems", "partners", "associates", "enterprises",
	"industries", "foods", "health", "healthcare", "medical", "bank", "trust", "church", "authority", "agency", "dba",
	"clinic", "center", "solutions", "technologies", "transport", "trucking", "construction", "builders", "farms",
	"motors", "manufacturing", "labs", "laboratories", "studio", "studios", "cafe", "bakery", "market", "stores",
	"international", "global", "national", "works", "consulting", "management", "properties", "realty", "insurance",
	"financial", "capital", "media", "network", "networks", "energy", "electric", "utilities", "academy", "institute",
	"foundation", "board", "commission", "office", "bureau", "township", "village", "government", "commonwealth",
	"cooperative", "coop", "grocery", "hardware", "supply", "kitchen", "freight", "lines", "escrow", "title", "pediatric", "dental",
	"veterinary", "software", "learning", "centers", "property", "seafood", "manufacturing", "concrete", "paving", "home", "care"}

// headingWords mark a line as a paystub's heading, not a name.
var headingWords = []string{"statement", "earnings", "stub", "advice", "information", "wage", "payroll", "period", "deposit",
	"check", "summary", "voucher", "payslip", "slip", "employee", "remittance", "negotiable", "page", "confidential",
	"pay", "paystub", "void", "copy", "original", "duplicate"}

var (
	streetLine   = regexp.MustCompile(`(?i)^(\d+[A-Za-z]?\s+[A-Za-z0-9]|p\.?\s*o\.?\s+box|suite|ste\.?\s|\d+(st|nd|rd|th)\s)`)
	cityLine     = regexp.MustCompile(`[A-Za-z .'-]+,?\s+[A-Z]{2}\.?\s+\d{5}(-\d{4})?\b`)
	pageOfPages  = regexp.MustCompile(`(?i)^page\s+\d+\s+of\s+\d+$`)
	corporateEnd = func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(` + strings.Join(corporateWords, "|") + `)\.?$`)
	}()
)

func isAddress(s string) bool {
	s = strings.TrimSpace(s)
	return streetLine.MatchString(s) || cityLine.MatchString(s)
}

func hasWord(s string, words []string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) }) {
		for _, h := range words {
			if w == h {
				return true
			}
		}
	}
	return false
}

// employerName finds the employer: the value of its label when that is a
// name, else the best name at the top of the first page.
func (in *interpreter) employerName(rs readings, employee string) (string, phrase, float64) {
	top, at, conf := in.topName(employee)
	for _, t := range rs.texts {
		if t.field != fieldEmployer {
			continue
		}
		name := cleanName(firstPart(t.text))
		// A weak label (Agency, Organization) yields to a sure name at the
		// page's head ("State of Vermont" over its department).
		if name != "" && !isTitle(name) && !hasWord(name, []string{"information", "name", "code", "id"}) && !isAddress(name) &&
			(top == "" || t.weight >= conf) {
			return name, t.at, t.weight * t.at.conf
		}
	}
	return top, at, conf
}

// firstPart is a name without the address a line prints after it.
func firstPart(s string) string {
	name, _, _ := strings.Cut(s, " | ")
	return strings.TrimSpace(name)
}

// topName scores the phrases near the top of the first page as the
// employer's name: a corporate word and an address under it raise a
// phrase, a heading's words, a person's name, a label or a figure rule
// it out; the earliest of the best wins.
func (in *interpreter) topName(employee string) (string, phrase, float64) {
	lines := in.doc.lines
	if len(lines) == 0 {
		return "", phrase{}, 0
	}
	firstPage := lines[0].page
	limit := lines[0].y0 + 0.4*in.pageHeight(firstPage)
	var best phrase
	bestScore := 0.0
	for li := 0; li < len(lines) && li < 25; li++ {
		l := lines[li]
		if l.page != firstPage || l.y0 > limit || in.headerRow(li) != nil {
			break // the employer's block is above the tables
		}
		for _, p := range l.phrases {
			s := in.employerScore(li, p, employee)
			if s > bestScore {
				best, bestScore = p, s
			}
		}
	}
	if bestScore <= 0 {
		return "", phrase{}, 0
	}
	return cleanName(withoutTitle(best.text)), best, min(1, bestScore/3) * best.conf
}

// withoutTitle is a phrase without a paystub's title run into it ("State
// of Vermont Earnings Statement" is "State of Vermont").
func withoutTitle(text string) string {
	ws := strings.Fields(text)
	for i := 1; i < len(ws); i++ {
		if isTitle(strings.Join(ws[i:], " ")) {
			return strings.Join(ws[:i], " ")
		}
	}
	return text
}

// employerScore scores one phrase at the top of the page as the
// employer's name; 0 or less rules it out.
func (in *interpreter) employerScore(li int, p phrase, employee string) float64 {
	text := cleanName(withoutTitle(p.text))
	if _, known := labelIndex[squash(text)]; known {
		return 0 // a label of something ("Company Code", "Pay Group")
	}
	if text == "" || letters(text) < 3 || p.label != fieldNone || len(occurrences(p)) > 0 || isTitle(text) ||
		len(figuresIn(p)) > 0 || len(findDates(text)) > 0 || isAddress(text) || pageOfPages.MatchString(text) ||
		findEIN(text) != "" || sectionOf(text) != sectionNone || columnHeaders[squash(text)] != columnNone || strings.HasSuffix(text, ":") {
		return 0
	}
	if employee != "" && strings.EqualFold(squash(text), squash(employee)) {
		return 0
	}
	words := len(strings.Fields(text))
	score := 1.0
	switch {
	case corporateEnd.MatchString(text) && words > 1:
		score += 2 // "Harbor Point Logistics, Inc."
	case hasWord(text, corporateWords) && words > 1:
		score += 1 // "Lakeshore School District", "Great Lakes Community Bank"
	}
	if in.addressBelow(li, p) {
		score += 1.5
	}
	if hasWord(text, headingWords) && !corporateEnd.MatchString(text) {
		score -= 2
	}
	if _, person := personName(text); person && !hasWord(text, corporateWords) {
		score -= 0.8 // a person's name in a mailing block, likelier than not
	}
	if words == 1 && !corporateEnd.MatchString(text) {
		score -= 1.2 // a logo's word, a code, a line's name
	}
	// The earlier, the likelier: the employer's block heads the page.
	score -= 0.08 * float64(li)
	return score
}

// addressBelow says whether an address line follows the phrase within
// two lines, under it.
func (in *interpreter) addressBelow(li int, p phrase) bool {
	lines := in.doc.lines
	for i := li + 1; i < len(lines) && i <= li+2 && lines[i].page == lines[li].page; i++ {
		for _, q := range lines[i].phrases {
			if q.x0 <= p.x1 && q.x1 >= p.x0 && isAddress(q.text) {
				return true
			}
		}
	}
	return false
}

// employeeName finds the employee: the value of an Employee or Pay To
// label when it is a person's name, else a person's name over an address
// (the mailing window).
func (in *interpreter) employeeName(rs readings, employer string) (string, phrase, float64) {
	notEmployer := func(name string) bool { return employer == "" || squash(name) != squash(employer) }
	for _, t := range rs.texts {
		if t.field != fieldEmployee {
			continue
		}
		if name, ok := personName(firstPart(t.text)); ok && !corporateEnd.MatchString(name) && !in.headsPage(name) && notEmployer(name) {
			return name, t.at, t.weight * t.at.conf
		}
		// The label's value is not to its right: a band of headings
		// ("Name | Emp # | Dept") over their values.
		if name, at, ok := in.nameUnder(t); ok {
			return name, at, t.weight * at.conf
		}
	}
	lines := in.doc.lines
	for li, l := range lines {
		if li > 40 {
			break
		}
		for _, p := range l.phrases {
			name, ok := personName(p.text)
			if !ok || p.label != fieldNone || hasWord(name, corporateWords) || corporateEnd.MatchString(name) || in.headsPage(name) || !notEmployer(name) {
				continue
			}
			if in.addressBelow(li, p) {
				return name, p, 0.7 * p.conf
			}
		}
	}
	return "", phrase{}, 0
}

// nameUnder finds a person's name under the label a text reading came
// from.
func (in *interpreter) nameUnder(t textReading) (string, phrase, bool) {
	for li, l := range in.doc.lines {
		for _, p := range l.phrases {
			if p.label != fieldEmployee {
				continue
			}
			for _, c := range in.cellsBelow(li, p.x0, p.x1, 2) {
				if name, ok := personName(c.text); ok {
					return name, c.phrase, true
				}
			}
		}
	}
	return "", phrase{}, false
}

// headsPage says whether a name is the first text of its page: the
// employer's, which heads a stub, never the employee's.
func (in *interpreter) headsPage(name string) bool {
	for _, l := range in.doc.lines {
		if len(l.phrases) == 0 {
			continue
		}
		return squash(l.phrases[0].text) == squash(name)
	}
	return false
}
