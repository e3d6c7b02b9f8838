package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

func forgery(method, evidence, note string, changed map[string]TChange) *TForgery {
	return &TForgery{Method: method, Evidence: evidence, Changed: changed, Note: note}
}

// figureWords finds the words on a page that print figure c (with or without "$", a sign or parentheses).
func figureWords(pdf []byte, page int, c Cents) []Word {
	target := NumFmt{Commas: true}.pos(c)
	var out []Word
	for _, w := range pdfWords(pdf, page) {
		t := strings.Trim(w.Text, "$-()*")
		t = strings.TrimSuffix(strings.TrimSuffix(t, "CR"), "DR")
		if t == target {
			out = append(out, w)
		}
	}
	return out
}

// restyle writes new in the notation of the printed word old ("$1,234.56", "-1,234.56" ...).
func restyle(old string, was, now Cents) string {
	return strings.Replace(old, NumFmt{Commas: true}.pos(was), NumFmt{Commas: true}.pos(now), 1)
}

// painted adds a stub whose net pay (or gross) is painted over with a white box and retyped in an
// incremental update; the text layer keeps the old figure. medium "photo" photographs the result.
func (b *builder) painted(name, layout string, lay htmlLayout, medium string, s *Stub, field string, delta Cents) {
	r := seeded(name)
	html, v := lay(s, r)
	t := truthOf(v, 1)
	was := s.Net
	if field == "gross_pay" {
		was = s.Gross
	}
	now := was + delta
	if field == "gross_pay" {
		t.GrossPay = cp(now)
	} else {
		t.NetPay = cp(now)
	}
	// an earnings line printing the same figure is changed with it
	for i := range t.Earnings {
		if t.Earnings[i].Amount == was.plain() {
			t.Earnings[i].Amount = now.plain()
		}
	}
	make := func() []byte {
		orig := chromePDF(html)
		var ps []paint
		for _, w := range figureWords(orig, 1, was) {
			ps = append(ps, paint{Box: w, Text: restyle(w.Text, was, now)})
		}
		if len(ps) == 0 {
			fatalf("%s: figure %s not found", name, was.plain())
		}
		return paintOver(orig, 0, ps)
	}
	ev, note := "text_layer_differs", fmt.Sprintf("every printed %s figure covered by a white rectangle and retyped in Helvetica in an incremental update; the text layer still holds %s", strings.ReplaceAll(field, "_", " "), NumFmt{Commas: true}.pos(was))
	made := "HTML printed by headless Chromium, then painted over in an incremental update (white rectangle, new figure typed on top)"
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "paystub", Honest: false, Series: sp(s.Job.Series),
		Paystubs: []TStub{t}}}
	if medium != "text_pdf" {
		ev = "arithmetic"
		note = fmt.Sprintf("painted over as above, then photographed: no text layer; the shown %s no longer agrees with the other figures", strings.ReplaceAll(field, "_", " "))
	}
	d.T.Forgery = forgery("painted_over", ev, note, map[string]TChange{field: {was.plain(), now.plain()}})
	d.T.MadeBy, d.Ext, d.Make = media(medium, make, made, 1, seeded(name+"/media"), s.Pay)
	b.docs = append(b.docs, d)
}

// forgedStub adds a forged stub rendered from a modified copy of a simulated stub.
func (b *builder) forgedStub(name, layout string, lay htmlLayout, medium string, s *Stub, f *TForgery, made string) {
	r := seeded(name)
	html, v := lay(s, r)
	t := truthOf(v, 1)
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: mediumName(medium), Kind: "paystub", Honest: false, Series: sp(s.Job.Series),
		Paystubs: []TStub{t}, Forgery: f}}
	d.T.MadeBy, d.Ext, d.Make = media(medium, func() []byte { return chromePDF(html) }, made, 1, seeded(name+"/media"), s.Pay)
	b.docs = append(b.docs, d)
}

func cloneStub(s *Stub) *Stub {
	c := *s
	c.Earn = append([]Line(nil), s.Earn...)
	c.Tax = append([]Line(nil), s.Tax...)
	c.Ded = append([]Line(nil), s.Ded...)
	c.Reimb = append([]Line(nil), s.Reimb...)
	c.Employer = append([]Line(nil), s.Employer...)
	c.Memo = append([]Line(nil), s.Memo...)
	return &c
}

// inflated simulates the same job at a higher pay and returns its stub of the same period.
func inflated(j *Job, year, idx int, pctUp int64) *Stub {
	j2 := *j
	j2.stubs = nil
	if j2.Hourly {
		j2.Rate = j.Rate * Rate(100+pctUp) / 100
	} else {
		j2.Salary = j.Salary * Cents(100+pctUp) / 100
	}
	return j2.Simulate(year)[idx]
}

func ytdOf(ls []Line, code string) (Cents, Hours) {
	for _, l := range ls {
		if l.Code == code {
			return l.YTD, l.YTDHours
		}
	}
	return 0, 0
}

