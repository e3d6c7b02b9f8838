// Package routing sends each platform to its connector: several
// connectors (out of process, over the connector protocol, or the
// compiled-in sandbox) behind one domain.Connector, chosen by platform id
// or type. payline serve --connectors FILE builds one.
package routing

import (
	"context"
	"fmt"
	"time"

	"payline/domain"
)

// Route is one connector and the platforms it takes.
type Route struct {
	Name      string
	Connector domain.Connector
	// PlatformIDs it serves (named in the configuration, or listed in its
	// capabilities).
	PlatformIDs []string
	// PlatformTypes it serves, for platforms no route names by id.
	PlatformTypes []domain.PlatformType
}

// Router is a domain.Connector that hands each call to the connector of
// its platform: a route naming the platform's id, else one naming its
// type, else the fallback (the mode's compiled-in connector).
type Router struct {
	byID     map[string]*Route
	byType   map[domain.PlatformType]*Route
	fallback domain.Connector
	// typeOf reads a platform's type, for calls that name only its id.
	typeOf func(ctx context.Context, platformID string) (domain.PlatformType, error)
}

var _ domain.Connector = (*Router)(nil)

// New builds a router; a platform id or type claimed by two routes is an
// error naming both.
func New(routes []Route, fallback domain.Connector, typeOf func(context.Context, string) (domain.PlatformType, error)) (*Router, error) {
	r := &Router{byID: map[string]*Route{}, byType: map[domain.PlatformType]*Route{}, fallback: fallback, typeOf: typeOf}
	for i := range routes {
		rt := &routes[i]
		for _, id := range rt.PlatformIDs {
			if other, ok := r.byID[id]; ok && other != rt {
				return nil, fmt.Errorf("platform %s is claimed by connectors %q and %q", id, other.Name, rt.Name)
			}
			r.byID[id] = rt
		}
		for _, t := range rt.PlatformTypes {
			if other, ok := r.byType[t]; ok && other != rt {
				return nil, fmt.Errorf("platform type %s is claimed by connectors %q and %q", t, other.Name, rt.Name)
			}
			r.byType[t] = rt
		}
	}
	return r, nil
}

// For is the connector of a platform.
func (r *Router) For(id string, t domain.PlatformType) domain.Connector {
	if rt, ok := r.byID[id]; ok {
		return rt.Connector
	}
	if rt, ok := r.byType[t]; ok {
		return rt.Connector
	}
	return r.fallback
}

func (r *Router) forID(ctx context.Context, id string) (domain.Connector, error) {
	if rt, ok := r.byID[id]; ok {
		return rt.Connector, nil
	}
	if len(r.byType) == 0 {
		return r.fallback, nil
	}
	t, err := r.typeOf(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("route platform %s: %w", id, err)
	}
	return r.For(id, t), nil
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

// Run implements domain.Connector, by the account's platform.
func (r *Router) Run(ctx context.Context, j domain.Job, a domain.Account, started, now time.Time) (domain.JobResult, error) {
	c, err := r.forID(ctx, a.PlatformID)
	if err != nil {
		return domain.JobResult{}, err
	}
	return c.Run(ctx, j, a, started, now)
}

// Fetch implements domain.Connector, by the account's platform.
func (r *Router) Fetch(ctx context.Context, req domain.FetchRequest) (domain.Fetched, error) {
	c, err := r.forID(ctx, req.Account.PlatformID)
	if err != nil {
		return domain.Fetched{}, err
	}
	return c.Fetch(ctx, req)
}
