package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"

	"payline/docs"
	"payline/domain"
)

// productSchemas are the protocol document's schema of each product's
// items (or of the object, for identity, employment and income): the one
// statement of the products' shapes that connector authors read, which
// the kit and tests check pages against.
var productSchemas = sync.OnceValues(func() (map[string]*openapi3.Schema, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(docs.ConnectorProtocol)
	if err != nil {
		return nil, fmt.Errorf("the connector protocol document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the connector protocol document: %w", err)
	}
	out := map[string]*openapi3.Schema{}
	for product, name := range map[string]string{
		domain.ProductIdentity: "Identity", domain.ProductEmployment: "Employment", domain.ProductIncome: "Income",
		domain.ProductAllocations: "Allocation", domain.ProductPaystubs: "Paystub", domain.ProductTaxForms: "TaxForm",
		domain.ProductShifts: "Shift",
	} {
		ref := doc.Components.Schemas[name]
		if ref == nil || ref.Value == nil {
			return nil, fmt.Errorf("the connector protocol document has no schema %s", name)
		}
		out[product] = ref.Value
	}
	return out, nil
})

// objectProduct says whether a product is one object (not a list).
func objectProduct(product string) bool {
	return product == domain.ProductIdentity || product == domain.ProductEmployment || product == domain.ProductIncome
}

// ValidatePage checks one page of a product as a connector sends it (the
// JSON of FetchResponse.data) against the product's schema in
// docs/connector-protocol.yaml and the domain's rules (each type's
// Validate, which ingest applies to every source), and returns every
// problem found, none when it is valid.
func ValidatePage(product string, data json.RawMessage) []domain.FieldProblem {
	schemas, err := productSchemas()
	if err != nil {
		return []domain.FieldProblem{{Item: -1, Field: product, Problem: err.Error()}}
	}
	schema := schemas[product]
	if schema == nil {
		return []domain.FieldProblem{{Item: -1, Field: product, Problem: fmt.Sprintf("is not a product of protocol v%s", Version)}}
	}
	var items []any
	if objectProduct(product) {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			return []domain.FieldProblem{{Item: -1, Field: product, Problem: "is not JSON: " + err.Error()}}
		}
		if _, ok := v.(map[string]any); !ok {
			return []domain.FieldProblem{{Item: -1, Field: product, Problem: "is not an object", Got: shortJSON(v)}}
		}
		items = []any{v}
	} else if err := json.Unmarshal(data, &items); err != nil || items == nil {
		return []domain.FieldProblem{{Item: -1, Field: product, Problem: "is not a list"}}
	}
	var out []domain.FieldProblem
	seen := map[string]bool{}
	for i, item := range items {
		n := i
		if objectProduct(product) {
			n = -1
		}
		for _, p := range schemaProblems(schema, item, n) {
			seen[fmt.Sprint(p.Item, p.Field)] = true
			out = append(out, p)
		}
	}
	var f domain.Fetched
	if err := addPage(&f, product, data); err != nil {
		return append(out, domain.FieldProblem{Item: -1, Field: product, Problem: "cannot be read: " + err.Error()})
	}
	for _, p := range f.Validate(product) {
		// The domain's problems under a field the schema found missing
		// (address.city of a missing address) say nothing new.
		parent, _, _ := strings.Cut(p.Field, ".")
		if !seen[fmt.Sprint(p.Item, p.Field)] && !seen[fmt.Sprint(p.Item, parent)] {
			seen[fmt.Sprint(p.Item, p.Field)] = true
			out = append(out, p)
		}
	}
	return out
}

var missingProperty = regexp.MustCompile(`property "([^"]+)" is missing`)

// schemaProblems validates one item and turns each schema error into a
// field problem.
func schemaProblems(schema *openapi3.Schema, item any, n int) []domain.FieldProblem {
	err := schema.VisitJSON(item, openapi3.MultiErrors())
	if err == nil {
		return nil
	}
	var out []domain.FieldProblem
	var walk func(error)
	walk = func(err error) {
		var multi openapi3.MultiError
		if errors.As(err, &multi) {
			for _, e := range multi {
				walk(e)
			}
			return
		}
		var se *openapi3.SchemaError
		if !errors.As(err, &se) {
			out = append(out, domain.FieldProblem{Item: n, Field: "", Problem: err.Error()})
			return
		}
		// A missing property's pointer ends at the property itself.
		field := fieldPath(se.JSONPointer())
		if missingProperty.MatchString(se.Reason) {
			out = append(out, domain.FieldProblem{Item: n, Field: field, Problem: "is missing"})
			return
		}
		out = append(out, domain.FieldProblem{Item: n, Field: field, Problem: reason(se), Got: shortJSON(se.Value)})
	}
	walk(err)
	return out
}

// fieldPath writes a JSON pointer as the spec's dotted path with indexes:
// ["earnings", "0", "amount"] is earnings[0].amount.
func fieldPath(ptr []string) string {
	var b strings.Builder
	for _, p := range ptr {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// reason is a schema error in the kit's words.
func reason(se *openapi3.SchemaError) string {
	switch se.SchemaField {
	case "type":
		return "is not " + article(se.Schema.Type.Slice())
	case "enum":
		return fmt.Sprintf("is not one of %v", se.Schema.Enum)
	case "pattern":
		return "does not match " + se.Schema.Pattern
	case "format":
		return "is not a " + se.Schema.Format
	case "minimum":
		return fmt.Sprintf("is less than %v", *se.Schema.Min)
	case "maximum":
		return fmt.Sprintf("is more than %v", *se.Schema.Max)
	case "minLength":
		return "is empty"
	case "nullable":
		return "is null"
	}
	return se.Reason
}

func article(types []string) string {
	if len(types) == 0 {
		return "of the right type"
	}
	t := strings.Join(types, " or ")
	if strings.ContainsAny(t[:1], "aeiou") {
		return "an " + t
	}
	return "a " + t
}

// shortJSON is a value's text, cut short: what a problem says it got (a
// string without its quotes).
func shortJSON(v any) string {
	if s, ok := v.(string); ok {
		if len(s) > 40 {
			return s[:37] + "..."
		}
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 40 {
		return string(b[:37]) + "..."
	}
	return string(b)
}
