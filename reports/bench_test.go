package reports_test

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

// benchSources is the benchmark's VOIE input: the golden end user's two
// employments with their 26 most recent paystubs each, 52 in all.
func benchSources() []reports.Source {
	src := goldenSources()
	for i := range src {
		stubs := src[i].Paystubs
		src[i].Paystubs = stubs[len(stubs)-26:]
	}
	return src
}

// realSources is a VOIE of real size: n employments of the same end user,
// each paid weekly, with two years of paystubs (about 105 each), as a
// lender reads them.
func realSources(n int) []reports.Source {
	var out []reports.Source
	for i := 0; len(out) < n; i++ {
		a := domain.Account{ID: fmt.Sprintf("0195f0a0-0000-7000-8000-%012d", 1000+i), CustomerID: "golden-customer", Mode: domain.ModeSandbox,
			EndUserID: "golden-user", EmployerName: fmt.Sprintf("Employer %d Holdings", len(out)+1), Connection: "good",
			CreatedAt: goldenNow.AddDate(0, 0, -3)}
		p := sandbox.NewPerson(a)
		if p.Frequency != "weekly" {
			continue
		}
		read := a.CreatedAt.Add(time.Minute)
		a.DataUpdatedAt = map[string]time.Time{domain.ProductIdentity: read, domain.ProductEmployment: read, domain.ProductIncome: read, domain.ProductPaystubs: read}
		id, emp, inc := p.Identity(), p.Employment(), p.Income()
		out = append(out, reports.Source{Account: a, PlatformName: "Summit Payroll", Identity: &id, Employment: &emp, Income: &inc,
			Paystubs: p.Paystubs(goldenNow.Add(-domain.PaystubHistory), goldenNow, read)})
	}
	return out
}

// BenchmarkVOIEReal renders VOIEs of real size, two and three weekly
// employments over two years (about 210 and 315 paystubs): render, whose
// text WinAnsi holds (simple fonts, subsets built once a process), and
// render-embedded, whose employee's name only fpdf's UTF-8 fonts hold
// (subset for every document); beside them the same report printed by a
// warm Chromium tab, in turn within each -count round. Every font is
// embedded either way. The bars (docs/benchmarks.md): render at most
// 10 ms and 60 KB for two employments, at least 20 times a warm Chromium
// tab.
func BenchmarkVOIEReal(b *testing.B) {
	for _, n := range []int{2, 3} {
		src := realSources(n)
		stubs := 0
		for _, s := range src {
			stubs += len(s.Paystubs)
		}
		r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow)
		wide := r
		wide.Employee.Name.FullName = "Łukasz Wróbel"
		name := fmt.Sprintf("%demployments-%dpaystubs", n, stubs)
		for _, c := range []struct {
			what string
			r    domain.VerificationReport
		}{{"render", r}, {"render-embedded", wide}} {
			b.Run(name+"/"+c.what, func(b *testing.B) {
				var size int
				before := cpuTime()
				for b.Loop() {
					pdf, err := reports.RenderVerification(c.r, src)
					if err != nil {
						b.Fatal(err)
					}
					size = len(pdf)
				}
				// Wall time (ns/op) waits on a shared machine's other work;
				// CPU time (this process's, the garbage collector's
				// included) is the render's own cost.
				b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(size), "pdf-bytes")
			})
		}
		var html bytes.Buffer
		if err := htmlReport.Execute(&html, htmlView(r, src)); err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/chromium-warm", func(b *testing.B) {
			ctx := startChromium(b)
			for range 3 {
				if _, err := chromedp.Run(ctx, printHTML(html.String())); err != nil {
					b.Fatal(err)
				}
			}
			var size int
			for b.Loop() {
				pdf, err := chromedp.Run(ctx, printHTML(html.String()))
				if err != nil {
					b.Fatal(err)
				}
				size = len(pdf)
			}
			b.ReportMetric(float64(size), "pdf-bytes")
		})
	}
}

// cpuTime is the user and system time of this process.
func cpuTime() time.Duration {
	var self syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano())
}

