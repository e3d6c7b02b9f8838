package graph

import (
	"context"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"payline/domain"
)

// loaders are created per request, so a cache never outlives the request
// that filled it and never crosses tenants.
type loaders struct {
	platforms *dataloadgen.Loader[string, domain.Platform]
}

type loadersKey struct{}

func withLoaders(ctx context.Context, r *Resolver) context.Context {
	l := &loaders{
		platforms: dataloadgen.NewLoader(r.Directory.PlatformsByID, dataloadgen.WithWait(time.Millisecond)),
	}
	return context.WithValue(ctx, loadersKey{}, l)
}

func loadersFrom(ctx context.Context) *loaders {
	return ctx.Value(loadersKey{}).(*loaders)
}

// selects reports whether the query selects the given path of fields
// below the field being resolved, e.g. selects(ctx, "edges", "node",
// "platform"). Connection resolvers use it to queue a page's edges in one
// batch before the items resolve, instead of relying on a time window.
func selects(ctx context.Context, path ...string) bool {
	op := graphql.GetOperationContext(ctx)
	fields := graphql.CollectFieldsCtx(ctx, nil)
	for i, name := range path {
		var next *graphql.CollectedField
		for j := range fields {
			if fields[j].Name == name {
				next = &fields[j]
				break
			}
		}
		if next == nil {
			return false
		}
		if i < len(path)-1 {
			fields = graphql.CollectFields(op, next.Selections, nil)
		}
	}
	return true
}

// preloadPlatforms queues the platforms of a page of employers as one
// batch when the query will ask for them.
func preloadPlatforms(ctx context.Context, employers []domain.Employer) {
	if !selects(ctx, "edges", "node", "platform") {
		return
	}
	ids := make([]string, len(employers))
	for i, e := range employers {
		ids[i] = e.PlatformID
	}
	loadersFrom(ctx).platforms.LoadAllThunk(ctx, ids)
}
