package reports

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// reportTitles names the report types as documents.
var reportTitles = map[string]string{
	domain.ReportVOIE: "Verification of Income and Employment",
	domain.ReportVOE:  "Verification of Employment",
}

// RenderVerification renders a report to PDF. sources give every paystub
// the annual figures were summed from, which a VOIE lists in full so an
// analyst can check them. open are the person's disputes not yet
// resolved: each is noted next to its item (a paystub's row, an
// employment) as well as under Points to review. The same report, sources
// and disputes give the same bytes.
func RenderVerification(r domain.VerificationReport, sources []Source, open ...domain.Dispute) ([]byte, error) {
	title := reportTitles[r.ReportType]
	built := time.Time(r.RefreshedAt)
	meta := pdfMeta{Title: title, Subject: title + " of " + r.Employee.Name.FullName,
		Keywords: []string{"Payline", strings.ToUpper(r.ReportType), "verification report", "reference " + r.Reference()},
		Figures:  provenanceOf(sources).footer()}
	return renderPDF(meta, built, fmt.Sprintf("Payline · %s · Reference # %s", strings.ToUpper(r.ReportType), r.Reference()), func(d *pdfDoc) {
		facts := [][2]string{
			{"Reference #", r.Reference()},
			{"Data as of", stamp(time.Time(r.UpdatedAt))},
			{"Generated", stamp(built)},
			{"Employments", fmt.Sprint(len(r.Employments))},
		}
		// Who asked, their own reference, and why: printed where given.
		for _, f := range [][2]string{{"Requested by", r.Requester}, {"Tracking #", r.TrackingID}, {"Purpose", purposeWords[r.Purpose]}} {
			if f[1] != "" {
				facts = append(facts, f)
			}
		}
		d.titleBlock(title, "Employee: "+orDash(r.Employee.Name.FullName), facts)
		d.section("Employee", 30)
		e := r.Employee
		phone := "—"
		if len(e.PhoneNumbers) > 0 {
			phone = formatPhone(e.PhoneNumbers[0].Value)
		}
		ssn := "—"
		if e.LastFourSSN != "" {
			ssn = "XXX-XX-" + e.LastFourSSN
		}
		// Only the year of birth: the full date adds nothing an underwriter
		// checks and is one more identifier on paper.
		d.fields([][2]string{{"Name", orDash(e.Name.FullName)}, {"Year of birth", birthYear(e.DateOfBirth)},
			{"SSN", ssn}, {"Phone", phone}, {"Address", orDash(e.Address.Raw)}})

		rows := make([][]string, len(r.Employments))
		for i, em := range r.Employments {
			rows[i] = employmentRow(em)
		}
		d.sectionTable("Employment", []column{{"Employer", 44, "L"}, {"Title", 38, "L"}, {"Status", 20, "L"}, {"Hired", 23, "L"}, {"End", 23, "L"},
			{"Months", 14, "R"}, {"Last paid", 23.9, "L"}}, rows, "")
		renderFlags(d, r)
		renderEmployers(d, r, sources, open)

		if r.ReportType == domain.ReportVOIE {
			sorted := sortSources(sources) // in the order of r.Employments
			for i, em := range r.Employments {
				var stubs []domain.Paystub
				if i < len(sorted) {
					stubs = newestFirst(sorted[i].Paystubs)
				}
				renderIncome(d, em, stubs, i, disputedPaystubs(open))
			}
		}
		renderCompleteness(d, r, sources)
		renderNotice(d, r)
	})
}

// employmentRow is an employment's row of the employment table. What no
// source says is "unknown": an employment read from uploads has no hire
// date, status or end, and its months employed are not 0.
func employmentRow(em domain.ReportEmployment) []string {
	uploads := em.Source.Type == domain.SourceDocuments
	end, status := "—", titleCase(em.EmploymentStatus)
	if em.TerminationDate != nil {
		end = day(*em.TerminationDate)
	} else if uploads {
		end = "unknown"
	}
	if em.EmploymentStatus == "" {
		status = "unknown"
	}
	last := "—"
	if em.MostRecentPayDate != nil {
		last = day(*em.MostRecentPayDate)
	}
	months := "unknown" // a start or end date unknown, or that does not parse
	if em.EmploymentDurationMonths != nil {
		months = fmt.Sprint(*em.EmploymentDurationMonths)
	}
	hired := "unknown"
	if em.MostRecentHireDate != "" {
		hired = day(em.MostRecentHireDate)
	}
	if em.OriginalHireDate != "" && em.OriginalHireDate != em.MostRecentHireDate {
		hired += " (first " + day(em.OriginalHireDate) + ")" // a rehire
	}
	return []string{em.EmployerName, orDash(em.Title), status, hired, end, months, last}
}

