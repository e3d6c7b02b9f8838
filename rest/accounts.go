package rest

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"payline/domain"
	"payline/rest/wire"
)

type accountJSON struct {
	ID               string                  `json:"id"`
	CreatedAt        wire.Time               `json:"created_at"`
	LinkTokenID      string                  `json:"link_token_id"`
	PlatformID       string                  `json:"platform_id"`
	EndUserID        string                  `json:"end_user_id"`
	Connected        bool                    `json:"connected"`
	MonitoringStatus domain.MonitoringStatus `json:"monitoring_status"`
	DataUpdatedAt    map[string]wire.Time    `json:"data_updated_at"`
	DataRefreshedAt  map[string]wire.Time    `json:"data_refreshed_at"`
	// DisconnectedBy is end_user when the person took consent back.
	DisconnectedBy string `json:"disconnected_by,omitempty"`
}

func apiTimes(m map[string]time.Time) map[string]wire.Time {
	out := make(map[string]wire.Time, len(m))
	for k, v := range m {
		out[k] = wire.Time(v)
	}
	return out
}

func newAccountJSON(a domain.Account) accountJSON {
	return accountJSON{ID: a.ID, CreatedAt: wire.Time(a.CreatedAt), LinkTokenID: a.LinkTokenID, PlatformID: a.PlatformID,
		EndUserID: a.EndUserID, Connected: a.Connected, MonitoringStatus: a.MonitoringStatus,
		DataUpdatedAt: apiTimes(a.DataUpdatedAt), DataRefreshedAt: apiTimes(a.DataRefreshedAt),
		DisconnectedBy: a.DisconnectedBy}
}

func (s *Server) listAccounts(r *http.Request) (response, error) {
	return s.accountPage(r, "")
}

func (s *Server) listEndUserAccounts(r *http.Request) (response, error) {
	// The path always has an end_user_id; its rule (1 to 255 characters
	// of text) is AccountFilter's, which GraphQL's filter meets too.
	return s.accountPage(r, r.PathValue("end_user_id"))
}

func (s *Server) accountPage(r *http.Request, endUserID string) (response, error) {
	q := newQuery(r.URL)
	f := domain.AccountFilter{EndUserID: endUserID, Connected: q.boolean("connected")}
	if v, ok := q.str("monitoring_status"); ok {
		f.MonitoringStatus = domain.MonitoringStatus(v)
	}
	p := q.page(domain.ListAccounts)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.accounts.Accounts(r.Context(), scopeOf(r), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resAccount, mapAll(pg.Items, newAccountJSON), pg.Next), nil
}

func (s *Server) getAccount(r *http.Request) (response, error) {
	a, err := s.accounts.Account(r.Context(), scopeOf(r), r.PathValue("account_id"))
	if err != nil {
		return response{}, err
	}
	return object(resAccount, newAccountJSON(a)), nil
}

type jobJSON struct {
	ID           string           `json:"id"`
	AccountID    string           `json:"account_id"`
	PlatformID   string           `json:"platform_id"`
	PlatformName string           `json:"platform_name"`
	LinkTokenID  string           `json:"link_token_id"`
	Name         domain.JobType   `json:"name"`
	Timestamp    *wire.Time       `json:"timestamp"`
	Outcome      domain.Outcome   `json:"outcome"`
	ErrorCode    *string          `json:"error_code"`
	ErrorType    *string          `json:"error_type"`
	Params       domain.JobParams `json:"params"`
}

func newJobJSON(j domain.Job) jobJSON {
	out := jobJSON{ID: j.ID, AccountID: j.AccountID, PlatformID: j.PlatformID, PlatformName: j.PlatformName,
		LinkTokenID: j.LinkTokenID, Name: j.Name, Outcome: j.Outcome, Params: j.Params}
	if j.Timestamp != nil {
		ts := wire.Time(*j.Timestamp)
		out.Timestamp = &ts
	}
	if j.ErrorCode != "" {
		out.ErrorCode = &j.ErrorCode
	}
	if j.ErrorType != "" {
		out.ErrorType = &j.ErrorType
	}
	return out
}

// legacyDeprecated is when GET /v1/link_tokens/{id}/jobs was deprecated in
// favour of GET /v1/jobs: the first version whose jobs lost the legacy
// params.amount (2023-11-22), as an RFC 9745 Deprecation date.
var legacyDeprecated = "@" + strconv.FormatInt(time.Date(2023, 11, 22, 0, 0, 0, 0, time.UTC).Unix(), 10)

// legacyTokenJobs is the deprecated GET /v1/link_tokens/{token_id}/jobs:
// the token's finished jobs as a bare array in the legacy job shape
// (params.amount in cents or null; error_code), whatever Service-Version
// says, with Deprecation and a Link to its successor.
func (s *Server) legacyTokenJobs(r *http.Request) (response, error) {
	id := r.PathValue("token_id")
	jobs, err := s.jobs.TokenJobs(r.Context(), scopeOf(r), id)
	if err != nil {
		return response{}, err
	}
	legacy, err := domain.ShapeForVersion(resJob, domain.Versions[len(domain.Versions)-1], mapAll(jobs, newJobJSON))
	if err != nil {
		return response{}, err
	}
	if jobs == nil {
		legacy = []any{}
	}
	return response{status: http.StatusOK, raw: true, data: legacy, header: map[string]string{
		"Deprecation": legacyDeprecated,
		"Link":        `</v1/jobs?link_token_id=` + url.QueryEscape(id) + `>; rel="successor-version"`,
	}}, nil
}

func (s *Server) listJobs(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	f := domain.JobFilter{JobTypes: q.jobTypes("job_types"), From: q.timestamp("from_timestamp"), To: q.timestamp("to_timestamp")}
	f.LinkTokenID, _ = q.str("link_token_id")
	f.AccountID, _ = q.str("account_id")
	if v, ok := q.str("outcome"); ok {
		f.Outcome = domain.Outcome(v)
	}
	p := q.page(domain.ListJobs)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.jobs.Jobs(r.Context(), scopeOf(r), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resJob, mapAll(pg.Items, newJobJSON), pg.Next), nil
}
