package rest

import (
	"fmt"
	"slices"
	"sort"
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