func renderIncome(d *pdfDoc, em domain.ReportEmployment, stubs []domain.Paystub, i int, disputed map[string]domain.Dispute) {
	in := em.Income
	label := employmentLabel(em)
	d.section("Income · "+label, 60)
	comp := "—"
	if in.CompensationUnit != "" {
		comp = money(in.CompensationAmount) + " " + in.CompensationUnit
	}
	projected, hours := "—", "—"
	var how []string
	if in.ProjectedAnnualIncome != nil {
		projected = money(*in.ProjectedAnnualIncome)
	}
	if in.AverageWeeklyHours != nil {
		hours = fmt.Sprintf("%.1f a week", *in.AverageWeeklyHours)
		if in.AverageWeeklyRegularHours != nil {
			hours += fmt.Sprintf(" (%.1f regular)", *in.AverageWeeklyRegularHours)
		}
		how = append(how, "Average hours: "+in.HoursBasis+".")
	}
	d.fields([][2]string{{"Compensation", comp}, {"Pay frequency", titleCase(in.PayFrequency)},
		{"Projected annual", projected}, {"Average hours", hours}})
	if len(how) > 0 {
		d.note(strings.Join(how, " "))
	}
	renderProjection(d, in)
	rows, byType := [][]string{}, [][]string{}
	var notes []string
	for _, a := range in.AnnualIncomes {
		// A figure that covers less than the year carries a mark.
		part := func(v int64) string {
			if a.Partial {
				return money(v) + "*"
			}
			return money(v)
		}
		gross, net, basis := money(a.GrossPayYTD), money(a.NetPayYTD), plural(a.Paystubs, "paystub")
		if a.Basis == domain.BasisW2 {
			// No paystub: the W-2's box 5, and nothing it does not give.
			rows = append(rows, []string{a.Year, gross, "—", "—", "—", "—", "W-2"})
			byType = append(byType, []string{a.Year, "—", "—", "—", "—", "—"})
			notes = append(notes, w2YearNote(a))
			continue
		}
		switch a.Basis {
		case domain.BasisYearToDate:
			basis = "YTD"
			if a.Paystubs == 1 {
				notes = append(notes, fmt.Sprintf("%s: one paystub was read, dated %s. Gross and net pay are its year-to-date figures; the "+
					"figures marked * are its own, not the whole year's.", a.Year, day(a.FirstPayDate)))
				break
			}
			notes = append(notes, fmt.Sprintf("%s: the paystubs read start %s. Gross and net pay are the year's last paystub's year-to-date "+
				"figures; the figures marked * are the sums of the %s read, not the whole year.", a.Year, day(a.FirstPayDate), plural(a.Paystubs, "paystub")))
		case domain.BasisPartial:
			gross, net, basis = part(a.GrossPayYTD), part(a.NetPayYTD), "partial"
			if a.Paystubs == 1 {
				notes = append(notes, fmt.Sprintf("%s: partial. The one paystub read, dated %s, carries no year-to-date figures; every "+
					"figure marked * is its own.", a.Year, day(a.FirstPayDate)))
				break
			}
			notes = append(notes, fmt.Sprintf("%s: partial. The %s read start %s and carry no year-to-date figures; every figure "+
				"marked * covers only them.", a.Year, plural(a.Paystubs, "paystub"), day(a.FirstPayDate)))
		}
		rows = append(rows, []string{a.Year, gross, part(a.TotalTaxesYTD), part(a.TotalDeductionsYTD), net, part(a.TotalReimbursementsYTD), basis})
		if w := a.W2; w != nil {
			line := fmt.Sprintf("%s W-2%s: wages (box 1) %s; Medicare wages (box 5) %s, ", a.Year, w2Whose(w), money(w.Wages), money(w.MedicareWages))
			switch {
			case w.Flagged && w.Difference > 0:
				line += fmt.Sprintf("%s less than the year's gross pay: worth a look.", money(w.Difference))
			case w.Flagged:
				line += fmt.Sprintf("%s more than the year's gross pay: worth a look.", money(-w.Difference))
			case a.Basis == domain.BasisPartial:
				line += "not compared: the paystubs read do not cover the year."
			default:
				line += "in line with the year's gross pay."
			}
			notes = append(notes, line)
		}
		if a.EarningsByTypeBasis == domain.SplitPaystubsRead && a.W2Unsplit != nil {
			read := "the " + plural(a.Paystubs, "paystub") + " read are"
			if a.Paystubs == 1 {
				read = "the one paystub read is"
			}
			notes = append(notes, fmt.Sprintf("%s earnings by type: only %s split; the W-2 gives the year's total, "+
				"%s of which no source splits by type.", a.Year, read, money(*a.W2Unsplit)))
		}
		t := a.EarningsByType
		byType = append(byType, []string{a.Year, part(t.Base), part(t.Overtime), part(t.Bonus), part(t.Commission), part(t.Other)})
	}
	if len(rows) == 0 {
		d.note("No paystubs were read for this employment.")
		return
	}
	d.table([]column{{"Year", 18, "L"}, {"Gross pay", 30, "R"}, {"Taxes", 28, "R"}, {"Deductions", 28, "R"},
		{"Net pay", 30, "R"}, {"Reimbursements", 30, "R"}, {"Basis", 21.9, "R"}}, rows)
	if len(stubs) == 0 {
		notes = append(notes, "No paystub was read for this employment: its years are its W-2s'.")
	} else {
		notes = append(notes, "A year is the sum of its paystubs, listed in full below, when all of them were read. Base is salary and "+
			"regular hourly pay; earnings are the paystubs' lines.")
	}
	d.tableNote([]column{{"Earnings", 18, "L"}, {"Base", 34, "R"}, {"Overtime", 33, "R"}, {"Bonus", 33, "R"},
		{"Commission", 34, "R"}, {"Other", 33.9, "R"}}, byType, strings.Join(notes, "\n"))
	renderTrends(d, in)
	if len(stubs) == 0 {
		return
	}

	d.section("Pay history · "+label, 85)
	oldest := slices.Clone(stubs)
	slices.Reverse(oldest)
	drawPayChart(d, oldest, margin, d.GetY()+2, d.width, 62)

	rows = rows[:0]
	var disputes []string
	// Each paystub split by type, with its regular and overtime hours and
	// its rate, so regular hours × rate = base, and the overtime trend,
	// can be checked paystub by paystub.
	for _, p := range stubs {
		e := domain.EarningsOf(p)
		t := e.ByType
		// A disputed paystub's row carries the mark, after its period (the
		// pay date's column has no room), and the note under the table
		// says what is disputed and the dispute's clock.
		paid, period := day(p.PayDate.String()), shortDay(p.PayPeriodStart.String())+" – "+shortDay(p.PayPeriodEnd.String())
		if dp, ok := disputed[p.ID]; ok {
			disputes = append(disputes, fmt.Sprintf("Disputed: the person disputes the %s of the paystub paid %s (%s).",
				orDefault(disputedFieldWords(dp.Item.Field), "figures"), paid, disputeClock(dp)))
			period += " †"
		}
		rows = append(rows, []string{paid, period,
			hoursOf(e.RegularHours), hoursOf(e.OvertimeHours), baseRate(p), money(t.Base), money(t.Overtime), money(t.Bonus),
			money(t.Commission + t.Other), money(p.GrossPayAmount.Amount), money(p.GrossPayYTD.Amount)})
	}
	d.sectionTable(fmt.Sprintf("Paystubs · %s (%d)", label, len(stubs)), []column{{"Pay date", 21, "L"}, {"Period", 26, "L"}, {"Reg hrs", 11, "R"}, {"OT hrs", 10, "R"}, {"Rate", 14, "R"},
		{"Base", 17, "R"}, {"Overtime", 17, "R"}, {"Bonus", 17, "R"}, {"Other", 14, "R"}, {"Gross", 18, "R"}, {"Gross YTD", 20.9, "R"}},
		rows, strings.Join(append(disputeMarks(disputes), "Base, Overtime, Bonus and Other (commission and any other earnings) add up to Gross. Hours are those the paystub's "+
			"regular and overtime lines report, and Rate the regular line's: regular hours × rate is the base pay. Net pay is in the chart above."), "\n"),
		"Paystubs · "+label)
}

