package domain

import (
	"context"
	"strconv"
	"time"
)

// Single-object data products, stored per account.
const (
	ProductIdentity    = "identity"
	ProductEmployment  = "employment"
	ProductIncome      = "income"
	ProductAllocations = "direct_deposit_allocations"
	ProductPaystubs    = "paystubs"
)

// DepositAllocation is one line of an account's direct deposit split.
type DepositAllocation struct {
	AccountName         string   `json:"account_name"`
	AccountType         string   `json:"account_type"`
	AllocationType      string   `json:"allocation_type"`
	Amount              *Money   `json:"amount"`
	Percentage          *float64 `json:"percentage"`
	BankName            *string  `json:"bank_name"`
	Currency            string   `json:"currency"`
	MaskedAccountNumber string   `json:"masked_account_number"`
	Priority            int      `json:"priority"`
	RoutingNumber       string   `json:"routing_number"`
}

// SwitchTarget is the bank account a switch sent pay to, kept with the
// job (never rendered in it) so allocations can show it masked.
type SwitchTarget struct {
	Name          string
	Type          string
	LastFour      string
	RoutingNumber string
}

// StoredProduct is a single-object product as stored.
type StoredProduct struct {
	ID        string
	CreatedAt time.Time
	UpdatedAt time.Time
	ProductData
}

// ProductData is one single-object product: the field its product names
// is set (identity, employment, income or direct_deposit_allocations).
// Origin, when its source keeps the record too (an upstream relayed to),
// is the source's id and times for it, which the record keeps so the
// relay answers as its upstream does (issue 47); it is not the product's
// data.
type ProductData struct {
	Identity    *Identity
	Employment  *Employment
	Income      *Income
	Allocations *Allocations
	Origin      RecordOrigin
}

// RecordOrigin is what a source said of a record it keeps: its id, when
// it was created and last changed there, and when the source last read it
// from the platform; each empty where the source said nothing.
type RecordOrigin struct {
	ID                                string
	CreatedAt, UpdatedAt, RefreshedAt time.Time
}

// Of is the object d holds for product (a *Identity, *Employment, *Income
// or *Allocations), nil when it holds none; ok is false when product names
// no single-object product.
func (d ProductData) Of(product string) (v any, ok bool) {
	switch product {
	case ProductIdentity:
		return orNil(d.Identity), true
	case ProductEmployment:
		return orNil(d.Employment), true
	case ProductIncome:
		return orNil(d.Income), true
	case ProductAllocations:
		return orNil(d.Allocations), true
	}
	return nil, false
}

// NewProductData is a ProductData holding a new, zero object of product,
// and that object (to decode into); ok is false when product names no
// single-object product.
func NewProductData(product string) (d ProductData, into any, ok bool) {
	switch product {
	case ProductIdentity:
		d.Identity = new(Identity)
	case ProductEmployment:
		d.Employment = new(Employment)
	case ProductIncome:
		d.Income = new(Income)
	case ProductAllocations:
		d.Allocations = new(Allocations)
	default:
		return d, nil, false
	}
	into, _ = d.Of(product)
	return d, into, true
}

// orNil is p as an interface, nil (not a typed nil) when p is.
func orNil[T any](p *T) any {
	if p == nil {
		return nil
	}
	return p
}

// Allocations is the direct_deposit_allocations product.
type Allocations struct {
	Allocations []DepositAllocation `json:"allocations"`
}

// ListPaystubs is the cursor list name of paystubs.
const ListPaystubs = "paystubs"

