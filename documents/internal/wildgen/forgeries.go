package main

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

type forgedPart struct {
	name   string
	honest bool
	s      Stub
	data   []byte
	ext    string
	medium string
	how    string
}

// forgeryDoc writes a forged file (and its honest companions) with the
// forgery object in its truth and a row in the README.
func forgeryDoc(l Layout, f Forgery, series string, parts []forgedPart, shown func(*TStub)) {
	for _, p := range parts {
		if !want(p.name) {
			continue
		}
		v := l.View(p.s)
		ts := truthStub(p.s, v, 1)
		t := Truth{Name: p.name, Layout: l.Name, MadeBy: l.Means + p.how, Medium: p.medium, Kind: "paystub", Honest: p.honest, Paystubs: []TStub{ts}}
		if series != "" {
			t.Series = sp(series)
		}
		if !p.honest {
			ff := f
			t.Forgery = &ff
			if shown != nil {
				shown(&t.Paystubs[0])
			}
			var ch []string
			for k, v := range f.Changed {
				ch = append(ch, fmt.Sprintf("%s %s → %s", k, v["was"], v["shown"]))
			}
			sort.Strings(ch)
			forgeryRows = append(forgeryRows, fmt.Sprintf("| %s.%s | %s | %s | %s | %s |", p.name, p.ext, f.Method, f.Evidence, strings.Join(ch, "; "), f.Note))
		}
		emit(t, p.ext, p.data)
	}
}

func changed(field string, was, shown int64) map[string]map[string]string {
	return map[string]map[string]string{field: {"was": plain(was), "shown": plain(shown)}}
}

