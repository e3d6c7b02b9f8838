package reports_test

import (
	"bytes"
	"context"
	"html/template"
	"os"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"payline/domain"
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
	var html bytes.Buffer
	if err := htmlReport.Execute(&html, r); err != nil {
		b.Fatal(err)
	}
	// chromium-warm prints in one tab of a browser kept running, the
	// cheapest way to use Chromium; chromium-cold starts a browser per
	// report, as a job that renders on demand does.
	b.Run("chromium-warm", func(b *testing.B) {
		ctx := startChromium(b)
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
func startChromium(b *testing.B) context.Context {
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
		background := true
		res, err := cdp.Call(ctx, t, page.PrintToPDF, page.PrintToPDFParams{PrintBackground: &background})
		return res.Data, err
	}
}

// htmlReport is the VOIE as HTML: the same sections and tables as the
// fpdf rendering, with an SVG chart, for the Chromium comparison.
var htmlReport = template.Must(template.New("voie").Funcs(template.FuncMap{
	"money": func(c int64) string { return domain.USD(c).Formatted() },
}).Parse(`<!doctype html><html><head><meta charset="utf-8"><style>
body{font-family:sans-serif;font-size:10px;color:#1e232d;margin:15mm}h1{color:#16345e;font-size:20px}
h2{color:#16345e;font-size:14px;border-bottom:1px solid #d2d6dc}table{width:100%;border-collapse:collapse}
th{background:#16345e;color:#fff;text-align:left;padding:3px}td{padding:3px}tr:nth-child(even) td{background:#f4f6f9}
.r{text-align:right}footer{color:#6e737d;font-size:8px}</style></head><body>
<h1>Verification of Income and Employment</h1><p>Reference # {{.ID}}</p>
<h2>Employee</h2><p>{{.Employee.Name.FullName}} · {{.Employee.DateOfBirth}} · XXX-XX-{{.Employee.LastFourSSN}} · {{.Employee.Address.Raw}}</p>
<h2>Employment</h2><table><tr><th>Employer</th><th>Title</th><th>Status</th><th>Start</th><th>Months</th></tr>
{{range .Employments}}<tr><td>{{.EmployerName}}</td><td>{{.Title}}</td><td>{{.EmploymentStatus}}</td><td>{{.StartDate}}</td><td class=r>{{.EmploymentDurationMonths}}</td></tr>{{end}}</table>
{{range .Employments}}<h2>Income · {{.EmployerName}}</h2><table><tr><th>Year</th><th class=r>Gross</th><th class=r>Taxes</th><th class=r>Deductions</th><th class=r>Net</th></tr>
{{range .Income.AnnualIncomes}}<tr><td>{{.Year}}</td><td class=r>{{money .GrossPayYTD}}</td><td class=r>{{money .TotalTaxesYTD}}</td><td class=r>{{money .TotalDeductionsYTD}}</td><td class=r>{{money .NetPayYTD}}</td></tr>{{end}}</table>
<svg width="700" height="220"><polyline fill="none" stroke="#166eaa" stroke-width="2" points="{{range $i, $p := .Income.Paystubs}}{{$i}}0,{{$p.GrossPayAmount}} {{end}}"/></svg>
<table><tr><th>Pay date</th><th class=r>Gross</th><th class=r>Net</th><th class=r>Gross YTD</th></tr>
{{range .Income.Paystubs}}<tr><td>{{.PayDate}}</td><td class=r>{{money .GrossPayAmount}}</td><td class=r>{{money .NetPayAmount}}</td><td class=r>{{money .GrossPayYTD}}</td></tr>{{end}}</table>{{end}}
<footer>Payline is not a GSE-authorised report supplier.</footer></body></html>`))
