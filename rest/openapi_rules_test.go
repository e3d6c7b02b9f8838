package rest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// walkSchemas calls fn for every object schema reachable in the document,
// with a path naming where it was found.
func walkSchemas(doc *openapi3.T, fn func(path string, s *openapi3.Schema)) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(path string, ref *openapi3.SchemaRef)
	walk = func(path string, ref *openapi3.SchemaRef) {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return
		}
		s := ref.Value
		seen[s] = true
		fn(path, s)
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			walk(path+"."+n, s.Properties[n])
		}
		walk(path+"[]", s.Items)
		for i, sub := range append(append(append(openapi3.SchemaRefs{}, s.AllOf...), s.OneOf...), s.AnyOf...) {
			walk(fmt.Sprintf("%s/%d", path, i), sub)
		}
	}
	names := make([]string, 0, len(doc.Components.Schemas))
	for n := range doc.Components.Schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		walk(n, doc.Components.Schemas[n])
	}
	for _, p := range doc.Paths.InMatchingOrder() {
		for method, op := range doc.Paths.Value(p).Operations() {
			for code, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					walk(method+" "+p+" "+code, mt.Schema)
				}
			}
		}
	}
}

// TestOpenAPINullability holds docs/openapi.yaml to the one rule of
// docs/decisions.md ("Null or absent"): a field that can be null is always
// present (required and nullable); a field that can be absent is never
// null (optional and not nullable).
func TestOpenAPINullability(t *testing.T) {
	openAPIRouter(t, "http://127.0.0.1")
	// The two exceptions, both documented there: a field that exists only
	// in some versions, and a platform field inside a result that may be an
	// employer.
	exempt := map[string]string{
		"Job.params.amount":              "present exactly in versions before 2023-11-22 (docs/versions.md)",
		"SearchResult.merchant_category": "present on every platform result, as on platforms; employer results have no platform fields",
	}
	var bad []string
	walkSchemas(specDoc, func(path string, s *openapi3.Schema) {
		for name, p := range s.Properties {
			if _, ok := exempt[path+"."+name]; ok {
				continue
			}
			if p.Value != nil && p.Value.Nullable && !slices.Contains(s.Required, name) {
				bad = append(bad, path+"."+name)
			}
		}
	})
	slices.Sort(bad)
	if len(bad) > 0 {
		t.Errorf("nullable but not required (a field that can be null must always be present):\n%s", fmt.Sprint(slices.Compact(bad)))
	}
}

// vendorDir is the copy of the vendor's OpenAPI documents in testdata
// (testdata/vendor/SOURCE.md says where they come from).
var vendorDir = filepath.Join("..", "testdata", "vendor", "openapi")

// vendorDoc loads one of the vendor's OpenAPI documents.
func vendorDoc(t *testing.T, name string) *openapi3.T {
	t.Helper()
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(filepath.Join(vendorDir, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return doc
}

// TestVendorCopyIsCurrent: the copy in testdata is byte for byte the
// team's reference folder, when that folder is beside the checkout (CI
// has it; a checkout alone runs on the copy).
func TestVendorCopyIsCurrent(t *testing.T) {
	ref := filepath.Join("..", "..", "shared", "reference", "vendor", "openapi")
	want, err := filepath.Glob(filepath.Join(ref, "*.yml"))
	if err != nil || len(want) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI clones ../shared beside the checkout, but %s holds no documents", ref)
		}
		t.Skipf("no reference folder at %s to compare the copy with", ref)
	}
	have, _ := filepath.Glob(filepath.Join(vendorDir, "*.yml"))
	if len(have) != len(want) {
		t.Errorf("testdata holds %d vendor documents, the reference folder %d", len(have), len(want))
	}
	for _, f := range want {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(vendorDir, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from the reference copy (%v): copy it again and note it in testdata/vendor/SOURCE.md", filepath.Base(f), err)
		}
	}
}

// schemaAt walks a path like "Job.params.allocation.target.name" or
// "Paystub.taxes[].amount" from a named component schema, through allOf.
func schemaAt(doc *openapi3.T, path string) (*openapi3.Schema, error) {
	parts := strings.Split(strings.ReplaceAll(path, "[]", ".[]"), ".")
	ref := doc.Components.Schemas[parts[0]]
	for i, part := range parts {
		if ref == nil || ref.Value == nil {
			return nil, fmt.Errorf("%s: no schema at %s", path, strings.Join(parts[:i], "."))
		}
		if i == 0 {
			continue
		}
		s := ref.Value
		for s.Properties == nil && s.Items == nil && len(s.AllOf) == 1 && s.AllOf[0].Value != nil {
			s = s.AllOf[0].Value
		}
		if part == "[]" {
			ref = s.Items
		} else {
			ref = s.Properties[part]
		}
	}
	if ref == nil || ref.Value == nil {
		return nil, fmt.Errorf("%s: no such field", path)
	}
	s := ref.Value
	for s.Type == nil && len(s.AllOf) == 1 && s.AllOf[0].Value != nil { // "allOf: [{type: string, enum: ...}]"
		s = s.AllOf[0].Value
	}
	return s, nil
}

