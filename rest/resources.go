package rest

import (
	"time"

	"payline/domain"
)

// Resource kinds, the keys of the version-transform table.
const (
	resEmployer     = "employer"
	resPlatform     = "platform"
	resSearchResult = "search_result"
	resLinkToken    = "link_token"
	resAccount      = "account"
	resJob          = "job"
	resLinkSession  = "sandbox_link_session"
	resWebhook      = "webhook"
	resPaystub      = "paystub"
	resDelivery     = "webhook_delivery"
)

// apiTime renders a timestamp as the spec wants: UTC, microseconds, +00:00.
type apiTime time.Time

func (t apiTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + domain.APITime(time.Time(t)) + `"`), nil
}

// switchLimitsJSON holds the fields employers, platforms and search
// results share. Amounts are dollars here, as the spec's number type says;
// they are stored in cents.
type switchLimitsJSON struct {
	SupportedJobs             []domain.JobType `json:"supported_jobs"`
	AmountSupported           bool             `json:"amount_supported"`
	FractionalAmountSupported bool             `json:"fractional_amount_supported"`
	MinAmount                 *float64         `json:"min_amount,omitempty"`
	MaxAmount                 *float64         `json:"max_amount,omitempty"`
	PercentageSupported       bool             `json:"percentage_supported"`
	MinPercentage             int              `json:"min_percentage"`
	MaxPercentage             int              `json:"max_percentage"`
}

func newSwitchLimitsJSON(jobs []domain.JobType, l domain.SwitchLimits) switchLimitsJSON {
	if jobs == nil {
		jobs = []domain.JobType{}
	}
	return switchLimitsJSON{
		SupportedJobs: jobs, AmountSupported: l.AmountSupported, FractionalAmountSupported: l.FractionalAmountSupported,
		MinAmount: domain.Dollars(l.MinAmount), MaxAmount: domain.Dollars(l.MaxAmount), PercentageSupported: l.PercentageSupported,
		MinPercentage: l.MinPercentage, MaxPercentage: l.MaxPercentage,
	}
}

type employerJSON struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	LastUpdated apiTime `json:"last_updated"`
	LogoURL     string  `json:"logo_url,omitempty"`
	switchLimitsJSON
}

func newEmployerJSON(e domain.Employer) employerJSON {
	return employerJSON{ID: e.ID, Name: e.Name, LastUpdated: apiTime(e.LastUpdated), LogoURL: e.LogoURL,
		switchLimitsJSON: newSwitchLimitsJSON(e.SupportedJobs, e.SwitchLimits)}
}

type platformJSON struct {
	ID                 string              `json:"id"`
	Name               string              `json:"name"`
	DisplayName        string              `json:"display_name"`
	Type               domain.PlatformType `json:"type"`
	LastUpdated        apiTime             `json:"last_updated"`
	LogoURL            string              `json:"logo_url,omitempty"`
	MerchantCategories []string            `json:"merchant_categories"`
	MerchantCategory   *string             `json:"merchant_category"`
	switchLimitsJSON
}

func newPlatformJSON(p domain.Platform) platformJSON {
	out := platformJSON{ID: p.ID, Name: p.Name, DisplayName: p.DisplayName, Type: p.Type,
		LastUpdated: apiTime(p.LastUpdated), LogoURL: p.LogoURL, MerchantCategories: p.MerchantCategories,
		switchLimitsJSON: newSwitchLimitsJSON(p.SupportedJobs, p.SwitchLimits)}
	if out.MerchantCategories == nil {
		out.MerchantCategories = []string{}
	}
	if p.MerchantCategory != "" {
		out.MerchantCategory = &p.MerchantCategory
	}
	return out
}

// Search results are an employer or a platform with response_type;
// platform results also carry platform_type.
type employerResultJSON struct {
	employerJSON
	ResponseType domain.ResponseType `json:"response_type"`
}

type platformResultJSON struct {
	platformJSON
	ResponseType domain.ResponseType `json:"response_type"`
	PlatformType domain.PlatformType `json:"platform_type"`
}

func newSearchResultJSON(r domain.SearchResult) any {
	if r.Employer != nil {
		return employerResultJSON{employerJSON: newEmployerJSON(*r.Employer), ResponseType: r.ResponseType}
	}
	return platformResultJSON{platformJSON: newPlatformJSON(*r.Platform), ResponseType: r.ResponseType, PlatformType: r.Platform.Type}
}

func mapAll[T, U any](in []T, f func(T) U) []U {
	out := make([]U, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
