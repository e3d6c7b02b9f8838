package upstream

import (
	"context"

	"payline/domain"
)

// noDisputeEndpoint is why a relayed account's source is not told of a
// dispute: the upstream's published API (the Pinwheel-compatible one,
// ../shared/reference/vendor/openapi, all fourteen areas) has no dispute
// or correction endpoint, so there is no call that would reach the
// employer or platform behind it. The dispute records this, and the
// customer, who holds the upstream contract, takes it up with the
// upstream (docs/disputes.md).
const noDisputeEndpoint = "the upstream's API (Pinwheel-compatible) has no dispute endpoint, so no notice can be sent through it: " +
	"take the dispute up with the upstream under your contract with it, and record what it answered in the resolution's reason"

// NotifyDispute implements domain.FurnisherNotifier: the upstream's API
// has no channel for it, so it sends nothing and says why.
func (c *Client) NotifyDispute(context.Context, domain.Account, domain.DisputeNotice) (domain.DisputeAck, error) {
	return domain.DisputeAck{}, &domain.NoDisputeChannelError{Route: "upstream", Reason: noDisputeEndpoint}
}

var _ domain.FurnisherNotifier = (*Client)(nil)
