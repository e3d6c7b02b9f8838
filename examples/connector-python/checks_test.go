package connectorpython_test

// Checks of what the Python connector answered: paystubs that add up,
// integer cents, and the protocol's contract.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"payline/connectors/protocol"
	"payline/domain"
)

func asJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// countFetches is how many fetches of a product the recorder saw.
func countFetches(rec *recorder, product string) int {
	n := 0
	for _, ex := range rec.all() {
		var req struct {
			Product string `json:"product"`
		}
		if ex.path == protocol.PathFetch && json.Unmarshal(ex.body, &req) == nil && req.Product == product {
			n++
		}
	}
	return n
}

// checkPaystubs: every stub is the account's, in the window, in order,
// its lines add up to its totals, and YTDs accumulate per calendar year
// (from the year's first pay date, which may precede the window).
func checkPaystubs(t *testing.T, frequency string, a domain.Account, stubs []domain.Paystub, since time.Time, inc *domain.Income) {
	t.Helper()
	step := map[string]int{"weekly": 7, "bi-weekly": 14}[frequency]
	ids := map[string]bool{}
	var prev domain.Paystub
	for i, s := range stubs {
		where := fmt.Sprintf("%s stub %s", frequency, s.PayDate)
		pay := s.PayDateTime()
		if s.ID == "" || ids[s.ID] || s.AccountID != a.ID || s.Currency != "USD" || s.EmployerName != a.EmployerName || s.ExternalPaystubID == "" {
			t.Fatalf("%s: %+v", where, s)
		}
		ids[s.ID] = true
		if pay.Before(since.Truncate(24*time.Hour)) || pay.After(now) {
			t.Fatalf("%s: outside [%s, %s]", where, since.Format(time.DateOnly), now.Format(time.DateOnly))
		}
		if i > 0 && pay.Sub(prev.PayDateTime()) != time.Duration(step)*24*time.Hour {
			t.Fatalf("%s: %s after the stub before, want every %d days", where, pay.Sub(prev.PayDateTime()), step)
		}
		if start, end := s.PayPeriodStart, s.PayPeriodEnd; start > end || end > s.PayDate {
			t.Fatalf("%s: period %s to %s", where, start, end)
		}
		var earnings, taxes, deductions int64
		for _, e := range s.Earnings {
			earnings += e.Amount.Amount
			if e.Rate != nil && e.Hours != nil && e.Amount.Amount != int64(*e.Hours)*e.Rate.Amount {
				t.Fatalf("%s: %s is %v hours at %d but %d", where, e.Name, *e.Hours, e.Rate.Amount, e.Amount.Amount)
			}
		}
		for _, x := range s.Taxes {
			taxes += x.Amount.Amount
		}
		for _, x := range s.Deductions {
			deductions += x.Amount.Amount
		}
		if earnings != s.GrossPayAmount.Amount || taxes != s.TotalTaxes.Amount || deductions != s.TotalDeductions.Amount ||
			s.NetPayAmount.Amount != s.GrossPayAmount.Amount-s.TotalTaxes.Amount-s.TotalDeductions.Amount || s.CheckAmount.Amount != s.NetPayAmount.Amount+s.TotalReimbursements.Amount ||
			s.NetPayAmount.Amount <= 0 {
			t.Fatalf("%s: the lines do not add up: %+v", where, s)
		}
		if inc.CompensationUnit == "hourly" && s.Earnings[0].Rate != nil && s.Earnings[0].Rate.Amount != inc.CompensationAmount.Amount {
			t.Fatalf("%s: paid at %d an hour, income says %d", where, s.Earnings[0].Rate.Amount, inc.CompensationAmount.Amount)
		}
		switch {
		case i > 0 && prev.PayDateTime().Year() == pay.Year():
			if s.GrossPayYTD.Amount != prev.GrossPayYTD.Amount+s.GrossPayAmount.Amount || s.NetPayYTD.Amount != prev.NetPayYTD.Amount+s.NetPayAmount.Amount {
				t.Fatalf("%s: YTD %d/%d after %d/%d plus %d/%d", where, s.GrossPayYTD.Amount, s.NetPayYTD.Amount, prev.GrossPayYTD.Amount, prev.NetPayYTD.Amount,
					s.GrossPayAmount.Amount, s.NetPayAmount.Amount)
			}
		case pay.YearDay() <= step:
			// The year's first pay date: YTD starts over.
			if s.GrossPayYTD.Amount != s.GrossPayAmount.Amount || s.NetPayYTD.Amount != s.NetPayAmount.Amount {
				t.Fatalf("%s: the year's first stub has YTD %d/%d, want its own %d/%d", where, s.GrossPayYTD.Amount, s.NetPayYTD.Amount, s.GrossPayAmount.Amount, s.NetPayAmount.Amount)
			}
		default:
			// The window starts mid-year: the YTD counts the year's
			// earlier stubs too.
			if s.GrossPayYTD.Amount <= s.GrossPayAmount.Amount || s.NetPayYTD.Amount <= s.NetPayAmount.Amount {
				t.Fatalf("%s: the window's first stub, mid-year, has YTD %d/%d", where, s.GrossPayYTD.Amount, s.NetPayYTD.Amount)
			}
		}
		prev = s
	}
}

