package connectorpython_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"payline/connectors/protocol/conformance"
	connectorpython "payline/examples/connector-python"
)

// TestWrongShapesConnector: a connector that speaks the protocol well but
// answers wrong data (testdata/wrong_shapes.py: identity as {name,
// date_of_birth}, paystubs with an id, a date and four amounts, and on
// its second platform income without a currency and an allocation with
// an eight-digit routing number) fails the conformance kit on both of its
// platforms, in its products only, each problem named by platform,
// product, item and field.
func TestWrongShapesConnector(t *testing.T) {
	base, _ := connectorpython.Start(t, connectorpython.WrongShapes, secret)
	results := conformance.Check(context.Background(), base, secret, conformance.DefaultUsers, nil)
	if conformance.AllPassed(results) {
		t.Fatal("the kit passed a connector that answers wrong shapes")
	}
	var problems []string
	tried := map[string]bool{}
	for _, r := range results {
		tried[r.PlatformID] = true
		problems = append(problems, r.Problems...)
		if r.Failed() && !strings.HasPrefix(r.Scenario, "products: ") {
			t.Errorf("%s failed, but the protocol is right: %s", r.Scenario, r.Reason)
		}
	}
	for _, id := range connectorpython.WrongShapesPlatforms {
		if !tried[id] {
			t.Errorf("platform %s was not checked", id)
		}
	}
	const wrongway, crooked = "Wrongway Payroll", "Crooked Ledger Payroll"
	want := []string{}
	for _, p := range []string{wrongway, crooked} {
		want = append(want, p+` · identity · full_name: is missing$`)
		for _, field := range []string{"currency", "pay_period_start", "pay_period_end", "earnings"} {
			want = append(want, p+` · paystubs · item 0 · `+field+`: is missing; the same in 5 more items$`)
		}
	}
	want = append(want, crooked+` · income · currency: is missing$`,
		crooked+` · direct_deposit_allocations · item \d+ · routing_number: .+ \(got "?\d{8}"?\)`)
	for _, w := range want {
		re := regexp.MustCompile("^" + w)
		if !slices.ContainsFunc(problems, re.MatchString) {
			t.Errorf("no problem matches %q", w)
		}
	}
	for _, p := range problems {
		if strings.HasPrefix(p, wrongway+" · income") || strings.HasPrefix(p, wrongway+" · direct_deposit_allocations") {
			t.Errorf("a problem in a product %s does not list: %s", wrongway, p)
		}
	}
	if t.Failed() {
		t.Logf("the problems found:\n%s", strings.Join(problems, "\n"))
	}
}
