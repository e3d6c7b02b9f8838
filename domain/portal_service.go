package domain

import (
	"context"
	"errors"
	"fmt"
	"html"
	"slices"
	"sort"
	"strings"
	"time"
)

// PortalService implements the person's own page: portal links (made by
// the customer, or sent in a receipt or again on request), the sessions
// they start, what the page shows, and consent taken back.
type PortalService struct {
	tx    Transactor
	link  *LinkService
	relay Relay
	// sources tells the route that made a connection (not a relayed
	// one: relay does) that consent was taken back.
	sources SourceDisconnecter
	sender  MessageSender
	names   CustomerNames
	files   FileLinker
	clock   Clock
	// base is where people reach this server (--public-url), without a
	// trailing slash: a portal link is base + PortalLinkPath + code.
	base string
}

// CustomerNames gives a customer's name as its people know it.
type CustomerNames interface {
	// CustomerName is a customer's name; ErrNoRows for an unknown id.
	CustomerName(ctx context.Context, id string) (string, error)
}

// FileLinker signs a fresh, expiring download link to a rendered file.
type FileLinker interface {
	Link(docID string) DocumentLink
}

// NewPortalService wires the person's page: link opens the link tokens a
// receipt is asked with; relay tells an upstream that holds an account
// that consent was taken back, and sources the connector or sandbox that
// made any other; sender carries receipts and fresh links;
// names says who the customer is; files signs report downloads;
// publicURL is the server's address as people reach it.
func NewPortalService(tx Transactor, link *LinkService, relay Relay, sources SourceDisconnecter, sender MessageSender, names CustomerNames,
	files FileLinker, clock Clock, publicURL string) *PortalService {
	return &PortalService{tx: tx, link: link, relay: relay, sources: sources, sender: sender, names: names, files: files, clock: clock,
		base: strings.TrimRight(publicURL, "/")}
}

// URL is a portal link's address for its code.
func (s *PortalService) URL(code string) string { return s.base + PortalLinkPath + code }

func portalSessionInvalid() error {
	return Errorf(KindUnauthorized, CodePortalSessionInvalid, "you are signed out of this page; open a new link to your page")
}

// CreateLink makes a portal link for one of the scope's end users, to
// hand to the person: the link and its code (shown once, in its URL).
// Errors: INVALID_FIELDS for a malformed id, END_USER_NOT_FOUND when the
// scope has no end user with it.
func (s *PortalService) CreateLink(ctx context.Context, sc Scope, endUserID string) (PortalLink, string, error) {
	if err := checkEndUserID(endUserID); err != nil {
		return PortalLink{}, "", err
	}
	found, err := s.tx.Accounts().EndUsersByID(ctx, sc, []string{endUserID})
	if err != nil {
		return PortalLink{}, "", err
	}
	if len(found) == 0 {
		return PortalLink{}, "", Errorf(KindNotFound, CodeEndUserNotFound, "no end user with id %s", endUserID)
	}
	var l PortalLink
	var code string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		l, code, err = newPortalLink(ctx, tx, sc, endUserID, s.clock.Now())
		return err
	})
	return l, code, err
}

// newPortalLink stores a fresh link to the end user's page, in tx.
func newPortalLink(ctx context.Context, tx Tx, sc Scope, endUserID string, now time.Time) (PortalLink, string, error) {
	code, err := randomSecret()
	if err != nil {
		return PortalLink{}, "", err
	}
	l := PortalLink{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, EndUserID: endUserID, CodeHash: hashSecret(code),
		CreatedAt: now, Expires: now.Add(PortalLinkTTL)}
	return l, code, tx.Portal().CreatePortalLink(ctx, l)
}

// LinkState says what a portal link's code is, without using it: "open",
// "used" or "expired". Errors: PORTAL_LINK_INVALID for a code never made.
func (s *PortalService) LinkState(ctx context.Context, code string) (string, error) {
	l, err := s.tx.Portal().PortalLinkByCode(ctx, hashSecret(code))
	if errors.Is(err, ErrNoRows) || code == "" {
		return "", Errorf(KindInvalid, CodePortalLinkInvalid, "this link to your page is not one we made")
	}
	if err != nil {
		return "", err
	}
	switch {
	case l.UsedAt != nil:
		return "used", nil
	case !s.clock.Now().Before(l.Expires):
		return "expired", nil
	}
	return "open", nil
}

