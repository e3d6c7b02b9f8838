package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"payline/domain"
)

// limitsJSON is what the upstream's employers and platforms share: the
// jobs they support and their switch limits, dollars as the upstream
// wrote them.
type limitsJSON struct {
	SupportedJobs             []string        `json:"supported_jobs"`
	AmountSupported           bool            `json:"amount_supported"`
	FractionalAmountSupported bool            `json:"fractional_amount_supported"`
	MinAmount                 json.RawMessage `json:"min_amount"`
	MaxAmount                 json.RawMessage `json:"max_amount"`
	PercentageSupported       bool            `json:"percentage_supported"`
	MinPercentage             json.RawMessage `json:"min_percentage"`
	MaxPercentage             json.RawMessage `json:"max_percentage"`
}

// domain reads the jobs (dropping those this service does not know) and
// the limits, amounts parsed from their text into cents.
func (l limitsJSON) domain() ([]domain.JobType, domain.SwitchLimits, error) {
	var jobs []domain.JobType
	for _, j := range l.SupportedJobs {
		if jt, ok := domain.ParseJobType(j); ok {
			jobs = append(jobs, jt)
		}
	}
	d := domain.SwitchLimits{AmountSupported: l.AmountSupported, FractionalAmountSupported: l.FractionalAmountSupported,
		PercentageSupported: l.PercentageSupported}
	var err error
	if d.MinAmount, err = cents(l.MinAmount); err != nil {
		return nil, d, fmt.Errorf("min_amount: %w", err)
	}
	if d.MaxAmount, err = cents(l.MaxAmount); err != nil {
		return nil, d, fmt.Errorf("max_amount: %w", err)
	}
	if d.MinPercentage, err = percent(l.MinPercentage); err != nil {
		return nil, d, fmt.Errorf("min_percentage: %w", err)
	}
	if d.MaxPercentage, err = percent(l.MaxPercentage); err != nil {
		return nil, d, fmt.Errorf("max_percentage: %w", err)
	}
	return jobs, d, nil
}

// platformJSON is an upstream platform.
type platformJSON struct {
	ID                 string    `json:"id"`
	Name               string    `json:"name"`
	DisplayName        string    `json:"display_name"`
	Type               string    `json:"type"`
	LastUpdated        time.Time `json:"last_updated"`
	LogoURL            string    `json:"logo_url"`
	MerchantCategories []string  `json:"merchant_categories"`
	MerchantCategory   *string   `json:"merchant_category"`
	limitsJSON
}

func (p platformJSON) domain() (domain.Platform, error) {
	t, ok := domain.ParsePlatformType(p.Type)
	if !ok {
		t = domain.PlatformPayroll
	}
	d := domain.Platform{ID: p.ID, Name: p.Name, DisplayName: p.DisplayName, Type: t, LastUpdated: p.LastUpdated.UTC(),
		LogoURL: p.LogoURL, MerchantCategories: p.MerchantCategories}
	if p.MerchantCategory != nil {
		d.MerchantCategory = *p.MerchantCategory
	}
	var err error
	d.SupportedJobs, d.SwitchLimits, err = p.limitsJSON.domain()
	return d, err
}

// employerJSON is an upstream employer. The vendor's carry neither an EIN
// nor the platform the employer's staff log in to; the upstream's own
// Link knows that.
type employerJSON struct {
	ID          string    `json:"id"`
	Name        string    `json:"name"`
	LastUpdated time.Time `json:"last_updated"`
	LogoURL     string    `json:"logo_url"`
	limitsJSON
}

func (e employerJSON) domain() (domain.Employer, error) {
	d := domain.Employer{ID: e.ID, Name: e.Name, LastUpdated: e.LastUpdated.UTC(), LogoURL: e.LogoURL}
	var err error
	d.SupportedJobs, d.SwitchLimits, err = e.limitsJSON.domain()
	return d, err
}

// Platforms implements domain.Upstream: the upstream's whole platform
// directory, ESPs included. The API marks no platform as an ESP; it
// leaves them out unless include_esps is set, so the ESPs are the
// platforms only that listing has (two listings, a page or two each).
func (c *Client) Platforms(ctx context.Context) ([]domain.Platform, error) {
	all, err := c.platforms(ctx, url.Values{"include_esps": {"true"}})
	if err != nil {
		return nil, err
	}
	plain, err := c.platforms(ctx, nil)
	if err != nil {
		return nil, err
	}
	listed := make(map[string]bool, len(plain))
	for _, p := range plain {
		listed[p.ID] = true
	}
	for i := range all {
		all[i].ESP = !listed[all[i].ID]
	}
	return all, nil
}

func (c *Client) platforms(ctx context.Context, query url.Values) ([]domain.Platform, error) {
	var out []domain.Platform
	err := each(ctx, c, "/v1/platforms", query, func(items []platformJSON) (bool, error) {
		for _, p := range items {
			d, err := p.domain()
			if err != nil {
				return false, fmt.Errorf("platform %s: %w", p.ID, err)
			}
			out = append(out, d)
		}
		return true, nil
	})
	return out, err
}