// w2Whose says whose W-2 a year's is: "" for the payroll account's own,
// " (uploaded by the end user)" for one read from an upload.
func w2Whose(w *domain.AnnualW2) string {
	if w.DocumentID == "" {
		return ""
	}
	return " (uploaded by the end user, document " + w.DocumentID + ")"
}

// w2YearNote says what a year read from a W-2 alone holds: its gross pay
// is box 5, and a W-2 gives no net pay, deductions or reimbursements.
func w2YearNote(a domain.AnnualIncome) string {
	line := fmt.Sprintf("%s: no paystub was read; gross pay is the W-2's Medicare wages (box 5), which pre-tax deductions do not lower. ", a.Year)
	if w := a.W2; w != nil {
		line += fmt.Sprintf("The W-2%s gives wages (box 1) %s. ", w2Whose(w), money(w.Wages))
	}
	return line + "A W-2 gives no net pay, deductions or reimbursements, and no split by type: they are unknown (—), not zero."
}

// baseRate is the rate of a paystub's first regular line that gives one,
// "—" where none does.
func baseRate(p domain.Paystub) string {
	for _, l := range p.Earnings {
		if l.EarningType() == domain.EarningBase && l.Rate != nil {
			return money(l.Rate.Amount)
		}
	}
	return "—"
}

