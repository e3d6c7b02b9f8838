package domain

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Relay is what a mode's upstreams do for the use cases beyond ingest:
// create the upstream's link token, take account and end user actions,
// and answer directory lookups the directory cannot. connectors/routing
// implements it over every upstream a mode relays to (in preference
// order, with failover); NoRelay is the mode without one. The domain
// never asks which it has.
type Relay interface {
	DirectoryFallback
	// CreateLinkToken creates the upstream's token for a link token with
	// the request's jobs and platform, at the preferred upstream that
	// covers the platform, or the next one when it is unavailable.
	// relayed is false when no upstream takes the platform (a connector
	// or the compiled-in sandbox does): the token is this service's
	// alone. Errors: UPSTREAM_UNAVAILABLE when every upstream that covers
	// it is away, and the upstream's refusal.
	CreateLinkToken(ctx context.Context, r LinkTokenRequest, endUser string) (t UpstreamToken, relayed bool, err error)
	// Act relays an account action (ActionDisconnect,
	// ActionDisableMonitoring) to the upstream named source, which holds
	// the account.
	Act(ctx context.Context, source, accountID, action string) error
	// SetBillNavigatorStatus relays a bill navigator action for the
	// upstream end user to every upstream.
	SetBillNavigatorStatus(ctx context.Context, endUser, action, reason string) error
	// LinkLogin logs in at the upstream holding t, with t, for a custom
	// Link UI (UpstreamLinkLogin): the upstream's account and platform.
	// Errors: PLATFORM_UNAVAILABLE where the upstream takes no login
	// through its API, and the upstream's own.
	LinkLogin(ctx context.Context, t UpstreamToken, r LoginRequest) (accountID, platformID string, err error)
}

// DirectoryFallback looks an employer up elsewhere, by EIN or by id, and
// a platform by id: the upstreams of a relayed mode, whose employers
// carry no EIN and whose directory may not be synced yet. ErrNoRows when
// none has it.
type DirectoryFallback interface {
	EmployerByEIN(ctx context.Context, ein string) (Employer, error)
	Employer(ctx context.Context, id string) (Employer, error)
	Platform(ctx context.Context, id string) (Platform, error)
	// Search answers a search the directory may not answer in full yet
	// (its first sync under way): nothing once every upstream's directory
	// is synced, or when none answers.
	Search(ctx context.Context, q SearchQuery) ([]SearchResult, error)
}

// NoRelay is the Relay of a mode without an upstream: tokens are this
// service's alone, actions take effect here only, and the directory has
// nothing to fall back on.
type NoRelay struct{}

var _ Relay = NoRelay{}

// CreateLinkToken implements Relay: nothing is relayed.
func (NoRelay) CreateLinkToken(context.Context, LinkTokenRequest, string) (UpstreamToken, bool, error) {
	return UpstreamToken{}, false, nil
}

// Act implements Relay: no upstream holds an account.
func (NoRelay) Act(_ context.Context, source, _, _ string) error {
	return fmt.Errorf("no upstream %q to relay to", source)
}

// LinkLogin implements Relay: no upstream to log in at.
func (NoRelay) LinkLogin(context.Context, UpstreamToken, LoginRequest) (string, string, error) {
	return "", "", Errorf(KindInvalid, CodePlatformUnavailable, "this server relays to no upstream")
}

// SetBillNavigatorStatus implements Relay: nothing to relay.
func (NoRelay) SetBillNavigatorStatus(context.Context, string, string, string) error { return nil }

// EmployerByEIN implements DirectoryFallback.
func (NoRelay) EmployerByEIN(context.Context, string) (Employer, error) { return Employer{}, ErrNoRows }

// Employer implements DirectoryFallback.
func (NoRelay) Employer(context.Context, string) (Employer, error) { return Employer{}, ErrNoRows }

// Platform implements DirectoryFallback.
func (NoRelay) Platform(context.Context, string) (Platform, error) { return Platform{}, ErrNoRows }

// Search implements DirectoryFallback: nothing beyond the directory.
func (NoRelay) Search(context.Context, SearchQuery) ([]SearchResult, error) { return nil, nil }

// Relays are the relay use cases of every upstream a mode relays to, in
// preference order; empty in a mode without one. The upstream webhook
// endpoint and the background passes call them.
type Relays []*RelayService

// HandleWebhook hands a delivery to the upstream whose signature it
// carries. Errors: RelayService.HandleWebhook's; 401
// INVALID_WEBHOOK_SIGNATURE when no upstream's signature verifies.
func (rs Relays) HandleWebhook(ctx context.Context, header func(string) string, body []byte) error {
	var err error = Errorf(KindUnauthorized, CodeInvalidWebhookSignature, "this server relays to no upstream")
	for _, r := range rs {
		if verr := r.upstream.VerifyWebhook(header, body, r.clock.Now()); verr != nil {
			err = verr
			continue
		}
		return r.handleVerified(ctx, body)
	}
	return err
}

// FollowUp runs a queued ingest at the upstream that holds its account
// (RelayService.FollowUp).
func (rs Relays) FollowUp(ctx context.Context, r IngestRun) error {
	for _, relay := range rs {
		if relay.name == r.Source || r.Source == "" {
			return relay.FollowUp(ctx, r)
		}
	}
	return fmt.Errorf("an ingest of account %s queued for upstream %q, which is no longer configured", r.AccountID, r.Source)
}

// SyncDirectory runs every upstream's directory sync in turn (see
// RelayService.SyncDirectory); more is true while any has more to do.
func (rs Relays) SyncDirectory(ctx context.Context) (more bool, err error) {
	for _, r := range rs {
		st, serr := r.SyncDirectory(ctx)
		more = more || st.Running
		err = errors.Join(err, prefixed(r.name, serr))
	}
	return more, err
}

// Reconcile runs every upstream's reconciliation in turn (see
// RelayService.Reconcile); more is true while any has more to do.
func (rs Relays) Reconcile(ctx context.Context) (more bool, err error) {
	for _, r := range rs {
		st, rerr := r.Reconcile(ctx)
		more = more || st.Running
		err = errors.Join(err, prefixed(r.name, rerr))
	}
	return more, err
}

// DirectoryStatus says where every upstream's directory sync stands, for
// /readyz and the dashboard.
func (rs Relays) DirectoryStatus(ctx context.Context) (string, error) {
	var parts []string
	for _, r := range rs {
		st, err := r.DirectoryStatus(ctx)
		if err != nil {
			return "", err
		}
		if len(rs) == 1 {
			return st.Status(), nil
		}
		parts = append(parts, r.name+": "+st.Status())
	}
	return strings.Join(parts, "; "), nil
}

func prefixed(name string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("upstream %q: %w", name, err)
}
