package domain

import (
	"context"
	"errors"
	"slices"

	"github.com/google/uuid"
)

// SwitchRequest is the user's allocation choice, its value as sent. For
// a full switch the type and value are empty.
type SwitchRequest struct {
	Action     string
	Type       string
	Value      *Number
	TargetName string // optional: which of the token's targets; the first by default
}

// switchPlan is a checked switch: the job's params and where pay goes.
type switchPlan struct {
	params JobParams
	target AllocationTarget
}

// Switch queues the direct deposit switch of a token that has logged in,
// in one transaction. Errors: INVALID_FIELDS for an allocation the token
// or platform cannot take, LINK_TOKEN_USED for a second switch.
func (s *LinkService) Switch(ctx context.Context, value string, r SwitchRequest) (Job, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return Job{}, err
	}
	t := sess.Token
	if sess.Account == nil {
		return Job{}, Errorf(KindInvalid, CodeInvalidFields, "log in before choosing an allocation")
	}
	p, err := s.directory.Platform(ctx, sess.Account.PlatformID)
	if err != nil {
		return Job{}, err
	}
	sp, err := planSwitch(t, p, r)
	if err != nil {
		return Job{}, err
	}
	var job Job
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		job, err = s.queueSwitch(ctx, tx, t, *sess.Account, p, sp)
		return err
	})
	return job, err
}

// queueSwitch creates the switch job inside tx. A token switches once: a
// unique index refuses a second switch job, even from a concurrent
// request, and that reads as LINK_TOKEN_USED.
func (s *LinkService) queueSwitch(ctx context.Context, tx Tx, t LinkToken, a Account, p Platform, sp switchPlan) (Job, error) {
	job, err := s.createJob(ctx, tx, t, a, p, JobDirectDepositSwitch, sp.params, s.clock.Now(), &SwitchTarget{
		Name: sp.target.Name, Type: sp.target.Type, LastFour: sp.target.Masked(), RoutingNumber: sp.target.RoutingNumber})
	if errors.Is(err, ErrDuplicate) {
		return Job{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already switched deposits; create a new one")
	}
	return job, err
}

// planSwitch checks the user's allocation against the token and the
// platform and builds the job's params and target.
func planSwitch(t LinkToken, p Platform, r SwitchRequest) (switchPlan, error) {
	if !t.WantsSwitch() || t.Allocation == nil || len(t.Allocation.Targets) == 0 {
		return switchPlan{}, Errorf(KindInvalid, CodeInvalidFields, "this link token does not ask for a direct_deposit_switch")
	}
	target := t.Allocation.Targets[0]
	if r.TargetName != "" {
		i := slices.IndexFunc(t.Allocation.Targets, func(x AllocationTarget) bool { return x.Name == r.TargetName })
		if i < 0 {
			return switchPlan{}, Errorf(KindInvalid, CodeInvalidFields, "target: no allocation target named %q", r.TargetName)
		}
		target = t.Allocation.Targets[i]
	}
	var problems Problems
	split := t.Allocation.Split
	if split.Type != "" { // a preset allocation on the token wins over the user's input
		r.Action = ActionPartialSwitch
	} else if r.Action == ActionPartialSwitch {
		split = parseSplit(&problems, r.Type, r.Value)
	}
	params := JobParams{Action: r.Action, Allocation: &JobParamsAllocation{
		Target: JobParamsTarget{AccountName: target.Name, AccountType: target.Type, LastFour: target.Masked()}}}
	switch r.Action {
	case ActionFullSwitch:
		if r.Type != "" || r.Value != nil {
			problems.Invalid("allocation", "must be empty for a full_switch")
		}
	case ActionPartialSwitch:
		if t.DisableDirectDepositSplitting {
			problems.Invalid("action", "this link token allows only a full_switch")
		}
		params.Allocation.Split = split
		checkPartial(&problems, p, split)
	default:
		problems.Invalid("action", "must be full_switch or partial_switch, got %q", r.Action)
	}
	return switchPlan{params: params, target: target}, problems.Err()
}

// checkPartial checks a parsed split against the platform's limits, in
// cents and whole percentages.
func checkPartial(p *Problems, pl Platform, s Split) {
	switch s.Type {
	case AllocationRemainder:
	case AllocationAmount:
		c := s.Amount.Amount
		switch {
		case !pl.AmountSupported:
			p.Invalid("allocation.type", "%s does not take amount allocations", pl.Name)
		case c <= 0:
			// parseSplit already said why
		case !pl.FractionalAmountSupported && c%100 != 0:
			p.Invalid("allocation.value", "%s takes whole dollar amounts only, got %s", pl.Name, s.Amount.Decimal())
		case pl.MinAmount != nil && c < *pl.MinAmount:
			p.Invalid("allocation.value", "must be at least %s on %s", USD(*pl.MinAmount).Formatted(), pl.Name)
		case pl.MaxAmount != nil && c > *pl.MaxAmount:
			p.Invalid("allocation.value", "must be at most %s on %s", USD(*pl.MaxAmount).Formatted(), pl.Name)
		}
	case AllocationPercentage:
		switch {
		case !pl.PercentageSupported:
			p.Invalid("allocation.type", "%s does not take percentage allocations", pl.Name)
		case s.Percentage == 0:
			// parseSplit already said why
		case s.Percentage < pl.MinPercentage || s.Percentage > pl.MaxPercentage:
			p.Invalid("allocation.value", "must be from %d%% to %d%% on %s", pl.MinPercentage, pl.MaxPercentage, pl.Name)
		}
	case "":
		p.Missing("allocation.type")
	}
}

// MatchPlatforms runs platform matching for a token that carries
// identifiers: partnership payroll platforms that support every required
// job and hold the user. An empty result sends the user to search.
func (s *LinkService) MatchPlatforms(ctx context.Context, value string) ([]Platform, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return nil, err
	}
	t := sess.Token
	if t.PlatformMatching == nil || t.PlatformID != "" || t.EmployerID != "" {
		return nil, nil
	}
	all, err := ReadAll(ctx, func(ctx context.Context, p PageRequest) (Page[Platform], error) {
		return s.directory.ListPlatforms(ctx, PlatformFilter{Type: PlatformPayroll}, p)
	})
	if err != nil {
		return nil, err
	}
	var candidates []Platform
	for _, p := range all {
		if p.Partnership && Supports(p.SupportedJobs, t.RequiredJobs) {
			candidates = append(candidates, p)
		}
	}
	matched := s.connector.Match(ctx, *t.PlatformMatching, candidates)
	if len(matched) == 0 {
		// Nothing matched: the identifiers have done their work.
		if err := s.tx.LinkTokens().ForgetPlatformMatching(ctx, t.Scope(), t.ID); err != nil {
			return nil, err
		}
	}
	return matched, nil
}

