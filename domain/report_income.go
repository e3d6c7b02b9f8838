package domain

import "strings"

// Earning types: the columns of the standard written VOE (Fannie Mae
// Form 1005), into which every earnings line of a paystub falls.
const (
	EarningBase       = "base"
	EarningOvertime   = "overtime"
	EarningBonus      = "bonus"
	EarningCommission = "commission"
	EarningOther      = "other"
)

// EarningType is the written VOE's column an earnings line falls in:
// regular pay (salary, hourly, regular, base, wages) is base pay;
// overtime, bonus and commission their own; anything else other.
func (l PayLine) EarningType() string {
	switch strings.ToLower(l.Category) {
	case "salary", "hourly", "regular", "base", "wages":
		return EarningBase
	case "overtime":
		return EarningOvertime
	case "bonus":
		return EarningBonus
	case "commission":
		return EarningCommission
	}
	return EarningOther
}

// Add adds an earnings line to its column.
func (t *EarningsByType) Add(l PayLine) {
	switch l.EarningType() {
	case EarningBase:
		t.Base += l.Amount.Amount
	case EarningOvertime:
		t.Overtime += l.Amount.Amount
	case EarningBonus:
		t.Bonus += l.Amount.Amount
	case EarningCommission:
		t.Commission += l.Amount.Amount
	default:
		t.Other += l.Amount.Amount
	}
}

// Total is the sum of the columns.
func (t EarningsByType) Total() int64 { return t.Base + t.Overtime + t.Bonus + t.Commission + t.Other }

// PaystubEarnings is one paystub's earnings in the written VOE's columns,
// with the hours its regular and overtime lines report (nil when none
// does), so hours times rate can be checked against each column.
type PaystubEarnings struct {
	ByType        EarningsByType
	RegularHours  *float64
	OvertimeHours *float64
}

// EarningsOf splits a paystub's earnings lines by type; the columns add
// up to the sum of the lines (the gross pay of a valid paystub).
func EarningsOf(p Paystub) PaystubEarnings {
	var out PaystubEarnings
	add := func(h **float64, v float64) {
		if *h == nil {
			*h = new(float64)
		}
		**h += v
	}
	for _, l := range p.Earnings {
		out.ByType.Add(l)
		if l.Hours == nil {
			continue
		}
		switch l.EarningType() {
		case EarningBase:
			add(&out.RegularHours, *l.Hours)
		case EarningOvertime:
			add(&out.OvertimeHours, *l.Hours)
		}
	}
	return out
}

// ProjectedIncome is a current employment's pay over the next year, by
// type, in cents (each rounded half up), and how each figure was derived.
type ProjectedIncome struct {
	Base       int64 `json:"base"`
	Overtime   int64 `json:"overtime"`
	Bonus      int64 `json:"bonus"`
	Commission int64 `json:"commission"`
	// Total is the sum of the four; projected_annual_income repeats it.
	Total int64                `json:"total"`
	Basis ProjectedIncomeBasis `json:"basis"`
}

// ProjectedIncomeBasis says, in words, how each projected figure was
// derived.
type ProjectedIncomeBasis struct {
	Base       string `json:"base"`
	Overtime   string `json:"overtime"`
	Bonus      string `json:"bonus"`
	Commission string `json:"commission"`
	Total      string `json:"total"`
}

// Trends of variable income: the last twelve months against the twelve
// before.
const (
	TrendIncreasing = "increasing"
	TrendStable     = "stable" // within ±5%
	TrendDeclining  = "declining"
	// TrendNone: no such income in either twelve months.
	TrendNone = "none"
	// TrendUnknown: the paystubs do not reach back over the earlier
	// twelve months, so there is nothing to compare with.
	TrendUnknown = "unknown"
)

// IncomeTrends says, per kind of variable income, whether it is rising,
// stable or declining, and from which amounts.
type IncomeTrends struct {
	Overtime   IncomeTrend `json:"overtime"`
	Bonus      IncomeTrend `json:"bonus"`
	Commission IncomeTrend `json:"commission"`
}

// IncomeTrend compares one kind of variable income over the last twelve
// months with the twelve before, in cents; ChangePercent is the change in
// whole percent, rounded half away from zero (null when the earlier
// twelve months had none or are not covered).
type IncomeTrend struct {
	Trend         string `json:"trend"`
	Last12Months  int64  `json:"last_12_months"`
	Prior12Months int64  `json:"prior_12_months"`
	ChangePercent *int64 `json:"change_percent"`
}

// Flag codes: points a report raises for an underwriter to review. The
// report raises them; it does not decide what they mean for a loan.
const (
	FlagOverlappingEmployment   = "OVERLAPPING_EMPLOYMENT"
	FlagPayGap                  = "PAY_GAP"
	FlagMissingFinalPay         = "MISSING_FINAL_PAY"
	FlagEmployerAddressConflict = "EMPLOYER_ADDRESS_CONFLICT"
	FlagDecliningIncome         = "DECLINING_INCOME"
	FlagW2Mismatch              = "W2_MISMATCH"
	// FlagDocumentSetAside: an uploaded paystub or W-2 the report leaves
	// out (excluded_documents), said without accusing: a doubt a person
	// has not yet settled, what the file shows, a reviewer's rejection,
	// or what could not be read.
	FlagDocumentSetAside = "DOCUMENT_SET_ASIDE"
	// FlagHoursOver80: paystubs that report more than 80 hours a week on
	// average (a misread column, mostly).
	FlagHoursOver80 = "HOURS_OVER_80"
	// FlagPayPeriodInverted: a paystub whose pay period ends before it
	// starts.
	FlagPayPeriodInverted = "PAY_PERIOD_INVERTED"
	// FlagOnePaystubAnnualized: a projected income annualized from a
	// single paystub.
	FlagOnePaystubAnnualized = "ANNUALIZED_FROM_ONE_PAYSTUB"
)

// ReportFlag is one point to review: a code, a sentence a person reads,
// the account of the employment it concerns ("" for none, and for an
// employment read from uploaded documents), and the uploaded documents it
// concerns, if any.
type ReportFlag struct {
	Code        string   `json:"code"`
	Message     string   `json:"message"`
	Employment  string   `json:"employment"`
	DocumentIDs []string `json:"document_ids,omitempty"`
}

// ReportConsent is when the end user agreed, in Link, to share this
// account's data, and which version of the consent text they read.
type ReportConsent struct {
	GivenAt     Timestamp `json:"given_at"`
	TextVersion string    `json:"text_version"`
}

// FCRANotice is what a report tells the consumer it is about: their
// rights under the Fair Credit Reporting Act and whom to contact to
// dispute its data.
type FCRANotice struct {
	Text           string `json:"text"`
	DisputeContact string `json:"dispute_contact"`
}
