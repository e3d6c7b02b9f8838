package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	"payline/graph/generated"
)

// boundsDocuments are documents an attacker would send, and the largest
// an honest client may: each at a size where the validator's quadratic
// rules show.
func boundsDocuments() map[string]string {
	var chain, aliases, distinct strings.Builder
	// A chain of n fragments spreads n(n+1)/2 fields: 60 is within
	// MaxSelections.
	chain.WriteString("{ ...f0 }\n")
	for i := range 59 {
		fmt.Fprintf(&chain, "fragment f%d on Query { a%d: __typename ...f%d }\n", i, i, i+1)
	}
	fmt.Fprintf(&chain, "fragment f%d on Query { __typename }\n", 59)
	aliases.WriteString("{")
	for i := range MaxSelections {
		fmt.Fprintf(&aliases, " a%d: __typename", i)
	}
	aliases.WriteString(" }")
	distinct.WriteString("{")
	for i := range MaxSelections {
		fmt.Fprintf(&distinct, " unknown%d", i)
	}
	distinct.WriteString(" }")
	return map[string]string{
		"repeats-4000":            "{" + strings.Repeat(" __typename", 4000) + " }",
		"repeats-at-bound":        "{" + strings.Repeat(" __typename", MaxSameName) + " }",
		"chained-at-bound":        chain.String(),
		"distinct-at-bound":       aliases.String(),
		"unknown-fields-at-bound": distinct.String(),
		// 7x7 names merge into one set of 49; 37x50 into one of 1,850.
		"merged-children-at-bound": "{" + strings.Repeat(" employers(first: 1) { edges { node {"+strings.Repeat(" name", 7)+" } } }", 7) + " }",
		"merged-children-1850":     "{" + strings.Repeat(" employers(first: 1) { edges { node {"+strings.Repeat(" name", 50)+" } } }", 37) + " }",
	}
}

// BenchmarkValidation times what a document costs before it runs:
// "unbounded" is gqlparser's parse and validation as before the bounds,
// "bounded" is checkBounds first and validation only of what it lets
// through. Alternate them in one run:
//
//	go test ./graph -run '^$' -bench Validation -count 6 | benchstat -col /path -
func BenchmarkValidation(b *testing.B) {
	schema := generated.NewExecutableSchema(generated.Config{Resolvers: &Resolver{}}).Schema()
	docs := boundsDocuments()
	var chain strings.Builder
	chain.WriteString("{ ...f0 }\n")
	for i := range 400 {
		fmt.Fprintf(&chain, "fragment f%d on Query { __typename ...f%d }\n", i, i+1)
	}
	fmt.Fprintf(&chain, "fragment f%d on Query { __typename }\n", 400)
	docs["chained-fragments-400"] = chain.String()
	validate := func(b *testing.B, q string) {
		doc, err := parser.ParseQuery(&ast.Source{Input: q})
		if err != nil {
			b.Fatal(err)
		}
		validator.ValidateWithRules(schema, doc, rules.NewDefaultRules())
	}
	for name, q := range docs {
		for _, path := range []string{"unbounded", "bounded"} {
			b.Run(fmt.Sprintf("doc=%s/path=%s", name, path), func(b *testing.B) {
				for b.Loop() {
					if path == "bounded" && checkBounds(q) != nil {
						continue
					}
					validate(b, q)
				}
			})
		}
	}
}

// TestBoundsLetHonestDocumentsThrough: documents at each bound pass it,
// and one past it does not.
func TestBoundsLetHonestDocumentsThrough(t *testing.T) {
	docs := boundsDocuments()
	for _, name := range []string{"repeats-at-bound", "chained-at-bound", "distinct-at-bound", "unknown-fields-at-bound", "merged-children-at-bound"} {
		if err := checkBounds(docs[name]); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if checkBounds("{"+strings.Repeat(" __typename", MaxSameName+1)+" }") == nil {
		t.Error("one repeat past the bound passed")
	}
	if checkBounds(docs["repeats-4000"]) == nil {
		t.Error("4,000 repeats passed")
	}
}