// moneyKeys are the fields that hold amounts (cents) in the products.
var moneyKeys = map[string]bool{
	"amount": true, "rate": true, "gross_pay_amount": true, "gross_pay_ytd": true, "net_pay_amount": true, "net_pay_ytd": true,
	"check_amount": true, "total_taxes": true, "total_deductions": true, "total_reimbursements": true, "compensation_amount": true,
}

// checkIntegerCents: every amount the connector sent is an integer
// literal (cents), read from the wire, not after Go decoded it.
func checkIntegerCents(t *testing.T, exchanges []exchange) {
	t.Helper()
	checked := 0
	var walk func(where string, v any)
	walk = func(where string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if n, ok := x.(json.Number); ok && moneyKeys[k] {
					checked++
					if _, err := strconv.ParseInt(n.String(), 10, 64); err != nil {
						t.Errorf("%s.%s = %s: not integer cents", where, k, n)
					}
				}
				walk(where+"."+k, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", where, i), x)
			}
		}
	}
	for _, ex := range exchanges {
		if ex.path != protocol.PathFetch || ex.status != 200 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(ex.respBody))
		dec.UseNumber()
		var body map[string]any
		if err := dec.Decode(&body); err != nil {
			t.Fatalf("a fetch answer: %v", err)
		}
		walk("data", body["data"])
	}
	if checked < 1000 {
		t.Errorf("only %d amounts checked", checked)
	}
}

// checkContract validates every recorded request and answer against
// docs/connector-protocol.yaml, and that the test covered every operation
// and every refusal status the document gives.
func checkContract(t *testing.T, base string, exchanges []exchange) {
	t.Helper()
	ctx := context.Background()
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join("..", "..", "docs", "connector-protocol.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(ctx); err != nil {
		t.Fatalf("docs/connector-protocol.yaml is not a valid OpenAPI document: %v", err)
	}
	doc.Servers = openapi3.Servers{{URL: base}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, ex := range exchanges {
		req, err := http.NewRequest(ex.method, base+ex.path, bytes.NewReader(ex.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = ex.header.Clone()
		onPurpose := ex.header.Get(invalidOnPurpose) != ""
		route, params, err := router.FindRoute(req)
		if err != nil {
			if !onPurpose {
				t.Errorf("%s %s: no such operation in the document: %v", ex.method, ex.path, err)
			}
			continue
		}
		seen[route.Operation.OperationID] = true
		seen[fmt.Sprint(ex.status)] = true
		opts := &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
		if !onPurpose {
			if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
				t.Errorf("%s %s: Payline's request does not match the document: %v\n%.500s", ex.method, ex.path, err, ex.body)
			}
		}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status, Header: ex.respHeader,
			Body: io.NopCloser(bytes.NewReader(ex.respBody)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
		if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
			t.Errorf("%s %s %d: the connector's answer does not match the document: %v\n%.500s", ex.method, ex.path, ex.status, err, ex.respBody)
		}
	}
	t.Logf("%d exchanges validated against docs/connector-protocol.yaml", len(exchanges))
	for _, want := range []string{"capabilities", "login", "match", "runJob", "fetchProduct", "200", "400", "401", "422", "503"} {
		if !seen[want] {
			t.Errorf("no exchange covered %s", want)
		}
	}
}
