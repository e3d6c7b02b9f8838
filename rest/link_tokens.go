package rest

import (
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// linkTokenBody is the POST /link_tokens body: the current fields of the
// spec and the legacy form's, which are mapped onto them.
type linkTokenBody struct {
	OrgName                       string          `json:"org_name"`
	EndUserID                     string          `json:"end_user_id"`
	Solution                      string          `json:"solution"`
	Features                      []string        `json:"features"`
	RequiredJobs                  []string        `json:"required_jobs"`
	Allocation                    *allocationBody `json:"allocation"`
	EmployerID                    string          `json:"employer_id"`
	PlatformID                    string          `json:"platform_id"`
	AccountID                     string          `json:"account_id"`
	Amount                        *wire.Number    `json:"amount"`
	SkipIntroScreen               bool            `json:"skip_intro_screen"`
	DisableDirectDepositSplitting bool            `json:"disable_direct_deposit_splitting"`
	Language                      string          `json:"language"`
	EndUser                       *struct {
		PlatformMatching *platformMatchingBody `json:"platform_matching"`
	} `json:"end_user"`

	// The legacy form.
	Job            string `json:"job"`
	AccountNumber  string `json:"account_number"`
	RoutingNumber  string `json:"routing_number"`
	AccountType    string `json:"account_type"`
	AccountName    string `json:"account_name"`
	SkipExitSurvey bool   `json:"skip_exit_survey"`
}

type allocationBody struct {
	Type    string       `json:"type"`
	Value   *wire.Number `json:"value"`
	Targets []struct {
		Name          string `json:"name"`
		Type          string `json:"type"`
		AccountNumber string `json:"account_number"`
		RoutingNumber string `json:"routing_number"`
	} `json:"targets"`
}

type platformMatchingBody struct {
	SocialSecurityNumber   string `json:"social_security_number"`
	SocialSecurityLastFour string `json:"social_security_last_four"`
	FirstName              string `json:"first_name"`
	LastName               string `json:"last_name"`
	DateOfBirth            string `json:"date_of_birth"`
	MobilePhoneNumber      string `json:"mobile_phone_number"`
	HomeAddressZipCode     string `json:"home_address_zip_code"`
	Email                  string `json:"email"`
}

// request maps the body, legacy fields included, onto the domain request.
// Amounts stay literals; the domain parses and checks them.
func (b linkTokenBody) request() (domain.LinkTokenRequest, error) {
	r := domain.LinkTokenRequest{
		OrgName: b.OrgName, EndUserID: b.EndUserID, Solution: b.Solution, Features: b.Features,
		RequiredJobs: b.RequiredJobs, EmployerID: b.EmployerID, PlatformID: b.PlatformID,
		AccountID: b.AccountID, Amount: b.Amount.Domain(), SkipIntroScreen: b.SkipIntroScreen,
		DisableDirectDepositSplitting: b.DisableDirectDepositSplitting, Language: b.Language,
	}
	if a := b.Allocation; a != nil {
		r.Allocation = &domain.AllocationRequest{Type: a.Type, Value: a.Value.Domain()}
		for _, t := range a.Targets {
			r.Allocation.Targets = append(r.Allocation.Targets, domain.AllocationTarget(t))
		}
	}
	if b.EndUser != nil && b.EndUser.PlatformMatching != nil {
		m := domain.PlatformMatching(*b.EndUser.PlatformMatching)
		r.PlatformMatching = &m
	}
	if b.Job == "" {
		if b.AccountNumber != "" || b.RoutingNumber != "" || b.AccountType != "" {
			return r, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
				"account_number, routing_number and account_type belong to the legacy form and need job; otherwise use allocation.targets")
		}
		return r, nil
	}
	var p domain.Problems
	switch b.Job {
	case string(domain.JobDirectDepositSwitch), string(domain.JobDirectDepositPayment):
	default:
		p.Invalid("job", "must be direct_deposit_switch or direct_deposit_payment")
	}
	if b.Job == string(domain.JobDirectDepositPayment) && b.Amount == nil {
		p.Missing("amount")
	}
	if b.AccountNumber == "" {
		p.Missing("account_number")
	}
	if b.RoutingNumber == "" {
		p.Missing("routing_number")
	}
	if b.AccountType == "" {
		p.Missing("account_type")
	}
	if err := p.Err(); err != nil {
		return r, err
	}
	r.RequiredJobs = append(r.RequiredJobs, b.Job)
	if r.Allocation == nil {
		r.Allocation = &domain.AllocationRequest{}
	}
	r.Allocation.Targets = append(r.Allocation.Targets, domain.AllocationTarget{
		Name: b.AccountName, Type: b.AccountType, AccountNumber: b.AccountNumber, RoutingNumber: b.RoutingNumber})
	if b.Amount != nil && r.Allocation.Type == "" {
		r.Allocation.Type, r.Allocation.Value = domain.AllocationAmount, b.Amount.Domain()
	}
	return r, nil
}

type linkTokenJSON struct {
	ID      string      `json:"id"`
	Token   string      `json:"token"`
	Expires wire.Time   `json:"expires"`
	Mode    domain.Mode `json:"mode"`
}

func (s *Server) createLinkToken(r *http.Request) (response, error) {
	var body linkTokenBody
	if err := wire.Decode(r, &body); err != nil {
		return response{}, err
	}
	req, err := body.request()
	if err != nil {
		return response{}, err
	}
	t, value, err := s.link.CreateLinkToken(r.Context(), scopeOf(r), req, versionOf(r))
	if err != nil {
		return response{}, err
	}
	return object(resLinkToken, linkTokenJSON{ID: t.ID, Token: value, Expires: wire.Time(t.Expires), Mode: t.Mode}), nil
}