func (b *builder) forgeries() {
	// painted over: net (ADP), gross (Paychex), net (Workday), net then photographed (Gusto)
	j := b.employ("person-30", "Keystone Precision Machining", "PA", "PA", 26, date(2026, 1, 10), 6, 0, 296500)
	j.Savings = 0
	ss := j.Simulate(2026)
	b.painted("adp-07", "adp", layoutADP, "text_pdf", ss[11], "net_pay", 75000)
	j = b.employ("person-31", "Harborview Property Management", "FL", "FL", 52, date(2026, 1, 3), 6, 0, 224000)
	j.Savings = 0
	ss = j.Simulate(2026)
	b.painted("paychex-06", "paychex", layoutPaychex, "text_pdf", ss[26], "gross_pay", 120000)
	j = b.employ("person-32", "Orchard Valley School District", "CA", "CA", 12, date(2026, 1, 31), 0, 7140000, 0)
	j.Savings = 0
	ss = j.Simulate(2026)
	b.painted("workday-06", "workday", layoutWorkday, "text_pdf", ss[4], "net_pay", 150000)
	j = b.employ("person-33", "Sunbelt Solar Installations LLC", "AZ", "AZ", 26, date(2026, 1, 9), 6, 0, 271500)
	j.Savings = 0
	ss = j.Simulate(2026)
	b.painted("gusto-06", "gusto", layoutGusto, "photo", ss[7], "net_pay", 90000)

	// retyped: a higher gross and net, YTD copied from the previous stub (the YTD did not grow)
	j = b.employ("person-34", "Meadowlark Home Health Services", "NC", "NC", 26, date(2026, 1, 9), 6, 0, 198000)
	ss = j.Simulate(2026)
	b.stub("gusto-07", "gusto", layoutGusto, "text_pdf", ss[8])
	fs := inflated(j, 2026, 9, 35)
	prev := ss[8]
	for i := range fs.Earn {
		fs.Earn[i].YTD, fs.Earn[i].YTDHours = ytdOf(prev.Earn, fs.Earn[i].Code)
	}
	for i := range fs.Tax {
		fs.Tax[i].YTD, _ = ytdOf(prev.Tax, fs.Tax[i].Code)
	}
	for i := range fs.Ded {
		fs.Ded[i].YTD, _ = ytdOf(prev.Ded, fs.Ded[i].Code)
	}
	fs.GrossYTD, fs.NetYTD, fs.TaxYTD, fs.DedYTD, fs.PreDedYTD, fs.PostDedYTD = prev.GrossYTD, prev.NetYTD, prev.TaxYTD, prev.DedYTD, prev.PreDedYTD, prev.PostDedYTD
	honest := ss[9]
	b.forgedStub("gusto-08", "gusto", layoutGusto, "text_pdf", fs, forgery("retyped", "broken_series",
		"the whole stub regenerated at a 35% higher rate: current figures agree with each other, but every year-to-date figure is the previous stub's (gusto-07), not grown by this period",
		map[string]TChange{"gross_pay": {honest.Gross.plain(), fs.Gross.plain()}, "net_pay": {honest.Net.plain(), fs.Net.plain()},
			"gross_pay_ytd": {honest.GrossYTD.plain(), fs.GrossYTD.plain()}, "net_pay_ytd": {honest.NetYTD.plain(), fs.NetYTD.plain()}}),
		"HTML printed by headless Chromium from retyped figures")

	// retyped: gross, taxes and net raised consistently, the earnings lines left as they were
	j = b.employ("person-35", "Copperline Electrical Contractors", "CO", "CO", 52, date(2026, 1, 3), 6, 0, 342500)
	ss = j.Simulate(2026)
	honest = ss[15]
	fs = inflated(j, 2026, 15, 30)
	fs.Earn = append([]Line(nil), honest.Earn...)
	b.forgedStub("midmarket-05", "midmarket", layoutMidmarket, "text_pdf", fs, forgery("retyped", "arithmetic",
		"gross, taxes, deductions and net retyped as for a 30% higher rate, but the earnings lines (hours × rate) were left at the real figures: they no longer add up to the gross",
		map[string]TChange{"gross_pay": {honest.Gross.plain(), fs.Gross.plain()}, "net_pay": {honest.Net.plain(), fs.Net.plain()}}),
		"HTML printed by headless Chromium from retyped figures")

	// copied: an earlier stub with only the dates moved (the original is in the corpus)
	j = b.employ("person-36", "Fairmont Veterinary Hospital", "OH", "OH", 26, date(2026, 1, 10), 6, 0, 212500)
	ss = j.Simulate(2026)
	b.stub("paychex-07", "paychex", layoutPaychex, "text_pdf", ss[5])
	cs := cloneStub(ss[5])
	cs.Start, cs.End, cs.Pay = ss[7].Start, ss[7].End, ss[7].Pay
	b.forgedStub("paychex-08", "paychex", layoutPaychex, "text_pdf", cs, forgery("copied", "figures_reused",
		"paychex-07 with only the period and pay date moved four weeks later: every figure, the year to date and the check number are the same",
		map[string]TChange{"pay_date": {iso(ss[5].Pay), iso(cs.Pay)}, "period_start": {iso(ss[5].Start), iso(cs.Start)}, "period_end": {iso(ss[5].End), iso(cs.End)}}),
		"HTML printed by headless Chromium from an earlier stub's figures with new dates")
	j = b.employ("person-37", "Lakeside Community College", "IL", "IL", 12, date(2026, 1, 31), 0, 5880000, 0)
	ss = j.Simulate(2026)
	b.stub("peoplesoft-05", "peoplesoft", layoutPeopleSoft, "text_pdf", ss[2])
	cs = cloneStub(ss[2])
	cs.Start, cs.End, cs.Pay = ss[3].Start, ss[3].End, ss[3].Pay
	b.forgedStub("peoplesoft-06", "peoplesoft", layoutPeopleSoft, "scan_jpg", cs, forgery("copied", "figures_reused",
		"peoplesoft-05 with the dates moved one month later and scanned: the figures, YTD and advice number repeat",
		map[string]TChange{"pay_date": {iso(ss[2].Pay), iso(cs.Pay)}, "period_start": {iso(ss[2].Start), iso(cs.Start)}, "period_end": {iso(ss[2].End), iso(cs.End)}}),
		"HTML printed by headless Chromium from an earlier stub's figures with new dates")

	// broken series: three stubs, the middle one's year to date raised
	j = b.employ("person-38", "Pioneer Grain Cooperative", "MN", "MN", 26, date(2026, 1, 10), 6, 0, 246000)
	ss = j.Simulate(2026)
	b.stub("adp-08", "adp", layoutADP, "text_pdf", ss[16])
	mid := cloneStub(ss[17])
	const up = 640000
	for i := range mid.Earn {
		if mid.Earn[i].Code == "REG" {
			mid.Earn[i].YTD += up
		}
	}
	mid.GrossYTD += up
	netUp := Cents(up) * 74 / 100
	mid.NetYTD += netUp
	b.forgedStub("adp-09", "adp", layoutADP, "text_pdf", mid, forgery("broken_series", "broken_series",
		"the middle of three consecutive stubs (adp-08, adp-09, adp-10): its regular and gross year to date were raised by 6,400.00, so it does not follow adp-08 and adp-10 does not follow it",
		map[string]TChange{"gross_pay_ytd": {ss[17].GrossYTD.plain(), mid.GrossYTD.plain()}}),
		"HTML printed by headless Chromium from altered figures")
	b.stub("adp-10", "adp", layoutADP, "text_pdf", ss[18])

	// editor updates: a figure changed in the content stream by a PDF editor's incremental update
	j = b.employ("person-39", "Tidewater Marine Supply Co.", "VA", "VA", 26, date(2026, 1, 9), 6, 0, 233000)
	j.Savings = 0
	ss = j.Simulate(2026)
	b.edited("landscape-03", "landscape", layoutLandscape, ss[12], "net_pay", 60000, "Adobe Acrobat Pro (64-bit) 24.1.20643")
	j = b.employ("person-40", "Northstar Physical Therapy PLLC", "NY", "NY", 24, date(2026, 1, 15), 0, 0, 291000)
	j.Savings = 0
	j.Holidays = false
	ss = j.Simulate(2026)
	b.edited("runon-04", "runon", func(s *Stub, r *rand.Rand) ([]byte, *View) { return layoutRunOn(s, r, true) }, ss[9], "gross_pay", 100000, "PDF-XChange Editor 10.2.1.385")
}

