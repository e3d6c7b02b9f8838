package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Verification report types.
const (
	ReportVOIE = "voie"
	ReportVOE  = "voe"
)

// Document types of end-user documents Payline renders.
const (
	DocumentW2          = "w2"
	DocumentDepositForm = "direct_deposit_form"
)

// Timestamp is a time that marshals as the API writes times: UTC,
// microseconds, +00:00.
type Timestamp time.Time

// MarshalJSON implements json.Marshaler.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(`"2006-01-02T15:04:05.000000+00:00"`))
	b = append(b, '"')
	b = time.Time(t).UTC().AppendFormat(b, "2006-01-02T15:04:05.000000")
	return append(b, `+00:00"`...), nil
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseTimestamp(s)
	*t = Timestamp(v.UTC())
	return err
}

// VerificationReport is a VOIE or VOE report of an end user, assembled
// from all of the end user's payroll accounts. Its JSON is the spec's
// shape (and how it is stored, pinned by a golden test).
type VerificationReport struct {
	ID           string             `json:"id"`
	UpdatedAt    Timestamp          `json:"updated_at"`
	RefreshedAt  Timestamp          `json:"refreshed_at"`
	ReportType   string             `json:"report_type"`
	Employee     ReportEmployee     `json:"employee"`
	Employments  []ReportEmployment `json:"employments"`
	Completeness ReportCompleteness `json:"completeness"`
	Document     *DocumentLink      `json:"document,omitempty"`
	// Version counts the builds of this report (1 for the first); each
	// has its own document, and Reference names it.
	Version int `json:"version"`
	// Requester is the organization the report was made for (the
	// customer's name); TrackingID and Purpose are what the request that
	// built this version gave (?tracking_id=, ?purpose=), "" for none.
	Requester  string `json:"requester"`
	TrackingID string `json:"tracking_id"`
	Purpose    string `json:"purpose"`
	// Versions are this report's earlier builds still kept
	// (--report-retention), newest first, each with a fresh link
	// to its own PDF. Filled per request, never stored.
	Versions []ReportVersionLink `json:"versions"`
	// Flags are the points an underwriter should review (overlapping
	// employments, pay gaps, a missing final paycheck, ...), empty when
	// none; the report raises them and decides nothing.
	Flags []ReportFlag `json:"flags"`
	// FCRANotice tells the consumer their rights and whom to contact to
	// dispute the report's data.
	FCRANotice FCRANotice `json:"fcra_notice"`
	// ExcludedDocuments are the paystubs and W-2s the end user uploaded
	// that the report leaves out (suspected, needs_review, rejected,
	// unread, incomplete), with why; each is also a point to review
	// (FlagDocumentSetAside).
	ExcludedDocuments []ExcludedDocument `json:"excluded_documents"`
}

// Reference names a build of a report: the report's id and its version,
// printed on the PDF and unique to that build. A report rendered without
// being stored has no version, and its id says so.
func (r VerificationReport) Reference() string {
	if r.Version < 1 {
		return r.ID
	}
	return fmt.Sprintf("%s-v%d", r.ID, r.Version)
}

// ReportVersionLink is an earlier build of a report as the API shows it.
type ReportVersionLink struct {
	Version     int          `json:"version"`
	Reference   string       `json:"reference"`
	RefreshedAt Timestamp    `json:"refreshed_at"`
	Document    DocumentLink `json:"document"`
}

// ReportVersion is one stored build of a report: its version number, its
// PDF and when it was built.
type ReportVersion struct {
	Version     int
	DocumentID  string
	RefreshedAt time.Time
}

// ReportEmployee is who the report is about.
type ReportEmployee struct {
	Name         PersonName    `json:"name"`
	Address      Address       `json:"address"`
	LastFourSSN  string        `json:"last_four_ssn"`
	DateOfBirth  string        `json:"date_of_birth"`
	PhoneNumbers []PhoneNumber `json:"phone_numbers"`
}

// PersonName splits a full name the way reports show it.
type PersonName struct {
	FirstName  string `json:"first_name"`
	MiddleName string `json:"middle_name"`
	LastName   string `json:"last_name"`
	FullName   string `json:"full_name"`
}

