package domain

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
)

// LinkService implements link tokens and the steps of Link: the hosted
// modal and the sandbox helper both call it, so a flow behaves the same
// whichever drives it.
type LinkService struct {
	tx        Transactor
	directory *DirectoryService
	box       *SecretBox
	relay     Relay // NoRelay unless this mode relays to upstreams
	connector Connector
	clock     Clock
	reporter  Reporter
	parser    UploadParser // nil: uploads are kept but not read
}

// NewLinkService wires the Link use cases; relay creates the upstream's
// token where an upstream takes the platform (NoRelay: never); reporter
// renders the direct deposit form Link offers after a switch.
func NewLinkService(tx Transactor, directory *DirectoryService, box *SecretBox, connector Connector, relay Relay, clock Clock, reporter Reporter) *LinkService {
	s := &LinkService{tx: tx, directory: directory, box: box, connector: connector, relay: relay, clock: clock, reporter: reporter}
	if p, ok := reporter.(UploadParser); ok { // the reports service also reads the documents it renders
		s.parser = p
	}
	return s
}

// CreateLinkToken validates a request and creates a token. It returns the
// stored token and its value, which is shown only here. Errors:
// MISSING_FIELDS and INVALID_FIELDS (400) for bad fields or references to
// records this customer does not have.
func (s *LinkService) CreateLinkToken(ctx context.Context, sc Scope, r LinkTokenRequest, apiVersion string) (LinkToken, string, error) {
	c, err := checkLinkTokenRequest(r, apiVersion)
	if err != nil {
		return LinkToken{}, "", err
	}
	t := LinkToken{
		ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, APIVersion: apiVersion,
		OrgName: r.OrgName, EndUserID: r.EndUserID, Solution: r.Solution, Features: c.features, RequiredJobs: c.required,
		EmployerID: r.EmployerID, PlatformID: r.PlatformID, AccountID: r.AccountID, Amount: c.amount,
		SkipIntroScreen: r.SkipIntroScreen, DisableDirectDepositSplitting: r.DisableDirectDepositSplitting,
		Language: r.Language, Allocation: c.allocation, PlatformMatching: r.PlatformMatching,
	}
	if r.Site != nil {
		t.RedirectURL = r.Site.RedirectURL
	}
	if err := s.checkReferences(ctx, sc, &t); err != nil {
		return LinkToken{}, "", err
	}
	if err := s.checkBillNavigator(ctx, sc, t); err != nil {
		return LinkToken{}, "", err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return LinkToken{}, "", err
	}
	value := "lt_" + base64.RawURLEncoding.EncodeToString(raw)
	hash := sha256.Sum256([]byte(value))
	t.TokenHash = hash[:]
	t.CreatedAt = s.clock.Now()
	t.Expires = t.CreatedAt.Add(c.lifetime)
	alloc, matching, err := sealToken(s.box, t)
	if err != nil {
		return LinkToken{}, "", err
	}
	// Where an upstream takes the platform, its token first (network I/O
	// outside the transaction), then both here together. Upstreams that
	// are all away fail the request with UPSTREAM_UNAVAILABLE and store
	// nothing.
	endUser := ""
	if t.EndUserID != "" {
		endUser = UpstreamEndUser(sc.CustomerID, t.EndUserID)
	}
	r.EndUserID, r.PlatformID, r.EmployerID = t.EndUserID, t.PlatformID, t.EmployerID
	ut, relayed, err := s.relay.CreateLinkToken(ctx, r, endUser)
	if err != nil {
		return LinkToken{}, "", err
	}
	if !relayed {
		if err := s.tx.LinkTokens().CreateLinkToken(ctx, sc, t, alloc, matching); err != nil {
			return LinkToken{}, "", fmt.Errorf("store link token: %w", err)
		}
		return t, value, nil
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.LinkTokens().CreateLinkToken(ctx, sc, t, alloc, matching); err != nil {
			return fmt.Errorf("store link token: %w", err)
		}
		return tx.Upstream().PutUpstreamLink(ctx, sc, UpstreamLink{LinkTokenID: t.ID, UpstreamToken: ut}, t.CreatedAt)
	})
	if err != nil {
		return LinkToken{}, "", err
	}
	return t, value, nil
}

