package routing_test

import (
	"context"
	"errors"
	"testing"

	"payline/connectors/routing"
	"payline/domain"
	"payline/domain/sandbox"
)

// TestDisputeNoticeRouted: a dispute notice goes through the route that
// made the account, as its jobs do: the connector of its platform
// acknowledges under the route's name; an account whose source takes no
// notices (the fallback without a dispute channel, a relayed account's
// upstream) is recorded with the route named and the reason.
func TestDisputeNoticeRouted(t *testing.T) {
	ctx := context.Background()
	var calls []string
	r, err := routing.New([]routing.Route{
		{Name: "acme-connector", Connector: sandbox.Connector{}, PlatformIDs: []string{"p-acme"}},
		{Name: "other", Connector: named{name: "other", calls: &calls}, PlatformIDs: []string{"p-other"}},
	}, domain.NoConnector{}, routing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := domain.DisputeNotice{Version: domain.DisputeNoticeVersion, DisputeID: "0195f0a0-0000-7000-8000-0000000000d1",
		Item: domain.DisputeItem{Type: domain.DisputedEmployment, ID: "a1"}}
	ack, err := r.NotifyDispute(ctx, domain.Account{ID: "a1", PlatformID: "p-acme"}, n)
	if err != nil || ack.Route != "acme-connector" || ack.Reference == "" {
		t.Errorf("the platform's connector: %+v, %v", ack, err)
	}
	for _, tt := range []struct{ platform, route string }{{"p-other", "other"}, {"p-nobody", "builtin"}} {
		_, err := r.NotifyDispute(ctx, domain.Account{ID: "a2", PlatformID: tt.platform}, n)
		var none *domain.NoDisputeChannelError
		if !errors.As(err, &none) || none.Route != tt.route || none.Reason == "" {
			t.Errorf("%s: %v, want no channel at route %s", tt.platform, err, tt.route)
		}
	}
}
