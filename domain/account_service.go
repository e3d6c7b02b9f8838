package domain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// AccountService reads accounts, their jobs and data for API callers, and
// runs the account lifecycle.
type AccountService struct {
	tx       Transactor
	clock    Clock
	reporter Reporter
	relay    Relay // NoRelay unless this mode relays to upstreams
}

// NewAccountService wires the account use cases; reporter renders and
// links documents (nil leaves documents without download links); relay
// takes account actions to the upstream that holds a relayed account
// first (NoRelay: there is none).
func NewAccountService(tx Transactor, clock Clock, reporter Reporter, relay Relay) *AccountService {
	return &AccountService{tx: tx, clock: clock, reporter: reporter, relay: relay}
}

// Account returns one of the scope's accounts. Errors: INVALID_FIELDS for
// a malformed id, ACCOUNT_NOT_FOUND when the scope has none with it.
func (s *AccountService) Account(ctx context.Context, sc Scope, id string) (Account, error) {
	if err := CheckID("account_id", id); err != nil {
		return Account{}, err
	}
	a, err := s.tx.Accounts().Account(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Account{}, Errorf(KindNotFound, CodeAccountNotFound, "no account with id %s", id)
	}
	return a, err
}

// Accounts pages the scope's accounts, newest first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *AccountService) Accounts(ctx context.Context, sc Scope, f AccountFilter, p PageRequest) (Page[Account], error) {
	if err := f.check(); err != nil {
		return Page[Account]{}, err
	}
	return s.tx.Accounts().FindAccounts(ctx, sc, f, p)
}