func forgeries() {
	if !want("dev-forged") {
		return
	}
	mod := func(s Stub) time.Time { return s.PayDate.AddDate(0, 0, 23) }

	// painted over: text
	j := newJob(2001, 4, "hourly", "biweekly", 2026)
	s := j.Stub(6)
	pdf := adpRender(s, adpView(s))
	newNet := s.Net + 50000
	out := paintText(pdf, marks["net_pay"], "$"+money(newNet), "Helvetica-Bold", "PDFescape Desktop 4.2", s.PayDate, mod(s))
	forgeryDoc(adp, Forgery{Method: "painted_over", Evidence: "text_layer_differs", Changed: changed("net_pay", s.Net, newNet),
		Note: "an incremental update draws a white box over the Net Pay figure and types a new one (Helvetica-Bold) on top; the old figure is still in the text layer, and the deposit advice still shows it"},
		"", []forgedPart{{name: "dev-forged-painted-text-01", s: s, data: out, ext: "pdf", medium: "text_pdf", how: ", then painted over in a PDF editor (incremental update: white box and text)"}},
		func(t *TStub) { t.NetPay = sp(plain(newNet)) })

	// painted over: a picture of the new figure
	j = newJob(2002, 9, "hourly", "biweekly", 2026)
	s = j.Stub(5)
	pdf = landscapeRender(s, landscapeView(s))
	newNet = s.Net + 125000
	out = paintImage(pdf, marks["net_pay"], "$"+money(newNet), serifB, "Smallpdf Editor 2.9", s.PayDate, mod(s))
	forgeryDoc(landscape, Forgery{Method: "painted_over", Evidence: "text_layer_differs", Changed: changed("net_pay", s.Net, newNet),
		Note: "an incremental update draws a white box over the net pay and places a JPEG picture of another figure on it; the text layer keeps the old figure"},
		"", []forgedPart{{name: "dev-forged-painted-image-01", s: s, data: out, ext: "pdf", medium: "text_pdf", how: ", then painted over in a PDF editor (incremental update: white box and an image of the new figure)"}},
		func(t *TStub) { t.NetPay = sp(plain(newNet)) })

	// painted over: vector outlines
	j = newJob(2003, 7, "hourly", "biweekly", 2026)
	s = j.Stub(4)
	pdf = denseRender(s, denseView(s))
	newNet = s.Net + 61500
	out = paintOutlines(pdf, marks["net_pay"], money(newNet), "PDF-XChange Editor 10.2.1", s.PayDate, mod(s))
	forgeryDoc(dense, Forgery{Method: "painted_over", Evidence: "text_layer_differs", Changed: changed("net_pay", s.Net, newNet),
		Note: "an incremental update draws a white box over the current net pay and the new figure as vector outlines (no text); the text layer keeps the old figure"},
		"", []forgedPart{{name: "dev-forged-painted-outline-01", s: s, data: out, ext: "pdf", medium: "text_pdf", how: ", then painted over in a PDF editor (incremental update: white box and the figure as outlines)"}},
		func(t *TStub) { t.NetPay = sp(plain(newNet)) })

	// painted over: a FreeText annotation over the gross
	j = newJob(2004, 12, "salary", "semimonthly", 2026)
	s = j.Stub(5)
	pdf = landscapeRender(s, landscapeView(s))
	newGross := s.Gross + 80000
	out = paintAnnot(pdf, marks["gross_pay"], "$"+money(newGross), "Foxit PDF Editor 13.0.1", s.PayDate, mod(s))
	forgeryDoc(landscape, Forgery{Method: "painted_over", Evidence: "text_layer_differs", Changed: changed("gross_pay", s.Gross, newGross),
		Note: "a FreeText annotation with a white background and a new gross figure lies over the current gross pay; the page's text still holds the old one"},
		"", []forgedPart{{name: "dev-forged-painted-annot-01", s: s, data: out, ext: "pdf", medium: "text_pdf", how: ", then a FreeText annotation added in a PDF editor (incremental update)"}},
		func(t *TStub) { t.GrossPay = sp(plain(newGross)) })

	// painted over, then photographed: only the arithmetic gives it away
	j = newJob(2005, 2, "hourly", "biweekly", 2026)
	s = j.Stub(3)
	pdf = adpRender(s, adpView(s))
	newNet = s.Net + 40000
	out = paintText(pdf, marks["net_pay"], "$"+money(newNet), "Helvetica-Bold", "PDFescape Desktop 4.2", s.PayDate, mod(s))
	_, ph, _, how := apply(Photo, out, seedOf("dev-forged-painted-photo-01"), s.PayDate, "")
	forgeryDoc(adp, Forgery{Method: "painted_over", Evidence: "arithmetic", Changed: changed("net_pay", s.Net, newNet),
		Note: "net pay painted over in a PDF editor, then the page photographed: no text layer is left; net no longer equals gross less taxes and deductions, and the deposit advice shows the old figure"},
		"", []forgedPart{{name: "dev-forged-painted-photo-01", s: s, data: ph, ext: "jpg", medium: "photo", how: ", painted over (white box and text)" + how}},
		func(t *TStub) { t.NetPay = sp(plain(newNet)) })

	// retyped: higher pay, YTD not grown (the prior stub is honest)
	j = newJob(2006, 13, "hourly", "biweekly", 2026)
	prior := j.Stub(5)
	twin := newJob(2006, 13, "hourly", "biweekly", 2026)
	twin.Rate = j.Rate + 90000
	s = twin.Stub(6)
	s.GrossYTD, s.NetYTD, s.TaxesYTD, s.DedsYTD, s.ReimbYTD, s.HoursYTD = prior.GrossYTD, prior.NetYTD, prior.TaxesYTD, prior.DedsYTD, prior.ReimbYTD, prior.HoursYTD
	for _, ls := range [][]Line{s.Earnings, s.Taxes, s.Deds} {
		for i := range ls {
			ls[i].YTD, ls[i].YTDHours = 0, 0
			for _, grp := range [][]Line{prior.Earnings, prior.Taxes, prior.Deds} {
				if p := findLine(grp, ls[i].Key); p != nil {
					ls[i].YTD, ls[i].YTDHours = p.YTD, p.YTDHours
				}
			}
		}
	}
	honest := j.Stub(6)
	forgeryDoc(paychex, Forgery{Method: "retyped", Evidence: "broken_series", Changed: map[string]map[string]string{
		"gross_pay": {"was": plain(honest.Gross), "shown": plain(s.Gross)}, "net_pay": {"was": plain(honest.Net), "shown": plain(s.Net)},
		"gross_pay_ytd": {"was": plain(honest.GrossYTD), "shown": plain(s.GrossYTD)}},
		Note: "the stub retyped with a $9.00 higher rate, every current figure consistent, but the year-to-date figures copied from the previous stub (dev-forged-retyped-ytd-01-prior): they did not grow"},
		"person-f06", []forgedPart{
			{name: "dev-forged-retyped-ytd-01-prior", honest: true, s: prior, data: paychexRender(prior, paychexView(prior)), ext: "pdf", medium: "text_pdf"},
			{name: "dev-forged-retyped-ytd-01", s: s, data: paychexRender(s, paychexView(s)), ext: "pdf", medium: "text_pdf", how: ", retyped"}}, nil)

	// retyped: gross raised, earnings lines not
	j = newJob(2007, 5, "hourly", "biweekly", 2026)
	s = j.Stub(4)
	h := s
	s.Gross += 40000
	s.Net += 40000
	s.GrossYTD += 40000
	s.NetYTD += 40000
	forgeryDoc(workday, Forgery{Method: "retyped", Evidence: "arithmetic", Changed: map[string]map[string]string{
		"gross_pay": {"was": plain(h.Gross), "shown": plain(s.Gross)}, "net_pay": {"was": plain(h.Net), "shown": plain(s.Net)}},
		Note: "gross, net and their YTDs raised by $400.00 consistently, but the earnings lines were left as they were: they no longer add up to gross"},
		"", []forgedPart{{name: "dev-forged-retyped-sum-01", s: s, data: workdayRender(s, workdayView(s)), ext: "pdf", medium: "text_pdf", how: ", retyped"}}, nil)

	// copied: the same figures on the next pay date
	j = newJob(2008, 10, "hourly", "semimonthly", 2026)
	orig := j.Stub(5)
	cp := orig
	cp.Start, cp.End, cp.PayDate = j.periodDates(6)
	forgeryDoc(gusto, Forgery{Method: "copied", Evidence: "figures_reused", Changed: map[string]map[string]string{
		"pay_date": {"was": ymd(orig.PayDate), "shown": ymd(cp.PayDate)}},
		Note: "dev-forged-copied-01-original with only the dates moved to the next period: the same current and year-to-date figures on two pay dates"},
		"person-f08", []forgedPart{
			{name: "dev-forged-copied-01-original", honest: true, s: orig, data: gustoRender(orig, gustoView(orig)), ext: "pdf", medium: "text_pdf"},
			{name: "dev-forged-copied-01", s: cp, data: gustoRender(cp, gustoView(cp)), ext: "pdf", medium: "text_pdf", how: ", copied with the dates changed"}}, nil)

	// a broken series: the middle stub's YTD does not follow
	j = newJob(2009, 3, "hourly", "biweekly", 2026)
	a, b, c := j.Stub(6), j.Stub(7), j.Stub(8)
	hb := b
	b.GrossYTD += 215000
	b.NetYTD += 215000
	reg := findLine(b.Earnings, "regular")
	reg.YTD += 215000
	forgeryDoc(dense, Forgery{Method: "broken_series", Evidence: "broken_series", Changed: map[string]map[string]string{
		"gross_pay_ytd": {"was": plain(hb.GrossYTD), "shown": plain(b.GrossYTD)}, "net_pay_ytd": {"was": plain(hb.NetYTD), "shown": plain(b.NetYTD)}},
		Note: "three stubs of one job; the middle one's year-to-date figures are $2,150.00 higher than the first's plus its period, and the third's do not follow from it"},
		"person-f09", []forgedPart{
			{name: "dev-forged-broken-series-01-a", honest: true, s: a, data: denseRender(a, denseView(a)), ext: "pdf", medium: "text_pdf"},
			{name: "dev-forged-broken-series-01-b", s: b, data: denseRender(b, denseView(b)), ext: "pdf", medium: "text_pdf", how: ", its YTD figures retyped"},
			{name: "dev-forged-broken-series-01-c", honest: true, s: c, data: denseRender(c, denseView(c)), ext: "pdf", medium: "text_pdf"}}, nil)

	// an editor's update rewrites the page with a higher net
	j = newJob(2010, 14, "hourly", "biweekly", 2026)
	s = j.Stub(4)
	pdf = adpRender(s, adpView(s))
	alt := s
	alt.Net += 30000
	altPDF := adpRender(alt, adpView(alt))
	out = editorRewrite(pdf, altPDF, "Adobe Acrobat Pro (64-bit) 24.1.20643", s.PayDate, mod(s))
	forgeryDoc(adp, Forgery{Method: "editor_update", Evidence: "editor", Changed: changed("net_pay", s.Net, alt.Net),
		Note: "an incremental update by Adobe Acrobat replaces the page's content with one whose net pay (and its deposit lines) is $300.00 higher; the text layer shows the new figure; net no longer closes"},
		"", []forgedPart{{name: "dev-forged-editor-01", s: alt, data: out, ext: "pdf", medium: "text_pdf", how: ", then edited (incremental update rewriting the page)"}}, nil)

	j = newJob(2011, 8, "hourly", "biweekly", 2026)
	s = j.Stub(7)
	pdf = landscapeRender(s, landscapeView(s))
	alt = s
	alt.Net += 45000
	alt.NetYTD += 45000
	altPDF = landscapeRender(alt, landscapeView(alt))
	out = editorRewrite(pdf, altPDF, "Sejda PDF Desktop 7.6.2", s.PayDate, mod(s))
	forgeryDoc(landscape, Forgery{Method: "editor_update", Evidence: "editor", Changed: map[string]map[string]string{
		"net_pay": {"was": plain(s.Net), "shown": plain(alt.Net)}, "net_pay_ytd": {"was": plain(s.NetYTD), "shown": plain(alt.NetYTD)}},
		Note: "an incremental update by Sejda replaces the page's content: net pay and net YTD each $450.00 higher; the text layer matches what is shown"},
		"", []forgedPart{{name: "dev-forged-editor-02", s: alt, data: out, ext: "pdf", medium: "text_pdf", how: ", then edited (incremental update rewriting the page)"}}, nil)
}
