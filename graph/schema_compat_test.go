package graph_test

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
)

// The schema as last released, the schema as it is now (go generate
// prints it), and the changelog that must record every breaking change
// between the two.
const (
	releasedSchemaFile = "testdata/schema-released.graphql"
	currentSchemaFile  = "../docs/schema.graphql"
	changelogFile      = "../docs/graphql-changelog.md"
)

// TestSchemaChangesSinceReleaseAreRecorded fails on a change to the schema
// since the last release that breaks a client written against it
// (removed type, field, argument, input field or enum value; a changed
// type; a new required argument or input field) unless the changelog
// records it in a **Breaking** entry naming its coordinate.
func TestSchemaChangesSinceReleaseAreRecorded(t *testing.T) {
	released := loadSchemaFile(t, releasedSchemaFile)
	current := loadSchemaFile(t, currentSchemaFile)
	changelog, err := os.ReadFile(changelogFile)
	if err != nil {
		t.Fatal(err)
	}
	if missing := unrecorded(breakingChanges(released, current), string(changelog)); len(missing) > 0 {
		t.Errorf("breaking changes since the released schema (%s) that %s does not record:\n%s\n"+
			"Keep the old element (deprecate it instead), or record each under today's date as\n"+
			"  - **Breaking** `Coordinate`: what changed and what clients use instead.",
			releasedSchemaFile, changelogFile, strings.Join(missing, "\n"))
	}
}

