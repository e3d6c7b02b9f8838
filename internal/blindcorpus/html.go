package main

import (
	"fmt"
	"strings"
)

// H is a small HTML writer.
type H struct{ strings.Builder }

func (h *H) f(format string, a ...any) { fmt.Fprintf(&h.Builder, format, a...) }

func page(title, size, margin, css string, body string) string {
	return fmt.Sprintf(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>%s</title>
<style>
@page { size: %s; margin: %s; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
table { border-collapse: collapse; }
td, th { padding: 0; vertical-align: top; }
.r { text-align: right; } .c { text-align: center; } .b { font-weight: bold; }
%s
</style></head><body>
%s
</body></html>`, esc(title), size, margin, css, body)
}

// relabel copies a stub and names its lines the way a layout prints them.
func relabel(s *Stub, name func(cat string, l Line) string) *Stub {
	c := *s
	ren := func(cat string, ls []Line) []Line {
		out := make([]Line, len(ls))
		for i, l := range ls {
			if n := name(cat, l); n != "" {
				l.Name = n
			}
			out[i] = l
		}
		return out
	}
	c.Earn = ren("earn", s.Earn)
	c.Tax = ren("tax", s.Tax)
	c.Ded = ren("ded", s.Ded)
	c.Reimb = ren("reimb", s.Reimb)
	c.Employer = ren("er", s.Employer)
	c.Memo = ren("memo", s.Memo)
	return &c
}

var stateNames = map[string]string{"CA": "California", "NY": "New York", "NJ": "New Jersey", "PA": "Pennsylvania",
	"IL": "Illinois", "GA": "Georgia", "NC": "North Carolina", "VA": "Virginia", "OH": "Ohio", "MD": "Maryland",
	"MA": "Massachusetts", "CO": "Colorado", "AZ": "Arizona", "OR": "Oregon", "MI": "Michigan", "WI": "Wisconsin",
	"MN": "Minnesota", "IN": "Indiana", "KY": "Kentucky", "MO": "Missouri", "TX": "Texas", "FL": "Florida",
	"WA": "Washington", "TN": "Tennessee", "NV": "Nevada", "SC": "South Carolina", "UT": "Utah", "CT": "Connecticut",
	"IA": "Iowa", "NE": "Nebraska", "NM": "New Mexico", "NH": "New Hampshire"}

// taxNamer returns a naming function for tax lines from a table of styles.
// style: "adp", "long", "short", "codes", "upper", "gusto".
func taxName(style string, l Line) string {
	code := l.Code
	st := ""
	if i := strings.Index(code, "_"); i > 0 {
		st = code[i+1:]
		code = code[:i]
	}
	switch style {
	case "adp":
		switch code {
		case "FIT":
			return "Federal Income Tax"
		case "SS":
			return "Social Security Tax"
		case "MED":
			return "Medicare Tax"
		case "SIT":
			return st + " State Income Tax"
		case "SDI":
			return st + " SUI/SDI Tax"
		case "SUI":
			return st + " SUI Tax"
		case "FLI":
			return st + " Family Leave Ins"
		case "PFL":
			return st + " Paid Family Leave"
		}
	case "short":
		switch code {
		case "FIT":
			return "Fed Income Tax"
		case "SS":
			return "Social Security"
		case "MED":
			return "Medicare"
		case "SIT":
			return st + " Income Tax"
		case "SDI", "SUI", "FLI", "PFL", "PFML", "FAMLI", "LTC":
			return st + " " + code
		}
	case "long":
		switch code {
		case "FIT":
			return "Federal Withholding"
		case "SS":
			return "Social Security Employee"
		case "MED":
			return "Medicare Employee"
		case "SIT":
			return stateNames[st] + " Withholding"
		case "SDI":
			return stateNames[st] + " SDI Employee"
		case "SUI":
			return stateNames[st] + " Unemployment Employee"
		case "FLI", "PFL", "PFML", "FAMLI":
			return stateNames[st] + " Paid Family Leave"
		case "LTC":
			return "Washington Cares Fund"
		}
	case "codes":
		switch code {
		case "FIT":
			return "FITW"
		case "SS":
			return "SS"
		case "MED":
			return "MED"
		case "SIT":
			return st + " SIT"
		case "SDI", "SUI", "FLI", "PFL", "PFML", "FAMLI":
			return st + " " + code
		case "LOCAL":
			return "LOCAL"
		}
	case "upper":
		switch code {
		case "FIT":
			return "FED WITHHLDG"
		case "SS":
			return "FED OASDI/EE"
		case "MED":
			return "FED MED/EE"
		case "SIT":
			return st + " WITHHLDG"
		case "SDI", "SUI", "FLI", "PFL", "PFML", "FAMLI":
			return st + " " + code + "/EE"
		case "LOCAL":
			return strings.ToUpper(l.Name)
		}
	case "gusto":
		switch code {
		case "FIT":
			return "Federal Income Tax"
		case "SS":
			return "Social Security"
		case "MED":
			return "Medicare"
		case "SIT":
			return stateNames[st] + " Withholding Tax"
		case "SDI":
			return stateNames[st] + " SDI"
		case "SUI":
			return stateNames[st] + " Unemployment Tax"
		case "FLI", "PFL", "PFML", "FAMLI":
			return stateNames[st] + " Paid Family Leave"
		case "LTC":
			return "WA Cares Fund"
		}
	}
	return ""
}

// tbl writes a table; align has one letter per column (l, r, c); a row whose first cell starts
// with "!" is written bold (the "!" removed).
func tbl(cls string, head []string, align string, rows [][]string) string {
	var h H
	h.f(`<table class="%s">`, cls)
	if head != nil {
		h.f(`<thead><tr>`)
		for i, c := range head {
			h.f(`<th class="%s">%s</th>`, al(align, i), c)
		}
		h.f(`</tr></thead>`)
	}
	h.f(`<tbody>`)
	for _, row := range rows {
		cls := ""
		if len(row) > 0 && strings.HasPrefix(row[0], "!") {
			cls = ` class="tot"`
			row = append([]string{row[0][1:]}, row[1:]...)
		}
		h.f(`<tr%s>`, cls)
		for i, c := range row {
			h.f(`<td class="%s">%s</td>`, al(align, i), c)
		}
		h.f(`</tr>`)
	}
	h.f(`</tbody></table>`)
	return h.String()
}

func al(align string, i int) string {
	if i < len(align) {
		switch align[i] {
		case 'r':
			return "r"
		case 'c':
			return "c"
		}
	}
	return "l"
}

// cur writes a line's current figure, or blank when the line only has a YTD.
func curOr(l Line, s string, blank string) string {
	if !l.Cur {
		return blank
	}
	return s
}

func (h *H) s(x string) { h.WriteString(x) }
