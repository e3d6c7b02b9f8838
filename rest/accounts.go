package rest

import (
	"math"
	"net/http"
	"slices"
	"time"

	"payline/domain"
)

type accountJSON struct {
	ID               string                  `json:"id"`
	CreatedAt        apiTime                 `json:"created_at"`
	LinkTokenID      string                  `json:"link_token_id"`
	PlatformID       string                  `json:"platform_id"`
	EndUserID        string                  `json:"end_user_id"`
	Connected        bool                    `json:"connected"`
	MonitoringStatus domain.MonitoringStatus `json:"monitoring_status"`
	DataUpdatedAt    map[string]apiTime      `json:"data_updated_at"`
	DataRefreshedAt  map[string]apiTime      `json:"data_refreshed_at"`
}

func apiTimes(m map[string]time.Time) map[string]apiTime {
	out := make(map[string]apiTime, len(m))
	for k, v := range m {
		out[k] = apiTime(v)
	}
	return out
}

func newAccountJSON(a domain.Account) accountJSON {
	return accountJSON{ID: a.ID, CreatedAt: apiTime(a.CreatedAt), LinkTokenID: a.LinkTokenID, PlatformID: a.PlatformID,
		EndUserID: a.EndUserID, Connected: a.Connected, MonitoringStatus: a.MonitoringStatus,
		DataUpdatedAt: apiTimes(a.DataUpdatedAt), DataRefreshedAt: apiTimes(a.DataRefreshedAt)}
}

func (s *Server) listAccounts(r *http.Request) (response, error) {
	return s.accountPage(r, "")
}

func (s *Server) listEndUserAccounts(r *http.Request) (response, error) {
	id := r.PathValue("end_user_id")
	if id == "" || len(id) > 255 {
		return response{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "end_user_id: must be 1 to 255 characters")
	}
	return s.accountPage(r, id)
}

func (s *Server) accountPage(r *http.Request, endUserID string) (response, error) {
	q := newQuery(r.URL)
	f := domain.AccountFilter{EndUserID: endUserID, Connected: q.boolean("connected")}
	if v, ok := q.str("monitoring_status"); ok {
		f.MonitoringStatus = domain.MonitoringStatus(v)
		if !slices.Contains(domain.MonitoringStatuses, f.MonitoringStatus) {
			q.p.Invalid("monitoring_status", "must be one of active, degraded, user_action_required, customer_disabled, unavailable")
		}
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
	Timestamp    *apiTime         `json:"timestamp"`
	Outcome      domain.Outcome   `json:"outcome"`
	ErrorCode    *string          `json:"error_code"`
	Params       domain.JobParams `json:"params"`
}

func newJobJSON(j domain.Job) jobJSON {
	out := jobJSON{ID: j.ID, AccountID: j.AccountID, PlatformID: j.PlatformID, PlatformName: j.PlatformName,
		LinkTokenID: j.LinkTokenID, Name: j.Name, Outcome: j.Outcome, Params: j.Params}
	if j.Timestamp != nil {
		ts := apiTime(*j.Timestamp)
		out.Timestamp = &ts
	}
	if j.ErrorCode != "" {
		out.ErrorCode = &j.ErrorCode
	}
	return out
}

func (s *Server) listJobs(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	f := domain.JobFilter{JobTypes: q.jobTypes("job_types"), From: q.timestamp("from_timestamp"), To: q.timestamp("to_timestamp")}
	for name, dst := range map[string]*string{"link_token_id": &f.LinkTokenID, "account_id": &f.AccountID} {
		if v, ok := q.str(name); ok {
			if !domain.ValidID(v) {
				q.p.Invalid(name, "%q is not a UUID", v)
			}
			*dst = v
		}
	}
	if v, ok := q.str("outcome"); ok {
		f.Outcome = domain.Outcome(v)
		if f.Outcome != domain.OutcomeSuccess && f.Outcome != domain.OutcomePending && f.Outcome != domain.OutcomeError {
			q.p.Invalid("outcome", "must be success, pending or error")
		}
	}
	p := q.page(domain.ListJobs)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.accounts.Jobs(r.Context(), scopeOf(r), f, p)
	if err != nil {
		return response{}, err
	}
	return page(resJob, mapAll(pg.Items, newJobJSON), pg.Next), nil
}

// jobParamsAmountDown is the 2023-11-22 change of the job shape: older
// versions carry params.amount, the switched amount in cents or null.
func jobParamsAmountDown(obj map[string]any) {
	params, _ := obj["params"].(map[string]any)
	if params == nil {
		params = map[string]any{}
		obj["params"] = params
	}
	var amount any
	if alloc, ok := params["allocation"].(map[string]any); ok && alloc["type"] == domain.AllocationAmount {
		if v, ok := alloc["value"].(float64); ok {
			amount = int64(math.Round(v * 100))
		}
	}
	params["amount"] = amount
}