// BenchmarkVOIE measures assembly and fpdf rendering separately, and
// beside them in the same run the same report as HTML printed to PDF by
// headless Chromium (Page.printToPDF), the way many teams make PDFs.
// Sub-benchmarks run in turn within each -count round, so a noisy machine
// slows all three alike. docs/benchmarks.md has the numbers.
func BenchmarkVOIE(b *testing.B) {
	src := benchSources()
	r := reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow)
	b.Run("assemble", func(b *testing.B) {
		for b.Loop() {
			reports.Assemble(domain.ReportVOIE, goldenID, src, goldenNow, goldenNow)
		}
	})
	b.Run("render", func(b *testing.B) {
		var size int
		for b.Loop() {
			pdf, err := reports.RenderVerification(r, src)
			if err != nil {
				b.Fatal(err)
			}
			size = len(pdf)
		}
		b.ReportMetric(float64(size), "pdf-bytes")
	})
	// render-embedded is a report whose employee's name WinAnsi cannot
	// hold, set in fpdf's UTF-8 fonts, so the two ways compare in one run.
	wide := r
	wide.Employee.Name.FullName = "Łukasz Wróbel"
	b.Run("render-embedded", func(b *testing.B) {
		var size int
		for b.Loop() {
			pdf, err := reports.RenderVerification(wide, src)
			if err != nil {
				b.Fatal(err)
			}
			size = len(pdf)
		}
		b.ReportMetric(float64(size), "pdf-bytes")
	})
	var html bytes.Buffer
	if err := htmlReport.Execute(&html, htmlView(r, src)); err != nil {
		b.Fatal(err)
	}
	// chromium-warm prints in one tab of a browser kept running, the
	// cheapest way to use Chromium; chromium-cold starts a browser per
	// report, as a job that renders on demand does.
	b.Run("chromium-warm", func(b *testing.B) {
		ctx := startChromium(b)
		// Warm the tab: Chromium's first prints of a page are slower.
		for range 3 {
			if _, err := chromedp.Run(ctx, printHTML(html.String())); err != nil {
				b.Fatal(err)
			}
		}
		var size int
		for b.Loop() {
			pdf, err := chromedp.Run(ctx, printHTML(html.String()))
			if err != nil {
				b.Fatal(err)
			}
			size = len(pdf)
		}
		b.ReportMetric(float64(size), "pdf-bytes")
	})
	b.Run("chromium-cold", func(b *testing.B) {
		for b.Loop() {
			ctx := startChromium(b)
			if _, err := chromedp.Run(ctx, printHTML(html.String())); err != nil {
				b.Fatal(err)
			}
			chromedp.Cancel(ctx)
		}
	})
}

// startChromium starts headless Chromium with a blank page, stopped when b
// ends (or by chromedp.Cancel).
func startChromium(b testing.TB) context.Context {
	b.Helper()
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		b.Skip("no /usr/bin/chromium")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath("/usr/bin/chromium"), chromedp.NoSandbox,
		chromedp.Headless, chromedp.DisableGPU, chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(b.TempDir()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	b.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	return ctx
}

// printHTML sets the page's HTML and prints it to PDF.
func printHTML(html string) chromedp.Action[[]byte] {
	return func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		tree, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		if _, err := cdp.Call(ctx, t, page.SetDocumentContent, page.SetDocumentContentParams{FrameID: tree.FrameTree.Frame.ID, HTML: html}); err != nil {
			return nil, err
		}
		yes := true
		res, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: &yes, PreferCSSPageSize: &yes,
			DisplayHeaderFooter: &yes, HeaderTemplate: "<span></span>", FooterTemplate: strings.ReplaceAll(htmlFooter, "REF", goldenID)})
		return res.Data, err
	}
}

// htmlVOIE is the view htmlReport prints: the report, and per employment
// every paystub (newest first) and the chart's geometry, as the fpdf
// rendering has them.
type htmlVOIE struct {
	domain.VerificationReport
	Employments []htmlEmployment
}

type htmlEmployment struct {
	domain.ReportEmployment
	Stubs                  []domain.Paystub
	Grid                   []htmlGridline
	GrossPoints, NetPoints string
	GrossMarks, NetMarks   [][2]float64
}

type htmlGridline struct {
	Y     float64
	Label string
}

