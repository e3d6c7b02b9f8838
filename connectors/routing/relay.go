package routing

import (
	"context"
	"errors"

	"payline/domain"
)

// Relay is the domain.Relay of a router's upstreams: a new link token
// goes to the preferred source of its platform, and to the next source
// that covers it while an upstream answers UPSTREAM_UNAVAILABLE; account
// actions go to the upstream holding the account; directory lookups ask
// the upstreams in order. With no upstream it relays nothing, as
// domain.NoRelay.
type Relay struct{ r *Router }

var _ domain.Relay = Relay{}

// Relay is the router's domain.Relay.
func (r *Router) Relay() Relay { return Relay{r} }

// CreateLinkToken implements domain.Relay. The sources that cover the
// token's platform are tried in order: an upstream creates its token
// (failing over to the next source while one is unavailable); a
// connector, or no source at all, leaves the token this service's alone
// (the modal logs in here). A token naming no platform goes to the
// upstreams that serve every platform, else to the first upstream.
func (rl Relay) CreateLinkToken(ctx context.Context, req domain.LinkTokenRequest, endUser string) (domain.UpstreamToken, bool, error) {
	ups := rl.r.upstreams()
	if len(ups) == 0 {
		return domain.UpstreamToken{}, false, nil
	}
	var candidates []*Route
	if req.PlatformID == "" {
		candidates = rl.r.all
		if len(candidates) == 0 {
			candidates = ups[:1]
		}
	} else {
		var err error
		if candidates, err = rl.r.platformCandidates(ctx, req.PlatformID); err != nil {
			return domain.UpstreamToken{}, false, err
		}
	}
	var unavailable error
	for i, c := range candidates {
		if c.Upstream == nil {
			break // a connector takes it: no upstream token
		}
		t, err := rl.createAt(ctx, c, req, endUser, i+1 < len(candidates) && candidates[i+1].Upstream != nil)
		if err == nil {
			t.Source = c.Name
			return t, true, nil
		}
		if !isUnavailable(err) {
			return domain.UpstreamToken{}, false, err
		}
		unavailable = err
	}
	if unavailable != nil {
		return domain.UpstreamToken{}, false, unavailable
	}
	return domain.UpstreamToken{}, false, nil
}

// createAt asks one upstream for a link token. While another upstream
// could take the token (next), the ask is bounded by the router's
// failoverAfter: an upstream that hangs or whose budget would keep the
// end user waiting is passed over as unavailable, and the circuit its
// client keeps learns it, so the next tokens skip it at once.
func (rl Relay) createAt(ctx context.Context, c *Route, req domain.LinkTokenRequest, endUser string, next bool) (domain.UpstreamToken, error) {
	if !next {
		return c.Upstream.CreateLinkToken(ctx, req, endUser)
	}
	actx, cancel := rl.r.attempt(ctx, true)
	defer cancel()
	t, err := c.Upstream.CreateLinkToken(actx, req, endUser)
	if err != nil && ctx.Err() == nil && actx.Err() != nil && !isUnavailable(err) {
		err = domain.UpstreamUnavailable("upstream "+c.Name, rl.r.failoverAfter, err)
	}
	return t, err
}

func isUnavailable(err error) bool {
	var de *domain.Error
	return errors.As(err, &de) && de.Code == domain.CodeUpstreamUnavailable
}

// Act implements domain.Relay: at the upstream named source ("" for
// accounts made before sources had names: the first upstream).
func (rl Relay) Act(ctx context.Context, source, accountID, action string) error {
	rt, ok := rl.r.byName[source]
	if !ok && source == "" && len(rl.r.upstreams()) > 0 {
		rt, ok = rl.r.upstreams()[0], true
	}
	if !ok || rt.Upstream == nil {
		return domain.NoRelay{}.Act(ctx, source, accountID, action)
	}
	return rt.Upstream.Act(ctx, accountID, action)
}

