package link

import (
	"encoding/base64"
	"net/http"
	"strings"
	"time"

	"payline/domain"
	"payline/internal/qr"
	"payline/rest/wire"
)

// The hand-off of a Link session to a phone (domain.LinkService.StartHandoff):
// the computer's Link asks for a code and shows it as a QR code of a URL;
// the phone opens the URL, claims the code (claimPath, the one Link API
// call without a link token) and continues the same session with a key
// of its own; the computer's Link polls the hand-off until it is claimed.

const claimPath = "/link/v1/api/handoff/claim"

// continuePath is the page the QR code's URL opens; the code is in the
// fragment, which never reaches a server, a log or a Referer.
const continuePath = "/link/v1/continue"

// qrPixels is the width of the QR code's PNG: sharp on a computer's
// screen at the modal's 200 CSS pixels, scaled down on a high-density one.
const qrPixels = 400

// SetPublicURL names where browsers reach this server, for the hand-off
// URL in the QR code; without it the request's own host is used.
func (h *Handler) SetPublicURL(u string) { h.publicURL = strings.TrimRight(u, "/") }

func (h *Handler) baseURL(r *http.Request) string {
	if h.publicURL != "" {
		return h.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

type handoffJSON struct {
	ID        string `json:"id"`
	Status    string `json:"status"`
	Screen    string `json:"screen"`
	ExpiresAt string `json:"expires_at"`
	// URL, QRCodePNG and QRCodeSVG are answered once, when the hand-off
	// is made: the URL holds the code.
	URL       string `json:"url,omitempty"`
	QRCodePNG string `json:"qr_code_png,omitempty"` // a data: URL
	QRCodeSVG string `json:"qr_code_svg,omitempty"`
}

func newHandoffJSON(hf domain.LinkHandoff, status string) handoffJSON {
	return handoffJSON{ID: hf.ID, Status: status, Screen: hf.Screen, ExpiresAt: hf.Expires.Format(time.RFC3339)}
}

// startHandoff makes a hand-off of the session at the step the modal is
// at: {screen, platform_id, employer_id}.
func (h *Handler) startHandoff(r *http.Request, token string) (any, error) {
	var b struct {
		Screen     string `json:"screen"`
		PlatformID string `json:"platform_id"`
		EmployerID string `json:"employer_id"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	hf, code, err := h.link.StartHandoff(r.Context(), token, domain.HandoffStep{Screen: b.Screen, PlatformID: b.PlatformID, EmployerID: b.EmployerID})
	if err != nil {
		return nil, err
	}
	url := h.baseURL(r) + continuePath + "#code=" + code
	png, err := qr.PNG(url, qrPixels)
	if err != nil {
		return nil, err
	}
	svg, err := qr.SVG(url, qrPixels)
	if err != nil {
		return nil, err
	}
	out := newHandoffJSON(hf, hf.Status(hf.CreatedAt))
	out.URL, out.QRCodePNG, out.QRCodeSVG = url, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png), string(svg)
	return out, nil
}

// handoff says whether the phone took the hand-off yet.
func (h *Handler) handoff(r *http.Request, token string) (any, error) {
	hf, status, err := h.link.Handoff(r.Context(), token, r.PathValue("handoff_id"))
	if err != nil {
		return nil, err
	}
	return newHandoffJSON(hf, status), nil
}

// claimHandoff takes the code of the QR code's URL, once, and answers the
// phone's key to the session with the step to continue at: the platform
// and employer as the modal shows them.
func (h *Handler) claimHandoff(r *http.Request, _ string) (any, error) {
	var b struct {
		Code string `json:"code"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return nil, err
	}
	hf, key, err := h.link.ClaimHandoff(r.Context(), b.Code)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"link_key": key, "screen": hf.Screen}
	if hf.PlatformID != "" {
		p, err := h.directory.Platform(r.Context(), hf.PlatformID)
		if err != nil {
			return nil, err
		}
		out["platform"] = newPlatformJSON(p)
	}
	if hf.EmployerID != "" {
		e, err := h.directory.Employer(r.Context(), hf.EmployerID)
		if err != nil {
			return nil, err
		}
		out["employer"] = map[string]string{"id": e.ID, "name": e.Name}
	}
	return out, nil
}