// htmlView lays the report out for htmlReport: the same content as
// RenderVerification, chart included (700×220 px, gross and net with a
// marker per pay date, four gridlines labelled in dollars).
func htmlView(r domain.VerificationReport, src []reports.Source) htmlVOIE {
	v := htmlVOIE{VerificationReport: r}
	for _, em := range r.Employments {
		he := htmlEmployment{ReportEmployment: em}
		for _, s := range src {
			if s.Account.ID == em.AccountID {
				he.Stubs = append(he.Stubs, s.Paystubs...)
			}
		}
		slices.SortFunc(he.Stubs, func(a, b domain.Paystub) int { return strings.Compare(b.PayDate.String(), a.PayDate.String()) })
		var top int64 = 1
		for _, p := range he.Stubs {
			top = max(top, p.GrossPayAmount.Amount)
		}
		top = (top/100_000 + 1) * 100_000 // the next thousand dollars
		const w, h = 640.0, 200.0
		y := func(c int64) float64 { return h - float64(c)/float64(top)*h }
		for k := int64(0); k <= 4; k++ {
			he.Grid = append(he.Grid, htmlGridline{Y: y(top * k / 4), Label: domain.USD(top * k / 4).Formatted()})
		}
		var gross, net []string
		for i := range he.Stubs {
			p := he.Stubs[len(he.Stubs)-1-i]
			x := 50 + float64(i)/float64(max(1, len(he.Stubs)-1))*w
			gross = append(gross, fmt.Sprintf("%.1f,%.1f", x, y(p.GrossPayAmount.Amount)))
			net = append(net, fmt.Sprintf("%.1f,%.1f", x, y(p.NetPayAmount.Amount)))
			he.GrossMarks = append(he.GrossMarks, [2]float64{x, y(p.GrossPayAmount.Amount)})
			he.NetMarks = append(he.NetMarks, [2]float64{x, y(p.NetPayAmount.Amount)})
		}
		he.GrossPoints, he.NetPoints = strings.Join(gross, " "), strings.Join(net, " ")
		v.Employments = append(v.Employments, he)
	}
	return v
}