// LinkLogin implements domain.Relay: at the upstream that holds t, when
// its Link takes a login through its API.
func (rl Relay) LinkLogin(ctx context.Context, t domain.UpstreamToken, r domain.LoginRequest) (string, string, error) {
	rt, ok := rl.r.byName[t.Source]
	if !ok && t.Source == "" && len(rl.r.upstreams()) > 0 {
		rt, ok = rl.r.upstreams()[0], true
	}
	if !ok || rt.Upstream == nil {
		return domain.NoRelay{}.LinkLogin(ctx, t, r)
	}
	ll, ok := rt.Upstream.(domain.UpstreamLinkLogin)
	if !ok {
		return "", "", domain.Errorf(domain.KindInvalid, domain.CodePlatformUnavailable,
			"upstream %s takes logins only in its own Link, which the modal opens", rt.Name)
	}
	return ll.LinkLogin(ctx, t.Token, r)
}

// SetBillNavigatorStatus implements domain.Relay: at every upstream (the
// end user may hold accounts at each); an upstream that does not know
// the end user has nothing to change.
func (rl Relay) SetBillNavigatorStatus(ctx context.Context, endUser, action, reason string) error {
	for _, rt := range rl.r.upstreams() {
		if err := rt.Upstream.SetBillNavigatorStatus(ctx, endUser, action, reason); err != nil && !errors.Is(err, domain.ErrNoRows) {
			return err
		}
	}
	return nil
}

// EmployerByEIN implements domain.DirectoryFallback.
func (rl Relay) EmployerByEIN(ctx context.Context, ein string) (domain.Employer, error) {
	return firstFound(ctx, rl.r, func(ctx context.Context, u domain.Upstream) (domain.Employer, error) {
		return u.EmployerByEIN(ctx, ein)
	})
}

// Employer implements domain.DirectoryFallback.
func (rl Relay) Employer(ctx context.Context, id string) (domain.Employer, error) {
	return firstFound(ctx, rl.r, func(ctx context.Context, u domain.Upstream) (domain.Employer, error) { return u.Employer(ctx, id) })
}

// Platform implements domain.DirectoryFallback.
func (rl Relay) Platform(ctx context.Context, id string) (domain.Platform, error) {
	return firstFound(ctx, rl.r, func(ctx context.Context, u domain.Upstream) (domain.Platform, error) { return u.Platform(ctx, id) })
}

// Search implements domain.DirectoryFallback: while an upstream's
// directory is in its first sync, the upstreams are asked in order until
// the limit is met; once every one is synced, nothing is asked. An
// upstream that fails is passed over: the directory's own answer stands.
func (rl Relay) Search(ctx context.Context, q domain.SearchQuery) ([]domain.SearchResult, error) {
	if rl.r.syncing == nil || !rl.r.syncing(ctx) {
		return nil, nil
	}
	var out []domain.SearchResult
	ups := rl.r.upstreams()
	for i, rt := range ups {
		if len(out) >= q.Limit {
			break
		}
		actx, cancel := rl.r.attempt(ctx, i+1 < len(ups))
		res, err := rt.Upstream.Search(actx, q)
		cancel()
		if err != nil {
			continue
		}
		out = append(out, res...)
	}
	return out, nil
}

// attempt is the context of one ask of an upstream: while another could
// answer (more), bounded by the failover bound, so one that hangs is
// passed over; the last is waited on as long as the caller allows.
func (r *Router) attempt(ctx context.Context, more bool) (context.Context, context.CancelFunc) {
	if !more {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, r.failoverAfter)
}

// firstFound asks each upstream in order until one has it: ErrNoRows when
// none does, an upstream's failure when no other had it either.
func firstFound[T any](ctx context.Context, r *Router, get func(context.Context, domain.Upstream) (T, error)) (T, error) {
	var zero T
	err := domain.ErrNoRows
	ups := r.upstreams()
	for i, rt := range ups {
		actx, cancel := r.attempt(ctx, i+1 < len(ups))
		v, gerr := get(actx, rt.Upstream)
		cancel()
		if gerr == nil {
			return v, nil
		}
		if !errors.Is(gerr, domain.ErrNoRows) {
			err = gerr
		}
	}
	return zero, err
}
