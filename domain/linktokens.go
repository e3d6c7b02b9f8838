package domain

import (
	"context"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// LinkTokenLifetime is how long a link token can start Link.
const LinkTokenLifetime = time.Hour

// Allocation types of a switch.
const (
	AllocationAmount     = "amount"
	AllocationPercentage = "percentage"
	AllocationRemainder  = "remainder"
)

// Switch actions.
const (
	ActionFullSwitch    = "full_switch"
	ActionPartialSwitch = "partial_switch"
)

// Solutions a link token may name (the vendor's list).
var Solutions = []string{"Verify", "Bill Switch", "Bill Manager", "Paycheck Viewer", "Switch Kit", "Deposit Switch"}

// AllocationTarget is a bank account a paycheck can be sent to.
type AllocationTarget struct {
	Name          string
	Type          string
	AccountNumber string
	RoutingNumber string
}

// Masked returns the last four digits of the account number.
func (t AllocationTarget) Masked() string {
	n := t.AccountNumber
	if len(n) > 4 {
		n = n[len(n)-4:]
	}
	return n
}

// Split is how much of a paycheck an allocation moves.
type Split struct {
	Type       string // amount, percentage or remainder; "" when the user chooses in Link
	Amount     Money  // when Type is amount
	Percentage int    // when Type is percentage: 1 to 100
}

// Allocation is the switch a token asks for: a preset split, or none (the
// user chooses in Link), and the target accounts.
type Allocation struct {
	Split
	Targets []AllocationTarget
}

// AllocationRequest is a token request's allocation with its value as
// the caller wrote it; CreateLinkToken parses it into an Allocation.
type AllocationRequest struct {
	Type    string
	Value   *Number
	Targets []AllocationTarget
}

// PlatformMatching holds the identifiers used to find a user's payroll
// platform without credentials. They are sealed at rest and deleted after
// use.
type PlatformMatching struct {
	SocialSecurityNumber   string
	SocialSecurityLastFour string
	FirstName              string
	LastName               string
	DateOfBirth            string
	MobilePhoneNumber      string
	HomeAddressZipCode     string
	Email                  string
}

// LastFour is the last four SSN digits, from whichever field was given.
func (m PlatformMatching) LastFour() string {
	if len(m.SocialSecurityNumber) == 9 {
		return m.SocialSecurityNumber[5:]
	}
	return m.SocialSecurityLastFour
}

// LinkTokenRequest is a POST /link_tokens body after JSON decoding.
type LinkTokenRequest struct {
	OrgName                       string
	EndUserID                     string
	Solution                      string
	Features                      []string
	RequiredJobs                  []string
	Allocation                    *AllocationRequest
	EmployerID                    string
	PlatformID                    string
	AccountID                     string
	Amount                        *Number // the legacy amount: exactly two decimals
	SkipIntroScreen               bool
	DisableDirectDepositSplitting bool
	Language                      string
	PlatformMatching              *PlatformMatching
	// Site makes the token a legacy hosted site (POST /sites).
	Site *SiteRequest
}

// SiteRequest is what a legacy hosted site adds to a token: how long its
// URL works and where the browser goes when Link ends.
type SiteRequest struct {
	TTL         *Number // seconds; nil is SiteTTLMin
	RedirectURL string
}

// A site's URL lifetime, in seconds: default and minimum, and maximum.
const (
	SiteTTLMin = 900
	SiteTTLMax = 1209600
)

// LinkToken is a created token. The token value is returned once and
// stored only as a hash; Allocation and PlatformMatching are sealed.
type LinkToken struct {
	ID                            string
	CustomerID                    string
	Mode                          Mode
	TokenHash                     []byte
	CreatedAt                     time.Time
	Expires                       time.Time
	UsedAt                        *time.Time
	APIVersion                    string
	OrgName                       string
	EndUserID                     string
	Solution                      string
	Features                      []JobType
	RequiredJobs                  []JobType
	EmployerID                    string
	PlatformID                    string
	AccountID                     string
	Amount                        *Money
	SkipIntroScreen               bool
	DisableDirectDepositSplitting bool
	Language                      string
	Allocation                    *Allocation
	PlatformMatching              *PlatformMatching
	// RedirectURL is where a legacy site sends the browser when Link
	// ends; empty for other tokens.
	RedirectURL string
}

// Scope is the tenant of the token.
func (t LinkToken) Scope() Scope { return Scope{CustomerID: t.CustomerID, Mode: t.Mode} }

// Jobs are the job types the token asks for: required jobs and features.
func (t LinkToken) Jobs() []JobType {
	out := slices.Clone(t.RequiredJobs)
	for _, f := range t.Features {
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// BillJob is the bill change the token asks for ("" for none): a switch
// when it asks for both.
func (t LinkToken) BillJob() JobType {
	jobs := t.Jobs()
	for _, j := range []JobType{JobBillSwitch, JobBillCancellation} {
		if slices.Contains(jobs, j) {
			return j
		}
	}
	return ""
}

// WantsSwitch reports whether the token asks for a direct deposit switch.
func (t LinkToken) WantsSwitch() bool { return slices.Contains(t.Jobs(), JobDirectDepositSwitch) }

// LinkTokenStore holds link tokens.
type LinkTokenStore interface {
	// CreateLinkToken stores a token; its Allocation and PlatformMatching
	// are sealed at rest, bound to the token.
	CreateLinkToken(ctx context.Context, s Scope, t LinkToken) error
	// LinkTokenByHash finds a token by the hash of its value, in any
	// tenant: the token is how Link learns its tenant; its sealed fields
	// opened. ErrNoRows if none.
	LinkTokenByHash(ctx context.Context, hash []byte) (LinkToken, error)
	// LinkToken returns ErrNoRows when the scope has no such token.
	LinkToken(ctx context.Context, s Scope, id string) (LinkToken, error)
	// MarkLinkTokenUsed sets used_at unless already set; ErrNoRows if it was.
	MarkLinkTokenUsed(ctx context.Context, s Scope, id string, at time.Time) error
	// ForgetPlatformMatching deletes the sealed matching identifiers.
	ForgetPlatformMatching(ctx context.Context, s Scope, id string) error
	// LinkTokensByID returns the scope's tokens with the given ids (without
	// their sealed fields) in one query; unknown ids are left out.
	LinkTokensByID(ctx context.Context, s Scope, ids []string) ([]LinkToken, error)
}

var (
	digits     = regexp.MustCompile(`^[0-9]+$`)
	dateOnly   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	domainName = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
)

// ValidRoutingNumber checks nine digits and the ABA checksum
// 3(d1+d4+d7) + 7(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10).
func ValidRoutingNumber(s string) bool {
	if len(s) != 9 || !digits.MatchString(s) {
		return false
	}
	w := []int{3, 7, 1, 3, 7, 1, 3, 7, 1}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(s[i]-'0') * w[i]
	}
	return sum%10 == 0 && s != "000000000"
}

// ValidEmail checks e-mail syntax and that the domain is a plausible
// public host name (labels, a dot, an alphabetic TLD). Without network
// access no DNS lookup is made; see docs/decisions.md.
func ValidEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && domainName.MatchString(strings.ToLower(s[at+1:]))
}

func checkJobList(p *Problems, field string, names []string) []JobType {
	var out []JobType
	for _, n := range names {
		j, ok := ParseJobType(n)
		if !ok {
			p.Invalid(field, "%q is not a job type", n)
			continue
		}
		if !slices.Contains(out, j) {
			out = append(out, j)
		}
	}
	return out
}

// parseSplit reads a split's type and value literal. Amounts take at
// most two decimals; percentages are whole (docs/decisions.md). Problems
// are recorded under "allocation.type" and "allocation.value".
func parseSplit(p *Problems, typ string, value *Number) Split {
	s := Split{Type: typ}
	switch typ {
	case "":
		if value != nil {
			p.Invalid("allocation.value", "needs allocation.type")
		}
	case AllocationAmount:
		if value == nil {
			p.Invalid("allocation.value", "must be a positive dollar amount such as 150.00 when type is amount")
			break
		}
		m, err := ParseDollars(*value, UpToTwoPlaces)
		if err != nil {
			p.Invalid("allocation.value", "%v", err)
		}
		s.Amount = m
	case AllocationPercentage:
		if value == nil {
			p.Invalid("allocation.value", "must be a whole percentage from 1 to 100 when type is percentage")
			break
		}
		pct, err := ParsePercentage(*value)
		if err != nil {
			p.Invalid("allocation.value", "%v", err)
		}
		s.Percentage = pct
	case AllocationRemainder:
		if value != nil {
			p.Invalid("allocation.value", "must be absent when type is remainder")
		}
	default:
		p.Invalid("allocation.type", "must be amount, percentage or remainder, got %q", typ)
	}
	return s
}

// checkAllocation validates the allocation and its targets.
func checkAllocation(p *Problems, a *AllocationRequest) *Allocation {
	out := &Allocation{Split: parseSplit(p, a.Type, a.Value), Targets: a.Targets}
	for i, t := range a.Targets {
		f := func(name string) string { return "allocation.targets[" + strconv.Itoa(i) + "]." + name }
		if t.Type != "checking" && t.Type != "savings" {
			p.Invalid(f("type"), "must be checking or savings, got %q", t.Type)
		}
		if len(t.AccountNumber) < 4 || len(t.AccountNumber) > 17 || !digits.MatchString(t.AccountNumber) {
			p.Invalid(f("account_number"), "must be 4 to 17 digits")
		}
		if !ValidRoutingNumber(t.RoutingNumber) {
			p.Invalid(f("routing_number"), "%q is not a valid ABA routing number (9 digits with a valid checksum)", t.RoutingNumber)
		}
		if len(t.Name) > 100 {
			p.Invalid(f("name"), "must be at most 100 characters")
		}
	}
	return out
}

func checkPlatformMatching(p *Problems, m *PlatformMatching) {
	const pre = "end_user.platform_matching."
	switch {
	case m.SocialSecurityNumber == "" && m.SocialSecurityLastFour == "":
		p.Missing(pre + "social_security_number or " + pre + "social_security_last_four")
	case m.SocialSecurityNumber != "" && (len(m.SocialSecurityNumber) != 9 || !digits.MatchString(m.SocialSecurityNumber)):
		p.Invalid(pre+"social_security_number", "must be exactly 9 digits")
	case m.SocialSecurityNumber == "" && (len(m.SocialSecurityLastFour) != 4 || !digits.MatchString(m.SocialSecurityLastFour)):
		p.Invalid(pre+"social_security_last_four", "must be exactly 4 digits")
	}
	for name, v := range map[string]string{"first_name": m.FirstName, "last_name": m.LastName,
		"date_of_birth": m.DateOfBirth, "mobile_phone_number": m.MobilePhoneNumber, "home_address_zip_code": m.HomeAddressZipCode} {
		if strings.TrimSpace(v) == "" {
			p.Missing(pre + name)
		}
	}
	if m.DateOfBirth != "" {
		if _, err := Date(m.DateOfBirth).Parse(); err != nil || !dateOnly.MatchString(m.DateOfBirth) {
			p.Invalid(pre+"date_of_birth", "must be a date in YYYY-MM-DD form, got %q", m.DateOfBirth)
		}
	}
	if m.MobilePhoneNumber != "" && (len(m.MobilePhoneNumber) != 10 || !digits.MatchString(m.MobilePhoneNumber)) {
		p.Invalid(pre+"mobile_phone_number", "must be 10 digits without country code")
	}
	if m.HomeAddressZipCode != "" && (len(m.HomeAddressZipCode) != 5 || !digits.MatchString(m.HomeAddressZipCode)) {
		p.Invalid(pre+"home_address_zip_code", "must be 5 digits")
	}
	if m.Email != "" && !ValidEmail(m.Email) {
		p.Invalid(pre+"email", "%q is not a valid e-mail address with a valid domain", m.Email)
	}
}

// checkedLinkToken is a request whose fields passed every rule that needs
// no database, parsed into the token's types.
type checkedLinkToken struct {
	features, required []JobType
	allocation         *Allocation
	amount             *Money
	lifetime           time.Duration
}

// checkLinkTokenRequest applies every field rule that needs no database.
func checkLinkTokenRequest(r LinkTokenRequest, apiVersion string) (checkedLinkToken, error) {
	var p Problems
	c := checkLinkTokenFields(&p, r, apiVersion)
	return c, p.Err()
}

// checkLinkTokenFields records in p what checkLinkTokenRequest refuses, for
// requests that add fields of their own (a Link order's).
func checkLinkTokenFields(p *Problems, r LinkTokenRequest, apiVersion string) checkedLinkToken {
	var c checkedLinkToken
	if strings.TrimSpace(r.OrgName) == "" {
		p.Missing("org_name")
	} else if n := len([]rune(r.OrgName)); n < 3 || n > 30 {
		p.Invalid("org_name", "must be 3 to 30 characters")
	}
	if r.AccountID == "" && strings.TrimSpace(r.EndUserID) == "" {
		p.Missing("end_user_id")
	}
	if len(r.EndUserID) > 255 {
		p.Invalid("end_user_id", "must be at most 255 characters")
	} else if problem := idTextProblem(r.EndUserID); problem != "" {
		p.Invalid("end_user_id", "%s", problem)
	}
	if r.Solution != "" && !slices.Contains(Solutions, r.Solution) {
		p.Invalid("solution", "must be one of %s", strings.Join(Solutions, ", "))
	}
	if r.Language != "" && r.Language != "en" && r.Language != "es" {
		p.Invalid("language", "must be en or es")
	}
	features := checkJobList(p, "features", r.Features)
	required := checkJobList(p, "required_jobs", r.RequiredJobs)
	c.features, c.required = features, required
	for field, id := range map[string]string{"employer_id": r.EmployerID, "platform_id": r.PlatformID, "account_id": r.AccountID} {
		if id != "" && !ValidID(id) {
			p.Invalid(field, "%q is not a UUID", id)
		}
	}
	if r.Amount != nil {
		m, err := ParseDollars(*r.Amount, ExactlyTwoPlaces)
		if err != nil {
			p.Invalid("amount", "%v", err)
		}
		c.amount = &m
	}
	wantsSwitch := slices.Contains(features, JobDirectDepositSwitch) || slices.Contains(required, JobDirectDepositSwitch)
	if r.Allocation != nil {
		c.allocation = checkAllocation(p, r.Allocation)
	}
	if wantsSwitch && (r.Allocation == nil || len(r.Allocation.Targets) == 0) {
		p.Missing("allocation.targets (a direct_deposit_switch needs the account to switch to)")
	}
	if m := r.PlatformMatching; m != nil {
		checkPlatformMatching(p, m)
		if r.SkipIntroScreen {
			p.Invalid("skip_intro_screen", "must not be true when end_user.platform_matching is present")
		}
		if !slices.Contains(required, JobDirectDepositSwitch) {
			p.Invalid("required_jobs", "must include direct_deposit_switch when end_user.platform_matching is present")
		}
	}
	checkVersionFields(p, "POST /v1/link_tokens", apiVersion, func(field string) bool {
		switch field {
		case "solution":
			return r.Solution != ""
		case "features":
			return r.Features != nil
		case "end_user.platform_matching":
			return r.PlatformMatching != nil
		}
		return false
	})
	c.lifetime = LinkTokenLifetime
	if r.Site != nil {
		c.lifetime = checkSite(p, *r.Site)
	}
	return c
}

// checkSite checks a legacy site's ttl and redirect_url and returns the
// token's lifetime.
func checkSite(p *Problems, s SiteRequest) time.Duration {
	ttl := int64(SiteTTLMin)
	if s.TTL != nil {
		n, err := strconv.ParseInt(string(*s.TTL), 10, 64)
		switch {
		case err != nil:
			p.Invalid("ttl", "must be a whole number of seconds from %d to %d, got %s", SiteTTLMin, SiteTTLMax, string(*s.TTL))
		case n < SiteTTLMin || n > SiteTTLMax:
			p.Invalid("ttl", "must be from %d (15 minutes) to %d (14 days) seconds, got %d", SiteTTLMin, SiteTTLMax, n)
		default:
			ttl = n
		}
	}
	if s.RedirectURL == "" {
		p.Missing("redirect_url")
	} else if u, err := url.Parse(s.RedirectURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || len(s.RedirectURL) > 2048 {
		p.Invalid("redirect_url", "must be an absolute http:// or https:// URL of at most 2048 characters")
	}
	return time.Duration(ttl) * time.Second
}
