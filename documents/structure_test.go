package documents

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"payline/domain"
)

// placed lays out rows of cells as a text layer would: each row a line 14
// points below the last, each cell "X:text" starting at X points, its
// words 5 points a character apart; a cell written ">X:text" ends at X
// instead (right-aligned, as figures are printed).
func placed(rows ...string) page {
	var words []word
	for y, row := range rows {
		if row == "" {
			continue
		}
		for _, cell := range strings.Split(row, "|") {
			xs, text, ok := strings.Cut(strings.TrimSpace(cell), ":")
			if !ok {
				panic("cell without x: " + cell)
			}
			right := strings.HasPrefix(xs, ">")
			x, err := strconv.ParseFloat(strings.TrimPrefix(xs, ">"), 64)
			if err != nil {
				panic("cell without x: " + cell)
			}
			width := 0.0
			for _, w := range strings.Fields(text) {
				width += 5*float64(len(w)) + 3
			}
			if right {
				x -= width - 3
			}
			for _, w := range strings.Fields(text) {
				words = append(words, word{text: w, x0: x, x1: x + 5*float64(len(w)), y0: 14 * float64(y), y1: 14*float64(y) + 10, page: 1, conf: 1})
				x += 5*float64(len(w)) + 3
			}
		}
	}
	doc := buildLayout(words, textGap)
	doc.sizes = map[int][2]float64{1: {612, 792}}
	return doc
}

func money(p *int64) string {
	if p == nil {
		return "-"
	}
	return domain.USD(*p).Decimal()
}

