package rest

import (
	"payline/domain"
	"payline/rest/wire"
)

// Resource kinds, the keys of the version-transform table.
const (
	resEmployer     = "employer"
	resPlatform     = "platform"
	resSearchResult = "search_result"
	resLinkToken    = "link_token"
	resAccount      = "account"
	resJob          = domain.ResourceJob
	resLinkSession  = "sandbox_link_session"
	resWebhook      = "webhook"
	resPaystub      = "paystub"
	resDelivery     = "webhook_delivery"
)

type employerJSON struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	LastUpdated wire.Time `json:"last_updated"`
	LogoURL     string    `json:"logo_url,omitempty"`
	wire.SwitchLimits
}

func newEmployerJSON(e domain.Employer) employerJSON {
	return employerJSON{ID: e.ID, Name: e.Name, LastUpdated: wire.Time(e.LastUpdated), LogoURL: e.LogoURL,
		SwitchLimits: wire.NewSwitchLimits(e.SupportedJobs, e.SwitchLimits)}
}

type platformJSON struct {
	ID                 string              `json:"id"`
	Name               string              `json:"name"`
	DisplayName        string              `json:"display_name"`
	Type               domain.PlatformType `json:"type"`
	LastUpdated        wire.Time           `json:"last_updated"`
	LogoURL            string              `json:"logo_url,omitempty"`
	MerchantCategories []string            `json:"merchant_categories"`
	MerchantCategory   *string             `json:"merchant_category"`
	wire.SwitchLimits
}

func newPlatformJSON(p domain.Platform) platformJSON {
	out := platformJSON{ID: p.ID, Name: p.Name, DisplayName: p.DisplayName, Type: p.Type,
		LastUpdated: wire.Time(p.LastUpdated), LogoURL: p.LogoURL, MerchantCategories: p.MerchantCategories,
		SwitchLimits: wire.NewSwitchLimits(p.SupportedJobs, p.SwitchLimits)}
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
