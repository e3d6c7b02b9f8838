package domain

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// LinkService implements link tokens and the steps of Link: the hosted
// modal and the sandbox helper both call it, so a flow behaves the same
// whichever drives it.
type LinkService struct {
	tx        Transactor
	directory *DirectoryService
	relay     Relay // NoRelay unless this mode relays to upstreams
	connector Connector
	clock     Clock
	reporter  Reporter
	parser    UploadParser // nil: uploads are kept but not read
	uploads   uploadLimits // document_admission.go, upload_limits.go
}

// NewLinkService wires the Link use cases; relay creates the upstream's
// token where an upstream takes the platform (NoRelay: never); reporter
// renders the direct deposit form Link offers after a switch.
func NewLinkService(tx Transactor, directory *DirectoryService, connector Connector, relay Relay, clock Clock, reporter Reporter) *LinkService {
	s := &LinkService{tx: tx, directory: directory, connector: connector, relay: relay, clock: clock, reporter: reporter,
		uploads: defaultUploadLimits()}
	if p, ok := reporter.(UploadParser); ok { // the reports service also reads the documents it renders
		s.parser = p
	}
	return s
}

// WithUploadParser makes p read the documents users upload in Link (in
// place of the reporter's own parser, if it has one). It returns s.
func (s *LinkService) WithUploadParser(p UploadParser) *LinkService {
	s.parser = p
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
	t, err := s.checkedToken(ctx, sc, r, c, apiVersion)
	if err != nil {
		return LinkToken{}, "", err
	}
	raw, err := RandomBytes(32)
	if err != nil {
		return LinkToken{}, "", err
	}
	value := "lt_" + base64.RawURLEncoding.EncodeToString(raw)
	hash := sha256.Sum256([]byte(value))
	t.TokenHash = hash[:]
	t.CreatedAt = s.clock.Now()
	t.Expires = t.CreatedAt.Add(c.lifetime)
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
		if err := s.tx.LinkTokens().CreateLinkToken(ctx, sc, t); err != nil {
			return LinkToken{}, "", fmt.Errorf("store link token: %w", err)
		}
		return t, value, nil
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.LinkTokens().CreateLinkToken(ctx, sc, t); err != nil {
			return fmt.Errorf("store link token: %w", err)
		}
		return tx.Upstream().PutUpstreamLink(ctx, sc, UpstreamLink{LinkTokenID: t.ID, UpstreamToken: ut}, t.CreatedAt)
	})
	if err != nil {
		return LinkToken{}, "", err
	}
	return t, value, nil
}

// checkedToken is the token a request whose fields passed makes, once its
// references (employer, platform, account, the bill navigator) check out.
func (s *LinkService) checkedToken(ctx context.Context, sc Scope, r LinkTokenRequest, c checkedLinkToken, apiVersion string) (LinkToken, error) {
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
		return LinkToken{}, err
	}
	if err := s.checkBillNavigator(ctx, sc, t); err != nil {
		return LinkToken{}, err
	}
	return t, nil
}

// checkTokenReferences checks, storing nothing, the references of a
// request whose fields passed (checkLinkTokenFields): CreateLinkToken's
// rules for a Link order, which mints its tokens later.
func (s *LinkService) checkTokenReferences(ctx context.Context, sc Scope, r LinkTokenRequest, apiVersion string) error {
	c, err := checkLinkTokenRequest(r, apiVersion)
	if err != nil {
		return err
	}
	_, err = s.checkedToken(ctx, sc, r, c, apiVersion)
	return err
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
