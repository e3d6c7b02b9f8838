package rest

import (
	"net/http"
	"strings"

	"payline/domain"
	"payline/rest/wire"
)

// siteBody is the legacy POST /v1/sites body.
type siteBody struct {
	OrgName        string       `json:"org_name"`
	Job            string       `json:"job"`
	AccountNumber  string       `json:"account_number"`
	RoutingNumber  string       `json:"routing_number"`
	AccountType    string       `json:"account_type"`
	AccountName    string       `json:"account_name"`
	RedirectURL    string       `json:"redirect_url"`
	Amount         *wire.Number `json:"amount"`
	EmployerID     string       `json:"employer_id"`
	PlatformID     string       `json:"platform_id"`
	SkipExitSurvey bool         `json:"skip_exit_survey"`
	TTL            *wire.Number `json:"ttl"`
}

type siteJSON struct {
	URL     string `json:"url"`
	Expires int64  `json:"expires"`
	TokenID string `json:"token_id"`
}

// createSite is the legacy POST /v1/sites: a link token in the legacy form
// whose hosted page (url) runs Link without the SDK and, when Link ends,
// sends the browser to redirect_url with the outcome in the query string.
func (s *Server) createSite(r *http.Request) (response, error) {
	var body siteBody
	if err := wire.Decode(r, &body); err != nil {
		return response{}, err
	}
	var p domain.Problems
	if body.Job == "" {
		p.Missing("job")
	}
	if err := p.Err(); err != nil {
		return response{}, err
	}
	legacy := linkTokenBody{OrgName: body.OrgName, Job: body.Job, AccountNumber: body.AccountNumber, RoutingNumber: body.RoutingNumber,
		AccountType: body.AccountType, AccountName: body.AccountName, Amount: body.Amount, EmployerID: body.EmployerID,
		// The legacy body names no end user: each site is its own.
		PlatformID: body.PlatformID, SkipExitSurvey: body.SkipExitSurvey, EndUserID: "site_" + domain.NewID()}
	req, err := legacy.request()
	if err != nil {
		return response{}, err
	}
	req.Site = &domain.SiteRequest{TTL: body.TTL.Domain(), RedirectURL: body.RedirectURL}
	t, value, err := s.link.CreateLinkToken(r.Context(), scopeOf(r), req, versionOf(r))
	if err != nil {
		return response{}, err
	}
	base := strings.TrimSuffix(s.publicURL, "/")
	if base == "" {
		base = "http://" + r.Host
	}
	return object(resLinkToken, siteJSON{URL: base + "/link/v1/site#token=" + value, Expires: t.Expires.Unix(), TokenID: t.ID}), nil
}
