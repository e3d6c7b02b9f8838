package reports

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/encoding/charmap"

	"payline/domain"
)

// paystubTitle marks a paystub Payline rendered; ParseUpload reads only
// that layout.
const paystubTitle = "Earnings Statement"

// Labels of the paystub's fields, written by RenderPaystub and read back
// by ParseUpload.
const (
	labelEmployer    = "Employer"
	labelPayDate     = "Pay date"
	labelPeriodStart = "Period start"
	labelPeriodEnd   = "Period end"
	labelGross       = "Gross pay"
	labelNet         = "Net pay"
	labelGrossYTD    = "Gross pay YTD"
	labelNetYTD      = "Net pay YTD"
)

// RenderPaystub renders one paystub as a one-page PDF: the employer, pay
// date and period, the pay and year-to-date totals on labelled lines, and
// the earnings, taxes and deductions. The same paystub renders the same
// bytes.
func RenderPaystub(p domain.Paystub) ([]byte, error) {
	created := p.CreatedAt
	if created.IsZero() {
		// The PDF's creation date; a pay date that does not parse leaves
		// the Unix epoch, never year 1.
		var err error
		if created, err = time.Parse(time.DateOnly, p.PayDate.String()); err != nil {
			created = time.Unix(0, 0).UTC()
		}
	}
	return renderPDF(pdfMeta{Title: "Paystub " + p.PayDate.String(), Subject: "Paystub of the pay date " + p.PayDate.String(),
		Keywords: []string{"Payline", "paystub", "paystub " + p.ID}}, created, "Payline · Paystub · "+p.ID, func(d *pdfDoc) {
		d.titleBlock(paystubTitle, orDash(p.EmployerName), [][2]string{{"Paid on", day(p.PayDate.String())}, {"Paystub", p.ExternalPaystubID}})
		d.section("Pay", 40)
		d.fields([][2]string{
			{labelEmployer, p.EmployerName}, {labelPayDate, p.PayDate.String()},
			{labelPeriodStart, p.PayPeriodStart.String()}, {labelPeriodEnd, p.PayPeriodEnd.String()},
			{labelGross, money(p.GrossPayAmount.Amount)}, {labelNet, money(p.NetPayAmount.Amount)},
			{labelGrossYTD, money(p.GrossPayYTD.Amount)}, {labelNetYTD, money(p.NetPayYTD.Amount)},
		})
		lines := func(title string, ls []domain.PayLine) {
			if len(ls) == 0 {
				return
			}
			d.section(title, 25)
			rows := make([][]string, len(ls))
			for i, l := range ls {
				rows[i] = []string{l.Name, titleCase(l.Category), money(l.Amount.Amount)}
			}
			d.table([]column{{"Name", 80, "L"}, {"Category", 60, "L"}, {"Amount", d.width - 140, "R"}}, rows)
		}
		lines("Earnings", p.Earnings)
		lines("Taxes", p.Taxes)
		lines("Deductions", p.Deductions)
	})
}

// ParseUpload implements domain.UploadParser: a paystub PDF in the layout
// RenderPaystub writes gives its employer, dates and amounts; anything
// else (images, other PDFs, W-2s) gives nothing. A PDF whose streams
// inflate past domain.MaxUploadInflatedBytes in all is read no further:
// domain.ErrUploadInflatesTooLarge.
func (s *Service) ParseUpload(documentType, contentType string, data []byte) (domain.ParsedUpload, error) {
	if documentType != domain.DocumentPaystub || contentType != "application/pdf" {
		return domain.ParsedUpload{}, nil
	}
	texts, _, err := pdfTexts(data, domain.MaxUploadInflatedBytes)
	if err != nil {
		return domain.ParsedUpload{}, err
	}
	return parsePaystub(texts), nil
}

// parsePaystub reads a paystub from the texts of a PDF RenderPaystub
// wrote; other texts give nothing.
func parsePaystub(texts []string) domain.ParsedUpload {
	if !slicesContains(texts, paystubTitle) {
		return domain.ParsedUpload{}
	}
	value := func(label string) string {
		for i := 0; i+1 < len(texts); i++ {
			if texts[i] == label {
				return texts[i+1]
			}
		}
		return ""
	}
	out := &domain.ReadPaystub{DocumentType: domain.DocumentPaystub, EmployerName: value(labelEmployer), Currency: domain.CurrencyUSD}
	for _, d := range []struct {
		dst   *string
		label string
	}{{&out.PayDate, labelPayDate}, {&out.PayPeriodStart, labelPeriodStart}, {&out.PayPeriodEnd, labelPeriodEnd}} {
		v := value(d.label)
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return domain.ParsedUpload{}
		}
		*d.dst = v
	}
	for _, a := range []struct {
		dst   **int64
		label string
	}{{&out.GrossPayAmount, labelGross}, {&out.NetPayAmount, labelNet}, {&out.GrossPayYTD, labelGrossYTD}, {&out.NetPayYTD, labelNetYTD}} {
		m, err := domain.ParseDollars(domain.Number(strings.NewReplacer("$", "", ",", "").Replace(value(a.label))), domain.ExactlyTwoPlaces)
		if err != nil {
			return domain.ParsedUpload{}
		}
		*a.dst = &m.Amount
	}
	// Whether the figures add up is the domain's forgery checks' to say.
	return domain.ParsedUpload{Data: domain.ParsedDocument{Paystub: out}}
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

var (
	pdfStream = regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`)
	pdfShow   = regexp.MustCompile(`\(((?:\\.|[^\\)])*)\)\s*Tj`)
)

// pdfTexts lists the strings a PDF shows with Tj, in order, from its
// (Flate-compressed or plain) content streams: enough for the PDFs fpdf
// writes in a standard font, which is what RenderPaystub makes. Streams
// that do not inflate are read as they are. Its streams may inflate to
// budget bytes in all: past it, pdfTexts stops with
// domain.ErrUploadInflatesTooLarge. It also says how many it inflated.
func pdfTexts(data []byte, budget int) ([]string, int, error) {
	var out []string
	dec := charmap.Windows1252.NewDecoder()
	used := 0
	for _, m := range pdfStream.FindAllSubmatch(data, -1) {
		content := m[1]
		if r, err := zlib.NewReader(bytes.NewReader(content)); err == nil {
			inflated, err := io.ReadAll(io.LimitReader(r, int64(budget-used)+1))
			used += len(inflated)
			if used > budget {
				return nil, used, domain.ErrUploadInflatesTooLarge
			}
			if err == nil {
				content = inflated
			}
		}
		for _, s := range pdfShow.FindAllSubmatch(content, -1) {
			text, err := dec.String(unescapePDF(s[1]))
			if err == nil {
				out = append(out, text)
			}
		}
	}
	return out, used, nil
}

// unescapePDF undoes a PDF literal string's escapes: \( \) \\ \n and \ddd.
func unescapePDF(b []byte) string {
	var sb strings.Builder
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			sb.WriteByte(b[i])
			continue
		}
		i++
		switch c := b[i]; {
		case c == 'n':
			sb.WriteByte('\n')
		case c == 'r':
			sb.WriteByte('\r')
		case c == 't':
			sb.WriteByte('\t')
		case c >= '0' && c <= '7':
			v, n := 0, 0
			for n < 3 && i < len(b) && b[i] >= '0' && b[i] <= '7' {
				v, n, i = v*8+int(b[i]-'0'), n+1, i+1
			}
			i--
			sb.WriteByte(byte(v))
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}
