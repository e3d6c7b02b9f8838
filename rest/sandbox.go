package rest

import (
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// sandboxLinkSessionBody drives Link without a browser: the same domain
// code the modal runs, in one request and one transaction.
type sandboxLinkSessionBody struct {
	Token      string `json:"token"`
	PlatformID string `json:"platform_id"`
	EmployerID string `json:"employer_id"`
	Username   string `json:"username"`
	Password   string `json:"password"`
	MFACode    string `json:"mfa_code"`
	Allocation *struct {
		Action string       `json:"action"`
		Type   string       `json:"type"`
		Value  *wire.Number `json:"value"`
	} `json:"allocation"`
	// Bill is the bill change of a token that asks for bill_switch or
	// bill_cancellation: job, and for a switch a card or a target.
	Bill *wire.BillBody `json:"bill"`
}

func (s *Server) sandboxLinkSession(r *http.Request) (response, error) {
	var b sandboxLinkSessionBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	var sw *domain.SwitchRequest
	if a := b.Allocation; a != nil {
		sw = &domain.SwitchRequest{Action: a.Action, Type: a.Type, Value: a.Value.Domain()}
	}
	acct, t, err := s.link.SandboxSession(r.Context(), scopeOf(r), b.Token, domain.LoginRequest{PlatformID: b.PlatformID,
		EmployerID: b.EmployerID, Credentials: domain.Credentials{Username: b.Username, Password: b.Password, MFACode: b.MFACode}}, sw, b.Bill.Request())
	if err != nil {
		return response{}, err
	}
	return object(resLinkSession, map[string]string{"account_id": acct.ID, "link_token_id": t.ID}), nil
}

func (s *Server) sandboxPatchAccount(r *http.Request) (response, error) {
	var b struct {
		MonitoringStatus domain.MonitoringStatus `json:"monitoring_status"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	if b.MonitoringStatus == "" {
		return response{}, domain.Errorf(domain.KindInvalid, domain.CodeMissingFields, "missing required fields: monitoring_status")
	}
	a, err := s.accounts.SimulateMonitoringStatus(r.Context(), scopeOf(r), r.PathValue("account_id"), b.MonitoringStatus)
	if err != nil {
		return response{}, err
	}
	return object(resAccount, newAccountJSON(a)), nil
}
