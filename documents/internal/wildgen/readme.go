package main

const readmeHead = "# Documents in the wild: the development half\n\n" +
	"Paystubs, W-2s, documents that are not paystubs, and forgeries, drawn the way real payroll providers draw them (\"in the style of\": no provider's logo, trade dress or file is copied). " +
	"Every person, employer and figure is invented (EINs in the form 12-3456789, SSNs masked XXX-XX-1234). " +
	"It is the development half of the corpus issue 45 asks for; the held-out half (`../blind/`) is made apart, by someone else, from the same written description (`../blind/DESCRIPTION.md`), and this half was made without reading it.\n\n" +
	"Each document `NAME.EXT` has its truth in `NAME.json`, in the format of `../blind/TRUTH.md`: what a careful person reads on the page; a field the page does not print is `null`; amounts are strings with two decimals and no sign; rates are written with the decimals the page prints (\"36.4000\" or \"36.40\"). `index.json` lists every document as `{name, file, layout, medium, kind, honest}`.\n\n" +
	"## How it is made\n\n" +
	"One command, from the repository's root, writes the whole folder anew:\n\n" +
	"    go run ./documents/internal/wildgen\n\n" +
	"(`go run ./documents/internal/wildgen dev-adp` rewrites only the files whose names start so, for looking at one layout.) " +
	"The generator (`documents/internal/wildgen`) simulates each job's year period by period, in integer cents: an earnings line is hours × rate rounded to the cent, gross is the sum of the earnings lines, " +
	"taxes follow 2025/2026 rules roughly (Social Security 6.2% up to the wage base, Medicare 1.45%, federal and state withholding from a simple rate), " +
	"net = gross − taxes − deductions + reimbursements, each YTD is the exact sum of the year's periods, and a series of stubs of one person grows by exactly each period's figures. " +
	"Employer-paid lines (match, employer health, employer taxes), memo lines (tip credit, imputed group-term life and RSU income) and leave balances in hours are printed on many stubs and are in neither gross nor net. " +
	"A line that stopped (a 401(k) loan repaid, a bonus paid in an earlier period) is printed by some layouts with only its YTD figure.\n\n" +
	"It draws with fpdf (Go), prints HTML with headless Chromium, converts HTML with LibreOffice Writer, turns text to outlines with Ghostscript (`-dNoOutputFonts`), encrypts with qpdf, and makes pictures with pdftoppm and ImageMagick: " +
	"phone photos (JPEG, 150–200 dpi of paper, on a table, turned 1–4°, `-distort Perspective`, uneven light, a shadow, blur, noise), scans (200 dpi PNG, 300 dpi JPEG, image-only PDFs at 200 dpi gray and 300 dpi black-and-white Group 4), " +
	"faxes (1-bit, 204 × 196 and 204 × 98 dpi, Group 4 in a PDF, with a sending machine's header line), and a handwritten pay-book stub (fonts-dkg-handwriting, fonts-breip). " +
	"The seed is fixed and converters' dates and ids are stamped from each document's own date, so the same run writes the same files (Chromium's and LibreOffice's own bytes may change with their versions, and qpdf draws a new AES key for the password-protected file each time). " +
	"Photos are made from the drawn PDF; the truth of a picture is the truth of the page it shows.\n\n" +
	"The misreads of issue 45 each have documents: labels \"Check Date\" (paychex, workday, trucking: a heading over its value; dense: beside it), \"Advice Date\" (peoplesoft), \"Period Begin Date\"/\"Period End Date\" (state: above; landscape: beside); " +
	"four-decimal rates (adp, dense, peoplesoft salaried); amounts \"-180.31*\" (adp 401K), \"(180.31)\" (quickbooks), \"($180.31)\" (restaurant), \"-$180.31\" (salaried), \"180.31-\" (dense), \"180.31 CR\"/\"DR\" (state); " +
	"lines with only a YTD figure (adp, paychex, peoplesoft, workday, dense, salaried); a YTD hours column beside YTD amounts (paychex, workday, peoplesoft); headings \"FILE\" (adp, dense), \"Employee ID\" (paychex, workday), \"SSN\" (quickbooks, dense) near the name; " +
	"a \"Name | Emp # | Dept\" line (restaurant); taxes beside deductions (paychex, peoplesoft, landscape, state, trucking, restaurant, salaried); totals rows without a label (dense, trucking); YTD inline (\"Year To Date: Gross … Net …\", state); " +
	"employer-paid and memo lines (gusto, workday, peoplesoft, salaried, restaurant, adp); reimbursements in net (quickbooks, gusto, paychex, workday, trucking, dense); two-level headings (peoplesoft: \"Current\" over Rate/Hours/Earnings, \"YTD\" over Hours/Earnings); " +
	"a header band of headings over one row of values (paychex, workday, state, trucking).\n"