// checkReferences resolves employer, platform and account ids against
// the directory and the customer's accounts, and checks the platform can
// do the required jobs.
func (s *LinkService) checkReferences(ctx context.Context, sc Scope, t *LinkToken) error {
	var p Problems
	if t.AccountID != "" {
		a, err := s.tx.Accounts().Account(ctx, sc, t.AccountID)
		switch {
		case errors.Is(err, ErrNoRows):
			p.Invalid("account_id", "no account with id %s for this customer", t.AccountID)
		case err != nil:
			return err
		case !a.Connected:
			return Errorf(KindInvalid, CodeAccountDisconnected,
				"account_id: account %s was disconnected and cannot be updated; the user must connect again through Link", a.ID)
		default:
			if t.EndUserID != "" && t.EndUserID != a.EndUserID {
				p.Invalid("end_user_id", "does not match the end_user_id of account %s", a.ID)
			}
			t.EndUserID, t.PlatformID = a.EndUserID, a.PlatformID
		}
	}
	if t.EmployerID != "" {
		e, err := s.directory.Employer(ctx, t.EmployerID)
		if IsKind(err, KindNotFound) {
			p.Invalid("employer_id", "no employer with id %s", t.EmployerID)
		} else if err != nil {
			return err
		} else if !Supports(e.SupportedJobs, t.RequiredJobs) {
			p.Invalid("employer_id", "employer %s does not support every required job", e.Name)
		}
	}
	if t.PlatformID != "" {
		pl, err := s.directory.Platform(ctx, t.PlatformID)
		if IsKind(err, KindNotFound) {
			p.Invalid("platform_id", "no platform with id %s", t.PlatformID)
		} else if err != nil {
			return err
		} else if !Supports(pl.SupportedJobs, t.RequiredJobs) {
			p.Invalid("platform_id", "platform %s does not support every required job", pl.Name)
		}
	}
	return p.Err()
}

// LinkSession is a live link token, opened from its value.
type LinkSession struct {
	Token LinkToken
	// Account is the account this token logged in to, once it has.
	Account *Account
	// Upstream is, in a relayed mode, the upstream's token the modal opens
	// the upstream's Link with.
	Upstream *UpstreamToken
}

// Open finds the token of a value and checks it may still start Link.
// Errors: LINK_TOKEN_INVALID, LINK_TOKEN_EXPIRED.
func (s *LinkService) Open(ctx context.Context, value string) (LinkSession, error) {
	hash := sha256.Sum256([]byte(value))
	t, alloc, matching, err := s.tx.LinkTokens().LinkTokenByHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) || value == "" {
		return LinkSession{}, Errorf(KindInvalid, CodeLinkTokenInvalid, "this link token is not valid; create a new one with POST /v1/link_tokens")
	}
	if err != nil {
		return LinkSession{}, err
	}
	if !s.clock.Now().Before(t.Expires) {
		return LinkSession{}, Errorf(KindInvalid, CodeLinkTokenExpired, "this link token expired at %s; create a new one", t.Expires.Format(time.RFC3339))
	}
	if err := openToken(s.box, &t, alloc, matching); err != nil {
		return LinkSession{}, fmt.Errorf("open sealed fields of link token %s: %w", t.ID, err)
	}
	sess := LinkSession{Token: t}
	// A token an upstream took opens the upstream's Link with its token.
	l, err := s.tx.Upstream().UpstreamLink(ctx, t.Scope(), t.ID)
	if err != nil && !errors.Is(err, ErrNoRows) {
		return LinkSession{}, err
	}
	if err == nil {
		sess.Upstream = &l.UpstreamToken
	}
	if t.UsedAt != nil {
		a, err := s.loginAccount(ctx, t)
		if err != nil {
			return LinkSession{}, err
		}
		sess.Account = &a
	}
	return sess, nil
}