// hoursOf writes a paystub's hours, "—" where it reports none.
func hoursOf(h *float64) string {
	if h == nil {
		return "—"
	}
	return strconv.FormatFloat(*h, 'f', -1, 64)
}

// employmentLabel says which employment a section is about: the employer
// and its dates, "current" or "ended", so two employments at one
// employer (a rehire) are told apart. An employment read from uploads
// says what they show: its hire date is unknown, and it is known to be
// current only as far as its last paystub.
func employmentLabel(em domain.ReportEmployment) string {
	hired := "hired " + day(em.StartDate)
	if em.StartDate == "" {
		hired = "hire date unknown"
	}
	switch {
	case em.TerminationDate != nil && em.StartDate == "":
		return fmt.Sprintf("%s, %s, ended %s", em.EmployerName, hired, day(*em.TerminationDate))
	case em.TerminationDate != nil:
		return fmt.Sprintf("%s, %s to %s, ended", em.EmployerName, day(em.StartDate), day(*em.TerminationDate))
	case em.Source.Type != domain.SourceDocuments:
		return fmt.Sprintf("%s, %s, current", em.EmployerName, hired)
	case em.MostRecentPayDate != nil:
		return fmt.Sprintf("%s, %s, last paid %s", em.EmployerName, hired, day(*em.MostRecentPayDate))
	}
	return fmt.Sprintf("%s, %s, known from W-2s", em.EmployerName, hired)
}

// renderProjection prints a current employment's projected income by
// type, each figure beside its basis.
func renderProjection(d *pdfDoc, in *domain.ReportIncome) {
	p := in.ProjectedIncome
	if p == nil {
		return
	}
	rows := [][]string{{"Base", money(p.Base), p.Basis.Base}, {"Overtime", money(p.Overtime), p.Basis.Overtime},
		{"Bonus", money(p.Bonus), p.Basis.Bonus}, {"Commission", money(p.Commission), p.Basis.Commission},
		{"Total", money(p.Total), p.Basis.Total}}
	d.tableNote([]column{{"Projected", 24, "L"}, {"A year", 26, "R"}, {"Basis", 135.9, "L"}}, rows,
		"Overtime, bonus and commission are projected only as far as their history and trend (below) support: "+
			"the underwriter decides whether they continue.")
}

// trendWords say a trend on paper.
var trendWords = map[string]string{domain.TrendIncreasing: "Increasing", domain.TrendStable: "Stable (within ±5%)",
	domain.TrendDeclining: "Declining", domain.TrendNone: "None paid", domain.TrendUnknown: "Unknown: under 24 months of paystubs"}

