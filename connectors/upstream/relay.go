package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"payline/domain"
)

var _ domain.Upstream = (*Client)(nil)

// linkTokenBody is POST /v1/link_tokens as the upstream takes it.
type linkTokenBody struct {
	OrgName                       string          `json:"org_name"`
	EndUserID                     string          `json:"end_user_id,omitempty"`
	Solution                      string          `json:"solution,omitempty"`
	Features                      []string        `json:"features,omitempty"`
	RequiredJobs                  []string        `json:"required_jobs,omitempty"`
	Allocation                    *allocationBody `json:"allocation,omitempty"`
	EmployerID                    string          `json:"employer_id,omitempty"`
	PlatformID                    string          `json:"platform_id,omitempty"`
	AccountID                     string          `json:"account_id,omitempty"`
	Amount                        json.RawMessage `json:"amount,omitempty"`
	SkipIntroScreen               bool            `json:"skip_intro_screen,omitempty"`
	DisableDirectDepositSplitting bool            `json:"disable_direct_deposit_splitting,omitempty"`
	Language                      string          `json:"language,omitempty"`
	EndUser                       *endUserBody    `json:"end_user,omitempty"`
}

type allocationBody struct {
	Type    string          `json:"type,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"`
	Targets []targetBody    `json:"targets,omitempty"`
}

type targetBody struct {
	Name          string `json:"name,omitempty"`
	Type          string `json:"type"`
	AccountNumber string `json:"account_number"`
	RoutingNumber string `json:"routing_number"`
}

type endUserBody struct {
	PlatformMatching *matchingBody `json:"platform_matching"`
}

type matchingBody struct {
	SocialSecurityNumber   string `json:"social_security_number,omitempty"`
	SocialSecurityLastFour string `json:"social_security_last_four,omitempty"`
	FirstName              string `json:"first_name,omitempty"`
	LastName               string `json:"last_name,omitempty"`
	DateOfBirth            string `json:"date_of_birth,omitempty"`
	MobilePhoneNumber      string `json:"mobile_phone_number,omitempty"`
	HomeAddressZipCode     string `json:"home_address_zip_code,omitempty"`
	Email                  string `json:"email,omitempty"`
}

// solutionFor is the token's solution, which the vendor's API requires:
// the caller's, or the one its jobs imply (a switch, a bill, or a
// verification).
func solutionFor(r domain.LinkTokenRequest) string {
	if r.Solution != "" {
		return r.Solution
	}
	for _, j := range r.RequiredJobs {
		switch domain.JobType(j) {
		case domain.JobDirectDepositSwitch, domain.JobDirectDepositPayment:
			return "Deposit Switch"
		case domain.JobBillSwitch, domain.JobBillCancellation:
			return "Bill Switch"
		}
	}
	return "Verify"
}

// CreateLinkToken implements domain.Upstream: the same jobs, allocation,
// amounts and preselection as the request, for the namespaced end user.
// Numbers go on as the caller wrote them (never through a float).
func (c *Client) CreateLinkToken(ctx context.Context, r domain.LinkTokenRequest, endUser string) (domain.UpstreamToken, error) {
	b := linkTokenBody{OrgName: r.OrgName, EndUserID: endUser, Solution: solutionFor(r), Features: r.Features, RequiredJobs: r.RequiredJobs,
		EmployerID: r.EmployerID, PlatformID: r.PlatformID, AccountID: r.AccountID, SkipIntroScreen: r.SkipIntroScreen,
		DisableDirectDepositSplitting: r.DisableDirectDepositSplitting, Language: r.Language}
	if r.Amount != nil {
		b.Amount = json.RawMessage(*r.Amount)
	}
	if a := r.Allocation; a != nil {
		b.Allocation = &allocationBody{Type: a.Type}
		if a.Value != nil {
			b.Allocation.Value = json.RawMessage(*a.Value)
		}
		for _, t := range a.Targets {
			b.Allocation.Targets = append(b.Allocation.Targets, targetBody(t))
		}
	}
	if m := r.PlatformMatching; m != nil {
		mb := matchingBody(*m)
		b.EndUser = &endUserBody{PlatformMatching: &mb}
	}
	var out struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	if err := c.do(ctx, "POST", "/v1/link_tokens", b, &out); err != nil {
		return domain.UpstreamToken{}, err
	}
	if out.ID == "" || out.Token == "" {
		return domain.UpstreamToken{}, errors.New("the upstream created a link token without an id or token")
	}
	return domain.UpstreamToken{ID: out.ID, Token: out.Token, SDKURL: c.linkJS}, nil
}