// SignIn uses a portal link: the link is spent and a session starts for
// its end user, whose token (the cookie's value) is returned once.
// Errors: PORTAL_LINK_INVALID for an unknown or used code,
// PORTAL_LINK_EXPIRED for one past its time.
func (s *PortalService) SignIn(ctx context.Context, code string) (PortalSession, string, error) {
	now := s.clock.Now()
	token, err := randomSecret()
	if err != nil {
		return PortalSession{}, "", err
	}
	var sess PortalSession
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		l, err := tx.Portal().ClaimPortalLink(ctx, hashSecret(code), now)
		if errors.Is(err, ErrNoRows) {
			return s.refuseLink(ctx, tx, code, now)
		}
		if err != nil {
			return err
		}
		sess = PortalSession{ID: NewID(), CustomerID: l.CustomerID, Mode: l.Mode, EndUserID: l.EndUserID,
			TokenHash: hashSecret(token), CreatedAt: now, Expires: now.Add(PortalSessionTTL)}
		return tx.Portal().CreatePortalSession(ctx, sess)
	})
	if err != nil {
		return PortalSession{}, "", err
	}
	return sess, token, nil
}

// refuseLink says why a code did not sign in.
func (s *PortalService) refuseLink(ctx context.Context, tx Tx, code string, now time.Time) error {
	l, err := tx.Portal().PortalLinkByCode(ctx, hashSecret(code))
	if err == nil && l.UsedAt == nil && !now.Before(l.Expires) {
		return Errorf(KindInvalid, CodePortalLinkExpired, "this link to your page has expired; ask for a new one")
	}
	if err != nil && !errors.Is(err, ErrNoRows) {
		return err
	}
	return Errorf(KindInvalid, CodePortalLinkInvalid, "this link to your page was already used or is not one we made; ask for a new one")
}

// Authenticate returns the session of a cookie's token. Errors:
// PORTAL_SESSION_INVALID (401) for an unknown, ended or expired one.
func (s *PortalService) Authenticate(ctx context.Context, token string) (PortalSession, error) {
	if token == "" {
		return PortalSession{}, portalSessionInvalid()
	}
	sess, err := s.tx.Portal().PortalSessionByHash(ctx, hashSecret(token))
	if errors.Is(err, ErrNoRows) {
		return PortalSession{}, portalSessionInvalid()
	}
	if err != nil {
		return PortalSession{}, err
	}
	if sess.RevokedAt != nil || !s.clock.Now().Before(sess.Expires) {
		return PortalSession{}, portalSessionInvalid()
	}
	return sess, nil
}

// SignOut ends the session of a token; an unknown one changes nothing.
func (s *PortalService) SignOut(ctx context.Context, token string) error {
	return s.tx.Portal().EndPortalSession(ctx, hashSecret(token), s.clock.Now())
}

// PortalSent says where a message went, masked.
type PortalSent struct {
	To string // masked (j***@example.com)
}

