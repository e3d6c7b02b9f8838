// Package routing holds the one route table of a mode's payroll sources:
// each platform goes to a connector out of process (the connector
// protocol), an upstream relay (connectors/upstream), or the compiled-in
// sandbox, chosen by platform id or type. Several upstreams may cover one
// platform, in preference order: a new link token goes to the first
// that answers. payline serve builds the one Router from --upstream-url,
// --connector-url and --connectors; it serves as the domain.Connector
// every job runs through and, over its upstreams, as the domain.Relay.
package routing

import (
	"context"
	"fmt"
	"time"

	"payline/domain"
)

// Route is one source and the platforms it takes.
type Route struct {
	Name      string
	Connector domain.Connector
	// Upstream is set for an upstream relay (which Connector reads data
	// from too); nil for a connector.
	Upstream domain.Upstream
	// PlatformIDs it serves (named in the configuration, or listed in its
	// capabilities).
	PlatformIDs []string
	// PlatformTypes it serves, for platforms no route names by id.
	PlatformTypes []domain.PlatformType
	// All: it serves every platform no route names by id or type (an
	// upstream given alone, or without platforms).
	All bool
}

// SourceOf names the upstream that holds a relayed account ("" when the
// account is not relayed or predates named sources).
type SourceOf func(ctx context.Context, a domain.Account) (source string, relayed bool, err error)

// Router is a domain.Connector that hands each call to the source of its
// platform: the routes naming the platform's id, else those naming its
// type, else those serving every platform, in the configuration's order,
// else the fallback (the mode's compiled-in connector). A relayed
// account's jobs go to the upstream that holds it, whatever its
// platform's preferred source.
type Router struct {
	routes   []*Route
	byID     map[string][]*Route
	byType   map[domain.PlatformType][]*Route
	all      []*Route
	byName   map[string]*Route
	fallback domain.Connector
	// typeOf reads a platform's type, for calls that name only its id.
	typeOf func(ctx context.Context, platformID string) (domain.PlatformType, error)
	// sourceOf, with upstream routes, finds a relayed account's upstream.
	sourceOf SourceOf
	// syncing reports whether an upstream's directory is still syncing.
	syncing func(ctx context.Context) bool
	// failoverAfter bounds a new link token's wait on one upstream while
	// another could take it.
	failoverAfter time.Duration
}

// DefaultFailoverAfter is how long a new link token waits on an upstream
// before the next source that covers its platform is asked: an upstream
// that hangs costs an end user this, not the request timeout.
const DefaultFailoverAfter = 2 * time.Second

// Options are what a router asks of the rest of the service.
type Options struct {
	// TypeOf reads a platform's type, for calls that name only its id
	// (needed when a route takes platform types).
	TypeOf func(ctx context.Context, platformID string) (domain.PlatformType, error)
	// SourceOf finds the upstream that holds a relayed account (needed
	// when a route is an upstream).
	SourceOf SourceOf
	// Syncing reports whether any upstream's directory is still in its
	// first sync, when searches are also asked of the upstreams (never
	// when nil).
	Syncing func(ctx context.Context) bool
	// FailoverAfter bounds a new link token's wait on one upstream when a
	// later source covers its platform (DefaultFailoverAfter when zero).
	FailoverAfter time.Duration
}

var _ domain.Connector = (*Router)(nil)

// New builds a router. A platform id or type claimed by two connectors
// is an error naming both (upstreams may share platforms: their order is
// the preference).
func New(routes []Route, fallback domain.Connector, o Options) (*Router, error) {
	r := &Router{byID: map[string][]*Route{}, byType: map[domain.PlatformType][]*Route{}, byName: map[string]*Route{}, fallback: fallback,
		typeOf: o.TypeOf, sourceOf: o.SourceOf, syncing: o.Syncing, failoverAfter: o.FailoverAfter}
	if r.failoverAfter <= 0 {
		r.failoverAfter = DefaultFailoverAfter
	}
	sourceOf := o.SourceOf
	for i := range routes {
		rt := &routes[i]
		if _, ok := r.byName[rt.Name]; ok {
			return nil, fmt.Errorf("two sources are named %q", rt.Name)
		}
		if rt.Upstream != nil && sourceOf == nil {
			return nil, fmt.Errorf("upstream %q: the router needs to know which upstream holds an account", rt.Name)
		}
		r.byName[rt.Name] = rt
		r.routes = append(r.routes, rt)
		for _, id := range rt.PlatformIDs {
			if other := firstConnector(r.byID[id]); other != nil && rt.Upstream == nil {
				return nil, fmt.Errorf("platform %s is claimed by connectors %q and %q", id, other.Name, rt.Name)
			}
			r.byID[id] = append(r.byID[id], rt)
		}
		for _, t := range rt.PlatformTypes {
			if other := firstConnector(r.byType[t]); other != nil && rt.Upstream == nil {
				return nil, fmt.Errorf("platform type %s is claimed by connectors %q and %q", t, other.Name, rt.Name)
			}
			r.byType[t] = append(r.byType[t], rt)
		}
		if rt.All {
			r.all = append(r.all, rt)
		}
	}
	return r, nil
}

