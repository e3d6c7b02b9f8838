package graph

import (
	"context"
	"math"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"payline/domain"
	"payline/graph/generated"
	"payline/graph/model"
)

// connectionCost is what a connection costs before it runs: 2, plus the
// page size (first or last, the larger if a query gives both, which is
// then refused) times what each of its items costs (Shopify's rule). A
// page size beyond the schema's maximum is priced at the maximum (no
// page is larger; the resolver refuses it), and the product saturates:
// gqlgen ignores a negative cost, so a wrapped product would make a
// huge query cheap.
func connectionCost(child int, first *int, last ...*int) int {
	n := 0
	for _, size := range append(last, first) {
		if size != nil && *size > n {
			n = *size
		}
	}
	if n == 0 {
		n = domain.DefaultPageLimit
	}
	return saturatingAdd(2, saturatingMul(min(n, domain.MaxPageLimit), child))
}

// saturatingMul is a*b for non-negative operands, math.MaxInt when the
// product does not fit.
func saturatingMul(a, b int) int {
	if a <= 0 || b <= 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}

// saturatingAdd is a+b for non-negative operands, math.MaxInt when the
// sum does not fit.
func saturatingAdd(a, b int) int {
	if a > math.MaxInt-b {
		return math.MaxInt
	}
	return a + b
}

