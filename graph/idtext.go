package graph

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"payline/domain"
)

// idArguments applies domain.CheckIDText to every id an operation sends,
// before any resolver runs (so before anything is looked up): each
// argument, input field or list item of type ID, or named like an id
// (endUserId, trackingId), whether written in the query or passed as a
// variable. REST applies the same rule to its path values, its *_id
// query parameters and its *_id body members.
type idArguments struct{ schema *ast.Schema }

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = idArguments{}

func (idArguments) ExtensionName() string                   { return "IDArguments" }
func (idArguments) Validate(graphql.ExecutableSchema) error { return nil }

func (a idArguments) MutateOperationContext(ctx context.Context, op *graphql.OperationContext) *gqlerror.Error {
	w := idWalk{schema: a.schema, fragments: op.Doc.Fragments, vars: op.Variables, seen: map[string]bool{}}
	if err := w.selections(op.Operation.SelectionSet); err != nil {
		setStatus(ctx, http.StatusBadRequest)
		return &gqlerror.Error{Message: err.Error(), Err: err}
	}
	return nil
}

// idWalk visits each field of an operation once, fragments spread
// (validation has refused cycles), and checks the ids among its
// arguments.
type idWalk struct {
	schema    *ast.Schema
	fragments ast.FragmentDefinitionList
	vars      map[string]any
	seen      map[string]bool
}

func (w idWalk) selections(set ast.SelectionSet) error {
	for _, sel := range set {
		var err error
		switch s := sel.(type) {
		case *ast.Field:
			if err = w.arguments(s); err == nil {
				err = w.selections(s.SelectionSet)
			}
		case *ast.InlineFragment:
			err = w.selections(s.SelectionSet)
		case *ast.FragmentSpread:
			if f := w.fragments.ForName(s.Name); f != nil && !w.seen[s.Name] {
				w.seen[s.Name] = true
				err = w.selections(f.SelectionSet)
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (w idWalk) arguments(f *ast.Field) error {
	if f.Definition == nil {
		return nil
	}
	for _, arg := range f.Arguments {
		def := f.Definition.Arguments.ForName(arg.Name)
		if def == nil {
			continue
		}
		v, err := arg.Value.Value(w.vars)
		if err != nil {
			continue // not a value of its type: validation said so
		}
		if err := w.value(arg.Name, arg.Name, def.Type, v); err != nil {
			return err
		}
	}
	return nil
}

// value checks v, of type t, found at path under the given name.
func (w idWalk) value(path, name string, t *ast.Type, v any) error {
	if t.Elem != nil {
		items, ok := v.([]any)
		if !ok { // one value given where a list is expected
			return w.value(path, name, t.Elem, v)
		}
		for i, item := range items {
			if err := w.value(fmt.Sprintf("%s[%d]", path, i), name, t.Elem, item); err != nil {
				return err
			}
		}
		return nil
	}
	if def := w.schema.Types[t.NamedType]; def != nil && def.Kind == ast.InputObject {
		fields, _ := v.(map[string]any)
		for field, fv := range fields {
			if fd := def.Fields.ForName(field); fd != nil {
				if err := w.value(path+"."+field, field, fd.Type, fv); err != nil {
					return err
				}
			}
		}
		return nil
	}
	s, ok := v.(string)
	if !ok || (t.NamedType != "ID" && !strings.HasSuffix(name, "Id")) {
		return nil
	}
	return domain.CheckIDText(path, s)
}
