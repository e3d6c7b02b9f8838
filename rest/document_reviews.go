package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"payline/domain"
	"payline/rest/wire"
)

// The review queue's routes: the queue and a document's pages answer an
// API key or a signed-in member; a review is made by a member, whose
// session (Authorization: Bearer from POST /v1/admin/token, or the
// dashboard's cookie) names who reviewed.
func (s *Server) reviewRoutes() {
	if s.reviews == nil || s.members == nil {
		return
	}
	s.handleKeyOrMember("GET /v1/document_reviews", s.listDocumentReviews)
	s.handleKeyOrMember("GET /v1/end_users/{end_user_id}/documents/{document_id}/pages/{page}", s.documentPage)
	s.handleAdmin("POST /v1/end_users/{end_user_id}/documents/{document_id}/review", s.reviewDocument)
}

// handleKeyOrMember registers a read behind the pipeline whose caller is
// an API key (x-api-secret) or, without one, a signed-in member (a Bearer
// token or the dashboard's cookie).
func (s *Server) handleKeyOrMember(pattern string, h apiHandler) {
	wildcards := pathWildcards(pattern)
	g := gate{versioned: true, identify: s.keyOrMemberCaller, refuse: s.writeError}
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		r, release, ok := s.pass(g, wildcards, w, r)
		if !ok {
			return
		}
		defer release()
		resp, err := h(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.write(w, r, versionOf(r), resp)
	})
}

// keyOrMemberCaller authenticates x-api-secret when the request sends
// one, else a member's session when it carries a Bearer token or the
// session cookie; with neither it is refused as an API request without
// its secret is.
func (s *Server) keyOrMemberCaller(w http.ResponseWriter, r *http.Request) (caller, error) {
	_, noCookie := s.sessionCookie(r)
	if apiSecret(r) != "" || (r.Header.Get("Authorization") == "" && noCookie != nil) {
		return s.keyCaller(w, r)
	}
	sess, err := s.sessionOf(r)
	if err != nil {
		return caller{}, err
	}
	return caller{ctx: domain.WithSession(r.Context(), sess), scope: sess.Scope(), holder: "member:" + sess.MemberID}, nil
}

// listDocumentReviews is GET /v1/document_reviews: the queue, newest
// upload first; status required (the default), completed or all, and
// end_user_id narrow it.
func (s *Server) listDocumentReviews(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	status, _ := q.str("status")
	endUser, _ := q.str("end_user_id")
	p := q.page(domain.ListDocumentReviews)
	if err := q.err(); err != nil {
		return response{}, err
	}
	st, err := domain.ParseReviewStatus(status)
	if err != nil {
		return response{}, err
	}
	pg, err := s.reviews.Queue(r.Context(), domain.ScopeFrom(r.Context()), domain.ReviewFilter{Status: st, EndUserID: endUser}, p)
	if err != nil {
		return response{}, err
	}
	items, err := recordsJSON(pg.Items)
	if err != nil {
		return response{}, err
	}
	return page(domain.RecordDocument, items, pg.Next), nil
}

// documentPage is GET .../documents/{document_id}/pages/{page}: the page
// drawn as an image, for the person reviewing what was read from it.
func (s *Server) documentPage(r *http.Request) (response, error) {
	n, err := strconv.Atoi(r.PathValue("page"))
	if err != nil {
		return response{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "page: must be a page number from 1, got %q", r.PathValue("page"))
	}
	img, typ, err := s.reviews.Page(r.Context(), domain.ScopeFrom(r.Context()), r.PathValue("end_user_id"), r.PathValue("document_id"), n)
	if err != nil {
		return response{}, err
	}
	return response{status: http.StatusOK, file: img, header: map[string]string{"Content-Type": typ,
		"Cache-Control": "private, no-store"}}, nil
}

// reviewBody is the body of POST .../documents/{document_id}/review.
type reviewBody struct {
	Outcome     string                     `json:"outcome"`
	Corrections map[string]correctionValue `json:"corrections"`
	Note        string                     `json:"note"`
}

// correctionValue is a corrected field's value as text: a JSON string as
// it is, a number as its literal (1600.00 stays "1600.00", never a
// float), null as "" (the field is cleared).
type correctionValue string

// UnmarshalJSON implements json.Unmarshaler.
func (v *correctionValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case string(b) == "null":
		*v = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = correctionValue(s)
	case len(b) > 0 && (b[0] == '-' || (b[0] >= '0' && b[0] <= '9')):
		*v = correctionValue(b)
	default:
		return fmt.Errorf("a correction is text, a number or null, not %.20s", b)
	}
	return nil
}

// reviewDocument is POST .../documents/{document_id}/review: a member
// accepts (with corrections) or rejects the document.
func (s *Server) reviewDocument(r *http.Request, sess domain.Session) (response, error) {
	var b reviewBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	in := domain.ReviewInput{Outcome: b.Outcome, Note: b.Note}
	if len(b.Corrections) > 0 {
		in.Corrections = make(map[string]string, len(b.Corrections))
		for k, v := range b.Corrections {
			in.Corrections[k] = string(v)
		}
	}
	d, err := s.reviews.Review(r.Context(), sess, r.PathValue("end_user_id"), r.PathValue("document_id"), in)
	if err != nil {
		return response{}, err
	}
	out, err := recordJSON(d)
	if err != nil {
		return response{}, err
	}
	return object(domain.RecordDocument, out), nil
}
