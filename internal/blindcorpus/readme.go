package main

import (
	"fmt"
	"sort"
	"strings"
)

var layoutNotes = map[string]string{
	"adp":               "ADP-style earnings statement (statutory/voluntary deductions with leading minus, 4-decimal rates, deposit advice)",
	"paychex":           "Paychex-style stub (header band table, YTD hours, Current/YTD summary box)",
	"gusto":             "Gusto-style stub (pre-tax/post-tax summary row, employer contributions and taxes)",
	"peoplesoft":        "PeopleSoft-style pay advice (label grids, Last,First name, DD-MON-YYYY dates, summary band)",
	"quickbooks":        "QuickBooks-style voucher page (check on top, two copies of one stub, adjustments to net pay)",
	"workday":           "Workday-style pay slip (heading band, Current and YTD summary, taxable wages, payment information)",
	"midmarket":         "dense mid-market stub (three narrow columns, tax and deduction codes, unlabelled totals rows)",
	"state_agency":      "state agency earnings statement (CR/DR amounts, pension by initials, leave table, inline YTD line)",
	"paybook":           "handwritten pay-book stub (preprinted grid, values in a handwriting font, with or without YTD row)",
	"restaurant":        "restaurant stub (shifts, $2.13 tipped wage, cash and credit card tips, cash tips taken back)",
	"trucking":          "construction/trucking stub (OT 1.5×, double time, per diem and mileage, union dues, child support, two states)",
	"salaried_imputed":  "salaried monthly stub (bonus, GTL imputed income in earnings with offset or as memo, RSU vest with offset)",
	"landscape":         "landscape stub (panels side by side, summary band)",
	"runon":             "stub printed word by word with no space characters (text extraction runs words together)",
	"two_page":          "two-page stub (earnings on page 1, taxes, deductions and net on page 2)",
	"w2_irs":            "IRS Form W-2 layout filled in (1 copy, 2 copies B/C, 4 copies B/C/2/2)",
	"w2_provider":       "payroll provider's W-2 print (earnings summary and employee reference copy)",
	"employment_letter": "employment verification letter",
	"offer_letter":      "offer letter",
	"bank_statement":    "bank statement page with payroll deposits",
}