func init() {
	for k, v := range map[string]string{
		"dev-adp":                 "ADP-style earnings statement: labels beside values, four-decimal rates, Statutory/Voluntary Deductions with a leading minus, \"401K -115.38*\", a stopped loan with only its YTD, Other Benefits in hours, Important Notes, a deposit advice (\"THIS IS NOT A CHECK\"); no EIN, no net YTD.",
		"dev-paychex":             "Paychex-style: a header band (Employee Name | Employee ID | Check Date | Period Start | Period End | Check #) over one row; earnings with YTD Hours beside YTD Amount; Withholdings beside Deductions; a Current/YTD summary box; direct deposit.",
		"dev-gusto":               "Gusto-style: \"Pay stub for period Jan 1, 2026 – Jan 15, 2026\", \"Pay Day\"; company and employee blocks; summary cells with YTD beneath; Pre-Tax? column; Reimbursements; Employer Contributions and Employer Tax tables (not in net). One is password-protected.",
		"dev-peoplesoft":          "PeopleSoft-style pay advice: upper-case grid of labels over values (Pay Begin Date, Advice #, Advice Date, Pay Rate \"$112,370.00 Annual\"), name \"Last,First M\", dates DD-MON-YYYY, HOURS AND EARNINGS with Current/YTD group headings beside TAXES, before-tax/after-tax/employer-paid sections, TOTAL GROSS … NET PAY band.",
		"dev-quickbooks":          "QuickBooks-style voucher check: the check (amount \"**1,628.54\" and in words), two copies of the same stub (one paystub), Employee | SSN | Status | Allowances, taxes and deductions in parentheses, Adjustments to Net Pay (a reimbursement).",
		"dev-workday":             "Workday-style pay slip: a band of headings over one row (Name | Company | Employee ID | Pay Period Begin | Pay Period End | Check Date | Check Number), Current and YTD Summary, Earnings with Dates and YTD Hours, Employee Taxes beside Pre/Post Tax Deductions, Employer Paid Benefits, Taxable Wages, Payment Information.",
		"dev-dense":               "Dense mid-market (Paylocity/Paycom/UKG style): three narrow columns in 6.5 pt, \"Check Date … Voucher No.\", FILE/EMPLOYEE/SSN headings, tax codes (FITW, SS, MED, CA SIT, CA SDI), deduction codes with descriptions, trailing minus \"180.31-\", unlabeled totals rows, net and the deposits that make it up, leave in hours.",
		"dev-state":               "A state agency's earnings statement (LibreOffice): Agency, Position, Pay Period, labels above values, CR/DR amounts, VSERS pension, leave table Beginning/Used/Earned/Ending, \"Year To Date: Gross … Net …\" inline.",
		"dev-paybook":             "A preprinted pay-book stub filled in by hand (handwriting fonts, blue ink, jittered): Company, Date, Employee, Period Ending, Hours, Rate, Gross Pay, Fed. W/H, FICA, Medicare, State, Other, Net Pay; sometimes a year-to-date row, sometimes $; only as pictures.",
		"dev-restaurant":          "A restaurant stub: $2.13 tipped wage over several short shifts, credit card and cash tips, cash tips taken back as \"Cash Tips Received\", a Tip Credit memo line, \"Name | Emp # | Dept\" header line, amounts \"($180.31)\".",
		"dev-trucking":            "Trucking (LibreOffice): overtime 1.5× and double time 2.0×, per diem and mileage reimbursements (in net, not in gross), union dues, child support garnishment, two states' taxes, \"Check Date\" heading over its value, totals rows without a label.",
		"dev-salaried":            "A salaried monthly stub: base salary, an annual bonus (later only YTD), imputed group-term life and an RSU vest as memo lines (taxed, not in gross or net), employer-paid lines, amounts \"-$180.31\".",
		"dev-landscape":           "A landscape stub (Times): employee details with \"Period Begin Date:\" beside the value, earnings in the middle, taxes above deductions on the right, a net band.",
		"dev-twopage":             "A two-page stub (LibreOffice): earnings on page 1, taxes, deductions and net pay on page 2.",
		"dev-export3":             "One PDF holding three consecutive paystubs, one a page (a \"download all\" export).",
		"dev-runtogether":         "A stub printed through a PDF printer that places each word on its own with no space characters: text extraction reads \"PeriodBeginning:\", \"NETPAY:\".",
		"dev-letter-verification": "An employment verification letter on letterhead (salary in a sentence, signed by HR): not a paystub.",
		"dev-letter-offer":        "An offer letter (LibreOffice): not a paystub.",
		"dev-bank-statement":      "A checking statement page with payroll direct deposits: not a paystub.",
		"dev-w2-official":         "The IRS Form W-2 as the IRS prints it: each of box 12's entries with the letters of \"Code\" stacked in a narrow column beside the code; the fill typed in Helvetica with plain amounts (\"5241.60\"); once, twice on a page, and scanned.",
		"dev-w2-irs":              "The IRS Form W-2 layout filled in by software: captions in Helvetica and Times, values in Courier; one or two states; also as outlines, a photo and a fax.",
		"dev-w2-2up":              "Two copies of the W-2 on one page (Copy B and Copy C).",
		"dev-w2-4up":              "Four copies in the quarters of a sheet (B, C, 2, 2), small.",
		"dev-w2-provider":         "A payroll provider's W-2 print: Copy B in its own grid, an Employee Reference Copy, and a summary of how the boxes were figured.",
	} {
		layoutNotes[k] = v
	}
}
