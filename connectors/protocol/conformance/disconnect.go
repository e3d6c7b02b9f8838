package conformance

import (
	"context"
	"encoding/json"
	"net/http"

	"payline/connectors/protocol"
)

// disconnect checks the disconnect, last on each platform since it ends
// the good login's connection: a connector that has it answers 200
// {disconnected: true, message}; one without it answers 404
// OPERATION_NOT_FOUND and is skipped, as Payline records that its route
// could not be told.
func (k *platformKit) disconnect(ctx context.Context, good string) {
	const s = "disconnect"
	at := k.at.as(k.users.Good)
	if good == "" {
		k.skip(s, at, "the good user did not log in")
		return
	}
	a := k.signed(ctx, http.MethodPost, protocol.PathDisconnect,
		protocol.DisconnectRequest{Account: k.account(good), Reason: protocol.DisconnectReasonConsentRevoked})
	var refusal protocol.ErrorBody
	var out protocol.DisconnectResponse
	switch {
	case a.err == nil && a.status == http.StatusNotFound && json.Unmarshal(a.body, &refusal) == nil && refusal.Error.Code == "OPERATION_NOT_FOUND":
		k.skip(s, at, "it takes no disconnect (404 OPERATION_NOT_FOUND): a revocation records that its source could not be told")
	case a.err != nil || a.status != http.StatusOK:
		k.fail(s, at, "want 200 disconnecting the account, or 404 OPERATION_NOT_FOUND, got %s", a)
	case json.Unmarshal(a.body, &out) != nil || !out.Disconnected:
		k.fail(s, at, "want {disconnected: true, message}, got %s", a.body)
	default:
		k.pass(s, at, out.Message)
	}
}