func readme(docs []*Doc) string {
	var b strings.Builder
	w := func(f string, a ...any) { fmt.Fprintf(&b, f, a...) }
	w("# The blind half: how these files were made\n\n")
	w("Every file here was made by one program, `internal/blindcorpus`, from the written description in\n")
	w("[DESCRIPTION.md](DESCRIPTION.md) and the truth format in [TRUTH.md](TRUTH.md), plus general knowledge of\n")
	w("what US paystubs and Forms W-2 look like. They were made **without reading the reader** (`documents/`),\n")
	w("its corpus (`testdata/documents/{dev,heldout,forged,w2}`), its documentation (`docs/documents.md`), the\n")
	w("domain's document and upload code or its report sources, and without running the reader or its tests on\n")
	w("them; nothing here was tuned to any program's output. The only checks run on the files were a person's: pages\n")
	w("rendered with pdftoppm and looked at, and pdftotext to confirm that text PDFs carry the intended text (that the\n")
	w("run-together stubs' words do run together, outline PDFs carry none, painted-over PDFs still hold the old figure).\n")
	w("People, employers, addresses, EINs and SSNs (masked\n")
	w("`XXX-XX-1234`) are invented. No provider's logo, trade dress or file is copied: layouts are \"in the style of\".\n\n")
	w("## Regenerating\n\n")
	w("```\ncd /work/main && go run ./internal/blindcorpus\n```\n\n")
	w("writes every document, its truth JSON, `index.json` and this README (use `-only PREFIX` to write a few).\n")
	w("It needs Chromium, LibreOffice, poppler-utils (`pdftoppm`, `pdftotext`), ImageMagick, Ghostscript, qpdf\n")
	w("and the Debian handwriting fonts (fonts-breip, fonts-dkg-handwriting, fonts-femkeklaver, fonts-dancingscript).\n")
	w("Randomness comes from fixed PCG seeds derived from each document's name, so a run writes the same figures,\n")
	w("layouts and picture distortions; Chromium and LibreOffice stamp creation dates into their PDFs and qpdf's\n")
	w("encryption uses a random salt, so those bytes differ between runs (everything drawn with fpdf, the pictures,\n")
	w("faxes and outline PDFs are byte-identical). Tool outputs are cached in `/tmp/blindcorpus-cache` by input.\n\n")
	w("## How the figures are made\n\n")
	w("Each person's job (pay frequency, hourly rate or salary, deductions, states) is simulated period by period\n")
	w("through the year in integer cents: earnings lines are hours × rate rounded to the cent (or a fixed salary),\n")
	w("holidays, vacation, sick and overtime come and go; Social Security (6.2%% to the wage base), Medicare (1.45%%),\n")
	w("federal withholding (annualized 2025/2026 brackets, 22%% on supplemental wages), state withholding and state\n")
	w("payroll taxes (SDI, PFL, SUI, PFML) and some local taxes; pre-tax 401(k) and section 125 deductions, after-tax\n")
	w("deductions, reimbursements (not taxed, added to net). Net = gross − taxes − deductions + reimbursements, and every\n")
	w("year-to-date figure is the sum of that year's periods, so consecutive stubs of one series grow by exactly their\n")
	w("period. Employer-paid items, leave balances and taxable wages are printed on many stubs but are not in\n")
	w("the truth's lines. W-2 figures are the sums of the person's simulated 2025 (box 3 capped at $176,100; box 4 =\n")
	w("6.2%% of box 3, box 6 = 1.45%% of box 5, box 1 = box 5 − box 12 D). Before writing anything the program checks\n")
	w("that every honest truth adds up (gross = Σ earnings, net = gross − taxes − deductions + reimbursements,\n")
	w("hours × rate = amount, Σ line YTD = gross YTD, YTDs exact across consecutive stubs of a series; W-2 box rules).\n\n")
	w("## Media\n\n")
	w("- `text_pdf`: HTML printed by headless Chromium, HTML converted by LibreOffice Writer, or drawn with go-pdf/fpdf.\n")
	w("- `outline_pdf`: a text PDF rewritten by Ghostscript with `-dNoOutputFonts` (no text layer).\n")
	w("- `image_pdf`: pages rasterized at 300 dpi, skewed and toned like a flatbed scan, wrapped as greyscale JPEG in a PDF.\n")
	w("- `scan`: 200 dpi greyscale PNG or JPEG scans (skew, scanner-lid edge, tone; pay-book cards laid on the glass).\n")
	w("- `photo`: phone photos (JPEG, 150–185 dpi of paper, page turned 1–4° and in perspective on a table texture,\n  uneven light gradient, a soft shadow, slight blur, sensor noise).\n")
	w("- `fax`: 1-bit at 204×196 or 204×98 dpi with a fax header line, CCITT Group 4 inside a PDF.\n\n")

	// counts
	kinds := map[string]int{}
	honestStubs, pictures := 0, 0
	picLayouts := map[string]bool{}
	type lm struct{ layout, medium string }
	cnt := map[lm]int{}
	layouts := map[string]bool{}
	media := []string{"text_pdf", "outline_pdf", "image_pdf", "scan", "photo", "fax"}
	for _, d := range docs {
		kinds[d.T.Kind]++
		cnt[lm{d.T.Layout, d.T.Medium}]++
		layouts[d.T.Layout] = true
		if d.T.Kind == "paystub" && d.T.Honest {
			honestStubs++
			if d.T.Medium == "image_pdf" || d.T.Medium == "scan" || d.T.Medium == "photo" || d.T.Medium == "fax" {
				pictures++
				picLayouts[d.T.Layout] = true
			}
		}
	}
	w("## Counts\n\n")
	w("%d documents in %d layouts: ", len(docs), len(layouts))
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for i, k := range ks {
		if i > 0 {
			w(", ")
		}
		w("%d %s", kinds[k], k)
	}
	w(". %d honest paystub files, of which %d are pictures (scan, image PDF, photo, fax) in %d layouts.\n\n", honestStubs, pictures, len(picLayouts))
	var ls []string
	for l := range layouts {
		ls = append(ls, l)
	}
	order := []string{"adp", "paychex", "gusto", "peoplesoft", "quickbooks", "workday", "midmarket", "state_agency", "paybook", "restaurant",
		"trucking", "salaried_imputed", "landscape", "runon", "two_page", "w2_irs", "w2_provider", "employment_letter", "offer_letter", "bank_statement"}
	rank := map[string]int{}
	for i, o := range order {
		rank[o] = i + 1
	}
	sort.Slice(ls, func(i, j int) bool { return rank[ls[i]] < rank[ls[j]] })
	w("| layout | what | %s | total |\n|---|---|%s---|\n", strings.Join(media, " | "), strings.Repeat("---|", len(media)))
	tot := map[string]int{}
	for _, l := range ls {
		w("| `%s` | %s |", l, layoutNotes[l])
		t := 0
		for _, m := range media {
			c := cnt[lm{l, m}]
			tot[m] += c
			t += c
			if c == 0 {
				w("  |")
			} else {
				w(" %d |", c)
			}
		}
		w(" %d |\n", t)
	}
	w("| **all** | |")
	for _, m := range media {
		w(" %d |", tot[m])
	}
	w(" %d |\n\n", len(docs))

	w("## Forgeries\n\n")
	w("`honest: false`; the truth's figures are what a person sees on the page, `forgery.changed` records what\n")
	w("was (the genuine figure, or what the text layer still holds) and what is shown.\n\n")
	w("| file | layout | medium | method | evidence | changed | note |\n|---|---|---|---|---|---|---|\n")
	for _, d := range docs {
		if d.T.Forgery == nil {
			continue
		}
		var ch []string
		var keys []string
		for k := range d.T.Forgery.Changed {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			c := d.T.Forgery.Changed[k]
			ch = append(ch, fmt.Sprintf("%s %s → %s", k, c.Was, c.Shown))
		}
		w("| %s.%s | %s | %s | %s | %s | %s | %s |\n", d.T.Name, d.Ext, d.T.Layout, d.T.Medium, d.T.Forgery.Method, d.T.Forgery.Evidence, strings.Join(ch, "; "), d.T.Forgery.Note)
	}
	w("\n## Other notes\n\n")
	for _, d := range docs {
		if d.T.EncryptedPassword != nil {
			w("- `%s.%s` is encrypted (AES-256) with the user password in its truth (`%s`).\n", d.T.Name, d.Ext, *d.T.EncryptedPassword)
		}
		if len(d.T.Paystubs) > 1 {
			w("- `%s.%s` holds %d consecutive paystubs, one per page.\n", d.T.Name, d.Ext, len(d.T.Paystubs))
		}
		if d.T.Layout == "quickbooks" && d.T.Medium == "text_pdf" && strings.HasSuffix(d.T.Name, "01") {
			w("- QuickBooks voucher pages print the check and two copies of one stub: one paystub in the truth.\n")
		}
	}
	w("- Series (`series` in the truth) join the files of one person and job; consecutive stubs of a series have\n  exactly growing year-to-date figures, except where a forgery says otherwise.\n")
	w("- `index.json` lists every document: `{name, file, layout, medium, kind, honest}`.\n")
	return b.String()
}