// SendFreshLink sends a new link to the page, by e-mail, to the address
// on file for the end user a used or expired code was made for: the one
// they gave for their receipt, else the one a Link order was sent to.
// Errors: PORTAL_LINK_INVALID for a code never made; PORTAL_NO_ADDRESS
// when no address is on file; RATE_LIMIT_EXCEEDED when a link was made
// for the person less than PortalResendEvery ago; INVALID_FIELDS or
// SERVICE_UNAVAILABLE when the channel did not take it (sendFailure).
func (s *PortalService) SendFreshLink(ctx context.Context, code string) (PortalSent, error) {
	old, err := s.tx.Portal().PortalLinkByCode(ctx, hashSecret(code))
	if errors.Is(err, ErrNoRows) || code == "" {
		return PortalSent{}, Errorf(KindInvalid, CodePortalLinkInvalid, "this link to your page is not one we made")
	}
	if err != nil {
		return PortalSent{}, err
	}
	sc := old.Scope()
	to, err := s.addressOnFile(ctx, sc, old.EndUserID)
	if err != nil {
		return PortalSent{}, err
	}
	if last, err := s.tx.Portal().LatestPortalLinkAt(ctx, sc, old.EndUserID); err == nil && s.clock.Now().Before(last.Add(PortalResendEvery)) {
		return PortalSent{}, &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: last.Add(PortalResendEvery).Sub(s.clock.Now()),
			Message: "a new link was sent a moment ago: check your e-mail, or ask again in two minutes"}
	} else if err != nil && !errors.Is(err, ErrNoRows) {
		return PortalSent{}, err
	}
	who, err := s.customerName(ctx, sc, "")
	if err != nil {
		return PortalSent{}, err
	}
	var fresh string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		_, fresh, err = newPortalLink(ctx, tx, sc, old.EndUserID, s.clock.Now())
		return err
	})
	if err != nil {
		return PortalSent{}, err
	}
	url := s.URL(fresh)
	text := fmt.Sprintf("Here is a new link to the page that shows what you shared with %s through Payline:\n\n%s\n\n"+
		"It works once, for %d minutes. If you did not ask for it, you can ignore this message.\n", who, url, int(PortalLinkTTL.Minutes()))
	m := OutboundMessage{Channel: ChannelEmail, To: to, Subject: "Your link to what you shared with " + who, Text: text,
		HTML: paragraphsHTML(text, url), FromName: who, CustomerID: sc.CustomerID, Mode: sc.Mode, Ref: old.ID}
	if _, err := s.sender.Send(ctx, m); err != nil {
		return PortalSent{}, sendFailure(err)
	}
	return PortalSent{To: MaskAddress(ChannelEmail, to)}, nil
}

// addressOnFile is the address the person gave for a receipt, else the
// address of the newest Link order sent to them by e-mail. Errors:
// PORTAL_NO_ADDRESS.
func (s *PortalService) addressOnFile(ctx context.Context, sc Scope, endUserID string) (string, error) {
	to, _, err := s.tx.Portal().PortalAddress(ctx, sc, endUserID)
	if err == nil {
		return to, nil
	}
	if !errors.Is(err, ErrNoRows) {
		return "", err
	}
	orders, err := s.tx.LinkOrders().FindLinkOrders(ctx, sc, LinkOrderFilter{EndUserID: endUserID}, PageRequest{Limit: 25})
	if err != nil {
		return "", err
	}
	for _, o := range orders.Items {
		for _, d := range o.Deliveries {
			if d.Channel == ChannelEmail && d.To != "" {
				return d.To, nil
			}
		}
	}
	return "", Errorf(KindInvalid, CodePortalNoAddress, "there is no e-mail address on file to send a new link to; ask the company that sent you here for one")
}

// sendFailure answers a message the channel did not take, in words that
// hold neither the address nor the channel's own text (which may quote
// it): these answers and their logs must not copy people's addresses.
func sendFailure(err error) error {
	if errors.Is(err, ErrDeliveryRefused) {
		return Errorf(KindInvalid, CodeInvalidFields, "email: the mail server refused this address; check it, or use another")
	}
	return &Error{Kind: KindUnavailable, Code: CodeServiceUnavailable, RetryAfter: time.Minute,
		Message: "the e-mail could not be sent just now; try again in a minute"}
}

// customerName is the name the person knows the customer by: the name
// Link showed them (orgName) when there is one, else the customer's.
func (s *PortalService) customerName(ctx context.Context, sc Scope, orgName string) (string, error) {
	if orgName != "" {
		return orgName, nil
	}
	name, err := s.names.CustomerName(ctx, sc.CustomerID)
	if err != nil {
		return "", fmt.Errorf("customer name: %w", err)
	}
	return name, nil
}

// paragraphsHTML is text as HTML paragraphs, with url a link: no remote
// content, nothing the text did not say.
func paragraphsHTML(text, url string) string {
	var b strings.Builder
	for _, p := range strings.Split(strings.TrimSpace(text), "\n\n") {
		e := html.EscapeString(p)
		if p == url {
			e = `<a href="` + html.EscapeString(url) + `">` + e + `</a>`
		}
		b.WriteString("<p>" + strings.ReplaceAll(e, "\n", "<br>") + "</p>\n")
	}
	return b.String()
}

