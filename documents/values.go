package documents

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// amountPattern is a US dollar amount as paystubs print it: an optional
// sign or parentheses, an optional dollar sign, digits grouped by commas
// or not, and exactly two decimals. "1.234,56" (a European amount) does
// not match.
var amountPattern = regexp.MustCompile(`^(\()?(-)?\$?\s?(-)?(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})(\))?(-)?$`)

// parseAmount reads an amount in cents from its printed text, never
// through a float: the digits go through domain.ParseDollars. Negative
// amounts are written (12.34), -12.34 or 12.34-.
func parseAmount(s string) (int64, bool) {
	s = strings.TrimSpace(strings.TrimRight(s, ":;"))
	m := amountPattern.FindStringSubmatch(s)
	if m == nil || (m[1] == "(") != (m[6] == ")") {
		return 0, false
	}
	whole := strings.ReplaceAll(m[4], ",", "")
	if len(whole) > 1 {
		whole = strings.TrimLeft(whole, "0")
		if whole == "" {
			whole = "0"
		}
	}
	var cents int64
	if strings.Trim(whole+m[5], "0") != "" {
		v, err := domain.ParseDollars(domain.Number(whole+"."+m[5]), domain.ExactlyTwoPlaces)
		if err != nil {
			return 0, false
		}
		cents = v.Amount
	}
	if m[1] == "(" || m[2] == "-" || m[3] == "-" || m[7] == "-" {
		cents = -cents
	}
	return cents, true
}

var (
	numericDate = regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$`)
	isoDate     = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	dayMonYear  = regexp.MustCompile(`^(\d{1,2})[- ]([A-Za-z]{3,9})\.?[- ,]+(\d{2}|\d{4})$`)
	monDayYear  = regexp.MustCompile(`^([A-Za-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})$`)
)

var months = map[string]time.Month{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7,
	"aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

func month(name string) (time.Month, bool) {
	if len(name) < 3 {
		return 0, false
	}
	m, ok := months[strings.ToLower(name[:3])]
	return m, ok
}

// parseDate reads a date in the formats US payroll prints (01/15/2026,
// 1/15/26, Jan 15, 2026, January 15 2026, 2026-01-15, 15-Jan-2026) and
// gives it as YYYY-MM-DD.
func parseDate(s string) (string, bool) {
	s = strings.TrimSpace(strings.TrimRight(s, ",;:"))
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
			// 01/01/2026-01/15/2026 written without spaces.
			if n == 1 {
				if a, b, ok := strings.Cut(words[i], "-"); ok && strings.Contains(a, "/") {
					da, oka := parseDate(a)
					db, okb := parseDate(b)
					if oka && okb {
						out = append(out, da, db)
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