// Jobs pages the scope's completed Link jobs, newest first. Errors:
// INVALID_FIELDS for a bad filter.
func (s *AccountService) Jobs(ctx context.Context, sc Scope, f JobFilter, p PageRequest) (Page[Job], error) {
	if err := f.check(); err != nil {
		return Page[Job]{}, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().FindJobs(ctx, sc, f, p)
}

// TokenJobs lists the finished jobs (success or error) a link token
// started, oldest first: the deprecated GET /link_tokens/{id}/jobs.
// Errors: INVALID_FIELDS, LINK_TOKEN_NOT_FOUND.
func (s *AccountService) TokenJobs(ctx context.Context, sc Scope, tokenID string) ([]Job, error) {
	if err := CheckID("token_id", tokenID); err != nil {
		return nil, err
	}
	if _, err := s.tx.LinkTokens().LinkToken(ctx, sc, tokenID); errors.Is(err, ErrNoRows) {
		return nil, Errorf(KindNotFound, CodeLinkTokenNotFound, "no link token with id %s", tokenID)
	} else if err != nil {
		return nil, err
	}
	var out []Job
	p := PageRequest{Limit: MaxPageLimit}
	for {
		page, err := s.tx.Jobs().FindJobs(ctx, sc, JobFilter{LinkTokenID: tokenID}, p)
		if err != nil {
			return nil, err
		}
		for _, j := range page.Items {
			if j.Outcome == OutcomeSuccess || j.Outcome == OutcomeError {
				out = append(out, j)
			}
		}
		if page.Next == nil {
			break
		}
		p.Cursor = page.Next
	}
	slices.Reverse(out) // the list is newest first
	return out, nil
}

// SimulateMonitoringStatus is the sandbox helper that breaks (or mends) an
// account's connection. Errors: SANDBOX_ONLY outside the sandbox (404),
// INVALID_FIELDS for a status that cannot be simulated.
func (s *AccountService) SimulateMonitoringStatus(ctx context.Context, sc Scope, id string, status MonitoringStatus) (Account, error) {
	if err := sandboxOnly(sc); err != nil {
		return Account{}, err
	}
	switch status {
	case MonitoringActive, MonitoringDegraded, MonitoringUserActionRequired, MonitoringUnavailable:
	default:
		return Account{}, Errorf(KindInvalid, CodeInvalidFields,
			"monitoring_status: must be active, degraded, user_action_required or unavailable (customer_disabled comes from POST /accounts/{id}/disable_monitoring)")
	}
	if err := s.setMonitoring(ctx, sc, id, "", func(a *Account) { a.MonitoringStatus = status }); err != nil {
		return Account{}, err
	}
	return s.Account(ctx, sc, id)
}

// NoConnector stands in for a payroll source in development and
// production modes without --upstream-url: it says so instead of
// pretending.
type NoConnector struct{}

// productJobs names the job that produces each product, for 404s.
var productJobs = map[string]JobType{
	ProductIdentity: JobIdentity, ProductEmployment: JobEmployment, ProductIncome: JobIncome,
	ProductAllocations: JobDirectDepositAllocations, ProductPaystubs: JobPaystubs,
}

func productNotFound(accountID, product string) error {
	return Errorf(KindNotFound, CodeProductNotFound,
		"account %s has no %s yet: the %s job produces it; create a link token whose required_jobs include %q (or an On Demand Update token with account_id)",
		accountID, product, productJobs[product], productJobs[product])
}

// Product returns a stored single-object product and its account (whose
// data_refreshed_at is the product's freshness). Errors: ACCOUNT_NOT_FOUND,
// PRODUCT_NOT_FOUND naming the job that produces it.
func (s *AccountService) Product(ctx context.Context, sc Scope, accountID, product string) (StoredProduct, Account, error) {
	a, err := s.Account(ctx, sc, accountID)
	if err != nil {
		return StoredProduct{}, Account{}, err
	}
	p, err := s.tx.Data().Product(ctx, sc, accountID, product)
	if errors.Is(err, ErrNoRows) {
		return StoredProduct{}, a, productNotFound(accountID, product)
	}
	return p, a, err
}

// Paystubs pages an account's paystubs, newest pay date first. from, when
// given, is a YYYY-MM-DD date: only stubs paid on or after it.
func (s *AccountService) Paystubs(ctx context.Context, sc Scope, accountID, from string, p PageRequest) (Page[Paystub], Account, error) {
	if err := checkFromPayDate(from); err != nil {
		return Page[Paystub]{}, Account{}, err
	}
	a, err := s.Account(ctx, sc, accountID)
	if err != nil {
		return Page[Paystub]{}, Account{}, err
	}
	if a.DataRefreshedAt[ProductPaystubs].IsZero() {
		return Page[Paystub]{}, a, productNotFound(accountID, ProductPaystubs)
	}
	page, err := s.tx.Data().FindPaystubs(ctx, sc, accountID, from, p)
	return page, a, err
}

// Paystub returns one paystub. Errors: INVALID_FIELDS, ACCOUNT_NOT_FOUND,
// RECORD_NOT_FOUND (PAYSTUB_NOT_FOUND).
func (s *AccountService) Paystub(ctx context.Context, sc Scope, accountID, id string) (Paystub, error) {
	if _, err := s.Account(ctx, sc, accountID); err != nil {
		return Paystub{}, err
	}
	if err := CheckID("paystub_id", id); err != nil {
		return Paystub{}, err
	}
	p, err := s.tx.Data().Paystub(ctx, sc, accountID, id)
	if errors.Is(err, ErrNoRows) {
		return Paystub{}, Errorf(KindNotFound, CodePaystubNotFound, "account %s has no paystub %s", accountID, id)
	}
	return p, err
}

// setMonitoring changes an account in a transaction and writes
// account.monitoring_status.updated when its status changes.
func (s *AccountService) setMonitoring(ctx context.Context, sc Scope, id, action string, change func(a *Account)) error {
	a, err := s.Account(ctx, sc, id)
	if err != nil {
		return err
	}
	if action != "" {
		// A relayed account: the upstream holds the connection, so the
		// action takes effect there first (an upstream that is away fails
		// it and nothing changes), and its own events come back through
		// ingest.
		l, err := s.tx.Upstream().UpstreamLink(ctx, sc, a.LinkTokenID)
		switch {
		case err == nil:
			if err := s.relay.Act(ctx, l.Source, id, action); err != nil {
				return err
			}
		case !errors.Is(err, ErrNoRows):
			return err
		}
	}
	return s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		a, err := tx.Accounts().AccountForUpdate(ctx, sc, id)
		if err != nil {
			return err
		}
		before := a.MonitoringStatus
		change(&a)
		if err := tx.Accounts().UpdateAccount(ctx, sc, a); err != nil {
			return err
		}
		if a.MonitoringStatus == before {
			return nil
		}
		return PublishEvent(ctx, tx, sc, "account.monitoring_status.updated", s.clock.Now(), map[string]any{
			"account_id": a.ID, "end_user_id": a.EndUserID, "monitoring_status": a.MonitoringStatus, "previous_monitoring_status": before,
		})
	})
}