// ReportEmployment is one employment of the end user (one account).
type ReportEmployment struct {
	AccountID       string  `json:"account_id"`
	EmployerName    string  `json:"employer_name"`
	EmployerAddress Address `json:"employer_address"`
	StartDate       string  `json:"start_date"`
	// EmploymentDurationMonths counts whole months from the start date to
	// the termination (or the build); null when either is unknown (an
	// employment read from documents has no start date), never 0 for
	// "unknown".
	EmploymentDurationMonths *int    `json:"employment_duration_months"`
	EmploymentStatus         string  `json:"employment_status"`
	EmploymentType           string  `json:"employment_type"`
	TerminationDate          *string `json:"termination_date"`
	Title                    string  `json:"title"`
	MostRecentPayDate        *string `json:"most_recent_pay_date"`
	// OriginalHireDate is the earliest start date of the end user's
	// employments at this employer (a rehire keeps its first), and
	// MostRecentHireDate this employment's own start date; "" unknown.
	OriginalHireDate   string `json:"original_hire_date"`
	MostRecentHireDate string `json:"most_recent_hire_date"`
	// EmployerPhoneNumber and EmployerEIN are null where no source has
	// them (listed in the completeness block).
	EmployerPhoneNumber *string `json:"employer_phone_number"`
	EmployerEIN         *string `json:"employer_ein"`
	// Source is where this employment's figures came from.
	Source ReportSource `json:"source"`
	// Consent is when the end user agreed in Link to share this account,
	// and to which consent text; null for an account connected before
	// Link recorded consent.
	Consent *ReportConsent `json:"consent"`
	Income  *ReportIncome  `json:"income,omitempty"` // VOIE only
}

// ReportSource says where an employment's figures came from: a payroll
// platform (type payroll, the platform named) or paystubs and W-2s the
// end user uploaded (type documents, the documents listed, no platform),
// and when its data last changed. Notice says in words what a
// document-sourced employment's figures are, and ReviewBases who
// reviewed those of its documents a person accepted ("reviewed by a
// member of Acme Lending").
type ReportSource struct {
	Type         string    `json:"type"`
	PlatformID   string    `json:"platform_id"`
	PlatformName string    `json:"platform_name"`
	DocumentIDs  []string  `json:"document_ids,omitempty"`
	Notice       string    `json:"notice,omitempty"`
	ReviewBases  []string  `json:"review_bases,omitempty"`
	DataAsOf     Timestamp `json:"data_as_of"`
}

// Sources of a report's employment.
const (
	SourcePayroll   = "payroll"
	SourceDocuments = "documents"
)

// DocumentsNotice is what a report says of every employment read from
// documents, in the JSON and on the PDF.
const DocumentsNotice = "These figures were read from paystubs the end user supplied as files, not from a payroll platform; Payline checked them for signs of editing but did not confirm them with the employer."

// W2DocumentsNotice is DocumentsNotice for an employment read from W-2s
// alone.
const W2DocumentsNotice = "These figures were read from W-2s the end user supplied as files, not from a payroll platform; Payline checked them for signs of editing but did not confirm them with the employer."

// MixedDocumentsNotice is DocumentsNotice for an employment read from
// paystubs and W-2s the end user uploaded.
const MixedDocumentsNotice = "These figures were read from paystubs and W-2s the end user supplied as files, not from a payroll platform; Payline checked them for signs of editing but did not confirm them with the employer."

