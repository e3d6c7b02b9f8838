package protocol

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// sandboxPage is a product of a sandbox account as the protocol's server
// writes it.
func sandboxPage(t *testing.T, product string) json.RawMessage {
	t.Helper()
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-000000000001", CustomerID: "c", EndUserID: "e", EmployerName: "Acme", CreatedAt: now}
	f, err := sandbox.Connector{}.Fetch(context.Background(), domain.FetchRequest{Account: a, Product: product, Since: now.Add(-domain.PaystubHistory), Now: now})
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := wireOf(product, f)
	data, err := json.Marshal(whole)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestValidatePageSandbox: every product the sandbox makes passes the
// document's schemas and the domain's rules.
func TestValidatePageSandbox(t *testing.T) {
	for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome,
		domain.ProductAllocations, domain.ProductPaystubs, domain.ProductTaxForms, domain.ProductShifts} {
		if ps := ValidatePage(product, sandboxPage(t, product)); len(ps) > 0 {
			t.Errorf("%s: %+v", product, ps)
		}
	}
}

// TestValidatePageNamesEveryProblem: a page of wrong shapes gets each
// missing or malformed field named, with the item and what it got.
func TestValidatePageNamesEveryProblem(t *testing.T) {
	for _, c := range []struct {
		product, data string
		want          []string // "item field problem"
	}{
		{domain.ProductIdentity, `{"name": "A B", "date_of_birth": "01/02/1990"}`,
			[]string{"-1 full_name is missing", "-1 address is missing", "-1 date_of_birth is not a date"}},
		{domain.ProductPaystubs, `[{"id": "p1", "pay_date": "2026-01-15", "gross_pay_amount": 100, "net_pay_amount": 80, "total_taxes": 10, "total_deductions": 10}]`,
			[]string{"0 currency is missing", "0 pay_period_start is missing", "0 pay_period_end is missing", "0 earnings is missing", "0 gross_pay_ytd is missing"}},
		{domain.ProductIncome, `{"compensation_amount": 100.5, "compensation_unit": "hour", "pay_frequency": "weekly"}`,
			[]string{"-1 currency is missing", "-1 compensation_unit is not one of", "-1 compensation_amount is not an integer"}},
		{domain.ProductAllocations, `[{"allocation_type": "remainder", "currency": "USD", "masked_account_number": "X1", "priority": 1, "account_type": "checking", "routing_number": "123456789"}]`,
			[]string{"0 routing_number is not nine digits with a valid ABA checksum"}},
	} {
		ps := ValidatePage(c.product, json.RawMessage(c.data))
		var got []string
		for _, p := range ps {
			got = append(got, strings.Join([]string{itoa(p.Item), p.Field, p.Problem}, " "))
		}
		for _, w := range c.want {
			if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, w) }) {
				t.Errorf("%s: no %q in %q", c.product, w, got)
			}
		}
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestSchemasMatchTheCodec: each product schema in the protocol document
// lists exactly the keys the product codec writes, so the document and
// the types cannot drift apart.
func TestSchemasMatchTheCodec(t *testing.T) {
	schemas, err := productSchemas()
	if err != nil {
		t.Fatal(err)
	}
	for product, schema := range schemas {
		var item map[string]any
		data := sandboxPage(t, product)
		if objectProduct(product) {
			_ = json.Unmarshal(data, &item)
		} else {
			var items []map[string]any
			_ = json.Unmarshal(data, &items)
			item = items[0]
		}
		var keys, props []string
		for k := range item {
			keys = append(keys, k)
		}
		for k := range schema.Properties {
			props = append(props, k)
		}
		slices.Sort(keys)
		slices.Sort(props)
		if product == domain.ProductAllocations || product == domain.ProductShifts {
			// The sandbox writes every allocation and shift key but the
			// schema may name optional ones it leaves out: check subset.
			for _, k := range keys {
				if !slices.Contains(props, k) {
					t.Errorf("%s: the codec writes %q, which the schema does not name", product, k)
				}
			}
			continue
		}
		if !slices.Equal(keys, props) {
			t.Errorf("%s: the codec writes %v, the schema names %v", product, keys, props)
		}
	}
}