// Disconnect ends an account's connection for good: connected becomes
// false and monitoring_status unavailable; data already read stays
// readable, and On Demand Updates are refused from then on. Repeating it
// changes nothing.
func (s *AccountService) Disconnect(ctx context.Context, sc Scope, id string) error {
	return s.setMonitoring(ctx, sc, id, ActionDisconnect, func(a *Account) {
		a.Connected, a.MonitoringStatus = false, MonitoringUnavailable
	})
}

// DisableMonitoring stops refreshes: monitoring_status becomes
// customer_disabled (a disconnected account stays unavailable).
func (s *AccountService) DisableMonitoring(ctx context.Context, sc Scope, id string) error {
	return s.setMonitoring(ctx, sc, id, ActionDisableMonitoring, func(a *Account) {
		if a.Connected {
			a.MonitoringStatus = MonitoringCustomerDisabled
		}
	})
}

// EndUser returns one of the scope's end users. Errors: INVALID_FIELDS,
// END_USER_NOT_FOUND.
func (s *AccountService) EndUser(ctx context.Context, sc Scope, id string) (EndUser, error) {
	accounts, err := EndUserAccounts(ctx, s.tx.Accounts(), sc, id)
	if err != nil {
		return EndUser{}, err
	}
	u := EndUser{ID: id, Accounts: len(accounts), FirstConnected: accounts[0].CreatedAt}
	for _, a := range accounts {
		if a.CreatedAt.Before(u.FirstConnected) {
			u.FirstConnected = a.CreatedAt
		}
	}
	return u, nil
}

// EndUsers pages the scope's end users by id.
func (s *AccountService) EndUsers(ctx context.Context, sc Scope, p PageRequest) (Page[EndUser], error) {
	return s.tx.Accounts().FindEndUsers(ctx, sc, p)
}

// AccountsByID loads accounts for a batch loader.
func (s *AccountService) AccountsByID(ctx context.Context, sc Scope, ids []string) ([]Account, []error) {
	found, err := s.tx.Accounts().AccountsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Account](len(ids), err)
	}
	return inOrder(ids, found, func(a Account) string { return a.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeAccountNotFound, "no account with id %s", id)
	})
}

// AccountsOfEndUsers pages each end user's accounts, newest first.
func (s *AccountService) AccountsOfEndUsers(ctx context.Context, sc Scope, endUserIDs []string, p PageRequest) (map[string]Page[Account], error) {
	return s.tx.Accounts().AccountsOfEndUsers(ctx, sc, endUserIDs, p)
}

// Job returns one of the scope's jobs. Errors: INVALID_FIELDS,
// JOB_NOT_FOUND.
func (s *AccountService) Job(ctx context.Context, sc Scope, id string) (Job, error) {
	if err := CheckID("job_id", id); err != nil {
		return Job{}, err
	}
	j, err := s.tx.Jobs().Job(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Job{}, Errorf(KindNotFound, CodeJobNotFound, "no job with id %s", id)
	}
	return j, err
}

// JobsOfAccounts pages each account's completed jobs, newest first, by the
// rules of GET /v1/jobs.
func (s *AccountService) JobsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, f JobFilter, p PageRequest) (map[string]Page[Job], error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	f.IncludeUnrun = false
	return s.tx.Jobs().JobsOfAccounts(ctx, sc, accountIDs, f, p)
}