// ReportIncome is an employment's pay in a VOIE report.
type ReportIncome struct {
	PayFrequency       string         `json:"pay_frequency"`
	CompensationUnit   string         `json:"compensation_unit"`
	CompensationAmount int64          `json:"compensation_amount"`
	Currency           string         `json:"currency"`
	AnnualIncomes      []AnnualIncome `json:"annual_incomes"`
	// ProjectedAnnualIncome is ProjectedIncome's total, kept for
	// compatibility (null for an employment that ended, or without a
	// rate), and ProjectionBasis says how it was derived, in words.
	ProjectedAnnualIncome *int64 `json:"projected_annual_income"`
	ProjectionBasis       string `json:"projection_basis"`
	// ProjectedIncome is a current employment's pay over a year by type:
	// base from the rate and regular hours (or the salary), overtime,
	// bonus and commission from the last 24 months annualized.
	ProjectedIncome *ProjectedIncome `json:"projected_income"`
	// Trends compare each kind of variable income over the last twelve
	// months with the twelve before (null for an employment that ended).
	Trends *IncomeTrends `json:"trends"`
	// AverageWeeklyHours are the hours the paystubs of the last twelve
	// months report, per week (null when they report none), and
	// HoursBasis says which paystubs, in words.
	AverageWeeklyHours *float64 `json:"average_weekly_hours"`
	HoursBasis         string   `json:"hours_basis"`
	// AverageWeeklyRegularHours are the regular (not overtime) hours of
	// the same paystubs, per week: what an hourly base is projected from.
	AverageWeeklyRegularHours *float64 `json:"average_weekly_regular_hours"`
	// Paystubs are the two most recent, as the vendor's schema says; the
	// PDF lists every paystub the annual figures come from.
	Paystubs []ReportPaystub `json:"paystubs"`
}

// AnnualIncome is one calendar year of an employment's paystubs, summed.
type AnnualIncome struct {
	Year                   string          `json:"year"`
	GrossPayYTD            int64           `json:"gross_pay_ytd"`
	NetPayYTD              int64           `json:"net_pay_ytd"`
	TotalDeductionsYTD     int64           `json:"total_deductions_ytd"`
	TotalReimbursementsYTD int64           `json:"total_reimbursements_ytd"`
	TotalTaxesYTD          int64           `json:"total_taxes_ytd"`
	EarningsYTDs           []EarningsTotal `json:"earnings_ytds"`
	Paystubs               int             `json:"paystub_count"`
	// Basis says where the year's gross and net pay come from:
	// BasisPaystubs (the sum of every paystub of the year, all of which
	// were read), BasisYearToDate (the year's last paystub's year-to-date
	// figures: the paystubs read start mid-year), or BasisPartial (the
	// sum of the paystubs read, which start mid-year and carry no
	// year-to-date figures: not the whole year).
	Basis string `json:"basis"`
	// FirstPayDate is the earliest paystub of the year read.
	FirstPayDate string `json:"first_pay_date"`
	// Partial is true when any of the year's figures covers less than the
	// year: taxes, deductions, reimbursements and earnings are always sums
	// of the paystubs read, so a year read from mid-year is partial in them
	// even when its gross and net come from year-to-date figures.
	Partial bool `json:"partial"`
	// EarningsByType totals the year's earnings lines the way a written
	// VOE reads them.
	EarningsByType EarningsByType `json:"earnings_by_type"`
	// EarningsByTypeBasis says what EarningsByType covers: BasisPaystubs
	// (every paystub of the year) or SplitPaystubsRead (only the paystubs
	// read, from FirstPayDate: the rest of the year's split is unknown; a
	// W-2 gives its total, W2Unsplit the part no paystub read splits).
	EarningsByTypeBasis string `json:"earnings_by_type_basis"`
	// W2Unsplit is, for a year read from mid-year with a W-2, its box 5
	// Medicare wages less the earnings the paystubs read: the year's pay
	// whose type no source says (null otherwise).
	W2Unsplit *int64 `json:"w2_unsplit"`
	// W2 is the year's W-2 beside the paystubs, null without one.
	W2 *AnnualW2 `json:"w2"`
}

// AnnualW2 sets a year's W-2 beside its paystubs: its wages (box 1) and
// Medicare wages (box 5, which pre-tax deductions do not lower, so it
// should equal the year's gross pay), the difference between the gross
// pay and box 5 in cents, and whether that difference is worth a look
// (over a dollar, in a year whose gross pay covers the whole year).
// DocumentID is the uploaded W-2 it was read from ("" for the payroll
// account's own W-2, which an upload never replaces).
type AnnualW2 struct {
	Wages         int64  `json:"wages"`
	MedicareWages int64  `json:"medicare_wages"`
	Difference    int64  `json:"difference"`
	Flagged       bool   `json:"flagged"`
	DocumentID    string `json:"document_id,omitempty"`
}

