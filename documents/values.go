package documents

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// number is a figure as a paystub prints it: an amount (exactly two
// decimals), a rate (four decimals, "36.4000") or a count of hours, in
// any of the notations payroll providers use for its sign.
type number struct {
	// value is the figure times 10^scale, without its sign; scale is the
	// number of decimals printed (0 for "80").
	value int64
	scale int
	// negative: written -12.34, (12.34), 12.34-, or with DR.
	negative bool
	// dollar: printed with a $.
	dollar bool
	// starred: followed by an asterisk, a provider's footnote mark
	// ("excluded from federal taxable wages").
	starred bool
	// credit and debit: followed by CR or DR (a state agency's ledger).
	credit, debit bool
}

// isAmount says whether the figure is money: exactly two decimals.
func (n number) isAmount() bool { return n.scale == 2 }

// cents is an amount's value in cents, without its sign (a paystub's
// deductions are printed negative or not as it likes; what a figure
// means is its column's).
func (n number) cents() int64 { return n.value }

// hours is the figure as a count of hours (two or three decimals, or none).
func (n number) hours() float64 {
	v := float64(n.value)
	for range n.scale {
		v /= 10
	}
	return v
}

// rateCents is the figure as a pay rate in cents, rounded to the cent
// ("28.8461" is 2885).
func (n number) rateCents() int64 {
	v := n.value
	switch {
	case n.scale > 2:
		d := int64(1)
		for range n.scale - 2 {
			d *= 10
		}
		return (v + d/2) / d
	case n.scale < 2:
		for range 2 - n.scale {
			v *= 10
		}
	}
	return v
}

// numberPattern is a figure with its sign notations: an optional
// parenthesis, sign and dollar sign (either order), digits grouped by
// commas or not, optional decimals, then an optional trailing minus,
// asterisk(s), closing parenthesis or CR/DR.
var numberPattern = regexp.MustCompile(`^(\()?([-+])?(\$)?\s?([-+])?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,4}))?(\))?(-)?(\*+)?(CR|DR|Cr|Dr)?(\*+)?$`)

// maxFigureDigits bounds a figure's digits: no paystub prints a figure
// of a trillion dollars, and a longer run of digits is an account or
// check number.
const maxFigureDigits = 12

// parseNumber reads a figure from its printed text, never through a
// float. A trailing colon or semicolon is ignored.
func parseNumber(s string) (number, bool) {
	s = strings.TrimSpace(strings.TrimRight(s, ":;,"))
	m := numberPattern.FindStringSubmatch(s)
	if m == nil || (m[1] == "(") != (m[7] == ")") {
		return number{}, false
	}
	whole := strings.ReplaceAll(m[5], ",", "")
	if len(whole)+len(m[6]) > maxFigureDigits {
		return number{}, false
	}
	v, err := strconv.ParseInt(whole+m[6], 10, 64)
	if err != nil {
		return number{}, false
	}
	n := number{value: v, scale: len(m[6]), dollar: m[3] == "$", starred: m[9] != "" || m[11] != ""}
	n.credit = strings.EqualFold(m[10], "cr")
	n.debit = strings.EqualFold(m[10], "dr")
	n.negative = m[1] == "(" || m[2] == "-" || m[4] == "-" || m[8] == "-" || n.debit
	return n, true
}

// parseAmount reads an amount in cents from its printed text: exactly two
// decimals, negative as (12.34), -12.34, 12.34- or 12.34 DR. The digits
// are read as an integer of cents, never through a float, and checked
// against domain.ParseDollars' bound.
func parseAmount(s string) (int64, bool) {
	n, ok := parseNumber(s)
	if !ok || !n.isAmount() {
		return 0, false
	}
	if n.value == 0 {
		return 0, true
	}
	if _, err := domain.ParseDollars(domain.Number(strconv.FormatInt(n.value/100, 10)+"."+twoDigits(n.value%100)), domain.ExactlyTwoPlaces); err != nil {
		return 0, false
	}
	if n.negative {
		return -n.value, true
	}
	return n.value, true
}

func twoDigits(v int64) string {
	s := strconv.FormatInt(v, 10)
	if len(s) < 2 {
		return "0" + s
	}
	return s
}

