package graph

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"payline/domain"
	"payline/graph/generated"
)

// ComplexityLimit bounds what one query may ask for: every field costs 1
// and a list field costs its page size times its children.
const ComplexityLimit = 5000

// NewHandler serves POST (and GET) GraphQL requests. Authentication is the
// caller's: the REST server mounts this behind the same API-secret check.
func NewHandler(r *Resolver) http.Handler {
	cfg := generated.Config{Resolvers: r}
	listCost := func(childComplexity int, first *int) int {
		n := 25
		if first != nil && *first > 0 {
			n = *first
		}
		return 1 + n*childComplexity
	}
	cfg.Complexity.Query.Employers = func(child int, first *int, _ *string, _ *time.Time) int {
		return listCost(child, first)
	}
	cfg.Complexity.Query.Platforms = func(child int, first *int, _ *string, _ *domain.PlatformType, _ *bool, _ *time.Time) int {
		return listCost(child, first)
	}
	cfg.Complexity.Query.Search = func(child int, _ string, _ []domain.JobType, _ []domain.ResponseType, _ *bool, _ *domain.PlatformType, limit *int) int {
		return listCost(child, limit)
	}
	srv := handler.New(generated.NewExecutableSchema(cfg))
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.Use(extension.AutomaticPersistedQuery{Cache: lru.New[string](1000)})
	srv.Use(extension.FixedComplexityLimit(ComplexityLimit))
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, p any) error {
		return &domain.Error{Kind: domain.KindInternal, Code: domain.CodeUnknown, Message: "an unknown error occurred; retry later"}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		srv.ServeHTTP(w, req.WithContext(withLoaders(req.Context(), r)))
	})
}

// presentError is the one mapping from domain errors to GraphQL errors:
// extensions carry the REST error's code and type, and errors that are
// not the domain's never show their text.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gerr := graphql.DefaultErrorPresenter(ctx, err)
	var de *domain.Error
	if !errors.As(err, &de) {
		var existing *gqlerror.Error
		if errors.As(err, &existing) && existing.Extensions != nil {
			return gerr // gqlgen's own validation and parse errors
		}
		de = domain.AsError(err)
	}
	gerr.Message = de.Message
	gerr.Extensions = map[string]any{"code": de.Code, "type": errorType(de.Kind)}
	return gerr
}

// errorType names the spec's error type of a kind, as REST does.
func errorType(k domain.ErrorKind) string {
	switch k {
	case domain.KindInvalid, domain.KindConflict:
		return "INVALID_REQUEST_PARAMETERS"
	case domain.KindNotFound:
		return "RECORD_NOT_FOUND"
	case domain.KindUnauthorized, domain.KindForbidden:
		return "UNAUTHORIZED_REQUEST"
	case domain.KindRateLimited:
		return "RATE_LIMIT_EXCEEDED"
	}
	return "UNKNOWN_ERROR"
}
