package routing

import (
	"context"
	"errors"

	"payline/domain"
)

// DisconnectSource implements domain.SourceDisconnecter: the disconnect
// goes through the route that made the connection, as every job of the
// account does. A source with no disconnect is recorded as such, naming
// it.
func (r *Router) DisconnectSource(ctx context.Context, a domain.Account) (string, error) {
	c, err := r.forAccount(ctx, a)
	if err != nil {
		return "", err
	}
	name := r.nameOf(c)
	d, ok := c.(domain.SourceDisconnecter)
	if !ok {
		return "", &domain.NoDisconnectChannelError{Route: name, Reason: "the source " + name + " that made this connection takes no disconnect"}
	}
	said, err := d.DisconnectSource(ctx, a)
	var none *domain.NoDisconnectChannelError
	if errors.As(err, &none) {
		none.Route = name
	}
	return said, err
}

var _ domain.SourceDisconnecter = (*Router)(nil)
