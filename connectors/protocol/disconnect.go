package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"payline/domain"
)

// PathDisconnect is the disconnect: Payline tells the connector that the
// person took back their consent to an account, so the connector ends
// its session with the source and forgets what it holds for it.
const PathDisconnect = "/connector/v1/accounts/disconnect"

// DisconnectRequest is POST /connector/v1/accounts/disconnect: the
// account as a run's, and why ("consent_revoked").
type DisconnectRequest struct {
	Account Account `json:"account"`
	Reason  string  `json:"reason"`
}

// DisconnectResponse says the connector ended the connection, and what
// it did in words the person may read.
type DisconnectResponse struct {
	Disconnected bool   `json:"disconnected"`
	Message      string `json:"message"`
}

// DisconnectReasonConsentRevoked is the reason Payline sends today.
const DisconnectReasonConsentRevoked = "consent_revoked"

// DisconnectSource implements domain.SourceDisconnecter over the
// protocol. A connector that answers the operation as unknown (one older
// than the disconnect, or one that keeps nothing to end) has no
// disconnect channel; any other failure fails the revocation.
func (c *Client) DisconnectSource(ctx context.Context, a domain.Account) (string, error) {
	var out DisconnectResponse
	err := c.call(ctx, http.MethodPost, PathDisconnect, DisconnectRequest{Account: accountOf(a), Reason: DisconnectReasonConsentRevoked}, &out)
	var r *refused
	if errors.As(err, &r) && r.Code == "OPERATION_NOT_FOUND" {
		return "", &domain.NoDisconnectChannelError{Route: "connector", Reason: "the connector answered the disconnect as an unknown operation"}
	}
	if err != nil {
		return "", err
	}
	if !out.Disconnected {
		return "", fmt.Errorf("connector answered the disconnect of account %s without disconnecting it", a.ID)
	}
	return out.Message, nil
}

// disconnect serves the disconnect for a connector that is a
// domain.SourceDisconnecter.
func (s *Server) disconnect(ctx context.Context, body []byte) (any, error) {
	d, ok := s.connector.(domain.SourceDisconnecter)
	if !ok {
		return nil, errNoOperation
	}
	var req DisconnectRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the disconnect is not JSON of the protocol's shape: %v", err)
	}
	if req.Account.ID == "" {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeMissingFields, "a disconnect names its account")
	}
	said, err := d.DisconnectSource(ctx, domain.Account{ID: req.Account.ID, CustomerID: req.Account.CustomerID, EndUserID: req.Account.EndUserID,
		PlatformID: req.Account.PlatformID, EmployerName: req.Account.EmployerName, Connection: req.Account.Connection, CreatedAt: req.Account.CreatedAt})
	if err != nil {
		return nil, err
	}
	return DisconnectResponse{Disconnected: true, Message: said}, nil
}

var _ domain.SourceDisconnecter = (*Client)(nil)
