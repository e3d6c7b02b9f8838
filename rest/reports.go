package rest

import (
	"bytes"
	"mime"
	"net/http"

	"payline/domain"
	"payline/rest/wire"
)

// resReport tags verification reports for the version table.
const resReport = "verification_report"

func (s *Server) verificationReport(reportType string) apiHandler {
	return func(r *http.Request) (response, error) {
		rep, err := s.reports.VerificationReport(r.Context(), scopeOf(r), r.PathValue("end_user_id"), reportType)
		if err != nil {
			return response{}, err
		}
		return object(resReport, rep), nil
	}
}

// download serves a document through its signed link: no API secret, the
// link is the credential. GET serves HEAD and Range requests too
// (http.ServeContent); every refusal is 403 in the spec's error body.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	q := newQuery(r.URL)
	expires, _ := q.str("expires")
	signature, _ := q.str("signature")
	err := q.err()
	if err == nil {
		err = wire.CheckText("document_id", r.PathValue("document_id"))
	}
	var f domain.File
	if err == nil {
		f, err = s.reports.Download(r.Context(), r.PathValue("document_id"), expires, signature)
	}
	if err != nil {
		w.Header().Set("Service-Version", domain.LatestVersion)
		s.writeError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.ContentType)
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": f.Filename}))
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+f.SHA256+`"`)
	http.ServeContent(w, r, f.Filename, f.CreatedAt, bytes.NewReader(f.Body))
}
