package link

import (
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// SetPortal gives Link the person's page, whose receipt Link's
// completion step may ask for (nil: no receipts).
func (h *Handler) SetPortal(p *domain.PortalService) { h.portal = p }

// receiptPath is where Link's completion step asks for a receipt: the
// person gives an e-mail address and receives who asked, for what, which
// data, when, and a link to their own page (docs/person.md).
const receiptPath = "/link/v1/api/receipt"

// receipt sends the receipt of the token's completed session to the
// address in the body ({"email": "..."}), answering where it went,
// masked.
func (h *Handler) receipt(r *http.Request, token string) (any, error) {
	if h.portal == nil {
		return nil, domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound, "this server sends no receipts")
	}
	var body struct {
		Email string `json:"email"`
	}
	if err := wire.Decode(r, &body); err != nil {
		return nil, err
	}
	rc, err := h.portal.SendReceipt(r.Context(), token, body.Email)
	if err != nil {
		return nil, err
	}
	return map[string]any{"sent_to": rc.To, "customer": rc.Customer}, nil
}