// ProductsOfAccounts reads one product of many accounts.
func (s *AccountService) ProductsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, product string) (map[string]StoredProduct, error) {
	return s.tx.Data().ProductsOfAccounts(ctx, sc, accountIDs, product)
}

// PaystubsOfAccounts pages each account's paystubs, newest pay date first;
// from (YYYY-MM-DD) keeps stubs paid on or after it.
func (s *AccountService) PaystubsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, from string, p PageRequest) (map[string]Page[Paystub], error) {
	if err := checkFromPayDate(from); err != nil {
		return nil, err
	}
	return s.tx.Data().PaystubsOfAccounts(ctx, sc, accountIDs, from, p)
}

// PaystubByID returns a paystub of any of the scope's accounts. Errors:
// INVALID_FIELDS, PAYSTUB_NOT_FOUND.
func (s *AccountService) PaystubByID(ctx context.Context, sc Scope, id string) (Paystub, error) {
	if err := CheckID("paystub_id", id); err != nil {
		return Paystub{}, err
	}
	p, err := s.tx.Data().PaystubByID(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Paystub{}, Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	}
	return p, err
}

// DocumentByID returns one of the scope's documents, whichever end user's,
// with a fresh download link. Errors: INVALID_FIELDS, DOCUMENT_NOT_FOUND.
func (s *AccountService) DocumentByID(ctx context.Context, sc Scope, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	}
	if err != nil {
		return Record{}, err
	}
	return r, s.link(ctx, sc, &r)
}

// JobsByID loads jobs for a batch read.
func (s *AccountService) JobsByID(ctx context.Context, sc Scope, ids []string) ([]Job, []error) {
	found, err := s.tx.Jobs().JobsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Job](len(ids), err)
	}
	return inOrder(ids, found, func(j Job) string { return j.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeJobNotFound, "no job with id %s", id)
	})
}

// PaystubsByID loads paystubs of any of the scope's accounts for a batch
// read.
func (s *AccountService) PaystubsByID(ctx context.Context, sc Scope, ids []string) ([]Paystub, []error) {
	found, err := s.tx.Data().PaystubsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Paystub](len(ids), err)
	}
	return inOrder(ids, found, func(p Paystub) string { return p.ID }, func(id string) error {
		return Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	})
}

// DocumentsByID loads documents of any of the scope's end users for a
// batch read, each with a fresh download link.
func (s *AccountService) DocumentsByID(ctx context.Context, sc Scope, ids []string) ([]Record, []error) {
	found, err := s.tx.Records().RecordsByID(ctx, sc, RecordDocument, ids)
	if err != nil {
		return failAll[Record](len(ids), err)
	}
	for i := range found {
		if err := s.link(ctx, sc, &found[i]); err != nil {
			return failAll[Record](len(ids), err)
		}
	}
	return inOrder(ids, found, func(r Record) string { return r.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	})
}

// EndUsersByID loads end users for a batch read: an id with no account is
// END_USER_NOT_FOUND in its slot.
func (s *AccountService) EndUsersByID(ctx context.Context, sc Scope, ids []string) ([]EndUser, []error) {
	found, err := s.tx.Accounts().EndUsersByID(ctx, sc, ids)
	if err != nil {
		return failAll[EndUser](len(ids), err)
	}
	return inOrder(ids, found, func(u EndUser) string { return u.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeEndUserNotFound, "no end user with id %q", id)
	})
}

// checkEndUser returns the end user's accounts, or END_USER_NOT_FOUND when
// this customer has none for that id.
func (s *AccountService) checkEndUser(ctx context.Context, sc Scope, endUserID string, connectedOnly bool) ([]Account, error) {
	all, err := EndUserAccounts(ctx, s.tx.Accounts(), sc, endUserID)
	if err != nil {
		return nil, err
	}
	if connectedOnly {
		all = slices.DeleteFunc(all, func(a Account) bool { return !a.Connected })
	}
	return all, nil
}