// loginAccount finds the account a used token logged in to.
func (s *LinkService) loginAccount(ctx context.Context, t LinkToken) (Account, error) {
	if t.AccountID != "" {
		return s.tx.Accounts().Account(ctx, t.Scope(), t.AccountID)
	}
	page, err := s.tx.Accounts().FindAccounts(ctx, t.Scope(), AccountFilter{LinkTokenID: t.ID}, PageRequest{Limit: 1})
	if err != nil {
		return Account{}, err
	}
	if len(page.Items) == 1 {
		return page.Items[0], nil
	}
	return Account{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token was already used; create a new one")
}

// LoginRequest is a login attempt in Link.
type LoginRequest struct {
	PlatformID  string
	EmployerID  string
	Credentials Credentials
	// ConsentTextVersion is the version of the consent text Link showed
	// the end user ("" for the current one, ConsentTextVersion).
	ConsentTextVersion string
}

// Target resolves which platform (and employer) a login is for, honouring
// the token's restrictions.
func (s *LinkService) Target(ctx context.Context, t LinkToken, platformID, employerID string) (Platform, string, error) {
	if t.PlatformID != "" && platformID != "" && platformID != t.PlatformID {
		return Platform{}, "", Errorf(KindInvalid, CodeInvalidFields, "platform_id: this link token is restricted to platform %s", t.PlatformID)
	}
	if t.EmployerID != "" && employerID != "" && employerID != t.EmployerID {
		return Platform{}, "", Errorf(KindInvalid, CodeInvalidFields, "employer_id: this link token is restricted to employer %s", t.EmployerID)
	}
	if t.PlatformID != "" {
		platformID = t.PlatformID
	}
	if t.EmployerID != "" {
		employerID = t.EmployerID
	}
	if platformID == "" && employerID != "" {
		e, err := s.directory.Employer(ctx, employerID)
		if err != nil {
			return Platform{}, "", err
		}
		if e.PlatformID == "" {
			return Platform{}, "", Errorf(KindInvalid, CodePlatformUnavailable,
				"the directory does not know which platform %s's staff log in to (a relayed upstream's employer): log in through the upstream's Link", e.Name)
		}
		platformID = e.PlatformID
	}
	if platformID == "" {
		var p Problems
		p.Missing("platform_id or employer_id")
		return Platform{}, "", p.Err()
	}
	p, err := s.directory.Platform(ctx, platformID)
	if err != nil {
		return Platform{}, "", err
	}
	if !Supports(p.SupportedJobs, t.RequiredJobs) {
		return Platform{}, "", Errorf(KindInvalid, CodeUnsupportedJobs, "%s does not support every job this link token requires", p.Name)
	}
	return p, employerID, nil
}

// OpenFor opens a token for an API caller, who may only use tokens of
// their own tenant; another tenant's token reads as invalid.
func (s *LinkService) OpenFor(ctx context.Context, sc Scope, value string) (LinkSession, error) {
	sess, err := s.Open(ctx, value)
	if err == nil && sess.Token.Scope() != sc {
		return LinkSession{}, Errorf(KindInvalid, CodeLinkTokenInvalid, "this link token is not valid; create a new one with POST /v1/link_tokens")
	}
	return sess, err
}

// Login logs a user in to a payroll platform with the token (Link's login
// screen). On success it creates (or, for an On Demand Update, refreshes)
// the account, writes account.added, spends the token and queues its read
// jobs, all in one transaction. A *MFARequiredError asks for the code;
// other errors are Link errors.
func (s *LinkService) Login(ctx context.Context, value string, r LoginRequest) (Account, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return Account{}, err
	}
	return s.login(ctx, sess, r, nil, nil)
}

// login checks the token and the platform, logs in through the connector
// and connects. With a switch, the switch is checked before the login and
// queued in the login's transaction: a bad allocation leaves nothing.
func (s *LinkService) login(ctx context.Context, sess LinkSession, r LoginRequest, sw *SwitchRequest, bill *BillRequest) (Account, error) {
	t := sess.Token
	if sess.Account != nil {
		return Account{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already logged in to account %s; create a new one", sess.Account.ID)
	}
	p, employerID, err := s.Target(ctx, t, r.PlatformID, r.EmployerID)
	if err != nil {
		return Account{}, err
	}
	if err := checkConsentVersion(r.ConsentTextVersion); err != nil {
		return Account{}, err
	}
	var sp switchPlan
	if sw != nil {
		if sp, err = planSwitch(t, p, *sw); err != nil {
			return Account{}, err
		}
	}
	var bp billPlan
	if bill != nil {
		if bp, err = planBill(t, p, *bill, s.clock.Now()); err != nil {
			return Account{}, err
		}
	}
	employerName, err := s.employerName(ctx, p, employerID)
	if err != nil {
		return Account{}, err
	}
	conn, err := s.connector.Login(ctx, p, r.Credentials)
	if err != nil {
		return Account{}, err
	}
	var acct Account
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if acct, err = s.connect(ctx, tx, t, p, employerID, employerName, conn, r.ConsentTextVersion); err != nil {
			return err
		}
		if bill != nil {
			if _, err := s.queueBill(ctx, tx, t, acct, p, bp); err != nil {
				return err
			}
		}
		if sw == nil {
			return nil
		}
		_, err := s.queueSwitch(ctx, tx, t, acct, p, sp)
		return err
	})
	return acct, err
}

