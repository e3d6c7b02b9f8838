package main

import "payline/domain"

// furnisherRoute is what tells a disputed item's source: the mode's
// connector, which routes each account to the source that made it
// (connectors/routing) or is the compiled-in sandbox. Every source the
// router holds answers for itself, with a notice or the reason it takes
// none.
func furnisherRoute(c domain.Connector) domain.FurnisherNotifier {
	if n, ok := c.(domain.FurnisherNotifier); ok {
		return n
	}
	return domain.NoConnector{}
}