// TestReadsStructure: layouts of real providers, as their structure,
// read to the cent: which figure is the period's and which the year's,
// what is a line of pay and what is not.
func TestReadsStructure(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  page
		// want lists field=value; lines lists the earnings, taxes and
		// deductions lines as name=amount.
		want  []string
		lines []string
	}{
		{"an earnings statement in sections under one header, with a net check and a deduction that stopped", placed(
			"10:Harbor Point Logistics, Inc.|400:Earnings Statement",
			"10:400 Quay St|400:Period Beginning:|500:01/25/2026",
			"10:Baltimore, MD 21230|400:Period Ending:|500:02/07/2026",
			"400:Pay Date:|500:02/12/2026",
			"",
			"10:Earnings|150:rate|200:hours|250:this period|330:year to date",
			"10:Regular|>190:34.4000|>230:80.00|>300:2,752.00|>380:8,256.00",
			"20:Gross Pay|>300:$2,752.00|>380:8,256.00",
			"10:Statutory Deductions|250:this period|330:year to date",
			"20:Federal Income Tax|>300:-230.34|>380:691.02",
			"20:Social Security Tax|>300:-170.62|>380:511.86",
			"20:Medicare Tax|>300:-39.90|>380:119.70",
			"10:Voluntary Deductions|250:this period|330:year to date",
			"20:401K|>300:-82.56*|>380:247.68",
			"20:Medical|>300:(118.70)|>380:356.10",
			"20:401K Loan|>380:90.00",
			"20:Net Pay|>300:$2,109.88",
			"20:Checking 1|>300:-2,109.88",
			"20:Net Check|>300:$0.00",
		), []string{"employer=Harbor Point Logistics, Inc.", "pay_date=2026-02-12", "period=2026-01-25..2026-02-07",
			"gross=2752.00", "net=2109.88", "gross_ytd=8256.00"},
			[]string{"earnings Regular=2752.00 80h@34.40", "taxes Federal Income Tax=230.34", "taxes Social Security Tax=170.62",
				"taxes Medicare Tax=39.90", "deductions 401K=82.56", "deductions Medical=118.70"}},
		{"a year to date written inline, credits marked CR", placed(
			"10:State of Maryland|300:Earnings Statement",
			"10:Agency:|100:Department of Natural Resources",
			"10:Pay Period|100:12/16/2025 - 12/31/2025|300:Check Date|400:01/05/2026",
			"10:Gross Pay|>300:2,306.25 CR",
			"10:Total Deductions|>300:610.06 DR",
			"10:Net Pay|>300:1,696.19 CR",
			"10:Year To Date: Gross 55,350.00 Net 40,708.44",
		), []string{"gross=2306.25", "net=1696.19", "gross_ytd=55350.00", "net_ytd=40708.44", "pay_date=2026-01-05",
			"period=2025-12-16..2025-12-31", "employer=State of Maryland"}, nil},
		{"columns grouped under Current and YTD: hours of the year are no hours of the period", placed(
			"10:Quillfeather Learning Centers|400:Pay Advice",
			"10:HOURS AND EARNINGS",
			"200:Current|400:YTD",
			"10:Description|150:Rate|200:Hours|250:Earnings|380:Hours|430:Earnings",
			"10:Regular|>190:22.5000|>240:80.00|>300:1,800.00|>420:1,760.00|>480:39,600.00",
			"10:Overtime|>190:33.7500|>240:4.00|>300:135.00|>420:40.00|>480:1,350.00",
			"10:TOTAL GROSS|>300:1,935.00|>480:40,950.00",
			"10:NET PAY|>300:1,523.65|>480:32,243.10",
			"10:Pay Begin Date|150:Pay End Date|300:Advice Date",
			"10:01/01/2026|150:01/15/2026|300:01/20/2026",
		), []string{"gross=1935.00", "net=1523.65", "gross_ytd=40950.00", "pay_date=2026-01-20", "period=2026-01-01..2026-01-15"},
			[]string{"earnings Regular=1800.00 80h@22.50", "earnings Overtime=135.00 4h@33.75"}},
		{"a band of headings over one row of values, and a summary of Current and YTD rows", placed(
			"10:Dunmore Concrete & Paving LLC",
			"10:Employee Name|150:Employee ID|250:Check Date|350:Period Start|450:Period End",
			"10:Teresa M. Okafor|150:004512|250:03/06/2026|350:02/16/2026|450:02/28/2026",
			"",
			"80:Gross|180:Taxes|280:Deductions|380:Net Pay",
			"10:Current|>120:1,900.00|>220:301.15|>320:95.00|>420:1,503.85",
			"10:YTD|>120:9,500.00|>220:1,505.75|>320:475.00|>420:7,519.25",
		), []string{"employee=Teresa M. Okafor", "pay_date=2026-03-06", "period=2026-02-16..2026-02-28", "gross=1900.00",
			"net=1503.85", "gross_ytd=9500.00", "net_ytd=7519.25", "employer=Dunmore Concrete & Paving LLC"}, nil},
		{"a logo's word above the employer, a heading band near the name", placed(
			"10:AVALON",
			"10:Avalon Health Partners, PC|400:Wage Statement",
			"10:77 Harbor Way, Suite 200|400:Pay Date: 04/03/2026",
			"10:Portland, ME 04101",
			"10:Name|150:Emp #|250:Dept",
			"10:Jordan A. Whitfield|150:88123|250:210",
			"10:Gross Pay|>300:3,100.00",
			"10:Net Pay|>300:2,290.44",
		), []string{"employer=Avalon Health Partners, PC", "employee=Jordan A. Whitfield", "gross=3100.00", "net=2290.44"}, nil},
		{"side-by-side tables, a totals row without a label, a reimbursement added to net", placed(
			"10:Westbrook Hardware & Supply|400:Check Date 03/13/2026",
			"10:Earnings|100:Hrs|150:Current|210:YTD|300:Deductions|400:Current|460:YTD",
			"10:Regular|>130:80.00|>200:1,520.00|>260:7,600.00|300:Federal Tax|>450:152.00|>510:760.00",
			"10:Overtime|>130:2.00|>200:57.00|>260:285.00|300:Social Security|>450:97.77|>510:488.85",
			"300:Medicare|>450:22.87|>510:114.35",
			"10:Per Diem|>200:120.00|>260:600.00|300:Dental|>450:15.00|>510:75.00",
			">200:1,697.00|>450:287.64",
			"10:Gross Pay|>200:1,577.00",
			"10:Net Pay|>200:1,409.36",
		), []string{"gross=1577.00", "net=1409.36", "reimbursements=120.00", "pay_date=2026-03-13"},
			[]string{"earnings Regular=1520.00", "earnings Overtime=57.00", "taxes Federal Tax=152.00", "taxes Social Security=97.77",
				"taxes Medicare=22.87", "deductions Dental=15.00"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := readPaystub(c.doc, false)
			p := r.stub
			got := map[string]string{"employer": p.EmployerName, "employee": p.EmployeeName, "pay_date": p.PayDate,
				"period": p.PayPeriodStart + ".." + p.PayPeriodEnd, "gross": money(p.GrossPayAmount), "net": money(p.NetPayAmount),
				"gross_ytd": money(p.GrossPayYTD), "net_ytd": money(p.NetPayYTD), "reimbursements": money(p.Reimbursements)}
			for _, w := range c.want {
				k, v, _ := strings.Cut(w, "=")
				if got[k] != v {
					t.Errorf("%s: got %q, want %q", k, got[k], v)
				}
			}
			if c.lines != nil {
				var lines []string
				show := func(kind string, ls []domain.PayLine) {
					for _, l := range ls {
						s := fmt.Sprintf("%s %s=%s", kind, l.Name, l.Amount.Decimal())
						if l.Hours != nil && l.Rate != nil {
							s += fmt.Sprintf(" %gh@%s", *l.Hours, l.Rate.Decimal())
						}
						lines = append(lines, s)
					}
				}
				show("earnings", p.Earnings)
				show("taxes", p.Taxes)
				show("deductions", p.Deductions)
				for _, w := range c.lines {
					if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, w) }) {
						t.Errorf("no line %q in %q", w, lines)
					}
				}
				if len(lines) != len(c.lines) {
					t.Errorf("lines %q, want %d", lines, len(c.lines))
				}
			}
			reasons := append(r.doubts, domain.CheckDocument(domain.ParsedDocument{Paystub: p}, domain.FileFacts{}, domain.EmployerFacts{})...)
			if len(reasons) > 0 {
				t.Errorf("an honest stub read with doubts: %+v", reasons)
			}
		})
	}
}