// jobWords says in plain words what a job lets the customer read.
var jobWords = map[JobType]string{
	JobIdentity: "your identity (name, address, date of birth)", JobEmployment: "your employment (employer, title, dates)",
	JobIncome: "your income (pay rate and frequency)", JobPaystubs: "your paystubs", JobShifts: "your shifts",
	JobTaxForms: "your tax forms (W-2s)", JobDirectDepositAllocations: "where your pay is deposited",
	JobDirectDepositSwitch: "a change to where your pay is deposited", JobDirectDepositPayment: "a payment from your pay",
	JobBillSwitch: "a change to how a bill is paid", JobBillCancellation: "a bill cancellation",
}

func jobsInWords(jobs []JobType) []string {
	out := make([]string, 0, len(jobs))
	for _, j := range jobs {
		if w, ok := jobWords[j]; ok {
			out = append(out, w)
		} else {
			out = append(out, strings.ReplaceAll(string(j), "_", " "))
		}
	}
	return out
}

// Receipt is what a receipt told the person, masked where it names them.
type Receipt struct {
	To       string // masked
	Customer string
	Data     []string
}

// SendReceipt sends the person who finished Link with the token value a
// receipt at the address they gave: who asked, for what, which data,
// when, and a link to their page. The address is kept (sealed) as the
// one a fresh link is sent to. Errors: those of Open; INVALID_FIELDS for
// a missing or malformed address (MISSING_FIELDS when empty);
// LINK_NOT_COMPLETED when the session has not logged in or uploaded;
// RATE_LIMIT_EXCEEDED when a receipt went to the person less than
// PortalResendEvery ago; INVALID_FIELDS when the mail server refused the
// address, SERVICE_UNAVAILABLE when the channel failed otherwise.
func (s *PortalService) SendReceipt(ctx context.Context, value, email string) (Receipt, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return Receipt{}, Errorf(KindInvalid, CodeMissingFields, "email: give the address the receipt goes to")
	}
	if !ValidEmail(email) {
		return Receipt{}, Errorf(KindInvalid, CodeInvalidFields, "email: not an e-mail address")
	}
	sess, err := s.link.Open(ctx, value)
	if err != nil {
		return Receipt{}, err
	}
	t := sess.Token
	if t.UsedAt == nil {
		return Receipt{}, Errorf(KindInvalid, CodeLinkNotCompleted, "a receipt is sent once you have connected an account or uploaded documents")
	}
	sc := t.Scope()
	now := s.clock.Now()
	// Whoever holds the token may ask, so a person gets a receipt at most
	// every PortalResendEvery: the token cannot be used to mail strangers
	// again and again.
	if _, at, err := s.tx.Portal().PortalAddress(ctx, sc, t.EndUserID); err == nil && now.Before(at.Add(PortalResendEvery)) {
		return Receipt{}, &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: at.Add(PortalResendEvery).Sub(now),
			Message: "a receipt was sent a moment ago; ask again in two minutes"}
	} else if err != nil && !errors.Is(err, ErrNoRows) {
		return Receipt{}, err
	}
	who, err := s.customerName(ctx, sc, t.OrgName)
	if err != nil {
		return Receipt{}, err
	}
	var code string
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.Portal().PutPortalAddress(ctx, sc, t.EndUserID, email, now); err != nil {
			return err
		}
		_, code, err = newPortalLink(ctx, tx, sc, t.EndUserID, now)
		return err
	})
	if err != nil {
		return Receipt{}, err
	}
	data := jobsInWords(t.Jobs())
	source := "your payroll account"
	if sess.Account != nil && sess.Account.EmployerName != "" {
		source = "your payroll account at " + sess.Account.EmployerName
	} else if sess.Account == nil {
		source = "the documents you uploaded"
	}
	url := s.URL(code)
	text := fmt.Sprintf("You shared %s with %s through Payline on %s UTC.\n\n"+
		"Who asked: %s\nWhat for: %s\nWhich data: %s\n\n"+
		"See what you shared, download the reports made about you, or take your consent back on your page:\n\n%s\n\n"+
		"This link works once, for %d minutes; from the page that opens when it has expired, you can ask for a new one.\n",
		source, who, t.UsedAt.UTC().Format("January 2, 2006 at 15:04"), who, purposeWords(t), strings.Join(data, "; "), url,
		int(PortalLinkTTL.Minutes()))
	m := OutboundMessage{Channel: ChannelEmail, To: email, Subject: "Your receipt: what you shared with " + who, Text: text,
		HTML: paragraphsHTML(text, url), FromName: who, CustomerID: sc.CustomerID, Mode: sc.Mode, Ref: t.ID}
	if _, err := s.sender.Send(ctx, m); err != nil {
		return Receipt{}, sendFailure(err)
	}
	return Receipt{To: MaskAddress(ChannelEmail, email), Customer: who, Data: data}, nil
}

