package main

import "payline/domain"

// disconnectRoute is what tells a connection's source that the person
// took consent back: the mode's connector, which routes each account to
// the source that made it (connectors/routing) or is the compiled-in
// sandbox. A connector that cannot take a disconnect says so and the
// revocation records it.
func disconnectRoute(c domain.Connector) domain.SourceDisconnecter {
	if d, ok := c.(domain.SourceDisconnecter); ok {
		return d
	}
	return domain.NoConnector{}
}
