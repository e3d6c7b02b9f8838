package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"testing"

	connectorpython "payline/examples/connector-python"
)

// TestCheckWrongShapes: payline connectors check fails a connector that
// answers wrong data (examples/connector-python/testdata/wrong_shapes.py)
// and names every problem under its table, by platform, product, item and
// field; --json says the same for CI.
func TestCheckWrongShapes(t *testing.T) {
	const secret = "wrong shapes secret"
	url, _ := connectorpython.Start(t, connectorpython.WrongShapes, secret)
	var out bytes.Buffer
	err := run(context.Background(), []string{"connectors", "check", url}, &out, io.Discard, env("PAYLINE_CONNECTOR_SECRET", secret))
	if !errors.Is(err, errChecksFailed) {
		t.Fatalf("check: %v, want the check to fail\n%s", err, out.String())
	}
	for _, want := range []string{
		`(?m)^products: identity +FAIL +platform Wrongway Payroll · user user_good: \d+ problems? in 1 item over 1 page, the first: `,
		`(?m)^login: MFA asked for +pass +platform Crooked Ledger Payroll · user user_mfa: `,
		`(?m)^PROBLEMS IN THE DATA \(platform · product · item · field\)$`,
		`(?m)^  Wrongway Payroll · identity · full_name: is missing$`,
		`(?m)^  Crooked Ledger Payroll · paystubs · item 0 · currency: is missing; the same in 5 more items$`,
		`(?m)^  Crooked Ledger Payroll · income · currency: is missing$`,
		`(?m)^\d+ of \d+ scenarios passed, \d+ skipped, 6 failed$`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("check printed nothing like %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	err = run(context.Background(), []string{"connectors", "check", "--json", "--platform", connectorpython.WrongShapesPlatforms[1], url}, &out, io.Discard,
		env("PAYLINE_CONNECTOR_SECRET", secret))
	var report struct {
		Passed  bool `json:"passed"`
		Results []struct {
			Scenario string   `json:"scenario"`
			Platform string   `json:"platform"`
			State    string   `json:"state"`
			Problems []string `json:"problems"`
		} `json:"results"`
	}
	if !errors.Is(err, errChecksFailed) || json.Unmarshal(out.Bytes(), &report) != nil || report.Passed {
		t.Fatalf("check --json: %v\n%s", err, out.String())
	}
	failed := map[string][]string{}
	for _, r := range report.Results {
		if r.Platform != "" && r.Platform != "Crooked Ledger Payroll" {
			t.Errorf("--platform: %s tried %s", r.Scenario, r.Platform)
		}
		if r.State == "fail" {
			failed[r.Scenario] = r.Problems
		}
	}
	if len(failed) != 4 || len(failed["products: identity"]) == 0 || len(failed["products: paystubs"]) == 0 ||
		len(failed["products: income"]) != 1 || len(failed["products: direct_deposit_allocations"]) == 0 {
		t.Errorf("check --json failed %v\n%s", failed, out.String())
	}
}