// The bases of a year's gross and net pay. BasisW2 is a year no paystub
// was read for: its gross pay is its W-2's box 5, and its net pay,
// taxes, deductions and reimbursements are unknown (0, listed in
// completeness.missing).
const (
	BasisPaystubs   = "paystubs"
	BasisYearToDate = "year_to_date"
	BasisPartial    = "partial"
	BasisW2         = "w2"
)

// SplitPaystubsRead is the basis of a year's earnings by type when only
// the paystubs read (from mid-year) are split.
const SplitPaystubsRead = "paystubs_read"

// EarningsByType is a year's earnings in the columns of the standard
// written VOE (Fannie Mae Form 1005), in cents.
type EarningsByType struct {
	Base       int64 `json:"base"`
	Overtime   int64 `json:"overtime"`
	Bonus      int64 `json:"bonus"`
	Commission int64 `json:"commission"`
	Other      int64 `json:"other"`
}

// EarningsTotal is a year's earnings of one category.
type EarningsTotal struct {
	Amount   int64  `json:"amount"`
	Category string `json:"category"`
}

// ReportCompleteness says, machine-readably, what the report could and
// could not draw from source data.
type ReportCompleteness struct {
	// Missing lists fields with no source data (employments[1].income, ...).
	Missing []string `json:"missing"`
	// Derived lists fields Payline computed rather than read.
	Derived []string `json:"derived"`
	// Paystubs is the pay-date range the paystubs cover, null without any.
	Paystubs *DateRange `json:"paystubs"`
	// IdentitySource names the account the employee block came from (""
	// when none did), and Conflicts the fields on which the end user's
	// accounts disagree. IdentitySourceDocument names, when no account
	// reports an identity, the uploaded document whose printed name the
	// report uses: a document id is never an account id.
	IdentitySource         string   `json:"identity_source_account_id"`
	IdentitySourceDocument string   `json:"identity_source_document_id,omitempty"`
	Conflicts              []string `json:"identity_conflicts"`
}

// DateRange is an inclusive range of dates.
type DateRange struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// DocumentLink is a document and its signed, expiring download link.
type DocumentLink struct {
	ID                    string    `json:"id"`
	DownloadURL           string    `json:"download_url"`
	DownloadURLExpiration Timestamp `json:"download_url_expiration"`
}

// StoredReport is a built report as stored: its JSON (without the
// document link, which is minted per request) and its document.
type StoredReport struct {
	ID          string
	Version     int
	EndUserID   string
	Type        string
	DataVersion string
	DocumentID  string
	RefreshedAt time.Time
	Report      VerificationReport
}

// File is a rendered document: a PDF and what its download answers with.
type File struct {
	ID          string // the document id
	CustomerID  string
	Mode        Mode
	Kind        string // voie, voe, w2, direct_deposit_form
	Filename    string
	ContentType string
	SHA256      string // hex
	CreatedAt   time.Time
	Body        []byte
}

// Scope is the file's tenant.
func (f File) Scope() Scope { return Scope{CustomerID: f.CustomerID, Mode: f.Mode} }

// ReportStore holds built reports and rendered files.
type ReportStore interface {
	// Report returns ErrNoRows when none was built for the end user.
	Report(ctx context.Context, s Scope, endUserID, reportType string) (StoredReport, error)
	// PutReport stores the end user's report of its type, replacing any,
	// and records the build among the report's versions.
	PutReport(ctx context.Context, s Scope, r StoredReport) error
	// ReportVersions lists the builds still kept of the end users' reports
	// of a type, newest first, in one query.
	ReportVersions(ctx context.Context, s Scope, endUserIDs []string, reportType string) (map[string][]ReportVersion, error)
	// PutFile stores a file unless one with its id exists.
	PutFile(ctx context.Context, s Scope, f File) error
	// File finds a file by id in any tenant (a download link names no
	// tenant; its signature binds one). ErrNoRows if none.
	File(ctx context.Context, id string) (File, error)
	// FileInfo is File without the body, for HEAD and checks.
	FileInfo(ctx context.Context, id string) (File, error)
	// ReportsOf returns the stored reports of a type of many end users in
	// one query, by end user; those without one are absent.
	ReportsOf(ctx context.Context, s Scope, endUserIDs []string, reportType string) (map[string]StoredReport, error)
	// FilesExist says which of the ids have a file, in one query.
	FilesExist(ctx context.Context, ids []string) (map[string]bool, error)
	// LockReport holds, until the transaction ends, the right to build
	// the end user's report of a type: one builder at a time across
	// instances (an advisory lock on PostgreSQL; SQLite's write
	// transactions already exclude each other).
	LockReport(ctx context.Context, s Scope, endUserID, reportType string) error
	// DocumentAnyTenant finds a document record by id in any tenant, for
	// a download link (which names no tenant; its signature binds one).
	// ErrNoRows if none.
	DocumentAnyTenant(ctx context.Context, id string) (Record, Scope, error)
}

