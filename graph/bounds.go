package graph

import (
	"context"
	"fmt"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"

	"payline/domain"
)

// Bounds of an operation's text, checked before gqlparser's validator
// runs. Validation is quadratic in fields that share a response name
// (OverlappingFieldsCanBeMerged compares them pairwise) and in chained
// fragments, so without these a 220 KB query of one repeated field kept
// a core busy for 23 s before its cost was refused. Within them the
// largest query validates in a few milliseconds (BenchmarkValidateBounds).
const (
	// MaxQueryTokens bounds the lexer's tokens; the parser stops at the
	// first token over it, so an oversized query costs a linear scan.
	MaxQueryTokens = 15_000
	// MaxSelections bounds the fields an operation selects once every
	// fragment is spread where it is used (a fragment used twice counts
	// twice): the work the validator and the executor do grows with it.
	MaxSelections = 2_000
	// MaxSameName bounds the fields of one selection set (fragments
	// spread) that share a response name, which the validator compares
	// pairwise.
	MaxSameName = 50
	// MaxFragments bounds the fragment definitions of one document.
	MaxFragments = 100
	// MaxBodyBytes bounds a GraphQL request body (and a websocket message).
	MaxBodyBytes = 256 << 10
)

// textBounds refuses documents over the bounds above before gqlgen
// parses and validates them. It parses the text itself with the token
// limit (linear), measures it, and lets gqlgen parse it again from its
// cache-checked path; the second parse is cheap next to what it guards.
type textBounds struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationParameterMutator
} = textBounds{}

func (textBounds) ExtensionName() string                   { return "TextBounds" }
func (textBounds) Validate(graphql.ExecutableSchema) error { return nil }

func (textBounds) MutateOperationParameters(_ context.Context, params *graphql.RawParams) *gqlerror.Error {
	return checkBounds(params.Query)
}

// checkBounds is nil for a document within every bound; a document that
// does not parse is left to gqlgen, which reports where.
func checkBounds(query string) *gqlerror.Error {
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, MaxQueryTokens)
	if err != nil {
		if gerr, ok := err.(*gqlerror.Error); ok && gerr.Message == fmt.Sprintf("exceeded token limit of %d", MaxQueryTokens) {
			return boundsError("the query has more than %d tokens; ask for fewer fields, or split it into several operations", MaxQueryTokens)
		}
		return nil
	}
	if len(doc.Fragments) > MaxFragments {
		return boundsError("the query defines %d fragments, more than the limit of %d", len(doc.Fragments), MaxFragments)
	}
	m := measure{fragments: doc.Fragments, sizes: map[string]int{}, visiting: map[string]bool{}}
	for _, op := range doc.Operations {
		if n := m.size(op.SelectionSet); n > MaxSelections {
			return boundsError("the query selects more than %d fields once its fragments are spread; ask for fewer fields, or split it", MaxSelections)
		}
		if name, n := m.sameName([]ast.SelectionSet{op.SelectionSet}); n > MaxSameName {
			return boundsError("the query selects %q %d times in one selection set, more than the limit of %d; give the fields distinct aliases or select it once",
				name, n, MaxSameName)
		}
	}
	return nil
}

func boundsError(format string, args ...any) *gqlerror.Error {
	err := gqlerror.Errorf(format, args...)
	errcode.Set(err, domain.CodeQueryTooLarge)
	return err
}

// measure counts selections with fragments spread, remembering each
// fragment's size so a fragment used many times is walked once. Counts
// saturate just above MaxSelections, so fragments that double at each
// level cannot overflow, and a cycle (which validation refuses later)
// counts as large.
type measure struct {
	fragments ast.FragmentDefinitionList
	sizes     map[string]int
	visiting  map[string]bool
}

const saturated = MaxSelections + 1

func (m *measure) size(set ast.SelectionSet) int {
	n := 0
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			n += 1 + m.size(s.SelectionSet)
		case *ast.InlineFragment:
			n += m.size(s.SelectionSet)
		case *ast.FragmentSpread:
			n += m.fragmentSize(s.Name)
		}
		if n >= saturated {
			return saturated
		}
	}
	return n
}

func (m *measure) fragmentSize(name string) int {
	if n, ok := m.sizes[name]; ok {
		return n
	}
	f := m.fragments.ForName(name)
	if f == nil {
		return 0 // unknown: validation says so
	}
	if m.visiting[name] {
		return saturated
	}
	m.visiting[name] = true
	n := m.size(f.SelectionSet)
	m.visiting[name] = false
	m.sizes[name] = n
	return n
}

// sameName is the response name used most often in one selection set of
// the operation, and how often. It looks at sets as the validator merges
// them: fragments spread into the set they are used in, and the
// sub-selections of fields that share a response name taken as one set
// (`a { x } a { x }` compares both x). The field count above bounds the
// walk.
func (m *measure) sameName(sets []ast.SelectionSet) (string, int) {
	counts := map[string]int{}
	children := map[string][]ast.SelectionSet{}
	for _, set := range sets {
		m.collect(set, counts, children, map[string]bool{})
	}
	best, most := "", 0
	for name, n := range counts {
		if n > most {
			best, most = name, n
		}
	}
	for _, group := range children {
		if most > MaxSameName {
			break
		}
		if name, n := m.sameName(group); n > most {
			best, most = name, n
		}
	}
	return best, most
}

func (m *measure) collect(set ast.SelectionSet, counts map[string]int, children map[string][]ast.SelectionSet, spread map[string]bool) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			name := s.Alias
			if name == "" {
				name = s.Name
			}
			counts[name]++
			if len(s.SelectionSet) > 0 {
				children[name] = append(children[name], s.SelectionSet)
			}
		case *ast.InlineFragment:
			m.collect(s.SelectionSet, counts, children, spread)
		case *ast.FragmentSpread:
			if spread[s.Name] {
				continue // spread twice into one set: the same fields, merged
			}
			spread[s.Name] = true
			if f := m.fragments.ForName(s.Name); f != nil {
				m.collect(f.SelectionSet, counts, children, spread)
			}
		}
	}
}