// TestOpenAPIAgreesWithVendor compares docs/openapi.yaml with the vendor's
// documents for the fields the shapes issue took from them: the type and
// format of each, and every enum value Payline names is one of the
// vendor's.
func TestOpenAPIAgreesWithVendor(t *testing.T) {
	openAPIRouter(t, "http://127.0.0.1")
	ours := specDoc
	docs := map[string]*openapi3.T{}
	for _, pair := range []struct{ ours, file, vendor string }{
		{"Paystub.taxes", "income-and-employment", "PaystubObjResponse_v2022_03_02.taxes"},
		{"Paystub.taxes[].name", "income-and-employment", "PaystubObjResponse_v2022_03_02.taxes[].name"},
		{"Paystub.taxes[].amount", "income-and-employment", "PaystubObjResponse_v2022_03_02.taxes[].amount"},
		{"Paystub.deductions", "income-and-employment", "PaystubObjResponse_v2022_03_02.deductions"},
		{"Paystub.deductions[].name", "income-and-employment", "PaystubObjResponse_v2022_03_02.deductions[].name"},
		{"Paystub.deductions[].amount", "income-and-employment", "PaystubObjResponse_v2022_03_02.deductions[].amount"},
		{"Paystub.time_off", "income-and-employment", "PaystubObjResponse_v2022_03_02.time_off"},
		{"Job.error_type", "jobs", "JobObjResponse_v2023_11_22.error_type"},
		{"Job.error_code", "jobs", "JobObjResponse_v2023_11_22.error_code"},
		{"Job.params.count", "jobs", "JobObjResponse_v2023_11_22.params.count"},
		{"Job.params.from_pay_date", "jobs", "JobObjResponse_v2023_11_22.params.from_pay_date"},
		{"Job.params.to_pay_date", "jobs", "JobObjResponse_v2023_11_22.params.to_pay_date"},
		{"Job.params.sync_status", "jobs", "JobObjResponse_v2023_11_22.params.sync_status"},
		{"Job.params.year", "jobs", "JobObjResponse_v2023_11_22.params.year"},
		{"Job.params.document_type", "jobs", "JobObjResponse_v2023_11_22.params.document_type"},
		{"Job.params.action", "jobs", "JobObjResponse_v2023_11_22.params.action"},
		{"Job.params.allocation.type", "jobs", "JobObjResponse_v2023_11_22.params.allocation.type"},
		{"Job.params.allocation.target.account_type", "jobs", "JobObjResponse_v2023_11_22.params.allocation.target.account_type"},
		{"Job.params.allocation.target.last_four_account_number", "jobs", "JobObjResponse_v2023_11_22.params.allocation.target.last_four_account_number"},
		{"Shift.type", "income-and-employment", "ShiftObjResponse.type"},
		{"Shift.timezone", "income-and-employment", "ShiftObjResponse.timezone"},
		{"Shift.currency", "income-and-employment", "ShiftObjResponse.currency"},
		{"Shift.timestamps", "income-and-employment", "ShiftObjResponse.timestamps"},
		{"Shift.timestamps[].from", "income-and-employment", "ShiftObjResponse.timestamps[].from"},
		{"Shift.timestamps[].to", "income-and-employment", "ShiftObjResponse.timestamps[].to"},
		{"TaxForm.form_type", "tax-forms", "TaxFormObjResponse_v2022_06_22.form_type"},
		{"TaxForm.year", "tax-forms", "TaxFormObjResponse_v2022_06_22.year"},
		{"Payout.net_pay.amount", "earnings-stream", "EarningsStreamPayoutObjResponse_v2023_04_18.net_pay.amount"},
		{"Payout.net_pay.currency", "earnings-stream", "EarningsStreamPayoutObjResponse_v2023_04_18.net_pay.currency"},
		{"Payout.status", "earnings-stream", "EarningsStreamPayoutObjResponse_v2023_04_18.status"},
	} {
		if docs[pair.file] == nil {
			docs[pair.file] = vendorDoc(t, "pinwheel-"+pair.file+"-api-openapi.yml")
		}
		o, err := schemaAt(ours, pair.ours)
		if err != nil {
			t.Errorf("docs/openapi.yaml: %v", err)
			continue
		}
		v, err := schemaAt(docs[pair.file], pair.vendor)
		if err != nil {
			t.Errorf("vendor %s: %v", pair.file, err)
			continue
		}
		if fmt.Sprint(o.Type.Slice()) != fmt.Sprint(v.Type.Slice()) || o.Format != v.Format {
			t.Errorf("%s is %v/%q, the vendor's %s is %v/%q", pair.ours, o.Type.Slice(), o.Format, pair.vendor, v.Type.Slice(), v.Format)
		}
		for _, e := range o.Enum {
			if len(v.Enum) > 0 && !slices.Contains(v.Enum, e) {
				t.Errorf("%s names %v, which the vendor's %s does not (%v)", pair.ours, e, pair.vendor, v.Enum)
			}
		}
	}
}