// figureWords joins the words of a figure that a layout split: "$" then
// "1,234.56", "(" "12.34)", "1,234.56" then "CR" or "*". It returns the
// figures of a run of words with the index of the word each starts at.
func figureWords(words []string) (out []number, starts []int) {
	for i := 0; i < len(words); i++ {
		w := words[i]
		j := i
		if (w == "$" || w == "-" || w == "(" || w == "($" || w == "-$" || w == "$-") && i+1 < len(words) {
			w += words[i+1]
			j++
		}
		if j+1 < len(words) {
			switch next := words[j+1]; strings.ToUpper(next) {
			case "CR", "DR", "*", "**", "-":
				if n, ok := parseNumber(w + next); ok {
					out, starts = append(out, n), append(starts, i)
					i = j + 1
					continue
				}
			}
		}
		if n, ok := parseNumber(w); ok {
			out, starts = append(out, n), append(starts, i)
			i = j
		}
	}
	return out, starts
}

var (
	numericDate = regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$`)
	isoDate     = regexp.MustCompile(`^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$`)
	dayMonYear  = regexp.MustCompile(`^(\d{1,2})[- ]?([A-Za-z]{3,9})\.?[- ,]*(\d{2}|\d{4})$`)
	monDayYear  = regexp.MustCompile(`^([A-Za-z]{3,9})\.?[- ]?(\d{1,2})(?:st|nd|rd|th)?,?[- ]+(\d{4})$`)
)

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
	"aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

// month reads a month's name or its abbreviation ("Sept", "SEP", "January").
func month(name string) (time.Month, bool) {
	name = strings.ToLower(strings.TrimSuffix(name, "."))
	if len(name) < 3 {
		return 0, false
	}
	m, ok := months[name[:3]]
	if !ok {
		return 0, false
	}
	full := strings.ToLower(m.String())
	if len(name) > 3 && !strings.HasPrefix(full, name) && name != "sept" {
		return 0, false
	}
	return m, ok
}

// parseDate reads a date in the formats US payroll prints (01/15/2026,
// 1/15/26, 01.15.2026, Jan 15, 2026, January 15 2026, 2026-01-15,
// 15-Jan-2026, 15-JAN-26, 15JAN2026) and gives it as YYYY-MM-DD.
func parseDate(s string) (string, bool) {
	s = strings.TrimSpace(strings.Trim(s, ",;:()[]"))
	var y, d int
	var mo time.Month
	atoi := func(v string) int { n, _ := strconv.Atoi(v); return n }
	year := func(v string) int {
		n := atoi(v)
		if len(v) == 2 {
			n += 2000
		}
		return n
	}
	switch {
	case isoDate.MatchString(s):
		m := isoDate.FindStringSubmatch(s)
		y, mo, d = atoi(m[1]), time.Month(atoi(m[2])), atoi(m[3])
	case numericDate.MatchString(s):
		m := numericDate.FindStringSubmatch(s)
		y, mo, d = year(m[3]), time.Month(atoi(m[1])), atoi(m[2])
	case dayMonYear.MatchString(s):
		m := dayMonYear.FindStringSubmatch(s)
		var ok bool
		if mo, ok = month(m[2]); !ok {
			return "", false
		}
		y, d = year(m[3]), atoi(m[1])
	case monDayYear.MatchString(s):
		m := monDayYear.FindStringSubmatch(s)
		var ok bool
		if mo, ok = month(m[1]); !ok {
			return "", false
		}
		y, d = atoi(m[3]), atoi(m[2])
	default:
		return "", false
	}
	t := time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || t.Month() != mo || y < 1990 || y > 2100 {
		return "", false
	}
	return t.Format(time.DateOnly), true
}

// findDates finds every date in a run of text, in order: a period
// "01/01/2026 - 01/15/2026" gives two. Dates written with spaces (Jan 15,
// 2026) are tried over up to three words.
func findDates(text string) []string {
	words := strings.Fields(text)
	var out []string
	for i := 0; i < len(words); i++ {
		for n := 3; n >= 1; n-- {
			if i+n > len(words) {
				continue
			}
			if d, ok := parseDate(strings.Join(words[i:i+n], " ")); ok {
				out = append(out, d)
				i += n - 1
				break
			}
			if n == 1 {
				// 01/01/2026-01/15/2026 or 01/01/2026–01/15/2026 written
				// without spaces.
				for _, sep := range []string{"-", "–", "—", "to"} {
					if a, b, ok := strings.Cut(words[i], sep); ok {
						da, oka := parseDate(a)
						db, okb := parseDate(b)
						if oka && okb {
							out = append(out, da, db)
							break
						}
					}
				}
			}
		}
	}
	return out
}

var einPattern = regexp.MustCompile(`\b(\d{2})-(\d{7})\b`)

// findEIN finds an employer identification number, NN-NNNNNNN.
func findEIN(text string) string {
	m := einPattern.FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return m[1] + "-" + m[2]
}