type accountJSON struct {
	ID               string    `json:"id"`
	CreatedAt        time.Time `json:"created_at"`
	LinkTokenID      string    `json:"link_token_id"`
	PlatformID       string    `json:"platform_id"`
	EndUserID        string    `json:"end_user_id"`
	Connected        bool      `json:"connected"`
	MonitoringStatus string    `json:"monitoring_status"`
}

func (a accountJSON) domain() domain.UpstreamAccount {
	return domain.UpstreamAccount{ID: a.ID, LinkTokenID: a.LinkTokenID, EndUserID: a.EndUserID, PlatformID: a.PlatformID,
		CreatedAt: a.CreatedAt.UTC(), Connected: a.Connected, MonitoringStatus: domain.MonitoringStatus(a.MonitoringStatus)}
}

// Account implements domain.Upstream.
func (c *Client) Account(ctx context.Context, id string) (domain.UpstreamAccount, error) {
	var a accountJSON
	if err := c.do(ctx, "GET", "/v1/accounts/"+url.PathEscape(id), nil, &a); err != nil {
		return domain.UpstreamAccount{}, err
	}
	return a.domain(), nil
}

// Accounts implements domain.Upstream: one page of the upstream's
// accounts, newest first, stopping at the first created before since.
func (c *Client) Accounts(ctx context.Context, since time.Time, cursor string) ([]domain.UpstreamAccount, string, error) {
	q := url.Values{"limit": {"100"}}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var p paged
	if err := c.do(ctx, "GET", "/v1/accounts?"+q.Encode(), nil, &p); err != nil {
		return nil, "", err
	}
	var items []accountJSON
	if err := json.Unmarshal(p.data, &items); err != nil {
		return nil, "", fmt.Errorf("GET /v1/accounts: unexpected page: %w", err)
	}
	var out []domain.UpstreamAccount
	for _, a := range items {
		if a.CreatedAt.Before(since) {
			return out, "", nil
		}
		out = append(out, a.domain())
	}
	return out, p.next, nil
}

type jobJSON struct {
	ID        string          `json:"id"`
	AccountID string          `json:"account_id"`
	Name      string          `json:"name"`
	Timestamp *time.Time      `json:"timestamp"`
	Outcome   string          `json:"outcome"`
	ErrorCode *string         `json:"error_code"`
	ErrorType *string         `json:"error_type"`
	Params    json.RawMessage `json:"params"`
}

// Jobs implements domain.Upstream: every job of the account.
func (c *Client) Jobs(ctx context.Context, accountID string) ([]domain.UpstreamJob, error) {
	var out []domain.UpstreamJob
	err := each(ctx, c, "/v1/jobs", url.Values{"account_id": {accountID}}, func(items []jobJSON) (bool, error) {
		for _, j := range items {
			uj := domain.UpstreamJob{ID: j.ID, AccountID: j.AccountID, Name: domain.JobType(j.Name), Outcome: domain.Outcome(j.Outcome)}
			if j.Timestamp != nil {
				uj.CreatedAt = j.Timestamp.UTC()
			}
			if j.ErrorCode != nil {
				uj.ErrorCode = *j.ErrorCode
			}
			if j.ErrorType != nil {
				uj.ErrorType = *j.ErrorType
			}
			if len(j.Params) > 0 && string(j.Params) != "null" {
				if err := json.Unmarshal(j.Params, &uj.Params); err != nil {
					return false, fmt.Errorf("job %s: params: %w", j.ID, err)
				}
			}
			out = append(out, uj)
		}
		return true, nil
	})
	return out, err
}

// Login implements domain.Connector: a relayed mode never sees
// credentials; the end user logs in through the upstream's own Link.
func (c *Client) Login(context.Context, domain.Platform, domain.Credentials) (string, error) {
	return "", domain.Errorf(domain.KindInvalid, domain.CodePlatformUnavailable,
		"this server relays to an upstream: log in through the upstream's Link, which the modal opens")
}

// LinkLogin implements domain.UpstreamLinkLogin: a login through the
// upstream's Link API (POST /link/v1/api/login, as a Payline upstream
// serves it) with the end user's upstream link token, so a custom Link
// UI on the relay logs in as it would on the sandbox. An upstream that
// has no such API (404) takes logins only in its Link SDK.
func (c *Client) LinkLogin(ctx context.Context, token string, r domain.LoginRequest) (string, string, error) {
	body := map[string]string{"platform_id": r.PlatformID, "employer_id": r.EmployerID, "username": r.Credentials.Username,
		"password": r.Credentials.Password, "mfa_code": r.Credentials.MFACode, "consent_text_version": r.ConsentTextVersion}
	var answer struct {
		AccountID   string `json:"account_id"`
		MFARequired bool   `json:"mfa_required"`
		Prompt      string `json:"prompt"`
		Platform    struct {
			ID string `json:"id"`
		} `json:"platform"`
	}
	err := c.do(domain.WithUpstreamPriority(ctx, domain.PriorityEndUser), "POST", "/link/v1/api/login", body, &linkAPI{token: token, v: &answer})
	switch {
	case errors.Is(err, domain.ErrNoRows):
		return "", "", domain.Errorf(domain.KindInvalid, domain.CodePlatformUnavailable,
			"the upstream takes logins only in its own Link, which the modal opens")
	case err != nil:
		return "", "", err
	case answer.MFARequired:
		return "", "", &domain.MFARequiredError{Prompt: answer.Prompt}
	case answer.AccountID == "":
		return "", "", fmt.Errorf("POST /link/v1/api/login: the upstream answered no account")
	}
	return answer.AccountID, answer.Platform.ID, nil
}