// AccountRecords pages an account's tax forms or shifts. Errors:
// ACCOUNT_NOT_FOUND, PRODUCT_NOT_FOUND naming the job.
func (s *AccountService) AccountRecords(ctx context.Context, sc Scope, accountID, kind, product string, p PageRequest) (Page[Record], Account, error) {
	a, err := s.Account(ctx, sc, accountID)
	if err != nil {
		return Page[Record]{}, Account{}, err
	}
	if a.DataRefreshedAt[product].IsZero() {
		job := JobTaxForms
		if product == ProductShifts {
			job = JobShifts
		}
		return Page[Record]{}, a, Errorf(KindNotFound, CodeProductNotFound,
			"account %s has no %s yet: the %s job produces it; create a link token whose required_jobs include %q", accountID, product, job, job)
	}
	page, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: kind, AccountID: accountID}, p)
	return page, a, err
}

// RecordsOfAccounts pages the tax forms or shifts of many accounts at
// once, as AccountRecords does one account's: an account the scope lacks,
// or whose product no job has read yet, gets an empty page here (where
// AccountRecords names the error). Two statements for any number.
func (s *AccountService) RecordsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, kind, product string, p PageRequest) (map[string]Page[Record], error) {
	accounts, err := s.tx.Accounts().AccountsByID(ctx, sc, accountIDs)
	if err != nil {
		return nil, err
	}
	var ready []string
	for _, a := range accounts {
		if !a.DataRefreshedAt[product].IsZero() {
			ready = append(ready, a.ID)
		}
	}
	return s.tx.Records().RecordsOfAccounts(ctx, sc, kind, ready, p)
}

// DocumentsOfEndUsers pages the documents of many end users at once, each
// with a fresh download link, as Documents does one end user's; the end
// users are known (a parent already read), so none is refused.
func (s *AccountService) DocumentsOfEndUsers(ctx context.Context, sc Scope, endUserIDs []string, docType string, p PageRequest) (map[string]Page[Record], error) {
	pages, err := s.tx.Records().DocumentsOfEndUsers(ctx, sc, docType, endUserIDs, p)
	if err != nil {
		return nil, err
	}
	if s.reporter == nil {
		return pages, nil
	}
	var docs []Record
	for _, page := range pages {
		docs = append(docs, page.Items...)
	}
	links := s.reporter.DocumentLinks(ctx, sc, docs)
	byID := map[string]*DocumentLink{}
	for i := range docs {
		byID[docs[i].ID] = &links[i]
	}
	for _, page := range pages {
		for i := range page.Items {
			page.Items[i].Link = byID[page.Items[i].ID]
		}
	}
	return pages, nil
}

// TaxForm returns one of an account's tax forms, with a signed link to
// the form's document. Errors: ACCOUNT_NOT_FOUND, TAX_FORM_NOT_FOUND.
func (s *AccountService) TaxForm(ctx context.Context, sc Scope, accountID, id string) (Record, error) {
	if _, err := s.Account(ctx, sc, accountID); err != nil {
		return Record{}, err
	}
	if err := CheckID("tax_form_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordTaxForm, id)
	if errors.Is(err, ErrNoRows) || (err == nil && r.AccountID != accountID) {
		return Record{}, Errorf(KindNotFound, CodeTaxFormNotFound, "account %s has no tax form %s", accountID, id)
	}
	if err != nil {
		return Record{}, err
	}
	if r.TaxForm == nil || r.TaxForm.DocumentID == "" {
		return r, nil
	}
	doc, err := s.tx.Records().Record(ctx, sc, RecordDocument, r.TaxForm.DocumentID)
	if err != nil {
		return Record{}, fmt.Errorf("document of tax form %s: %w", id, err)
	}
	if err := s.link(ctx, sc, &doc); err != nil {
		return Record{}, err
	}
	r.Link = doc.Link
	return r, nil
}

// Documents pages an end user's documents; docType filters by type.
func (s *AccountService) Documents(ctx context.Context, sc Scope, endUserID, docType string, p PageRequest) (Page[Record], error) {
	page, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID, DocumentType: docType}, p)
	if err != nil {
		return Page[Record]{}, err
	}
	// An end user is known by an account or, after uploading documents in
	// Link without logging in, by those documents alone.
	if len(page.Items) == 0 && p.Cursor == nil {
		any, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID}, PageRequest{Limit: 1})
		if err != nil {
			return Page[Record]{}, err
		}
		if len(any.Items) == 0 {
			if _, err := s.checkEndUser(ctx, sc, endUserID, false); err != nil {
				return Page[Record]{}, err
			}
		}
	}
	if s.reporter != nil {
		links := s.reporter.DocumentLinks(ctx, sc, page.Items)
		for i := range page.Items {
			page.Items[i].Link = &links[i]
		}
	}
	return page, nil
}