// renderTrends compares each kind of variable income over the last
// twelve months with the twelve before.
func renderTrends(d *pdfDoc, in *domain.ReportIncome) {
	t := in.Trends
	if t == nil {
		return
	}
	var rows [][]string
	for _, v := range []struct {
		name string
		t    domain.IncomeTrend
	}{{"Overtime", t.Overtime}, {"Bonus", t.Bonus}, {"Commission", t.Commission}} {
		change := "—"
		if v.t.ChangePercent != nil {
			change = fmt.Sprintf("%+d%%", *v.t.ChangePercent)
		}
		rows = append(rows, []string{v.name, money(v.t.Last12Months), money(v.t.Prior12Months), change, trendWords[v.t.Trend]})
	}
	d.tableNote([]column{{"Variable income", 34, "L"}, {"Last 12 months", 36, "R"}, {"12 months before", 36, "R"}, {"Change", 22, "R"},
		{"Trend", 57.9, "L"}}, rows, "Paystubs paid in each twelve-month span before the report was built; within ±5% is stable.")
}

// flagTitles name the points to review on paper.
var flagTitles = map[string]string{
	domain.FlagOverlappingEmployment: "Overlapping employment", domain.FlagPayGap: "Gap in pay",
	domain.FlagMissingFinalPay: "Missing final paycheck", domain.FlagEmployerAddressConflict: "Employer address conflict",
	domain.FlagDecliningIncome: "Declining income", domain.FlagW2Mismatch: "W-2 mismatch",
	domain.FlagDocumentSetAside: "Upload set aside", domain.FlagHoursOver80: "Over 80 hours a week",
	domain.FlagPayPeriodInverted: "Pay period ends before it starts", domain.FlagOnePaystubAnnualized: "Annualized from one paystub",
	domain.FlagItemDisputed: "Disputed by the person",
}

// renderFlags prints the points to review, or says there are none.
func renderFlags(d *pdfDoc, r domain.VerificationReport) {
	if len(r.Flags) == 0 {
		d.section("Points to review", 25)
		d.note("None: the employments do not overlap, pay has no gaps, and every figure that can be checked against another agrees.")
		return
	}
	rows := make([][]string, len(r.Flags))
	for i, f := range r.Flags {
		rows[i] = []string{flagTitles[f.Code], f.Message}
	}
	note := "Payline raises these from the data; it does not decide what they mean for the application."
	if len(r.ExcludedDocuments) > 0 {
		note += " An upload set aside counts in no figure of this report until a person accepts it."
	}
	d.sectionTable("Points to review", []column{{"Point", 42, "L"}, {"What the data shows", 143.9, "L"}}, rows, note)
}

// renderNotice prints the consumer's rights under the Fair Credit
// Reporting Act and whom to contact to dispute the report.
func renderNotice(d *pdfDoc, r domain.VerificationReport) {
	d.section("Your rights under the Fair Credit Reporting Act", 40)
	d.text(8.5, "", ink)
	d.MultiCell(d.width, 4.4, r.FCRANotice.Text, "", "L", false)
	d.Ln(1.5)
	d.text(9, "B", ink)
	d.MultiCell(d.width, 4.6, "To dispute this report's data, contact: "+r.FCRANotice.DisputeContact, "", "L", false)
}

func renderCompleteness(d *pdfDoc, r domain.VerificationReport, sources []Source) {
	c := r.Completeness
	d.section("Data completeness", 35)
	cover := "No paystubs were read."
	if c.Paystubs != nil {
		cover = fmt.Sprintf("Paystubs cover %s to %s.", day(c.Paystubs.From), day(c.Paystubs.To))
		if c.Paystubs.From == c.Paystubs.To {
			cover = fmt.Sprintf("Paystubs cover one pay date, %s.", day(c.Paystubs.From))
		}
	}
	identity := "No account reported the employee's identity."
	if c.IdentitySourceDocument != "" {
		identity = "No payroll account reports the employee's identity: the name is as printed on " +
			uploadInWords(sources, c.IdentitySourceDocument) + " the end user uploaded, not confirmed with the employer."
	} else if c.IdentitySource != "" {
		identity = "Employee details come from " + accountInWords(r, c.IdentitySource) + "."
		if len(c.Conflicts) > 0 {
			identity += " The end user's accounts disagree on: " + strings.Join(c.Conflicts, ", ") + "."
		} else {
			identity += " Every account that reports them agrees."
		}
	}
	lines := []string{cover, identity}
	if len(c.Derived) > 0 {
		lines = append(lines, "Computed by Payline: "+fieldsInWords(r, c.Derived)+".")
	}
	if len(c.Missing) > 0 {
		lines = append(lines, "Not reported by "+provenanceOf(sources).notReportedBy()+": "+fieldsInWords(r, c.Missing)+".")
	}
	d.text(8.5, "", ink)
	d.MultiCell(d.width, 4.4, strings.Join(lines, "\n"), "", "L", false)
}

