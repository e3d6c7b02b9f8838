package domain

import "context"

// SourceDisconnecter tells the source that made an account's connection
// that the person took their consent back, through the route that made
// it (connectors/routing): a connector over the protocol is sent its
// disconnect, the sandbox ends its connection. A relayed account's
// upstream is told through the Relay instead (Act, ActionDisconnect).
type SourceDisconnecter interface {
	// DisconnectSource tells the source and returns what it said, in
	// words for the person's page. Errors: *NoDisconnectChannelError when
	// the route has no disconnect (the revocation goes on and records
	// why); any other error fails the revocation and nothing changes.
	DisconnectSource(ctx context.Context, a Account) (string, error)
}

// NoDisconnectChannelError says a route has no way to take a disconnect:
// the revocation records Reason.
type NoDisconnectChannelError struct{ Route, Reason string }

func (e *NoDisconnectChannelError) Error() string { return "no disconnect channel: " + e.Reason }

// DisconnectSource implements SourceDisconnecter: without a payroll
// source there is none to tell.
func (NoConnector) DisconnectSource(context.Context, Account) (string, error) {
	return "", &NoDisconnectChannelError{Route: "none", Reason: "this mode has no payroll source to tell"}
}