// TestCopiesAndParts: a voucher page printing one stub twice is read as
// one stub (its lines once); a PDF of several stubs, one a page, as
// several; a stub continued on a second page as one.
func TestCopiesAndParts(t *testing.T) {
	stub := []string{
		"10:Maple Hollow Veterinary Clinic|400:Employee Pay Stub",
		"10:Pay Date: 01/30/2026|200:Pay Period: 01/12/2026 - 01/25/2026",
		"10:Earnings|150:Current|220:YTD",
		"10:Hourly|>200:2,641.76|>270:5,316.96",
		"10:Gross Pay|>200:2,641.76|>270:5,316.96",
		"10:Taxes|150:Current|220:YTD",
		"10:Federal Withholding|>200:251.67|>270:487.14",
		"10:Net Pay|>200:2,390.09|>270:4,829.82",
	}
	twice := append(append(slices.Clone(stub), "", "", "10:- - - - - - - - - -", ""), stub...)
	parts := splitStubs(placed(twice...))
	if len(parts) != 1 {
		t.Fatalf("a page with two copies of a stub read as %d", len(parts))
	}
	p := readPaystub(parts[0], false).stub
	if len(p.Earnings) != 1 || money(p.NetPayAmount) != "2390.09" || len(p.Taxes) != 1 {
		t.Errorf("the copies read as %+v", p)
	}

	onPage := func(doc page, n int) page {
		for i := range doc.lines {
			doc.lines[i].page = n
			for k := range doc.lines[i].phrases {
				doc.lines[i].phrases[k].page = n
			}
		}
		return doc
	}
	a, b := onPage(placed(stub...), 1), onPage(placed(stub...), 2)
	three := page{lines: append(append(slices.Clone(a.lines), b.lines...), onPage(placed(stub...), 3).lines...)}
	if got := splitStubs(three); len(got) != 3 {
		t.Errorf("a PDF of three stubs read as %d", len(got))
	}
	first := onPage(placed(stub[:5]...), 1)
	second := onPage(placed(stub[5:]...), 2)
	if got := splitStubs(page{lines: append(first.lines, second.lines...)}); len(got) != 1 {
		t.Errorf("a stub on two pages read as %d", len(got))
	}
}

