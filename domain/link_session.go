package domain

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"slices"
	"time"
)

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
	t, err := s.tx.LinkTokens().LinkTokenByHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) && value != "" {
		// A phone Link was handed to opens the token with its own key.
		tokenHash, keyErr := s.tokenHashByHandoffKey(ctx, hash[:])
		switch {
		case keyErr == nil:
			t, err = s.tx.LinkTokens().LinkTokenByHash(ctx, tokenHash)
		case !errors.Is(keyErr, ErrNoRows):
			return LinkSession{}, keyErr
		}
	}
	if errors.Is(err, ErrNoRows) || value == "" {
		return LinkSession{}, Errorf(KindInvalid, CodeLinkTokenInvalid, "this link token is not valid; create a new one with POST /v1/link_tokens")
	}
	if err != nil {
		return LinkSession{}, err
	}
	if !s.clock.Now().Before(t.Expires) {
		return LinkSession{}, Errorf(KindInvalid, CodeLinkTokenExpired, "this link token expired at %s; create a new one", t.Expires.Format(time.RFC3339))
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

// upstreamLogin logs a relayed link token in at its upstream, for a
// custom Link UI that calls Link's API as it would on the sandbox (the
// hosted modal opens the upstream's own Link instead): the answer is the
// upstream's account, whose id is the one this service gives it when the
// upstream's delivery brings it here moments later.
func (s *LinkService) upstreamLogin(ctx context.Context, sess LinkSession, r LoginRequest) (Account, error) {
	if err := checkConsentVersion(r.ConsentTextVersion); err != nil {
		return Account{}, err
	}
	if r.PlatformID == "" && r.EmployerID == "" {
		r.PlatformID, r.EmployerID = sess.Token.PlatformID, sess.Token.EmployerID
	}
	id, platformID, err := s.relay.LinkLogin(ctx, *sess.Upstream, r)
	if err != nil {
		return Account{}, err
	}
	return Account{ID: id, CustomerID: sess.Token.CustomerID, Mode: sess.Token.Mode, LinkTokenID: sess.Token.ID,
		PlatformID: cmp.Or(platformID, r.PlatformID), EndUserID: sess.Token.EndUserID}, nil
}

// login checks the token and the platform, logs in through the connector
// and connects. With a switch, the switch is checked before the login and
// queued in the login's transaction: a bad allocation leaves nothing.
func (s *LinkService) login(ctx context.Context, sess LinkSession, r LoginRequest, sw *SwitchRequest, bill *BillRequest) (Account, error) {
	t := sess.Token
	if sess.Account != nil {
		return Account{}, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already logged in to account %s; create a new one", sess.Account.ID)
	}
	if sess.Upstream != nil && sw == nil && bill == nil {
		return s.upstreamLogin(ctx, sess, r)
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
	if err := completeLinkOrder(ctx, tx, t, acct.ID, now); err != nil {
		return Account{}, err
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
	return s.createJobWithID(ctx, tx, NewID(), t, a, p, name, params, now, target, "")
}

func (s *LinkService) createJobWithID(ctx context.Context, tx Tx, id string, t LinkToken, a Account, p Platform, name JobType, params JobParams,
	now time.Time, target *SwitchTarget, card string) (Job, error) {
	pname := p.Name
	if p.Partnership {
		pname += " (Partnership)"
	}
	j := Job{ID: id, CustomerID: t.CustomerID, Mode: t.Mode, AccountID: a.ID, PlatformID: p.ID, PlatformName: pname,
		EndUserID: a.EndUserID, LinkTokenID: t.ID, Name: name, CreatedAt: now, Params: params, Target: target, PaymentCard: card}
	if err := tx.Jobs().CreateJob(ctx, t.Scope(), j); err != nil {
		return Job{}, err
	}
	j.PaymentCard = "" // the card goes to the store (sealed) and nowhere else
	return j, tx.EnqueueJobRun(ctx, JobRun{Scope: t.Scope(), JobID: j.ID})
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
