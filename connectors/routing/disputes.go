package routing

import (
	"context"
	"errors"

	"payline/domain"
)

// NotifyDispute implements domain.FurnisherNotifier: the notice goes
// through the route that made the connection (the upstream that holds a
// relayed account, else its platform's connector, else the mode's
// compiled-in source), as every job of the account does. A source with
// no dispute channel is recorded as such, naming it.
func (r *Router) NotifyDispute(ctx context.Context, a domain.Account, n domain.DisputeNotice) (domain.DisputeAck, error) {
	c, err := r.forAccount(ctx, a)
	if err != nil {
		return domain.DisputeAck{}, err
	}
	name := r.nameOf(c)
	fn, ok := c.(domain.FurnisherNotifier)
	if !ok {
		return domain.DisputeAck{}, &domain.NoDisputeChannelError{Route: name,
			Reason: "the source " + name + " that made this connection takes no dispute notices"}
	}
	ack, err := fn.NotifyDispute(ctx, a, n)
	var none *domain.NoDisputeChannelError
	if errors.As(err, &none) {
		none.Route = name
	}
	if err == nil {
		ack.Route = name
	}
	return ack, err
}

// nameOf names the route of a connector: its configured name, or
// "builtin" for the mode's compiled-in source.
func (r *Router) nameOf(c domain.Connector) string {
	for _, rt := range r.routes {
		if rt.Connector == c {
			return rt.Name
		}
	}
	return "builtin"
}

var _ domain.FurnisherNotifier = (*Router)(nil)