// link gives a document a fresh download link, rendering its PDF first
// when it has none.
func (s *AccountService) link(ctx context.Context, sc Scope, doc *Record) error {
	if s.reporter == nil {
		return nil
	}
	l, err := s.reporter.DocumentLink(ctx, sc, *doc)
	if err != nil {
		return err
	}
	doc.Link = &l
	return nil
}

// Document returns one of an end user's documents.
func (s *AccountService) Document(ctx context.Context, sc Scope, endUserID, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) || (err == nil && r.EndUserID != endUserID) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "end user %q has no document %s", endUserID, id)
	}
	if err != nil {
		return Record{}, err
	}
	return r, s.link(ctx, sc, &r)
}

// EarningsStream estimates the end user's payouts, oldest pay date first.
func (s *AccountService) EarningsStream(ctx context.Context, sc Scope, endUserID string) (EarningsStream, error) {
	accounts, err := s.checkEndUser(ctx, sc, endUserID, true)
	if err != nil {
		return EarningsStream{}, err
	}
	streams, err := s.estimate(ctx, sc, map[string][]Account{endUserID: accounts})
	return streams[endUserID], err
}

// EarningsStreams estimates the payouts of many end users at once, in
// three statements for any number (one more per end user with more than
// MaxPageLimit accounts). End users the scope lacks get an empty stream.
func (s *AccountService) EarningsStreams(ctx context.Context, sc Scope, endUserIDs []string) (map[string]EarningsStream, error) {
	pages, err := s.tx.Accounts().AccountsOfEndUsers(ctx, sc, endUserIDs, PageRequest{Limit: MaxPageLimit})
	if err != nil {
		return nil, err
	}
	byUser := map[string][]Account{}
	for id, page := range pages {
		all := page.Items
		if page.Next != nil {
			if all, err = EndUserAccounts(ctx, s.tx.Accounts(), sc, id); err != nil {
				return nil, err
			}
		}
		byUser[id] = slices.DeleteFunc(slices.Clone(all), func(a Account) bool { return !a.Connected })
	}
	return s.estimate(ctx, sc, byUser)
}

// estimate computes each end user's stream from the last four paystubs
// of each of their connected accounts, read in one statement.
func (s *AccountService) estimate(ctx context.Context, sc Scope, byUser map[string][]Account) (map[string]EarningsStream, error) {
	var ids []string
	for _, accounts := range byUser {
		for _, a := range accounts {
			ids = append(ids, a.ID)
		}
	}
	stubs, err := s.tx.Data().PaystubsOfAccounts(ctx, sc, ids, "", PageRequest{Limit: payoutPaystubs})
	if err != nil {
		return nil, err
	}
	out := make(map[string]EarningsStream, len(byUser))
	for user, accounts := range byUser {
		out[user] = earningsStream(accounts, stubs)
	}
	return out, nil
}

// SetBillNavigatorStatus records the end user's bill navigator action.
// Errors: MISSING_FIELDS, INVALID_FIELDS, END_USER_NOT_FOUND.
func (s *AccountService) SetBillNavigatorStatus(ctx context.Context, sc Scope, endUserID, action, reason string) error {
	var p Problems
	if action == "" {
		p.Missing("action")
	} else if !slices.Contains(BillNavigatorActions, action) {
		p.Invalid("action", "must be deactivate, got %q", action)
	}
	if len(reason) > 500 {
		p.Invalid("reason", "must be at most 500 characters")
	}
	if err := p.Err(); err != nil {
		return err
	}
	if _, err := s.checkEndUser(ctx, sc, endUserID, false); err != nil {
		return err
	}
	if err := s.relay.SetBillNavigatorStatus(ctx, UpstreamEndUser(sc.CustomerID, endUserID), action, reason); err != nil {
		return err
	}
	return s.tx.Records().SetBillNavigatorStatus(ctx, sc, endUserID, action+"d", reason, s.clock.Now())
}