// htmlReport is the VOIE as HTML with the same sections, tables and chart
// as the fpdf rendering, and the same footer on every page (Chromium's
// footer template).
var htmlReport = template.Must(template.New("voie").Funcs(template.FuncMap{
	// money takes a report's cents (int64) or a paystub's domain.Money.
	"money": func(v any) (string, error) {
		switch m := v.(type) {
		case int64:
			return domain.USD(m).Formatted(), nil
		case domain.Money:
			return m.Formatted(), nil
		}
		return "", fmt.Errorf("money: %T is not an amount", v)
	},
	"stamp": func(t domain.Timestamp) string { return time.Time(t).UTC().Format("Jan 2, 2006 15:04 UTC") },
}).Parse(`<!doctype html><html><head><meta charset="utf-8"><style>
@page{size:Letter;margin:15mm 15mm 22mm}
body{font-family:Helvetica,Arial,sans-serif;font-size:8pt;color:#1e232d;margin:0}
.band{border-top:4px solid #16345e;display:flex;justify-content:space-between;padding-top:10px}
h1{color:#16345e;font-size:15pt;margin:0}.sub{color:#6e737d;font-size:9.5pt}
.facts td{padding:1px 4px;text-align:right}.facts td:first-child{color:#6e737d}.facts td:last-child{font-weight:bold}
h2{color:#16345e;font-size:11.5pt;border-bottom:1px solid #d2d6dc;margin:14px 0 6px;padding-bottom:2px;break-after:avoid}
.fields{display:grid;grid-template-columns:30mm 1fr 30mm 1fr;gap:3px}.fields .l{color:#6e737d}
table.t{width:100%;border-collapse:collapse}thead{display:table-header-group}tr{break-inside:avoid}
.t th{background:#16345e;color:#fff;text-align:left;padding:3px;font-size:7.5pt}.t td{padding:3px}
.t tbody tr:nth-child(even) td{background:#f4f6f9}.t .r{text-align:right}
.note{color:#6e737d;white-space:pre-line;margin:6px 0}svg{display:block;margin:6px 0}
</style></head><body>
<div class="band"><div><h1>Verification of Income and Employment</h1><div class="sub">Employee: {{.Employee.Name.FullName}}</div></div>
<table class="facts"><tr><td>Reference #</td><td>{{.ID}}</td></tr><tr><td>Data as of</td><td>{{stamp .UpdatedAt}}</td></tr>
<tr><td>Generated</td><td>{{stamp .RefreshedAt}}</td></tr><tr><td>Employments</td><td>{{len .Employments}}</td></tr></table></div>
<h2>Employee</h2><div class="fields"><span class="l">Name</span><span>{{.Employee.Name.FullName}}</span>
<span class="l">Date of birth</span><span>{{.Employee.DateOfBirth}}</span><span class="l">SSN</span><span>XXX-XX-{{.Employee.LastFourSSN}}</span>
<span class="l">Phone</span><span>{{range .Employee.PhoneNumbers}}{{.Value}} {{end}}</span><span class="l">Address</span><span>{{.Employee.Address.Raw}}</span></div>
<h2>Employment</h2><table class="t"><thead><tr><th>Employer</th><th>Title</th><th>Status</th><th>Start</th><th>End</th><th class=r>Months</th><th>Last paid</th></tr></thead><tbody>
{{range .Employments}}<tr><td>{{.EmployerName}}</td><td>{{.Title}}</td><td>{{.EmploymentStatus}}</td><td>{{.StartDate}}</td><td>{{with .TerminationDate}}{{.}}{{else}}—{{end}}</td><td class=r>{{.EmploymentDurationMonths}}</td><td>{{with .MostRecentPayDate}}{{.}}{{end}}</td></tr>{{end}}</tbody></table>
{{range .Employments}}{{$em := .}}
<h2>Income · {{.EmployerName}}</h2><div class="fields"><span class="l">Compensation</span><span>{{money .Income.CompensationAmount}} {{.Income.CompensationUnit}}</span>
<span class="l">Pay frequency</span><span>{{.Income.PayFrequency}}</span></div>
<table class="t"><thead><tr><th>Year</th><th class=r>Gross pay</th><th class=r>Taxes</th><th class=r>Deductions</th><th class=r>Net pay</th><th class=r>Reimbursements</th><th class=r>Paystubs</th></tr></thead><tbody>
{{range .Income.AnnualIncomes}}<tr><td>{{.Year}}</td><td class=r>{{money .GrossPayYTD}}</td><td class=r>{{money .TotalTaxesYTD}}</td><td class=r>{{money .TotalDeductionsYTD}}</td><td class=r>{{money .NetPayYTD}}</td><td class=r>{{money .TotalReimbursementsYTD}}</td><td class=r>{{.Paystubs}}</td></tr>{{end}}</tbody></table>
<p class="note">{{range .Income.AnnualIncomes}}{{.Year}} earnings:{{range .EarningsYTDs}} {{.Category}} {{money .Amount}} ·{{end}}
{{end}}Annual figures are the sums of that calendar year's paystubs, listed in full below.</p>
<h2>Pay history · {{.EmployerName}}</h2>
<svg width="700" height="240" viewBox="0 0 700 240" font-size="9" fill="#6e737d">
{{range .Grid}}<line x1="50" x2="690" y1="{{.Y}}" y2="{{.Y}}" stroke="#d2d6dc"/><text x="46" y="{{.Y}}" text-anchor="end">{{.Label}}</text>{{end}}
<polyline fill="none" stroke="#166eaa" stroke-width="2" points="{{.GrossPoints}}"/><polyline fill="none" stroke="#e27a28" stroke-width="2" points="{{.NetPoints}}"/>
{{range .GrossMarks}}<circle cx="{{index . 0}}" cy="{{index . 1}}" r="2" fill="#166eaa"/>{{end}}{{range .NetMarks}}<circle cx="{{index . 0}}" cy="{{index . 1}}" r="2" fill="#e27a28"/>{{end}}
<rect x="50" y="225" width="18" height="6" fill="#166eaa"/><text x="72" y="231">Gross pay</text><rect x="150" y="225" width="18" height="6" fill="#e27a28"/><text x="172" y="231">Net pay</text></svg>
<h2>Paystubs · {{.EmployerName}} ({{len .Stubs}})</h2>
<table class="t"><thead><tr><th>Pay date</th><th>Period</th><th class=r>Gross</th><th class=r>Taxes</th><th class=r>Deductions</th><th class=r>Net</th><th class=r>Gross YTD</th></tr></thead><tbody>
{{range .Stubs}}<tr><td>{{.PayDate}}</td><td>{{.PayPeriodStart}} – {{.PayPeriodEnd}}</td><td class=r>{{money .GrossPayAmount}}</td><td class=r>{{money .TotalTaxes}}</td><td class=r>{{money .TotalDeductions}}</td><td class=r>{{money .NetPayAmount}}</td><td class=r>{{money .GrossPayYTD}}</td></tr>{{end}}</tbody></table>
{{end}}
<h2>Data completeness</h2><p>{{with .Completeness.Paystubs}}Paystubs cover {{.From}} to {{.To}}.{{end}}
Employee details come from account {{.Completeness.IdentitySource}}. Computed by Payline: {{range .Completeness.Derived}}{{.}}, {{end}}
Not reported by the payroll platforms: {{range .Completeness.Missing}}{{.}}, {{end}}</p>
</body></html>`))

// htmlFooter is Chromium's footer template: the fpdf footer's text.
const htmlFooter = `<div style="font-size:7.5pt;color:#6e737d;width:100%;margin:0 15mm;border-top:1px solid #d2d6dc;padding-top:4px">
<div style="display:flex;justify-content:space-between"><span>Payline · VOIE · Reference # REF</span>
<span>Page <span class="pageNumber"></span> of <span class="totalPages"></span></span></div>
<div>Payline is not a GSE-authorised report supplier: this report is not issued under the Fannie Mae or Freddie Mac
verification programmes. Figures are as reported by the payroll platforms named, summed by Payline.</div></div>`