// purposeWords is what the customer asked for, in the words of Link's
// solution.
func purposeWords(t LinkToken) string {
	jobs := t.Jobs()
	switch {
	case slices.Contains(jobs, JobDirectDepositSwitch) || slices.Contains(jobs, JobDirectDepositPayment):
		return "to change where your pay is deposited"
	case slices.Contains(jobs, JobBillSwitch) || slices.Contains(jobs, JobBillCancellation):
		return "to manage your bills"
	}
	return "to verify your income and employment"
}

// PersonView is what a person's page shows: their connections and
// uploads at one customer, the reports built about them, and the consent
// they took back.
type PersonView struct {
	Customer    string
	Connections []PersonConnection
	// Uploads are the documents the person uploaded in Link (not those
	// read from a connected account), newest first.
	Uploads     []PersonUpload
	Reports     []PersonReport
	Revocations []ConsentRevocation
}

// PersonConnection is one account the person connected or documents
// they uploaded, as the page shows it.
type PersonConnection struct {
	AccountID    string
	EmployerName string
	PlatformID   string
	// PlatformName is the payroll platform's name ("" when the directory
	// no longer has it).
	PlatformName string
	ConsentedAt  *time.Time
	// Readable lists the data the customer holds from it, in words.
	Readable      []string
	LastRefreshed *time.Time
	Connected     bool
	// DisconnectedBy is DisconnectedByEndUser when the person took
	// consent back.
	DisconnectedBy string
}

// PersonUpload is one document the person uploaded.
type PersonUpload struct {
	DocumentID   string
	DocumentType string
	FileName     string
	UploadedAt   time.Time
}

// PersonReport is one report built about the person.
type PersonReport struct {
	Type       string
	Version    int
	BuiltAt    time.Time
	Requester  string
	Purpose    string
	DocumentID string
}

// productWords says in words what a stored product holds.
var productWords = map[string]string{
	ProductIdentity: "identity", ProductEmployment: "employment", ProductIncome: "income", ProductAllocations: "deposit accounts",
	"paystubs": "paystubs", "shifts": "shifts", "tax_forms": "tax forms", "documents": "documents",
}

// View is what the session's person may see: only their own data at
// their customer, in their mode.
func (s *PortalService) View(ctx context.Context, sess PortalSession) (PersonView, error) {
	sc := sess.Scope()
	accounts, err := s.accountsOf(ctx, sc, sess.EndUserID)
	if err != nil {
		return PersonView{}, err
	}
	// The customer as the person met it: the name Link showed them on
	// their newest connection, else the customer's own.
	var orgName string
	if len(accounts) > 0 {
		t, err := s.tx.LinkTokens().LinkToken(ctx, sc, accounts[0].LinkTokenID)
		if err != nil && !errors.Is(err, ErrNoRows) {
			return PersonView{}, err
		}
		orgName = t.OrgName
	}
	who, err := s.customerName(ctx, sc, orgName)
	if err != nil {
		return PersonView{}, err
	}
	v := PersonView{Customer: who}
	ids := make([]string, len(accounts))
	for i, a := range accounts {
		ids[i] = a.ID
	}
	consents, err := s.tx.Accounts().Consents(ctx, sc, ids)
	if err != nil {
		return PersonView{}, err
	}
	for _, a := range accounts {
		c := PersonConnection{AccountID: a.ID, EmployerName: a.EmployerName, PlatformID: a.PlatformID, Connected: a.Connected,
			DisconnectedBy: a.DisconnectedBy}
		if p, err := s.link.directory.Platform(ctx, a.PlatformID); err == nil {
			c.PlatformName = p.Name
		}
		if k, ok := consents[a.ID]; ok {
			t := k.GivenAt
			c.ConsentedAt = &t
		}
		for p, at := range a.DataRefreshedAt {
			if w, ok := productWords[p]; ok {
				c.Readable = append(c.Readable, w)
			}
			if c.LastRefreshed == nil || at.After(*c.LastRefreshed) {
				t := at
				c.LastRefreshed = &t
			}
		}
		sort.Strings(c.Readable)
		v.Connections = append(v.Connections, c)
	}
	for _, typ := range []string{ReportVOIE, ReportVOE} {
		got, err := s.tx.Reports().ReportsOf(ctx, sc, []string{sess.EndUserID}, typ)
		if err != nil {
			return PersonView{}, err
		}
		if r, ok := got[sess.EndUserID]; ok {
			v.Reports = append(v.Reports, PersonReport{Type: typ, Version: r.Version, BuiltAt: r.RefreshedAt,
				Requester: r.Report.Requester, Purpose: r.Report.Purpose, DocumentID: r.DocumentID})
		}
	}
	if v.Uploads, err = s.uploadsOf(ctx, sc, sess.EndUserID); err != nil {
		return PersonView{}, err
	}
	if v.Revocations, err = s.tx.Portal().ConsentRevocations(ctx, sc, sess.EndUserID); err != nil {
		return PersonView{}, err
	}
	return v, nil
}

