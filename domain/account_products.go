package domain

import (
	"context"
	"errors"
)

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
func (s *ProductService) Product(ctx context.Context, sc Scope, accountID, product string) (StoredProduct, Account, error) {
	a, err := s.accounts.Account(ctx, sc, accountID)
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
func (s *ProductService) Paystubs(ctx context.Context, sc Scope, accountID, from string, p PageRequest) (Page[Paystub], Account, error) {
	if err := checkFromPayDate(from); err != nil {
		return Page[Paystub]{}, Account{}, err
	}
	a, err := s.accounts.Account(ctx, sc, accountID)
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
func (s *ProductService) Paystub(ctx context.Context, sc Scope, accountID, id string) (Paystub, error) {
	if _, err := s.accounts.Account(ctx, sc, accountID); err != nil {
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

// ProductsOfAccounts reads one product of many accounts.
func (s *ProductService) ProductsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, product string) (map[string]StoredProduct, error) {
	return s.tx.Data().ProductsOfAccounts(ctx, sc, accountIDs, product)
}

// PaystubsOfAccounts pages each account's paystubs, newest pay date first;
// from (YYYY-MM-DD) keeps stubs paid on or after it.
func (s *ProductService) PaystubsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, from string, p PageRequest) (map[string]Page[Paystub], error) {
	if err := checkFromPayDate(from); err != nil {
		return nil, err
	}
	return s.tx.Data().PaystubsOfAccounts(ctx, sc, accountIDs, from, p)
}

// PaystubByID returns a paystub of any of the scope's accounts. Errors:
// INVALID_FIELDS, PAYSTUB_NOT_FOUND.
func (s *ProductService) PaystubByID(ctx context.Context, sc Scope, id string) (Paystub, error) {
	if err := CheckID("paystub_id", id); err != nil {
		return Paystub{}, err
	}
	p, err := s.tx.Data().PaystubByID(ctx, sc, id)
	if errors.Is(err, ErrNoRows) {
		return Paystub{}, Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	}
	return p, err
}

// PaystubsByID loads paystubs of any of the scope's accounts for a batch
// read.
func (s *ProductService) PaystubsByID(ctx context.Context, sc Scope, ids []string) ([]Paystub, []error) {
	found, err := s.tx.Data().PaystubsByID(ctx, sc, ids)
	if err != nil {
		return failAll[Paystub](len(ids), err)
	}
	return inOrder(ids, found, func(p Paystub) string { return p.ID }, func(id string) error {
		return Errorf(KindNotFound, CodePaystubNotFound, "no paystub with id %s", id)
	})
}

// AccountRecords pages an account's tax forms or shifts. Errors:
// ACCOUNT_NOT_FOUND, PRODUCT_NOT_FOUND naming the job.
func (s *ProductService) AccountRecords(ctx context.Context, sc Scope, accountID, kind, product string, p PageRequest) (Page[Record], Account, error) {
	a, err := s.accounts.Account(ctx, sc, accountID)
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
func (s *ProductService) RecordsOfAccounts(ctx context.Context, sc Scope, accountIDs []string, kind, product string, p PageRequest) (map[string]Page[Record], error) {
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