// Overview summarises the scope's last days (1 to MaxOverviewDays).
func (s *AccountService) Overview(ctx context.Context, sc Scope, days int) (Overview, error) {
	if days < 1 || days > MaxOverviewDays {
		return Overview{}, Errorf(KindInvalid, CodeInvalidFields, "days must be 1 to %d", MaxOverviewDays)
	}
	now := s.clock.Now().UTC()
	start := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, -(days - 1))
	data, err := s.tx.Accounts().Overview(ctx, sc, start)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{AccountsConnected: data.AccountsConnected, Deliveries: data.Deliveries, Days: make([]JobDay, days)}
	for i := range o.Days {
		o.Days[i].Date = start.AddDate(0, 0, i).Format(time.DateOnly)
	}
	index := make(map[string]int, days)
	for i := range o.Days {
		index[o.Days[i].Date] = i
	}
	for _, c := range data.JobCounts {
		i, ok := index[c.Day]
		if !ok {
			continue
		}
		switch Outcome(c.Outcome) {
		case OutcomeSuccess:
			o.Days[i].Success += c.N
		case OutcomePending:
			o.Days[i].Pending += c.N
		case OutcomeError:
			o.Days[i].Error += c.N
		}
	}
	return o, nil
}

// WatchJobs sends each of the scope's jobs whose outcome changes (every
// <job>.added event, as it commits), until ctx ends; then the channel
// closes. Errors: INVALID_FIELDS for a malformed id.
func (s *AccountService) WatchJobs(ctx context.Context, sc Scope, w JobWatch) (<-chan Job, error) {
	for field, id := range map[string]string{"accountId": w.AccountID, "linkTokenId": w.LinkTokenID} {
		if id != "" {
			if err := CheckID(field, id); err != nil {
				return nil, err
			}
		}
	}
	events := s.tx.Subscribe(ctx, sc)
	out := make(chan Job)
	go func() {
		defer close(out)
		for e := range events {
			if EventResource(e.Name) != ResourceJob {
				continue
			}
			var p struct {
				ID          string `json:"id"`
				AccountID   string `json:"account_id"`
				EndUserID   string `json:"end_user_id"`
				LinkTokenID string `json:"link_token_id"`
			}
			if json.Unmarshal(e.Payload, &p) != nil || !matches(w.AccountID, p.AccountID) || !matches(w.EndUserID, p.EndUserID) ||
				!matches(w.LinkTokenID, p.LinkTokenID) {
				continue
			}
			j, err := s.tx.Jobs().Job(ctx, sc, p.ID)
			if err != nil {
				continue // gone, or the context ended
			}
			select {
			case out <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// WatchAccounts sends each of the scope's accounts (of one end user, when
// endUserID is set) when it is added, its monitoring status changes or a
// job of it finishes, until ctx ends; then the channel closes.
func (s *AccountService) WatchAccounts(ctx context.Context, sc Scope, endUserID string) (<-chan Account, error) {
	events := s.tx.Subscribe(ctx, sc)
	out := make(chan Account)
	go func() {
		defer close(out)
		for e := range events {
			if !accountEvent(e.Name) {
				continue
			}
			var p struct {
				AccountID string `json:"account_id"`
				EndUserID string `json:"end_user_id"`
			}
			if json.Unmarshal(e.Payload, &p) != nil || p.AccountID == "" || !matches(endUserID, p.EndUserID) {
				continue
			}
			a, err := s.tx.Accounts().Account(ctx, sc, p.AccountID)
			if err != nil {
				continue
			}
			select {
			case out <- a:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}