// TestSchemaCheckFindsBreakingChanges edits in-memory copies of the
// current schema and checks what the comparison reports, and that an
// unrecorded breaking change fails while a recorded one passes.
func TestSchemaCheckFindsBreakingChanges(t *testing.T) {
	sdl, err := os.ReadFile(currentSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	current := loadSchemaSource(t, "current", string(sdl))
	cases := []struct {
		name string
		edit func(s *ast.Schema)
		want []string
	}{
		{"nothing changed", func(*ast.Schema) {}, nil},
		{"a field removed", func(s *ast.Schema) { removeField(s.Types["Account"], "connected") },
			[]string{"Account.connected: field removed"}},
		{"a type removed", func(s *ast.Schema) { delete(s.Types, "JobBill") },
			[]string{"JobBill: type removed"}},
		{"an enum value removed", func(s *ast.Schema) {
			e := s.Types["JobOutcome"]
			e.EnumValues = e.EnumValues[:len(e.EnumValues)-1]
		}, []string{"JobOutcome.error: enum value removed"}},
		{"a field's type changed", func(s *ast.Schema) {
			s.Types["Money"].Fields.ForName("amount").Type = ast.NonNullNamedType("String", nil)
		}, []string{"Money.amount: type Int! became String!"}},
		{"an output field made nullable", func(s *ast.Schema) {
			s.Types["Account"].Fields.ForName("connected").Type = ast.NamedType("Boolean", nil)
		}, []string{"Account.connected: type Boolean! became Boolean"}},
		{"an output field made non-null is safe", func(s *ast.Schema) {
			s.Types["Job"].Fields.ForName("outcome").Type = ast.NonNullNamedType("JobOutcome", nil)
		}, nil},
		{"an argument removed", func(s *ast.Schema) {
			f := s.Types["Query"].Fields.ForName("search")
			f.Arguments = f.Arguments[:len(f.Arguments)-1]
		}, []string{"Query.search(limit:): argument removed"}},
		{"a required argument added", func(s *ast.Schema) {
			f := s.Types["Query"].Fields.ForName("account")
			f.Arguments = append(f.Arguments, &ast.ArgumentDefinition{Name: "mode", Type: ast.NonNullNamedType("String", nil)})
		}, []string{"Query.account(mode:): required argument added"}},
		{"an optional argument added is safe", func(s *ast.Schema) {
			f := s.Types["Query"].Fields.ForName("account")
			f.Arguments = append(f.Arguments, &ast.ArgumentDefinition{Name: "mode", Type: ast.NamedType("String", nil)})
		}, nil},
		{"a required input field added", func(s *ast.Schema) {
			in := s.Types["JobFilter"]
			in.Fields = append(in.Fields, &ast.FieldDefinition{Name: "platformId", Type: ast.NonNullNamedType("ID", nil)})
		}, []string{"JobFilter.platformId: required input field added"}},
		{"an input field made required", func(s *ast.Schema) {
			s.Types["JobFilter"].Fields.ForName("outcome").Type = ast.NonNullNamedType("JobOutcome", nil)
		}, []string{"JobFilter.outcome: type JobOutcome became JobOutcome!"}},
		{"a field and an enum value added are safe", func(s *ast.Schema) {
			a := s.Types["Account"]
			a.Fields = append(a.Fields, &ast.FieldDefinition{Name: "nickname", Type: ast.NamedType("String", nil)})
			e := s.Types["JobOutcome"]
			e.EnumValues = append(e.EnumValues, &ast.EnumValueDefinition{Name: "cancelled"})
		}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edited := loadSchemaSource(t, "edited", string(sdl))
			c.edit(edited)
			got := breakingChanges(current, edited)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("breaking changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}

	// The deliberately removed field fails the check until the changelog
	// records it, and passes once it does.
	edited := loadSchemaSource(t, "edited", string(sdl))
	removeField(edited.Types["Account"], "connected")
	changes := breakingChanges(current, edited)
	changelog := "# GraphQL schema changelog\n\n## 2026-11-27\n\n- Added `Query.rateLimit`.\n- Deprecated `Account.connected`.\n"
	if got := unrecorded(changes, changelog); len(got) != 1 {
		t.Errorf("a removed field not recorded as breaking: unrecorded = %v, want it reported", got)
	}
	changelog += "\n## 2027-06-01\n\n- **Breaking** `Account.connected`: removed, six months after its deprecation.\n"
	if got := unrecorded(changes, changelog); len(got) != 0 {
		t.Errorf("a removed field recorded as breaking: unrecorded = %v, want none", got)
	}
}

// breakingChanges lists what a client written against old may find
// broken in current, one "Coordinate: what" line each, sorted. Additions
// (types, fields, optional arguments, enum values) are not breaking: the
// enum rule of docs/graphql.md has clients treat an unknown value as
// "other".
func breakingChanges(old, current *ast.Schema) []string {
	var out []string
	add := func(coord, what string) { out = append(out, coord+": "+what) }
	for name, was := range old.Types {
		if was.BuiltIn || strings.HasPrefix(name, "__") {
			continue
		}
		now := current.Types[name]
		switch {
		case now == nil:
			add(name, "type removed")
			continue
		case now.Kind != was.Kind:
			add(name, "kind "+string(was.Kind)+" became "+string(now.Kind))
			continue
		}
		for _, i := range was.Interfaces {
			if !slices.Contains(now.Interfaces, i) {
				add(name, "no longer implements "+i)
			}
		}
		for _, m := range was.Types {
			if !slices.Contains(now.Types, m) {
				add(name, "union member "+m+" removed")
			}
		}
		for _, v := range was.EnumValues {
			if now.EnumValues.ForName(v.Name) == nil {
				add(name+"."+v.Name, "enum value removed")
			}
		}
		input := was.Kind == ast.InputObject
		for _, f := range was.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			coord := name + "." + f.Name
			nf := now.Fields.ForName(f.Name)
			if nf == nil {
				add(coord, map[bool]string{false: "field removed", true: "input field removed"}[input])
				continue
			}
			if typeBreaks(f.Type, nf.Type, input) {
				add(coord, "type "+f.Type.String()+" became "+nf.Type.String())
			}
			for _, a := range f.Arguments {
				na := nf.Arguments.ForName(a.Name)
				switch {
				case na == nil:
					add(coord+"("+a.Name+":)", "argument removed")
				case typeBreaks(a.Type, na.Type, true):
					add(coord+"("+a.Name+":)", "type "+a.Type.String()+" became "+na.Type.String())
				}
			}
			for _, na := range nf.Arguments {
				if f.Arguments.ForName(na.Name) == nil && na.Type.NonNull && na.DefaultValue == nil {
					add(coord+"("+na.Name+":)", "required argument added")
				}
			}
		}
		if input {
			for _, nf := range now.Fields {
				if was.Fields.ForName(nf.Name) == nil && nf.Type.NonNull && nf.DefaultValue == nil {
					add(name+"."+nf.Name, "required input field added")
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// typeBreaks reports whether a field or argument's type change breaks a
// client: an output may only become non-null (clients checking for null
// survive it), an input may only become nullable (values sent before are
// still valid); anything else, such as another named type or list
// depth, breaks.
func typeBreaks(was, now *ast.Type, input bool) bool {
	if was.NonNull != now.NonNull {
		if input == was.NonNull { // input: was required, now optional; output: was nullable, now non-null
			return typeBreaks(&ast.Type{NamedType: was.NamedType, Elem: was.Elem}, &ast.Type{NamedType: now.NamedType, Elem: now.Elem}, input)
		}
		return true
	}
	if (was.Elem == nil) != (now.Elem == nil) || was.NamedType != now.NamedType {
		return true
	}
	return was.Elem != nil && typeBreaks(was.Elem, now.Elem, input)
}

// breakingEntry is a changelog line recording a breaking change; the
// coordinates it names are in backticks.
var (
	breakingEntry = regexp.MustCompile(`(?m)^\s*[-*]\s+\*\*Breaking\*\*.*$`)
	coordinate    = regexp.MustCompile("`([^`]+)`")
)

// unrecorded lists the changes whose coordinate no **Breaking** entry of
// the changelog names.
func unrecorded(changes []string, changelog string) []string {
	recorded := map[string]bool{}
	for _, line := range breakingEntry.FindAllString(changelog, -1) {
		for _, m := range coordinate.FindAllStringSubmatch(line, -1) {
			recorded[m[1]] = true
		}
	}
	var out []string
	for _, c := range changes {
		if coord, _, _ := strings.Cut(c, ": "); !recorded[coord] {
			out = append(out, c)
		}
	}
	return out
}

func loadSchemaFile(t *testing.T, path string) *ast.Schema {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return loadSchemaSource(t, path, string(b))
}

func loadSchemaSource(t *testing.T, name, sdl string) *ast.Schema {
	t.Helper()
	s, err := gqlparser.LoadSchema(&ast.Source{Name: name, Input: sdl})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

func removeField(def *ast.Definition, name string) {
	var kept ast.FieldList
	for _, f := range def.Fields {
		if f.Name != name {
			kept = append(kept, f)
		}
	}
	def.Fields = kept
}
