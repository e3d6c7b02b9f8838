package rest

import (
	"errors"
	"net/http"

	"payline/domain"
)

// sandboxLinkSessionBody drives Link without a browser: the same domain
// calls the modal makes, in one request.
type sandboxLinkSessionBody struct {
	Token      string `json:"token"`
	PlatformID string `json:"platform_id"`
	EmployerID string `json:"employer_id"`
	Username   string `json:"username"`
	Password   string `json:"password"`
	MFACode    string `json:"mfa_code"`
	Allocation *struct {
		Action string   `json:"action"`
		Type   string   `json:"type"`
		Value  *float64 `json:"value"`
	} `json:"allocation"`
}

func (s *Server) sandboxLinkSession(r *http.Request) (response, error) {
	if s.mode != domain.ModeSandbox {
		return response{}, domain.Errorf(domain.KindNotFound, domain.CodeNotSandbox, "sandbox helpers exist only in the sandbox mode")
	}
	var b sandboxLinkSessionBody
	if err := decodeJSON(r, &b); err != nil {
		return response{}, err
	}
	var p domain.Problems
	if b.Token == "" {
		p.Missing("token")
	}
	if b.Username == "" {
		p.Missing("username")
	}
	if b.Password == "" {
		p.Missing("password")
	}
	if err := p.Err(); err != nil {
		return response{}, err
	}
	sess, err := s.link.OpenFor(r.Context(), scopeOf(r), b.Token)
	if err != nil {
		return response{}, err
	}
	acct, err := s.link.Login(r.Context(), b.Token, domain.LoginRequest{PlatformID: b.PlatformID, EmployerID: b.EmployerID,
		Credentials: domain.Credentials{Username: b.Username, Password: b.Password, MFACode: b.MFACode}})
	var mfa *domain.MFARequiredError
	if errors.As(err, &mfa) {
		return response{}, domain.Errorf(domain.KindInvalid, "MFA_REQUIRED", "this login needs mfa_code: %s", mfa.Prompt)
	}
	if err != nil {
		return response{}, err
	}
	if sess.Token.WantsSwitch() {
		sw := domain.SwitchRequest{Action: domain.ActionFullSwitch}
		if b.Allocation != nil {
			sw = domain.SwitchRequest{Action: b.Allocation.Action, Type: b.Allocation.Type, Value: b.Allocation.Value}
		}
		if _, err := s.link.Switch(r.Context(), b.Token, sw); err != nil {
			return response{}, err
		}
	}
	return object(resLinkSession, map[string]string{"account_id": acct.ID, "link_token_id": sess.Token.ID}), nil
}

func (s *Server) sandboxPatchAccount(r *http.Request) (response, error) {
	if s.mode != domain.ModeSandbox {
		return response{}, domain.Errorf(domain.KindNotFound, domain.CodeNotSandbox, "sandbox helpers exist only in the sandbox mode")
	}
	var b struct {
		MonitoringStatus domain.MonitoringStatus `json:"monitoring_status"`
	}
	if err := decodeJSON(r, &b); err != nil {
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
