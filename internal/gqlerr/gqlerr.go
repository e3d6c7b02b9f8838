// Package gqlerr is GraphQL's error shape: the one mapping from the
// domain's errors to GraphQL errors (Present, gqlgen's error presenter)
// and the one writer of a GraphQL error response outside an operation
// (Write), used by the GraphQL handler and by the REST server's refusals
// at /graphql alike. It sits below both, so neither adapter imports the
// other.
package gqlerr

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"payline/domain"
	"payline/internal/httperr"
)

// OperationTimeout is the cause of an operation's context ending at its
// deadline.
type OperationTimeout struct{ After time.Duration }

func (e OperationTimeout) Error() string { return "operation timeout after " + e.After.String() }

// Write is the one writer of a GraphQL error response outside an
// operation, for a request refused before gqlgen saw it (by the REST
// server's authentication, rate limit and admission, or by this handler's
// reading of the body): REST's status for the error (400, 401, 429, or 408
// for a body that came too slowly), the error's retry hint as Retry-After
// (unless one is set), and the body in GraphQL's error shape as
// Present makes it, which also logs a failure the caller cannot fix
// with its request id.
func Write(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	e := domain.AsError(err)
	if e.RetryAfter > 0 && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", httperr.RetryAfter(e.RetryAfter))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httperr.Status(e.Kind))
	_ = json.NewEncoder(w).Encode(map[string]any{"errors": []*gqlerror.Error{Present(r.Context(), log, err)}})
}

// Present is the one mapping from domain errors to GraphQL errors:
// extensions carry the REST error's code and type (and the fields a
// validation error is about), and errors that are not the domain's never
// show their text; they are logged with the request id, as REST logs them.
// An operation cut off by OperationTimeout says so.
func Present(ctx context.Context, log *slog.Logger, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var de *domain.Error
	if !errors.As(err, &de) {
		var existing *gqlerror.Error
		var timedOut OperationTimeout
		switch {
		case errors.As(err, &existing) && existing.Message == "introspection disabled":
			de = domain.Errorf(domain.KindForbidden, domain.CodeIntrospectionDisabled,
				"introspection is off on this server (--graphql-introspection=false); the schema is at GET /graphql/schema.graphql")
		case errors.As(err, &existing) && existing.Extensions != nil:
			return gerr // gqlgen's own validation, parse and limit errors
		case errors.As(err, &existing) && existing.Err == nil:
			// A transport's refusal of the request itself, whose text may
			// quote the body: named, never logged or echoed.
			de = domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON,
				"the request could not be read as a GraphQL request; send {\"query\": ..., \"variables\": {...}}")
		case errors.As(context.Cause(ctx), &timedOut):
			de = domain.Errorf(domain.KindUnavailable, domain.CodeOperationTimeout,
				"the operation ran longer than %s and was stopped; ask for fewer objects or smaller pages", timedOut.After)
		default:
			de = domain.AsError(err)
		}
	}
	httperr.Failed(ctx, log, de, err, slog.String("graphql_path", gerr.Path.String()))
	gerr.Message = de.Message
	gerr.Extensions = map[string]any{"code": de.Code, "type": de.Kind.Type()}
	if len(de.Fields) > 0 {
		gerr.Extensions["fields"] = de.Fields
	}
	return gerr
}
