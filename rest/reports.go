package rest

import (
	"bytes"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"payline/domain"
	"payline/rest/wire"
)

// resReport tags verification reports for the version table.
const resReport = "verification_report"

func (s *Server) verificationReport(reportType string) apiHandler {
	return func(r *http.Request) (response, error) {
		q := newQuery(r.URL)
		tracking, _ := q.str("tracking_id")
		purpose, _ := q.str("purpose")
		if err := q.err(); err != nil {
			return response{}, err
		}
		rep, err := s.reports.VerificationReport(r.Context(), scopeOf(r), r.PathValue("end_user_id"), reportType,
			domain.ReportRequest{TrackingID: tracking, Purpose: purpose})
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
		err = wire.CheckIDText("document_id", r.PathValue("document_id"))
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
	h.Set("Content-Disposition", contentDisposition(f.Filename))
	h.Set("Cache-Control", "private, no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+f.SHA256+`"`)
	http.ServeContent(w, r, f.Filename, f.CreatedAt, bytes.NewReader(f.Body))
}

// contentDisposition names a download for every client: an ASCII
// filename (anything else written "_"), and where that differs the real
// name as RFC 6266's filename* (UTF-8, percent-encoded), which modern
// clients prefer.
func contentDisposition(name string) string {
	ascii := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '_'
		}
		return r
	}, name)
	v := mime.FormatMediaType("attachment", map[string]string{"filename": ascii})
	if ascii == name {
		return v
	}
	var b strings.Builder
	for _, c := range []byte(name) {
		// RFC 8187's attr-char; every other byte percent-encoded.
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return v + "; filename*=UTF-8''" + b.String()
}