// SandboxSession completes Link in one call for tests without a browser:
// the login and, when the token asks for a switch, the switch (a full
// switch when sw is nil), through the same code as the modal. Everything
// is validated before the login, and account, jobs, events and the token's
// use commit together. Sandbox only; another tenant's token reads as
// invalid. Errors: those of Login and Switch, MFA_REQUIRED.
func (s *LinkService) SandboxSession(ctx context.Context, sc Scope, value string, r LoginRequest, sw *SwitchRequest, bill *BillRequest) (Account, LinkToken, error) {
	if err := sandboxOnly(sc); err != nil {
		return Account{}, LinkToken{}, err
	}
	var p Problems
	if value == "" {
		p.Missing("token")
	}
	if r.Credentials.Username == "" {
		p.Missing("username")
	}
	if r.Credentials.Password == "" {
		p.Missing("password")
	}
	if err := p.Err(); err != nil {
		return Account{}, LinkToken{}, err
	}
	sess, err := s.OpenFor(ctx, sc, value)
	if err != nil {
		return Account{}, LinkToken{}, err
	}
	if !sess.Token.WantsSwitch() {
		sw = nil
	} else if sw == nil {
		sw = &SwitchRequest{Action: ActionFullSwitch}
	}
	if bill == nil && slices.Contains(sess.Token.Jobs(), JobBillCancellation) && !slices.Contains(sess.Token.Jobs(), JobBillSwitch) {
		bill = &BillRequest{Job: JobBillCancellation}
	}
	if bill == nil && slices.Contains(sess.Token.Jobs(), JobBillSwitch) {
		// The modal asks the user for the bill and the payment method; the
		// helper cannot guess them, and an account without the job the
		// token asked for would look like success.
		return Account{}, LinkToken{}, Errorf(KindInvalid, CodeMissingFields,
			"bill: this token asks for a bill_switch; send bill {\"job\": \"bill_switch\", \"target\": ..., \"card\": {...}} (or \"job\": \"bill_cancellation\") so the helper can run it, as the modal would ask the user")
	}
	acct, err := s.login(ctx, sess, r, sw, bill)
	var mfa *MFARequiredError
	if errors.As(err, &mfa) {
		return Account{}, LinkToken{}, Errorf(KindInvalid, CodeMFARequired, "this login needs mfa_code: %s", mfa.Prompt)
	}
	return acct, sess.Token, err
}

// employerName is the name the account's data gives its employer: the
// employer's when the user chose one, else the payroll platform's.
func (s *LinkService) employerName(ctx context.Context, p Platform, employerID string) (string, error) {
	if employerID == "" {
		return p.Name, nil
	}
	e, err := s.directory.Employer(ctx, employerID)
	if err != nil {
		return "", err
	}
	return e.Name, nil
}

