package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

var update = flag.Bool("update", false, "rewrite testdata/people.golden.json")

// goldenPeople are fixed accounts whose synthetic data the golden file
// holds: an hourly and a salaried worker, a terminated one and one paid
// weekly, as the product codec writes them (the shape the store, the
// protocol, the upstream and REST share).
var goldenPeople = []domain.Account{
	{ID: "0195f0a0-0000-7000-8000-000000000001", CustomerID: "cus_golden", EndUserID: "golden-1", EmployerName: "Abernathy Bakery"},
	{ID: "0195f0a0-0000-7000-8000-000000000002", CustomerID: "cus_golden", EndUserID: "golden-2", EmployerName: "Beacon Freight"},
	{ID: "0195f0a0-0000-7000-8000-000000000003", CustomerID: "cus_golden", EndUserID: "golden-3", EmployerName: "Cobalt Clinics"},
	{ID: "0195f0a0-0000-7000-8000-000000000007", CustomerID: "cus_golden", EndUserID: "golden-7", EmployerName: "Delta Diner"},
}

var goldenNow = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

// TestGoldenPeople pins the JSON of every product of the golden people:
// a change to a product type or its codec that changes a byte shows here.
func TestGoldenPeople(t *testing.T) {
	var c sandbox.Connector
	out := map[string]map[string]any{}
	for _, a := range goldenPeople {
		a.CreatedAt = goldenNow.AddDate(0, -1, 0)
		person := map[string]any{}
		for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome,
			domain.ProductAllocations, domain.ProductPaystubs, domain.ProductTaxForms, domain.ProductShifts} {
			f, err := c.Fetch(context.Background(), domain.FetchRequest{Account: a, Product: product,
				Since: goldenNow.Add(-domain.PaystubHistory), Now: goldenNow})
			if err != nil {
				t.Fatal(err)
			}
			switch product {
			case domain.ProductIdentity:
				person[product] = f.Identity
			case domain.ProductEmployment:
				person[product] = f.Employment
			case domain.ProductIncome:
				person[product] = f.Income
			case domain.ProductAllocations:
				person[product] = f.Allocations
			case domain.ProductPaystubs:
				for i := range f.Paystubs {
					f.Paystubs[i].CreatedAt = goldenNow
				}
				person[product] = f.Paystubs
			case domain.ProductTaxForms:
				forms := []map[string]any{}
				for _, w := range f.W2s {
					forms = append(forms, map[string]any{"id": w.TaxFormID, "document_id": w.DocumentID, "parsed_data": w.W2})
				}
				person[product] = forms
			case domain.ProductShifts:
				person[product] = f.Shifts
			}
		}
		out[a.ID] = person
	}
	got, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/people.golden.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		os.WriteFile(t.TempDir()+"/got.json", got, 0o644)
		t.Errorf("the golden people's products changed: run go test ./domain/sandbox -run TestGoldenPeople -update and explain the diff in the commit")
	}
}