// MatchedSwitch switches deposits through a matched partner platform: no
// credentials, no action information (params are empty, as the spec says
// for platform-matching switches). Connecting, queueing the switch and
// deleting the identifiers commit in one transaction.
func (s *LinkService) MatchedSwitch(ctx context.Context, value, platformID string) (Account, Job, error) {
	matched, err := s.MatchPlatforms(ctx, value)
	if err != nil {
		return Account{}, Job{}, err
	}
	i := slices.IndexFunc(matched, func(p Platform) bool { return p.ID == platformID })
	if i < 0 {
		return Account{}, Job{}, Errorf(KindInvalid, CodeInvalidFields, "platform_id: %s is not a platform matched for this user", platformID)
	}
	sess, err := s.Open(ctx, value)
	if err != nil {
		return Account{}, Job{}, err
	}
	t, p := sess.Token, matched[i]
	var acct Account
	var job Job
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if acct, err = s.connect(ctx, tx, t, p, "", p.Name, matchedConnection, ""); err != nil {
			return err
		}
		if err := tx.LinkTokens().ForgetPlatformMatching(ctx, t.Scope(), t.ID); err != nil {
			return err
		}
		job, err = s.queueSwitch(ctx, tx, t, acct, p, switchPlan{target: t.Allocation.Targets[0]})
		return err
	})
	return acct, job, err
}

// matchedConnection is the connection state of platform-matched accounts.
const matchedConnection = "partner"

// DepositForm makes the direct deposit authorisation form of the token's
// successful switch, as a direct_deposit_form document of the end user,
// and returns a fresh download link. The form is made once per switch;
// asking again returns the same document. Errors: INVALID_FIELDS when the
// token has no successful switch yet.
func (s *LinkService) DepositForm(ctx context.Context, value string) (DocumentLink, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return DocumentLink{}, err
	}
	t, a := sess.Token, sess.Account
	noSwitch := Errorf(KindInvalid, CodeInvalidFields, "a direct deposit form follows a successful switch, and this link token has none yet")
	if a == nil {
		return DocumentLink{}, noSwitch
	}
	page, err := s.tx.Jobs().FindJobs(ctx, t.Scope(), JobFilter{LinkTokenID: t.ID, JobTypes: []JobType{JobDirectDepositSwitch},
		Outcome: OutcomeSuccess}, PageRequest{Limit: 1})
	if err != nil {
		return DocumentLink{}, err
	}
	if len(page.Items) == 0 || page.Items[0].Target == nil {
		return DocumentLink{}, noSwitch
	}
	job := page.Items[0]
	form := DepositForm{ID: uuid.NewSHA1(uuid.NameSpaceURL, []byte("payline:direct_deposit_form:"+job.ID)).String(),
		AccountID: a.ID, EndUserID: a.EndUserID, EmployerName: a.EmployerName, Target: *job.Target, Params: job.Params,
		CreatedAt: *job.Timestamp}
	if p, err := s.tx.Data().Product(ctx, t.Scope(), a.ID, ProductIdentity); err == nil && p.Identity != nil {
		form.EmployeeName = p.Identity.FullName
	}
	return s.reporter.DepositForm(ctx, t.Scope(), form)
}
