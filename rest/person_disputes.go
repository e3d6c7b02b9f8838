package rest

import (
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// The person's disputes as JSON for their own page (docs/disputes.md):
// the page's session cookie is the credential, as for the rest of /me,
// and writes must come from this site. The page's form is drawn by the
// person's page; these answer it.
func (s *Server) personDisputeRoutes() {
	if s.portal == nil || s.disputes == nil {
		return
	}
	s.mux.Handle("GET "+personPath+"/disputes", s.unvouched(s.personJSON(s.listPersonDisputes)))
	s.mux.Handle("POST "+personPath+"/disputes", s.unvouched(s.personJSON(s.openPersonDispute)))
	s.mux.Handle("POST "+personPath+"/disputes/{dispute_id}/information", s.unvouched(s.personJSON(s.addPersonInformation)))
}

// personJSON runs h for the person signed in with the page's cookie and
// answers JSON, errors in the API's body (401 PORTAL_SESSION_INVALID
// without a live session). A write from another site is refused.
func (s *Server) personJSON(h func(r *http.Request, sess domain.PortalSession) (response, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			if err := s.crossOrigin.Check(r); err != nil {
				s.writeError(w, r, domain.Errorf(domain.KindForbidden, domain.CodeCrossOrigin,
					"this request came from another site: write to your disputes from your own page"))
				return
			}
		}
		var token string
		if c, err := r.Cookie(personCookie); err == nil {
			token = c.Value
		}
		sess, err := s.portal.Authenticate(r.Context(), token)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		resp, err := h(r, sess)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("Cache-Control", "no-store")
		s.write(w, r, domain.LatestVersion, resp)
	}
}

func (s *Server) listPersonDisputes(r *http.Request, sess domain.PortalSession) (response, error) {
	ds, err := s.disputes.PersonDisputes(r.Context(), sess)
	if err != nil {
		return response{}, err
	}
	now := s.disputes.Now()
	return page(resDispute, mapAll(ds, func(d domain.Dispute) disputeJSON { return newDisputeJSON(d, now) }), nil), nil
}

func (s *Server) openPersonDispute(r *http.Request, sess domain.PortalSession) (response, error) {
	var b openDisputeBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	d, err := s.disputes.OpenPersonDispute(r.Context(), sess, domain.DisputeRequest{
		Item: domain.DisputeItem{Type: b.Item.Type, ID: b.Item.ID, Field: b.Item.Field, ReportType: b.Item.ReportType},
		Note: b.Note, DocumentID: b.DocumentID})
	if err != nil {
		return response{}, err
	}
	resp := s.disputeObject(d)
	resp.status = http.StatusCreated
	return resp, nil
}

func (s *Server) addPersonInformation(r *http.Request, sess domain.PortalSession) (response, error) {
	var b informationBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	d, err := s.disputes.AddPersonInformation(r.Context(), sess, r.PathValue("dispute_id"), b.Note, b.DocumentID)
	if err != nil {
		return response{}, err
	}
	return s.disputeObject(d), nil
}