// setComplexity prices every connection by its page size; every other
// field costs 1 plus its children (gqlgen's default).
func setComplexity(cfg *generated.Config) {
	c := &cfg.Complexity
	c.Query.Employers = func(child int, first *int, _ *string, last *int, _ *string, _ *time.Time) int {
		return connectionCost(child, first, last)
	}
	c.Query.Platforms = func(child int, first *int, _ *string, last *int, _ *string, _ *domain.PlatformType, _ *bool, _ *time.Time) int {
		return connectionCost(child, first, last)
	}
	c.Query.Search = func(child int, _ string, _ []domain.JobType, _ []domain.ResponseType, _ *bool, _ *domain.PlatformType, limit *int) int {
		return connectionCost(child, limit)
	}
	// nodes prices each id as a node: the ids are the fan-out.
	c.Query.Nodes = func(child int, ids []string) int { return saturatingAdd(1, saturatingMul(max(1, len(ids)), child)) }
	c.Query.EndUsers = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Query.Accounts = func(child int, _ *model.AccountFilter, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Query.Jobs = func(child int, _ *model.JobFilter, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Query.Webhooks = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Query.DocumentReviews = func(child int, _ *model.DocumentReviewFilter, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Query.OutboxMessages = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.EndUser.Accounts = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.EndUser.Documents = func(child int, _ *model.DocumentType, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Account.Jobs = func(child int, _ *model.JobFilter, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Account.Paystubs = func(child int, first *int, _ *string, last *int, _ *string, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Account.Shifts = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Account.TaxForms = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
	c.Webhook.Deliveries = func(child int, first *int, _ *string, last *int, _ *string) int {
		return connectionCost(child, first, last)
	}
}

// depthLimit refuses operations nested deeper than DepthLimit.
type depthLimit struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = depthLimit{}

func (depthLimit) ExtensionName() string                   { return "DepthLimit" }
func (depthLimit) Validate(graphql.ExecutableSchema) error { return nil }
func (depthLimit) MutateOperationContext(_ context.Context, op *graphql.OperationContext) *gqlerror.Error {
	if d := depth(op.Operation.SelectionSet, op.Doc.Fragments, 0); d > DepthLimit {
		err := gqlerror.Errorf("the operation nests %d fields deep, more than the limit of %d", d, DepthLimit)
		errcode.Set(err, domain.CodeDepthLimit)
		return err
	}
	return nil
}

func depth(set ast.SelectionSet, fragments ast.FragmentDefinitionList, seen int) int {
	if seen > DepthLimit+1 { // deep enough to refuse; also ends fragment cycles
		return seen
	}
	deepest := seen
	for _, sel := range set {
		var d int
		switch s := sel.(type) {
		case *ast.Field:
			// Introspection's meta fields nest type references deeply
			// (ofType { ofType { ... } }) but read only the schema: they
			// count as one level.
			if len(s.SelectionSet) == 0 || strings.HasPrefix(s.Name, "__") {
				d = seen + 1
			} else {
				d = depth(s.SelectionSet, fragments, seen+1)
			}
		case *ast.InlineFragment:
			d = depth(s.SelectionSet, fragments, seen)
		case *ast.FragmentSpread:
			if f := fragments.ForName(s.Name); f != nil {
				d = depth(f.SelectionSet, fragments, seen)
			}
		}
		deepest = max(deepest, d)
	}
	return deepest
}

// costReport adds extensions.cost to every response: the cost computed
// before the operation ran (requestedQueryCost), what it cost as run
// (actualQueryCost: 1 per object resolved and 2 per connection), and the
// limit, so a dashboard can see how close it runs to it; and, behind a
// rate limit, throttleStatus in Shopify's names: the caller's request
// bucket (maximumAvailable, currentlyAvailable after this operation,
// restoreRate a second), counted in requests, not cost points.
type costReport struct{}

var _ interface {
	graphql.HandlerExtension
	graphql.ResponseInterceptor
	graphql.FieldInterceptor
} = &costReport{}

type actualCostKey struct{}

func (*costReport) ExtensionName() string                   { return "CostReport" }
func (*costReport) Validate(graphql.ExecutableSchema) error { return nil }

func (*costReport) InterceptResponse(ctx context.Context, next graphql.ResponseHandler) *graphql.Response {
	actual := new(atomic.Int64)
	resp := next(context.WithValue(ctx, actualCostKey{}, actual))
	if resp == nil || !graphql.HasOperationContext(ctx) {
		return resp
	}
	stats := extension.GetComplexityStats(ctx)
	if stats == nil {
		return resp
	}
	if resp.Extensions == nil {
		resp.Extensions = map[string]any{}
	}
	cost := map[string]any{"requestedQueryCost": int64(stats.Complexity),
		"actualQueryCost": actual.Load(), "limit": int64(stats.ComplexityLimit)}
	if st, ok := rateStatus(ctx); ok {
		cost["throttleStatus"] = map[string]any{"maximumAvailable": st.Limit,
			"currentlyAvailable": st.Remaining, "restoreRate": st.PerSecond}
	}
	resp.Extensions["cost"] = cost
	return resp
}

// rateStatus reads what is left of the caller's request rate (shared
// with REST) from the transport that accepted the operation; ok is false
// when nothing limits it, or outside a server (tests of this package).
func rateStatus(ctx context.Context) (domain.RateStatus, bool) {
	read, ok := domain.RateStatusFrom(ctx)
	if !ok {
		return domain.RateStatus{}, false
	}
	return read(ctx, scope(ctx))
}

func (*costReport) InterceptField(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := next(ctx)
	actual, _ := ctx.Value(actualCostKey{}).(*atomic.Int64)
	fc := graphql.GetFieldContext(ctx)
	if actual == nil || fc == nil || fc.Field.Definition == nil || err != nil {
		return res, err
	}
	t := fc.Field.Definition.Type
	switch {
	case strings.HasSuffix(t.Name(), "Connection"):
		actual.Add(2)
	case t.Elem != nil && fc.IsResolver:
		if v := reflect.ValueOf(res); v.Kind() == reflect.Slice {
			actual.Add(int64(v.Len()))
		}
	case fc.IsResolver && !isLeaf(t.Name()):
		actual.Add(1)
	}
	return res, err
}

func isLeaf(name string) bool {
	switch name {
	case "String", "Int", "Float", "Boolean", "ID", "Time", "Date", "Decimal", "JobType", "PlatformType", "ResponseType",
		"JobOutcome", "MonitoringStatus", "WebhookStatus", "DocumentType":
		return true
	}
	return false
}
