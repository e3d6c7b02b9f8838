package graph_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"payline/graph"
	"payline/graph/generated"
)

// TestEverySchemaElementDescribed fails on any type, field, argument,
// input field or enum value of the schema that has no description, naming
// each, so that nothing new lands undocumented in GraphiQL's docs and in
// what introspection tells code generators.
func TestEverySchemaElementDescribed(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{Resolvers: &graph.Resolver{}}).Schema()
	missing := undescribed(schema)
	if len(missing) > 0 {
		t.Errorf("%d schema elements have no description:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestUndescribedFindsAnUndescribedField proves the walk reports what it
// should: a type, field, argument, input field and enum value without a
// description, and nothing that has one.
func TestUndescribedFindsAnUndescribedField(t *testing.T) {
	schema, err := gqlparser.LoadSchema(&ast.Source{Name: "t.graphqls", Input: `
"Described."
type Query {
  "Described."
  a("Described." x: Int, y: Int): Int
  b: Int
}
type Bare { "Described." c: Int }
"Described."
input In { "Described." d: Int, e: Int }
"Described."
enum E { "Described." ON, OFF }
`})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(undescribed(schema), ",")
	if want := "Bare,E.OFF,In.e,Query.a(y:),Query.b"; got != want {
		t.Errorf("undescribed = %s, want %s", got, want)
	}
}

// undescribed names every element of the schema's own (not built-in)
// types that has no description, sorted.
func undescribed(schema *ast.Schema) []string {
	var missing []string
	note := func(desc, name string) {
		if strings.TrimSpace(desc) == "" {
			missing = append(missing, name)
		}
	}
	for name, def := range schema.Types {
		if def.BuiltIn || strings.HasPrefix(name, "__") {
			continue
		}
		note(def.Description, name)
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			note(f.Description, name+"."+f.Name)
			for _, a := range f.Arguments {
				note(a.Description, name+"."+f.Name+"("+a.Name+":)")
			}
		}
		for _, v := range def.EnumValues {
			note(v.Description, name+"."+v.Name)
		}
	}
	sort.Strings(missing)
	return missing
}
