package graph

import (
	"errors"
	"strings"
	"unicode"

	"payline/domain"
	"payline/graph/model"
)

// userErrors splits a mutation's error into what the payload reports and
// what fails the request. The input's refusals (validation, an id that
// names nothing of the caller's, a conflict with what exists) become
// userErrors; anything else (authentication, role, limits, internal) is
// returned to be a top-level error. idField is the input field a
// not-found is about, such as "id".
func userErrors(err error, idField string) ([]*model.UserError, error) {
	if err == nil {
		return []*model.UserError{}, nil
	}
	var de *domain.Error
	if !errors.As(err, &de) {
		return nil, err
	}
	switch de.Kind {
	case domain.KindInvalid, domain.KindConflict:
	case domain.KindNotFound:
		if len(de.Fields) == 0 && idField != "" {
			return []*model.UserError{{Field: []string{"input", idField}, Message: de.Message, Code: de.Code}}, nil
		}
	default:
		return nil, err
	}
	if len(de.Problems) > 0 {
		out := make([]*model.UserError, len(de.Problems))
		for i, p := range de.Problems {
			code := domain.CodeInvalidFields
			if p.Problem == domain.ProblemRequired && de.Code == domain.CodeMissingFields {
				code = domain.CodeMissingFields
			}
			out[i] = &model.UserError{Field: inputPath(p.Field), Message: p.Field + ": " + p.Problem, Code: code}
		}
		return out, nil
	}
	if len(de.Fields) > 0 {
		out := make([]*model.UserError, len(de.Fields))
		for i, f := range de.Fields {
			out[i] = &model.UserError{Field: inputPath(f), Message: de.Message, Code: de.Code}
		}
		return out, nil
	}
	return []*model.UserError{{Message: de.Message, Code: de.Code}}, nil
}

// inputPath turns a domain field name, REST's spelling
// ("allocation.targets[0].account_number"), into the path of the GraphQL
// input field: ["input", "allocation", "targets", "0", "accountNumber"].
func inputPath(field string) []string {
	path := []string{"input"}
	for _, part := range strings.Split(field, ".") {
		name, index, indexed := strings.Cut(part, "[")
		path = append(path, camel(name))
		if indexed {
			path = append(path, strings.TrimSuffix(index, "]"))
		}
	}
	return path
}

// camel spells a snake_case name as GraphQL's camelCase.
func camel(snake string) string {
	words := strings.Split(snake, "_")
	for i := 1; i < len(words); i++ {
		if w := []rune(words[i]); len(w) > 0 {
			w[0] = unicode.ToUpper(w[0])
			words[i] = string(w)
		}
	}
	return strings.Join(words, "")
}