// connect records a successful login or match inside tx: the token is
// spent, the account created (or refreshed for an On Demand Update) with
// its account.added event, the end user's consent recorded (consent is
// the version of the text Link showed), and the token's read jobs queued.
func (s *LinkService) connect(ctx context.Context, tx Tx, t LinkToken, p Platform, employerID, employerName, conn, consent string) (Account, error) {
	now := s.clock.Now()
	if err := tx.LinkTokens().MarkLinkTokenUsed(ctx, t.Scope(), t.ID, now); err != nil {
		if errors.Is(err, ErrNoRows) {
			return Account{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token was already used; create a new one")
		}
		return Account{}, err
	}
	var acct Account
	if t.AccountID != "" { // On Demand Update: same account, fresh connection
		a, err := tx.Accounts().AccountForUpdate(ctx, t.Scope(), t.AccountID)
		if err != nil {
			return Account{}, err
		}
		if !a.Connected {
			return Account{}, Errorf(KindInvalid, CodeAccountDisconnected, "account %s was disconnected and cannot be updated", a.ID)
		}
		a.Connection = conn
		if a.MonitoringStatus != MonitoringCustomerDisabled { // the customer's choice outlives the update
			a.MonitoringStatus = MonitoringActive
		}
		if err := tx.Accounts().UpdateAccount(ctx, t.Scope(), a); err != nil {
			return Account{}, err
		}
		acct = a
	} else {
		acct = Account{
			EmployerName: employerName,
			ID:           NewID(), CustomerID: t.CustomerID, Mode: t.Mode, CreatedAt: now, LinkTokenID: t.ID,
			PlatformID: p.ID, EmployerID: employerID, EndUserID: t.EndUserID, Connected: true,
			MonitoringStatus: MonitoringActive, DataUpdatedAt: map[string]time.Time{}, DataRefreshedAt: map[string]time.Time{},
			Connection: conn,
		}
		if err := tx.Accounts().CreateAccount(ctx, t.Scope(), acct); err != nil {
			return Account{}, err
		}
		if err := PublishEvent(ctx, tx, t.Scope(), "account.added", now, accountAddedPayload(acct)); err != nil {
			return Account{}, err
		}
	}
	if c, ok := consentOf(t, acct, consent, now); ok {
		if err := tx.Accounts().PutConsent(ctx, t.Scope(), c); err != nil {
			return Account{}, err
		}
	}
	for _, name := range readJobs(t, p) {
		if _, err := s.createJob(ctx, tx, t, acct, p, name, JobParams{}, now, nil); err != nil {
			return Account{}, err
		}
	}
	return acct, nil
}

// readJobs are the jobs a login runs: those the token asks for that the
// platform supports, or every read job of the platform when the token
// names none. Switches wait for the user's allocation.
func readJobs(t LinkToken, p Platform) []JobType {
	asked := t.Jobs()
	var out []JobType
	for _, j := range p.SupportedJobs {
		if j == JobDirectDepositSwitch || j == JobDirectDepositPayment || j == JobBillSwitch || j == JobBillCancellation {
			continue
		}
		if len(asked) == 0 || slices.Contains(asked, j) {
			out = append(out, j)
		}
	}
	return out
}

func (s *LinkService) createJob(ctx context.Context, tx Tx, t LinkToken, a Account, p Platform, name JobType, params JobParams, now time.Time, target *SwitchTarget) (Job, error) {
	return s.createJobWithID(ctx, tx, NewID(), t, a, p, name, params, now, target, nil)
}

func (s *LinkService) createJobWithID(ctx context.Context, tx Tx, id string, t LinkToken, a Account, p Platform, name JobType, params JobParams,
	now time.Time, target *SwitchTarget, sealedPayment []byte) (Job, error) {
	pname := p.Name
	if p.Partnership {
		pname += " (Partnership)"
	}
	j := Job{ID: id, CustomerID: t.CustomerID, Mode: t.Mode, AccountID: a.ID, PlatformID: p.ID, PlatformName: pname,
		EndUserID: a.EndUserID, LinkTokenID: t.ID, Name: name, CreatedAt: now, Params: params, Target: target, SealedPayment: sealedPayment}
	if err := tx.Jobs().CreateJob(ctx, t.Scope(), j); err != nil {
		return Job{}, err
	}
	return j, tx.EnqueueJobRun(ctx, JobRun{Scope: t.Scope(), JobID: j.ID})
}

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

// Job returns a job of the token's tenant, for Link to follow its outcome.
func (s *LinkService) Job(ctx context.Context, value, id string) (Job, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return Job{}, err
	}
	j, err := s.tx.Jobs().Job(ctx, sess.Token.Scope(), id)
	if errors.Is(err, ErrNoRows) || (err == nil && j.LinkTokenID != sess.Token.ID) {
		return Job{}, Errorf(KindNotFound, CodeJobNotFound, "no job %s for this link token", id)
	}
	return j, err
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

// matchedConnection is the connection state of platform-matched accounts.
const matchedConnection = "partner"

// LinkToken returns one of the scope's link tokens, without its sealed
// parts. Errors: INVALID_FIELDS, LINK_TOKEN_NOT_FOUND.
func (s *LinkService) LinkToken(ctx context.Context, sc Scope, id string) (LinkToken, error) {
	if err := CheckID("link_token_id", id); err != nil {
		return LinkToken{}, err
	}
	t, err := s.tx.LinkTokens().LinkToken(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return LinkToken{}, Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", id)
	}
	return t, err
}

// LinkTokensByID loads link tokens for a batch loader.
func (s *LinkService) LinkTokensByID(ctx context.Context, sc Scope, ids []string) ([]LinkToken, []error) {
	found, err := s.tx.LinkTokens().LinkTokensByID(ctx, sc, ids)
	if err != nil {
		return failAll[LinkToken](len(ids), err)
	}
	return inOrder(ids, found, func(t LinkToken) string { return t.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", id)
	})
}
