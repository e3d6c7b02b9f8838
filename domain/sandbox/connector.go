package sandbox

import (
	"context"
	"hash/fnv"
	"time"

	"payline/domain"
)

// Sandbox credentials. Every user takes the password pass_good.
const (
	UserGood    = "user_good"
	UserMFA     = "user_mfa"
	UserError   = "user_error"
	UserPending = "user_pending"
	UserLocked  = "user_locked"
	// UserTerminated logs in like user_good, to an employment that ended
	// within the year before the account was connected: paystubs stop at
	// the paycheck of the pay period holding the termination.
	UserTerminated = "user_terminated"
	// UserPayGap logs in like user_good, to a job paid bi-weekly with six
	// weeks without pay within the last year.
	UserPayGap = "user_pay_gap"
	// UserDeclining logs in like user_good, to an hourly job whose
	// overtime fell by more than 20% over the last twelve months.
	UserDeclining = "user_declining"
	Password      = "pass_good"
	MFACode       = "123456"
)

// Connection scenarios kept on sandbox accounts.
const (
	scenarioGood       = "good"
	scenarioError      = "error"
	scenarioPending    = "pending"
	scenarioPartner    = "partner" // accounts made by platform matching
	scenarioTerminated = "terminated"
	scenarioPayGap     = "pay_gap"
	scenarioDeclining  = "declining"
)

// NoMatchLastFour is the SSN ending that platform matching never matches,
// so tests can reach the fallback to standard search.
const NoMatchLastFour = "0000"

// Connector is the sandbox payroll connector: test credentials decide the
// scenario, nothing leaves the process.
type Connector struct {
	// PendingDelay is how long user_pending jobs stay pending before they
	// end in error.
	PendingDelay time.Duration
	// PendingPoll caps the wait between attempts at a pending job
	// (default 30s).
	PendingPoll time.Duration
}

// Login implements domain.Connector.
func (c Connector) Login(_ context.Context, _ domain.Platform, cr domain.Credentials) (string, error) {
	wrong := domain.Errorf(domain.KindInvalid, domain.CodeInvalidCredentials,
		"the username or password is incorrect; in the sandbox use user_good / pass_good")
	if cr.Password != Password {
		return "", wrong
	}
	switch cr.Username {
	case UserGood:
		return scenarioGood, nil
	case UserTerminated:
		return scenarioTerminated, nil
	case UserPayGap:
		return scenarioPayGap, nil
	case UserDeclining:
		return scenarioDeclining, nil
	case UserError:
		return scenarioError, nil
	case UserPending:
		return scenarioPending, nil
	case UserLocked:
		return "", domain.Errorf(domain.KindInvalid, domain.CodeAccountLocked,
			"this payroll account is locked; the user must unlock it with their employer")
	case UserMFA:
		switch cr.MFACode {
		case "":
			return "", &domain.MFARequiredError{Prompt: "Enter the 6-digit code sent to your phone (sandbox: " + MFACode + ")"}
		case MFACode:
			return scenarioGood, nil
		}
		return "", domain.Errorf(domain.KindInvalid, domain.CodeInvalidMFACode, "the MFA code is incorrect; in the sandbox it is %s", MFACode)
	}
	return "", wrong
}

// Match implements domain.Connector: partnership platforms hold the user,
// chosen by a hash of the identifiers so the same user always matches the
// same platforms; an SSN ending 0000 matches none.
func (c Connector) Match(_ context.Context, m domain.PlatformMatching, candidates []domain.Platform) []domain.Platform {
	if m.LastFour() == NoMatchLastFour || len(candidates) == 0 {
		return nil
	}
	h := fnv.New32a()
	h.Write([]byte(m.LastFour() + "|" + m.DateOfBirth + "|" + m.LastName))
	first := int(h.Sum32() % uint32(len(candidates)))
	out := []domain.Platform{candidates[first]}
	if len(candidates) > 1 && h.Sum32()%2 == 0 {
		out = append(out, candidates[(first+1)%len(candidates)])
	}
	return out
}

// Run implements domain.Connector.
func (c Connector) Run(_ context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	switch a.Connection {
	case scenarioGood, scenarioPartner, scenarioTerminated, scenarioPayGap, scenarioDeclining:
		return domain.JobResult{Outcome: domain.OutcomeSuccess}, nil
	case scenarioError:
		return domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: domain.CodeSandboxJobError}, nil
	case scenarioPending:
		if wait := started.Add(c.PendingDelay).Sub(now); wait > 0 {
			poll := c.PendingPoll
			if poll <= 0 {
				poll = 30 * time.Second
			}
			return domain.JobResult{Outcome: domain.OutcomePending, RetryAfter: min(wait, poll)}, nil
		}
		return domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: domain.CodeSandboxPendingExpired}, nil
	}
	return domain.JobResult{Outcome: domain.OutcomeError, ErrorType: domain.ErrorTypePlatform, ErrorCode: domain.CodeUnknownConnection}, nil
}

// Fetch implements domain.Connector with the account's synthetic person.
func (c Connector) Fetch(_ context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	p := NewPerson(r.Account)
	switch r.Product {
	case domain.ProductIdentity:
		v := p.Identity()
		return domain.Fetched{Identity: &v}, nil
	case domain.ProductEmployment:
		v := p.Employment()
		return domain.Fetched{Employment: &v}, nil
	case domain.ProductIncome:
		v := p.Income()
		return domain.Fetched{Income: &v}, nil
	case domain.ProductAllocations:
		return domain.Fetched{Allocations: p.Allocations(r.Switches)}, nil
	case domain.ProductPaystubs:
		return domain.Fetched{Paystubs: p.Paystubs(r.Since, r.Now, r.Now)}, nil
	case domain.ProductTaxForms:
		return domain.Fetched{W2s: p.W2s(r.Since, r.Now)}, nil
	case domain.ProductShifts:
		return domain.Fetched{Shifts: p.Shifts(r.Now)}, nil
	}
	return domain.Fetched{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "the sandbox has no product %q", r.Product)
}