// EmployersPage implements domain.Upstream: one page of the upstream's
// employers updated after the given time (every one when it is zero), at
// the largest page size the API allows.
func (c *Client) EmployersPage(ctx context.Context, updatedAfter time.Time, cursor string) ([]domain.Employer, string, error) {
	q := url.Values{"limit": {strconv.Itoa(maxPage)}}
	if !updatedAfter.IsZero() {
		q.Set("last_updated", updatedAfter.UTC().Format(time.RFC3339))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var p paged
	if err := c.do(ctx, "GET", "/v1/employers?"+q.Encode(), nil, &p); err != nil {
		return nil, "", err
	}
	var items []employerJSON
	if err := json.Unmarshal(p.data, &items); err != nil {
		return nil, "", fmt.Errorf("GET /v1/employers: unexpected page: %w", err)
	}
	out := make([]domain.Employer, 0, len(items))
	for _, e := range items {
		d, err := e.domain()
		if err != nil {
			return nil, "", fmt.Errorf("employer %s: %w", e.ID, err)
		}
		out = append(out, d)
	}
	return out, p.next, nil
}

// Employer implements domain.Upstream: GET /v1/employers/{id}, for an
// employer the directory has not synced yet. It carries no EIN and no
// platform.
func (c *Client) Employer(ctx context.Context, id string) (domain.Employer, error) {
	var body employerJSON
	if err := c.do(ctx, "GET", "/v1/employers/"+url.PathEscape(id), nil, &body); err != nil {
		return domain.Employer{}, err
	}
	return body.domain()
}

// Platform implements domain.Upstream: GET /v1/platforms/{id}, for a
// platform the directory has not synced yet. Whether it is an ESP the
// answer does not say; the sync will.
func (c *Client) Platform(ctx context.Context, id string) (domain.Platform, error) {
	var body platformJSON
	if err := c.do(ctx, "GET", "/v1/platforms/"+url.PathEscape(id), nil, &body); err != nil {
		return domain.Platform{}, err
	}
	return body.domain()
}

// Search implements domain.Upstream: GET /v1/search with the same
// query, for a directory whose first sync is under way. Employers come
// without EIN or platform, as the upstream's list gives them.
func (c *Client) Search(ctx context.Context, q domain.SearchQuery) ([]domain.SearchResult, error) {
	v := url.Values{"q": {q.Q}, "limit": {strconv.Itoa(min(max(q.Limit, 1), maxPage))}}
	for _, j := range q.SupportedJobs {
		v.Add("supported_jobs", string(j))
	}
	for _, t := range q.ResponseTypes {
		v.Add("response_types", string(t))
	}
	if q.AmountSupported != nil {
		v.Set("amount_supported", strconv.FormatBool(*q.AmountSupported))
	}
	if q.PlatformType != "" {
		v.Set("platform_type", string(q.PlatformType))
	}
	var items []json.RawMessage
	if err := c.do(ctx, "GET", "/v1/search?"+v.Encode(), nil, &items); err != nil {
		return nil, err
	}
	out := make([]domain.SearchResult, 0, len(items))
	for _, raw := range items {
		var kind struct {
			ResponseType string `json:"response_type"`
			PlatformType string `json:"platform_type"`
		}
		if err := json.Unmarshal(raw, &kind); err != nil {
			return nil, fmt.Errorf("GET /v1/search: unexpected result: %w", err)
		}
		switch domain.ResponseType(kind.ResponseType) {
		case domain.ResponseEmployer:
			var e employerJSON
			if err := json.Unmarshal(raw, &e); err != nil {
				return nil, fmt.Errorf("GET /v1/search: employer: %w", err)
			}
			d, err := e.domain()
			if err != nil {
				return nil, fmt.Errorf("employer %s: %w", e.ID, err)
			}
			out = append(out, domain.SearchResult{ResponseType: domain.ResponseEmployer, Employer: &d})
		case domain.ResponsePlatform:
			var p platformJSON
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, fmt.Errorf("GET /v1/search: platform: %w", err)
			}
			if p.Type == "" {
				p.Type = kind.PlatformType
			}
			d, err := p.domain()
			if err != nil {
				return nil, fmt.Errorf("platform %s: %w", p.ID, err)
			}
			out = append(out, domain.SearchResult{ResponseType: domain.ResponsePlatform, Platform: &d, PlatformType: d.Type})
		}
	}
	return out, nil
}

// EmployerByEIN implements domain.Upstream: GET /v1/employers/lookup.
// The answer carries no EIN; the caller knows it.
func (c *Client) EmployerByEIN(ctx context.Context, ein string) (domain.Employer, error) {
	var body employerJSON
	if err := c.do(ctx, "GET", "/v1/employers/lookup?"+url.Values{"ein": {ein}}.Encode(), nil, &body); err != nil {
		return domain.Employer{}, err
	}
	e, err := body.domain()
	if err != nil {
		return domain.Employer{}, fmt.Errorf("employer %s: %w", body.ID, err)
	}
	e.EIN = ein
	return e, nil
}