// DepositForm is a direct deposit authorisation: who is paid, by whom,
// into which account and how much. It is filled from a successful switch.
type DepositForm struct {
	ID           string // the document id
	AccountID    string
	EndUserID    string
	EmployeeName string // "" when no identity was read: the form leaves a line
	EmployerName string
	Target       SwitchTarget
	Params       JobParams // the switch's action and allocation
	CreatedAt    time.Time
}

// Reporter builds verification reports and renders documents; the reports
// package implements it, and REST, GraphQL and Link call it.
type Reporter interface {
	// VerificationReport returns the end user's VOIE or VOE, rebuilt (a
	// new version) only when its data changed or the request gives a
	// tracking id or purpose other than the current version's, with a
	// fresh download link. Errors: END_USER_NOT_FOUND, PRODUCT_NOT_FOUND
	// (no payroll data yet), INVALID_FIELDS.
	VerificationReport(ctx context.Context, s Scope, endUserID, reportType string, req ReportRequest) (VerificationReport, error)
	// VerificationReports is VerificationReport for many end users, in a
	// fixed number of statements while their reports are current; end
	// users without payroll data yet are absent.
	VerificationReports(ctx context.Context, s Scope, endUserIDs []string, reportType string) (map[string]VerificationReport, error)
	// DocumentLinks gives documents of a list fresh links, reading and
	// rendering nothing: a document whose PDF is not made yet (a W-2) is
	// rendered when its link is first downloaded.
	DocumentLinks(ctx context.Context, s Scope, docs []Record) []DocumentLink
	// DocumentLink returns a fresh download link to a document, rendering
	// nothing (a W-2's PDF is made on its first download).
	DocumentLink(ctx context.Context, s Scope, doc Record) (DocumentLink, error)
	// DepositForm renders a direct deposit form and stores it as a
	// direct_deposit_form document of the end user (once per form id, with
	// documents.added), and returns a fresh download link.
	DepositForm(ctx context.Context, s Scope, f DepositForm) (DocumentLink, error)
	// Download checks a download link and returns its file. Errors:
	// DOWNLOAD_LINK_INVALID (403) for an expired, altered or unknown link.
	Download(ctx context.Context, id, expires, signature string) (File, error)
}

// ReportRequest is what a caller may say about the report it asks for: a
// tracking id of its own (its loan or case number) and the permissible
// purpose it has for the data; both are printed on the report and kept
// with the version they built.
type ReportRequest struct {
	TrackingID string
	Purpose    string
}

// ReportPurposes are the permissible purposes a report may be asked for
// (the consumer-report purposes a lender or employer has), as the API
// names them.
var ReportPurposes = []string{"credit_application", "account_review", "employment", "tenant_screening", "insurance",
	"government_benefits", "consumer_request"}

// Check validates a report request. Errors: INVALID_FIELDS naming the
// field.
func (r ReportRequest) Check() error {
	var p Problems
	if len(r.TrackingID) > 64 {
		p.Invalid("tracking_id", "must be at most 64 printable characters, got %d", len(r.TrackingID))
	} else if problem := idTextProblem(r.TrackingID); problem != "" {
		p.Invalid("tracking_id", "%s", problem)
	}
	if r.Purpose != "" && !slices.Contains(ReportPurposes, r.Purpose) {
		p.Invalid("purpose", "must be one of %s, got %q", strings.Join(ReportPurposes, ", "), r.Purpose)
	}
	return p.Err()
}

// Empty reports whether the request says nothing of its own.
func (r ReportRequest) Empty() bool { return r == ReportRequest{} }