// Match implements domain.Connector: the upstream's Link matches
// platforms itself.
func (c *Client) Match(context.Context, domain.PlatformMatching, []domain.Platform) []domain.Platform {
	return nil
}

// pendingRecheck is how soon a job pending upstream is asked about again:
// half its age, from a second up to 30 seconds, so a job that ends
// quickly is seen quickly and one that stays pending costs few requests.
// A job with an event of its own usually has its webhook come first,
// which runs it at once; the eventless ones (domain.UpstreamEventlessJobs)
// have only this.
func pendingRecheck(started, now time.Time) time.Duration {
	return min(max(now.Sub(started)/2, time.Second), 30*time.Second)
}

// Run implements domain.Connector: the job's outcome, and its time, are
// the upstream's. A final outcome a delivery or a listing already told
// the client (Learned) costs no request; otherwise the account's jobs
// are listed. A job the upstream does not list yet is pending.
func (c *Client) Run(ctx context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	uj, ok := c.learned.get(j.ID)
	if !ok || !uj.Final() {
		jobs, err := c.Jobs(ctx, a.ID)
		if err != nil {
			return domain.JobResult{}, err
		}
		for _, listed := range jobs {
			c.Learned(listed)
			if listed.ID == j.ID {
				uj = listed
			}
		}
	}
	switch uj.Outcome {
	case domain.OutcomeSuccess:
		return domain.JobResult{Outcome: domain.OutcomeSuccess, At: uj.CreatedAt}, nil
	case domain.OutcomeError:
		return domain.JobResult{Outcome: domain.OutcomeError, ErrorCode: uj.ErrorCode, ErrorType: uj.ErrorType, At: uj.CreatedAt}, nil
	}
	return domain.JobResult{Outcome: domain.OutcomePending, RetryAfter: pendingRecheck(started, now)}, nil
}

// Learned implements domain.Upstream: a final job is remembered (the
// newest learnedJobs of them) so its run needs no listing.
func (c *Client) Learned(j domain.UpstreamJob) {
	// A delivery's payload carries no error code: an error is listed for it.
	if j.Outcome == domain.OutcomeSuccess || j.Outcome == domain.OutcomeError && j.ErrorCode != "" {
		c.learned.put(j)
	}
}

// learnedJobs is how many final jobs the client remembers: a few
// minutes of jobs at a busy relay's pace, a few MB at most.
const learnedJobs = 10000

// jobCache remembers the newest final jobs, by id.
type jobCache struct {
	mu    sync.Mutex
	max   int
	jobs  map[string]domain.UpstreamJob
	order []string // ids, oldest first
}

func newJobCache(n int) *jobCache { return &jobCache{max: n, jobs: map[string]domain.UpstreamJob{}} }

func (c *jobCache) get(id string) (domain.UpstreamJob, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	j, ok := c.jobs[id]
	return j, ok
}

func (c *jobCache) put(j domain.UpstreamJob) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.jobs[j.ID]; !ok {
		c.order = append(c.order, j.ID)
	}
	c.jobs[j.ID] = j
	for len(c.order) > c.max {
		delete(c.jobs, c.order[0])
		c.order = c.order[1:]
	}
}

// Act implements domain.Upstream: POST /v1/accounts/{id}/disconnect or
// /disable_monitoring at the upstream.
func (c *Client) Act(ctx context.Context, accountID, action string) error {
	switch action {
	case domain.ActionDisconnect, domain.ActionDisableMonitoring:
	default:
		return fmt.Errorf("the upstream relay has no account action %q", action)
	}
	return c.do(ctx, "POST", "/v1/accounts/"+url.PathEscape(accountID)+"/"+action, nil, nil)
}

// SetBillNavigatorStatus implements domain.Upstream.
func (c *Client) SetBillNavigatorStatus(ctx context.Context, endUser, action, reason string) error {
	body := map[string]string{"action": action}
	if reason != "" {
		body["reason"] = reason
	}
	return c.do(ctx, "PUT", "/v1/end_users/"+url.PathEscape(endUser)+"/bill_navigator/status", body, nil)
}