func firstConnector(rs []*Route) *Route {
	for _, r := range rs {
		if r.Upstream == nil {
			return r
		}
	}
	return nil
}

// candidates are the routes that serve a platform, most preferred first.
func (r *Router) candidates(id string, t domain.PlatformType) []*Route {
	if rs := r.byID[id]; len(rs) > 0 {
		return rs
	}
	if rs := r.byType[t]; len(rs) > 0 {
		return rs
	}
	return r.all
}

// For is the connector of a platform: its most preferred source's.
func (r *Router) For(id string, t domain.PlatformType) domain.Connector {
	if rs := r.candidates(id, t); len(rs) > 0 {
		return rs[0].Connector
	}
	return r.fallback
}

// platformCandidates are candidates for a platform known by id only.
func (r *Router) platformCandidates(ctx context.Context, id string) ([]*Route, error) {
	if rs := r.byID[id]; len(rs) > 0 {
		return rs, nil
	}
	if len(r.byType) == 0 {
		return r.all, nil
	}
	t, err := r.typeOf(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("route platform %s: %w", id, err)
	}
	return r.candidates(id, t), nil
}

// forAccount is the connector of an account's jobs: the upstream that
// holds a relayed account, else its platform's.
func (r *Router) forAccount(ctx context.Context, a domain.Account) (domain.Connector, error) {
	if r.sourceOf != nil {
		source, relayed, err := r.sourceOf(ctx, a)
		if err != nil {
			return nil, err
		}
		if relayed {
			if rt, ok := r.byName[source]; ok {
				return rt.Connector, nil
			}
			if source == "" && len(r.upstreams()) > 0 { // made before sources had names: the first upstream's
				return r.upstreams()[0].Connector, nil
			}
			return nil, fmt.Errorf("account %s was made at upstream %q, which is no longer configured", a.ID, source)
		}
	}
	rs, err := r.platformCandidates(ctx, a.PlatformID)
	if err != nil {
		return nil, err
	}
	if len(rs) > 0 {
		return rs[0].Connector, nil
	}
	return r.fallback, nil
}

// upstreams are the upstream routes, in order.
func (r *Router) upstreams() []*Route {
	var out []*Route
	for _, rt := range r.routes {
		if rt.Upstream != nil {
			out = append(out, rt)
		}
	}
	return out
}

// Login implements domain.Connector.
func (r *Router) Login(ctx context.Context, p domain.Platform, c domain.Credentials) (string, error) {
	return r.For(p.ID, p.Type).Login(ctx, p, c)
}

// Match implements domain.Connector: each connector is asked about its
// own candidates, in the candidates' order.
func (r *Router) Match(ctx context.Context, m domain.PlatformMatching, candidates []domain.Platform) []domain.Platform {
	var order []domain.Connector
	groups := map[domain.Connector][]domain.Platform{}
	for _, p := range candidates {
		c := r.For(p.ID, p.Type)
		if _, ok := groups[c]; !ok {
			order = append(order, c)
		}
		groups[c] = append(groups[c], p)
	}
	var out []domain.Platform
	for _, c := range order {
		out = append(out, c.Match(ctx, m, groups[c])...)
	}
	return out
}

// Run implements domain.Connector, by the account's source.
func (r *Router) Run(ctx context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	c, err := r.forAccount(ctx, a)
	if err != nil {
		return domain.JobResult{}, err
	}
	return c.Run(ctx, j, a, started, now)
}

// Fetch implements domain.Connector, by the account's source.
func (r *Router) Fetch(ctx context.Context, req domain.FetchRequest) (domain.Fetched, error) {
	c, err := r.forAccount(ctx, req.Account)
	if err != nil {
		return domain.Fetched{}, err
	}
	return c.Fetch(ctx, req)
}