// DataStore holds the data products of accounts.
type DataStore interface {
	// PutProduct stores a product, keeping its id and created_at when it
	// exists and returning whether its body changed.
	PutProduct(ctx context.Context, s Scope, accountID, product string, data ProductData, now time.Time) (bool, error)
	// Product returns ErrNoRows when the product was never produced.
	Product(ctx context.Context, s Scope, accountID, product string) (StoredProduct, error)
	// PutPaystubs stores stubs whose ids are new and returns how many.
	PutPaystubs(ctx context.Context, s Scope, accountID string, stubs []Paystub) (int, error)
	// FindPaystubs pages stubs by pay date, newest first; from limits to
	// stubs paid on or after it.
	FindPaystubs(ctx context.Context, s Scope, accountID, from string, p PageRequest) (Page[Paystub], error)
	// Paystub returns ErrNoRows when the account has no such stub.
	Paystub(ctx context.Context, s Scope, accountID, id string) (Paystub, error)
	// LatestPayDate is the newest stored pay date, "" when none.
	LatestPayDate(ctx context.Context, s Scope, accountID string) (Date, error)
	// ProductsOfAccounts reads one product of many accounts in one query,
	// by account id; accounts without it are left out.
	ProductsOfAccounts(ctx context.Context, s Scope, accountIDs []string, product string) (map[string]StoredProduct, error)
	// PaystubsOfAccounts pages FindPaystubs per account, in one query.
	PaystubsOfAccounts(ctx context.Context, s Scope, accountIDs []string, from string, p PageRequest) (map[string]Page[Paystub], error)
	// PaystubByID finds a paystub of any of the scope's accounts; ErrNoRows
	// if none.
	PaystubByID(ctx context.Context, s Scope, id string) (Paystub, error)
	// PaystubsByID finds paystubs of any of the scope's accounts in one
	// query, in no particular order; unknown ids are left out.
	PaystubsByID(ctx context.Context, s Scope, ids []string) ([]Paystub, error)
}

// FetchRequest asks a connector for one product of an account.
type FetchRequest struct {
	Account  Account
	Product  string
	Switches []Job // the account's successful switches, oldest first
	Since    time.Time
	Now      time.Time
}

// Fetched is a product read from a payroll platform.
type Fetched struct {
	// Origin is the source's id and times of the single-object product
	// fetched (identity, employment, income, allocations), when it keeps
	// them.
	Origin      RecordOrigin
	Identity    *Identity
	Employment  *Employment
	Income      *Income
	Allocations []DepositAllocation
	Paystubs    []Paystub
	W2s         []DatedW2
	Shifts      []DatedShift
	// switches is how many switches the allocations were computed from.
	switches int
}

// readParams says what a read job fetched, nil for a job that reads no
// product of its own (a switch refreshes allocations but reports its
// allocation instead).
func readParams(j JobType, f Fetched) *ReadParams {
	r := &ReadParams{SyncStatus: "complete"}
	switch j {
	case JobIdentity:
		r.Count = btoi(f.Identity != nil)
	case JobEmployment:
		r.Count = btoi(f.Employment != nil)
	case JobIncome:
		r.Count = btoi(f.Income != nil)
	case JobDirectDepositAllocations:
		r.Count = len(f.Allocations)
	case JobShifts:
		r.Count = len(f.Shifts)
	case JobPaystubs:
		r.Count = len(f.Paystubs)
		for _, p := range f.Paystubs {
			if d := p.PayDate.String(); r.FromPayDate == "" || d < r.FromPayDate {
				r.FromPayDate = d
			}
			r.ToPayDate = max(r.ToPayDate, p.PayDate.String())
		}
	case JobTaxForms:
		r.Count, r.DocumentType = len(f.W2s), "W-2"
		for _, w := range f.W2s {
			if y, err := strconv.Atoi(w.TaxYear); err == nil {
				r.Year = max(r.Year, y)
			}
		}
	default:
		return nil
	}
	return r
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ProductOf is the data product a job produces ("" for jobs that produce
// none, like bill switches), and which product a switch refreshes.
func ProductOf(j JobType) string {
	switch j {
	case JobIdentity:
		return ProductIdentity
	case JobEmployment:
		return ProductEmployment
	case JobIncome:
		return ProductIncome
	case JobPaystubs:
		return ProductPaystubs
	case JobDirectDepositAllocations, JobDirectDepositSwitch:
		return ProductAllocations
	case JobTaxForms:
		return ProductTaxForms
	case JobShifts:
		return ProductShifts
	}
	return ""
}

// PaystubHistory is how far back a paystubs job reads.
const PaystubHistory = 2 * 365 * 24 * time.Hour
