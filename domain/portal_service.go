package domain

import (
	"context"
	"errors"
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
	// Paystubs are the newest paystubs read from it (at most
	// MaxPersonPaystubs), each of whose figures the person may dispute.
	Paystubs []Paystub
}

// MaxPersonPaystubs bounds the paystubs the page shows of one account.
const MaxPersonPaystubs = 6

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
		stubs, err := s.tx.Data().FindPaystubs(ctx, sc, a.ID, "", PageRequest{Limit: MaxPersonPaystubs})
		if err != nil {
			return PersonView{}, err
		}
		c.Paystubs = stubs.Items
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