// edited adds an fpdf stub whose figure was changed by a PDF editor in an incremental update.
func (b *builder) edited(name, layout string, lay pdfLayout, s *Stub, field string, delta Cents, editor string) {
	r := seeded(name)
	pdf, v := lay(s, r)
	t := truthOf(v, 1)
	was := s.Net
	if field == "gross_pay" {
		was = s.Gross
	}
	now := was + delta
	if field == "gross_pay" {
		t.GrossPay = cp(now)
	} else {
		t.NetPay = cp(now)
	}
	// an earnings line printing the same figure is changed with it
	for i := range t.Earnings {
		if t.Earnings[i].Amount == was.plain() {
			t.Earnings[i].Amount = now.plain()
		}
	}
	when := s.Pay.Add(time.Duration(between(r, 24*3, 24*20)) * time.Hour)
	out := editText(pdf, map[string]string{NumFmt{Commas: true}.pos(was): NumFmt{Commas: true}.pos(now)}, editor, when)
	d := &Doc{T: Truth{Name: name, Layout: layout, Medium: "text_pdf", Kind: "paystub", Honest: false, Series: sp(s.Job.Series), Paystubs: []TStub{t}}}
	d.T.Forgery = forgery("editor_update", "editor", fmt.Sprintf("an incremental update whose Producer is %q rewrites the page content, changing every printed %s from %s to %s; the earlier revision is still in the file",
		editor, strings.ReplaceAll(field, "_", " "), NumFmt{Commas: true}.pos(was), NumFmt{Commas: true}.pos(now)), map[string]TChange{field: {was.plain(), now.plain()}})
	d.T.MadeBy, d.Ext, d.Make = "drawn with go-pdf/fpdf, then changed by an incremental update naming a PDF editor as producer", "pdf", func() []byte { return out }
	b.docs = append(b.docs, d)
}
