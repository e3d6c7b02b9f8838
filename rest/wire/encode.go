package wire

import (
	"encoding/json"
	"net/http"

	"payline/domain"
)

// Write encodes v as the response with the status. Encoding a value the
// server built cannot fail in a way the caller could act on, so a failure
// is only visible as a truncated body.
func Write(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // see above: the status is sent, nothing else can be said
}

// Time renders a timestamp as the spec wants: UTC, microseconds, +00:00.
type Time = domain.Timestamp

// Dollars writes an amount in cents as the dollar number the spec's
// shapes use (min_amount, allocation.value): 1999 is 19.99, exactly.
type Dollars domain.Money

// MarshalJSON implements json.Marshaler.
func (d Dollars) MarshalJSON() ([]byte, error) { return []byte(domain.Money(d).Decimal()), nil }

// DollarsOf converts stored cents, nil staying nil.
func DollarsOf(cents *int64) *Dollars {
	if cents == nil {
		return nil
	}
	d := Dollars(domain.USD(*cents))
	return &d
}

// SwitchLimits holds the fields employers, platforms and search results
// share, in REST and in Link alike.
type SwitchLimits struct {
	SupportedJobs             []domain.JobType `json:"supported_jobs"`
	AmountSupported           bool             `json:"amount_supported"`
	FractionalAmountSupported bool             `json:"fractional_amount_supported"`
	MinAmount                 *Dollars         `json:"min_amount,omitempty"`
	MaxAmount                 *Dollars         `json:"max_amount,omitempty"`
	PercentageSupported       bool             `json:"percentage_supported"`
	MinPercentage             int              `json:"min_percentage"`
	MaxPercentage             int              `json:"max_percentage"`
}

// NewSwitchLimits builds the shared fields.
func NewSwitchLimits(jobs []domain.JobType, l domain.SwitchLimits) SwitchLimits {
	if jobs == nil {
		jobs = []domain.JobType{}
	}
	return SwitchLimits{
		SupportedJobs: jobs, AmountSupported: l.AmountSupported, FractionalAmountSupported: l.FractionalAmountSupported,
		MinAmount: DollarsOf(l.MinAmount), MaxAmount: DollarsOf(l.MaxAmount), PercentageSupported: l.PercentageSupported,
		MinPercentage: l.MinPercentage, MaxPercentage: l.MaxPercentage,
	}
}
