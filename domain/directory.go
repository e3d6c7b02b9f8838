package domain

import (
	"context"
	"slices"
	"time"
)

// JobType names a job of the spec ("the list may grow").
type JobType string

// The job types of the spec.
const (
	JobIdentity                 JobType = "identity"
	JobPaystubs                 JobType = "paystubs"
	JobIncome                   JobType = "income"
	JobDirectDepositSwitch      JobType = "direct_deposit_switch"
	JobBillCancellation         JobType = "bill_cancellation"
	JobEmployment               JobType = "employment"
	JobShifts                   JobType = "shifts"
	JobDirectDepositPayment     JobType = "direct_deposit_payment"
	JobTaxForms                 JobType = "tax_forms"
	JobBillSwitch               JobType = "bill_switch"
	JobDirectDepositAllocations JobType = "direct_deposit_allocations"
)

// JobTypes lists every job type in the order of the spec.
var JobTypes = []JobType{
	JobIdentity, JobPaystubs, JobIncome, JobDirectDepositSwitch, JobBillCancellation,
	JobEmployment, JobShifts, JobDirectDepositPayment, JobTaxForms, JobBillSwitch,
	JobDirectDepositAllocations,
}

// ParseJobType validates a job type name.
func ParseJobType(s string) (JobType, bool) {
	j := JobType(s)
	return j, slices.Contains(JobTypes, j)
}

// PlatformType is the kind of a platform.
type PlatformType string

// The platform types of the spec.
const (
	PlatformPayroll           PlatformType = "payroll"
	PlatformTimeAndAttendance PlatformType = "time_and_attendance"
	PlatformTax               PlatformType = "tax"
	PlatformMerchant          PlatformType = "merchant"
)

// PlatformTypes lists every platform type.
var PlatformTypes = []PlatformType{PlatformPayroll, PlatformTimeAndAttendance, PlatformTax, PlatformMerchant}

// ParsePlatformType validates a platform type name.
func ParsePlatformType(s string) (PlatformType, bool) {
	t := PlatformType(s)
	return t, slices.Contains(PlatformTypes, t)
}

// MerchantCategories are the business categories of merchant platforms,
// taken from the vendor reference.
var MerchantCategories = []string{
	"automotive", "buy_now_pay_later", "charity_and_donations", "education",
	"entertainment_and_recreation", "financial_services", "fitness", "food_and_delivery",
	"gaming", "health_and_wellness", "home_and_household_services", "insurance",
	"internet_and_telecom", "loan", "media", "music_and_audio_streaming", "news", "other",
	"productivity_and_saas_tools", "professional_services", "rent", "shopping_and_retail",
	"social_and_dating", "sports", "travel_and_transportation", "utilities", "video_streaming",
}

// SwitchLimits are what a direct deposit switch may ask of a platform or
// employer. Amounts are in minor units (cents); nil means no bound.
type SwitchLimits struct {
	AmountSupported           bool
	FractionalAmountSupported bool
	MinAmount                 *int64
	MaxAmount                 *int64
	PercentageSupported       bool
	MinPercentage             int
	MaxPercentage             int
}

// Employer is an employer of the directory. Directory rows are reference
// data shared by every customer, so they carry no tenant scope.
type Employer struct {
	ID            string
	Name          string
	EIN           string
	LastUpdated   time.Time
	LogoURL       string
	PlatformID    string // the payroll platform its employees log in to
	SupportedJobs []JobType
	SwitchLimits
}

// Platform is a payroll, time-and-attendance, tax or merchant platform.
// An ESP (employer-specific platform) is also an employer with the same id.
type Platform struct {
	ID                 string
	Name               string
	DisplayName        string
	Type               PlatformType
	ESP                bool
	Partnership        bool
	LastUpdated        time.Time
	LogoURL            string
	MerchantCategories []string
	MerchantCategory   string
	SupportedJobs      []JobType
	SwitchLimits
}

// Supports reports whether every job in jobs is in supported.
func Supports(supported, jobs []JobType) bool {
	for _, j := range jobs {
		if !slices.Contains(supported, j) {
			return false
		}
	}
	return true
}

// EmployerFilter narrows GET /employers.
type EmployerFilter struct {
	UpdatedAfter *time.Time
}

// PlatformFilter narrows GET /platforms.
type PlatformFilter struct {
	IncludeESPs  bool
	Type         PlatformType // empty: every type
	UpdatedAfter *time.Time
}

// Cursor list names of the directory.
const (
	ListEmployers = "employers"
	ListPlatforms = "platforms"
)

// DirectoryStore holds the employer and platform directory.
type DirectoryStore interface {
	// ListEmployers pages employers ordered by (name, id).
	ListEmployers(ctx context.Context, f EmployerFilter, p PageRequest) (Page[Employer], error)
	// Employer returns ErrNoRows when id is unknown.
	Employer(ctx context.Context, id string) (Employer, error)
	// EmployersByID returns the employers with the given ids, in one
	// query, in no particular order; unknown ids are left out.
	EmployersByID(ctx context.Context, ids []string) ([]Employer, error)
	// EmployerByEIN returns ErrNoRows when no employer has the EIN.
	EmployerByEIN(ctx context.Context, ein string) (Employer, error)
	// ListPlatforms pages platforms ordered by (name, id).
	ListPlatforms(ctx context.Context, f PlatformFilter, p PageRequest) (Page[Platform], error)
	// Platform returns ErrNoRows when id is unknown.
	Platform(ctx context.Context, id string) (Platform, error)
	// PlatformsByID returns the platforms with the given ids, in one
	// query, in no particular order; unknown ids are left out.
	PlatformsByID(ctx context.Context, ids []string) ([]Platform, error)
	// Snapshot returns every employer and platform, for the search index.
	Snapshot(ctx context.Context) ([]Employer, []Platform, error)
	// Revision changes whenever the directory is written.
	Revision(ctx context.Context) (int64, error)
	// UpsertDirectory inserts or updates the given rows (by id) in one
	// transaction and bumps the revision. Rows not given are left alone.
	UpsertDirectory(ctx context.Context, platforms []Platform, employers []Employer) error
}

// ValidEIN reports whether s is an EIN as the spec takes it: exactly nine
// ASCII digits, no dash.
func ValidEIN(s string) bool {
	if len(s) != 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