// uploadsOf lists the documents the end user uploaded in Link.
func (s *PortalService) uploadsOf(ctx context.Context, sc Scope, endUserID string) ([]PersonUpload, error) {
	var out []PersonUpload
	p := PageRequest{Limit: 100}
	for {
		page, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID}, p)
		if err != nil {
			return nil, err
		}
		for _, r := range page.Items {
			if r.Document == nil || r.Document.AccountID != nil {
				continue
			}
			out = append(out, PersonUpload{DocumentID: r.ID, DocumentType: r.DocumentType, FileName: r.Document.FileName, UploadedAt: r.CreatedAt})
		}
		if page.Next == nil {
			return out, nil
		}
		p.Cursor = page.Next
	}
}

// DocumentLink is a fresh download link to one of the session's person's
// documents. Errors: DOCUMENT_NOT_FOUND for a document that is not theirs.
func (s *PortalService) DocumentLink(ctx context.Context, sess PortalSession, id string) (DocumentLink, error) {
	if err := CheckID("document_id", id); err != nil {
		return DocumentLink{}, err
	}
	r, err := s.tx.Records().Record(ctx, sess.Scope(), RecordDocument, id)
	if errors.Is(err, ErrNoRows) || (err == nil && r.EndUserID != sess.EndUserID) {
		return DocumentLink{}, Errorf(KindNotFound, CodeDocumentNotFound, "you have no document %s", id)
	}
	if err != nil {
		return DocumentLink{}, err
	}
	return s.files.Link(r.ID), nil
}

// accountsOf lists every account of the end user in the scope.
func (s *PortalService) accountsOf(ctx context.Context, sc Scope, endUserID string) ([]Account, error) {
	var out []Account
	p := PageRequest{Limit: 100}
	for {
		page, err := s.tx.Accounts().FindAccounts(ctx, sc, AccountFilter{EndUserID: endUserID}, p)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Next == nil {
			return out, nil
		}
		p.Cursor = page.Next
	}
}

// ReportLink is a fresh download link to the session's person's report
// of a type. Errors: PRODUCT_NOT_FOUND when none was built about them.
func (s *PortalService) ReportLink(ctx context.Context, sess PortalSession, reportType string) (DocumentLink, error) {
	if reportType != ReportVOIE && reportType != ReportVOE {
		return DocumentLink{}, Errorf(KindNotFound, CodeProductNotFound, "no report of type %s", reportType)
	}
	r, err := s.tx.Reports().Report(ctx, sess.Scope(), sess.EndUserID, reportType)
	if errors.Is(err, ErrNoRows) || (err == nil && r.DocumentID == "") {
		return DocumentLink{}, Errorf(KindNotFound, CodeProductNotFound, "no %s report was built about you", reportType)
	}
	if err != nil {
		return DocumentLink{}, err
	}
	return s.files.Link(r.DocumentID), nil
}