// TestClassify: a letter, an offer and a bank statement are told apart
// from a paystub; a paystub is one; a W-2 is one.
func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name string
		rows []string
		want string
	}{
		{"employment letter", []string{"10:Harbor Point Logistics, Inc.", "10:To Whom It May Concern:",
			"10:This letter is to verify that Maria Gonzalez has been employed by Harbor Point Logistics",
			"10:since March 4, 2019, in the position of Senior Dispatcher. Her current annual salary is $62,400.00.",
			"10:Please contact Human Resources with any questions.", "10:Sincerely,", "10:Dana Whitfield, HR Manager"}, "employment_letter"},
		{"bank statement", []string{"10:Great Lakes Community Bank", "10:Statement Period 02/01/2026 - 02/28/2026",
			"10:Account Summary|300:Checking Account", "10:Beginning Balance|>400:1,204.55", "10:Deposits and Additions|>400:3,956.34",
			"10:Electronic Withdrawals|>400:2,100.00", "10:Ending Balance|>400:3,060.89", "10:Account Number xxxx1234"}, "bank_statement"},
		{"paystub", []string{"10:Acme Corp|300:Earnings Statement", "10:Pay Date: 01/15/2026", "10:Earnings|150:Current|220:YTD",
			"10:Regular|>200:1,000.00|>270:2,000.00", "10:Gross Pay|>200:1,000.00|>270:2,000.00", "10:Net Pay|>200:800.00|>270:1,600.00"}, domain.DocumentPaystub},
	} {
		if got := classify(placed(c.rows...)); got != c.want {
			t.Errorf("%s: classified %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEncryptedPDF: a PDF that needs a password to open is refused with
// its own reason, not as damaged.
func TestEncryptedPDF(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("qpdf is not installed")
		}
		t.Skip("qpdf is not installed")
	}
	r := NewReader()
	requirePoppler(t, r)
	dir := t.TempDir()
	out := filepath.Join(dir, "locked.pdf")
	if b, err := exec.Command(qpdf, "--encrypt", "user-pw", "owner-pw", "256", "--", filepath.Join(corpusRoot, "dev", "fpdf-classic-01.pdf"), out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf: %v %s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := r.ParseUpload(context.Background(), domain.DocumentPaystub, "application/pdf", data)
	if err != nil || len(got) != 1 || got[0].Refusal != domain.RefusalEncrypted || !strings.Contains(got[0].Warnings[0].Message, "password") {
		t.Errorf("a password-protected PDF: %+v, %v", got, err)
	}
}

// TestScanBounds: a stream filtered by Flate twice is inflated twice
// within the one budget (a 9 KB file declaring gigabytes is refused); an
// image stream is not inflated at all (an official form's large picture
// is read, not refused).
func TestScanBounds(t *testing.T) {
	deflate := func(b []byte) []byte {
		var buf bytes.Buffer
		w, _ := zlib.NewWriterLevel(&buf, zlib.BestCompression)
		w.Write(b)
		w.Close()
		return buf.Bytes()
	}
	zeros := make([]byte, 40<<20)
	twice := deflate(deflate(zeros))
	pdf := func(dict string, body []byte) []byte {
		return append(append([]byte("%PDF-1.4\n1 0 obj\n<< "+dict+" >>\nstream\n"), body...), []byte("\nendstream\nendobj\n%%EOF")...)
	}
	if _, err := scanPDF(pdf("/Filter [/FlateDecode /FlateDecode] /Length 1", twice), domain.MaxUploadInflatedBytes); err != domain.ErrUploadInflatesTooLarge {
		t.Errorf("a twice-deflated bomb of %d bytes: %v", len(twice), err)
	}
	if _, err := scanPDF(pdf("/Type /XObject /Subtype /Image /Width 5784 /Height 1448 /Filter /FlateDecode", deflate(zeros)), domain.MaxUploadInflatedBytes); err != nil {
		t.Errorf("a large image: %v", err)
	}
}

// TestCovers: what a content stream paints after its text, and an
// annotation's box, are covers; a background painted before the text is
// not.
func TestCovers(t *testing.T) {
	got := coversAfterText([]byte("q 1 1 1 rg 0 0 612 792 re f Q BT /F1 10 Tf 72 700 Td (Net Pay 1,600.00) Tj ET q 1 g 150 695 60 14 re f Q"), false)
	if len(got) != 1 || got[0] != (rect{150, 695, 210, 709}) {
		t.Errorf("covers %+v, want the white box after the text only", got)
	}
	if got := coversAfterText([]byte("q 1 0 0 1 100 200 cm 0 0 1 rg 0 0 50 10 re f Q"), true); len(got) != 0 {
		t.Errorf("a blue box is no cover: %+v", got)
	}
	if got := coversAfterText([]byte("q 80 0 0 12 400 370 cm /Im1 Do Q"), true); len(got) != 1 || got[0] != (rect{400, 370, 480, 382}) {
		t.Errorf("a picture drawn by an update: %+v", got)
	}
	ann := annotationRects([]byte("<< /Type /Annot /Subtype /FreeText /Rect [400 370 480 382] /Contents (3,677.76) >>"))
	if len(ann) != 1 || ann[0] != (rect{400, 370, 480, 382}) {
		t.Errorf("annotation rects %+v", ann)
	}
}