// renderEmployers says who each employer is and where its figures came
// from: address, phone and EIN, the payroll platform read, and when its
// data last changed.
func renderEmployers(d *pdfDoc, r domain.VerificationReport, sources []Source, open []domain.Dispute) {
	d.section("Employers and sources", 30)
	sorted := sortSources(sources) // in the order of r.Employments
	for i, em := range r.Employments {
		var src Source
		if i < len(sorted) {
			src = sorted[i]
		}
		if i > 0 {
			d.Ln(1.5)
		}
		d.text(9, "B", ink)
		d.MultiCell(d.width, lineH, employmentLabel(em), "", "L", false)
		phone, ein := "—", "not on record"
		if em.EmployerPhoneNumber != nil {
			phone = formatPhone(*em.EmployerPhoneNumber)
		}
		if em.EmployerEIN != nil {
			ein = formatEIN(*em.EmployerEIN)
		}
		source := orDash(em.Source.PlatformName)
		if em.Source.Type == domain.SourceDocuments {
			source = uploadsWords(src) + " the end user uploaded"
		}
		asOf := "—"
		if t := time.Time(em.Source.DataAsOf); !t.IsZero() {
			asOf = stamp(t)
		}
		consent := "not recorded (connected before Link recorded consent)"
		if c := em.Consent; c != nil {
			consent = fmt.Sprintf("given %s (consent text %s)", stamp(time.Time(c.GivenAt)), c.TextVersion)
		}
		fields := [][2]string{{"Address", orDash(em.EmployerAddress.Raw)}, {"Phone", phone}, {"EIN", ein},
			{"Read from", source}, {"Current as of", asOf}, {"Consent", consent}}
		if em.Source.Type == domain.SourceDocuments {
			fields = append(fields[:len(fields)-1], [2]string{"Note", em.Source.Notice})
		} else if len(src.UploadedW2s) > 0 {
			words := "W-2s for " + andList(slices.Sorted(maps.Keys(src.UploadedW2s))) + " the end user uploaded, not confirmed with the employer"
			if len(src.ReviewBases) > 0 {
				words += "; " + reviewedWords(src)
			}
			fields = append(fields, [2]string{"Uploaded W-2s", words})
		}
		if dp, ok := disputedEmployment(open, src.Account.ID); ok && src.Account.ID != "" {
			fields = append(fields, [2]string{"Disputed", "the person disputes this employment (" + disputeClock(dp) + ")"})
		}
		d.fields(fields)
	}
	if n := len(r.ExcludedDocuments); n > 0 {
		d.Ln(1.5)
		d.note(fmt.Sprintf("%s the end user uploaded %s set aside and counted in no figure: Points to review says which and why.",
			plural(n, "document"), map[bool]string{true: "is", false: "are"}[n == 1]))
	}
}

// uploadsWords counts what an employment read from uploads was read
// from: "4 paystubs and 1 W-2".
func uploadsWords(s Source) string {
	stubs, w2s := len(s.Paystubs), len(s.UploadedW2s)
	switch {
	case w2s == 0:
		return plural(stubs, "paystub")
	case stubs == 0:
		return plural(w2s, "W-2")
	}
	return plural(stubs, "paystub") + " and " + plural(w2s, "W-2")
}

// uploadInWords names an uploaded document of the sources: "the paystub
// dated Mar 4, 2026 from Acme Corp".
func uploadInWords(sources []Source, id string) string {
	for _, s := range sources {
		for _, p := range s.Paystubs {
			if p.ID == id {
				return fmt.Sprintf("the paystub dated %s from %s", day(p.PayDate.String()), s.Account.EmployerName)
			}
		}
		for year, w := range s.UploadedW2s {
			if w.DocumentID == id {
				return fmt.Sprintf("the W-2 for %s from %s", year, s.Account.EmployerName)
			}
		}
	}
	return "a document"
}
