package rest

import (
	_ "embed"
	"errors"
	"html/template"
	"net/http"
	"strings"
	"time"

	"payline/domain"
	"payline/rest/wire"
)

// The person's own page (docs/person.md): the customer makes a portal
// link (POST /v1/end_users/{id}/portal_links); the person follows it to
// /p/{code}, whose GET changes nothing (a mail scanner fetching it spends
// nothing) and whose button posts back to sign in; the page is /me,
// behind a cookie of its own. Every page is drawn here, server-side, with
// its stylesheet as a file and no script.

const (
	resPortalLink = "portal_link"
	// personCookie holds the portal session's token; its path is the
	// page's, so it is sent nowhere else.
	personCookie = "payline_person"
	personPath   = "/me"
)

//go:embed person/person.css
var personCSS []byte

type portalLinkJSON struct {
	ID        string    `json:"id"`
	EndUserID string    `json:"end_user_id"`
	URL       string    `json:"url"`
	ExpiresAt wire.Time `json:"expires_at"`
	CreatedAt wire.Time `json:"created_at"`
}

func (s *Server) portalRoutes() {
	if s.portal == nil {
		return
	}
	s.handle("POST /v1/end_users/{end_user_id}/portal_links", s.createPortalLink)
	// The person's pages: no API secret, the link's code and then the
	// session's cookie are the credentials.
	page := func(h http.HandlerFunc) http.Handler { return s.unvouched(h) }
	s.mux.Handle("GET "+domain.PortalLinkPath+"{code}", page(s.showPortalLink))
	// Every post comes from these pages: another site can neither sign a
	// browser in to someone's page, nor ask for links, nor revoke.
	post := func(h http.HandlerFunc) http.Handler { return page(s.sameSitePost(h)) }
	s.mux.Handle("POST "+domain.PortalLinkPath+"{code}", post(s.signInPortal))
	s.mux.Handle("POST "+domain.PortalLinkPath+"{code}/resend", post(s.resendPortalLink))
	s.mux.Handle("GET "+personPath, page(s.personPage))
	s.mux.Handle("POST "+personPath+"/revoke", post(s.revokeConsent))
	s.mux.Handle("POST "+personPath+"/sign_out", post(s.signOutPerson))
	s.mux.Handle("GET "+personPath+"/reports/{report_type}", page(s.personReport))
	s.mux.Handle("GET "+personPath+"/documents/{document_id}", page(s.personDocument))
	s.mux.HandleFunc("GET "+personPath+"/person.css", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
		w.Header().Set("Cache-Control", "public, max-age=300")
		_, _ = w.Write(personCSS) // a failed write is a client gone: no one left to tell
	})
}

func (s *Server) createPortalLink(r *http.Request) (response, error) {
	l, code, err := s.portal.CreateLink(r.Context(), scopeOf(r), r.PathValue("end_user_id"))
	if err != nil {
		return response{}, err
	}
	return response{status: http.StatusCreated, resource: resPortalLink, data: portalLinkJSON{ID: l.ID, EndUserID: l.EndUserID,
		URL: s.portal.URL(code), ExpiresAt: wire.Time(l.Expires), CreatedAt: wire.Time(l.CreatedAt)}}, nil
}

// showPortalLink answers GET on a portal link without spending it: an
// open link's page has the button that signs in; a used or expired
// one's offers a fresh link, sent to the address on file.
func (s *Server) showPortalLink(w http.ResponseWriter, r *http.Request) {
	state, err := s.portal.LinkState(r.Context(), r.PathValue("code"))
	if err != nil {
		s.personFailure(w, r, err)
		return
	}
	switch state {
	case "open":
		s.personPageOf(w, http.StatusOK, personPageData{Title: "See what you shared",
			Body: "This link opens your own page: the payroll accounts and documents you shared, the reports made about you, and a way to take your consent back. It works once.",
			Form: &personForm{Action: r.URL.Path, Label: "Open my page"}})
	default:
		s.spentLinkPage(w, r, state)
	}
}

// spentLinkPage says a link was used or expired and offers a fresh one.
func (s *Server) spentLinkPage(w http.ResponseWriter, r *http.Request, state string) {
	title := "This link was already used"
	if state == "expired" {
		title = "This link has expired"
	}
	s.personPageOf(w, http.StatusGone, personPageData{Title: title, Status: state,
		Body:  "Each link to your page works once, for 15 minutes. We can send a new link to the e-mail address you gave us.",
		Form:  &personForm{Action: strings.TrimSuffix(r.URL.Path, "/") + "/resend", Label: "Send me a new link", Quiet: true},
		Muted: "If you did not give us an address, ask the company that asked for your data to send you a new link."})
}

func (s *Server) signInPortal(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	_, token, err := s.portal.SignIn(r.Context(), code)
	switch {
	case hasCode(err, domain.CodePortalLinkExpired):
		s.spentLinkPage(w, r, "expired")
		return
	case hasCode(err, domain.CodePortalLinkInvalid):
		if state, e := s.portal.LinkState(r.Context(), code); e == nil {
			s.spentLinkPage(w, r, state)
			return
		}
		s.personFailure(w, r, err)
		return
	case err != nil:
		s.personFailure(w, r, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: personCookie, Value: token, Path: personPath, HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteStrictMode, MaxAge: int(domain.PortalSessionTTL / time.Second)})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, personPath, http.StatusSeeOther)
}

func (s *Server) resendPortalLink(w http.ResponseWriter, r *http.Request) {
	sent, err := s.portal.SendFreshLink(r.Context(), r.PathValue("code"))
	switch {
	case hasCode(err, domain.CodePortalNoAddress):
		s.personPageOf(w, http.StatusOK, personPageData{Title: "We have no address to send a link to",
			Body: "You did not give us an e-mail address. Ask the company that asked for your data to send you a new link to your page."})
		return
	case err != nil:
		s.personFailure(w, r, err)
		return
	}
	s.personPageOf(w, http.StatusOK, personPageData{Title: "We sent you a new link", Status: "sent",
		Body: "Check your e-mail at " + sent.To + ". The new link works once, for 15 minutes."})
}

// personSession is the request's portal session, or a signed-out page.
func (s *Server) personSession(w http.ResponseWriter, r *http.Request) (domain.PortalSession, bool) {
	var token string
	if c, err := r.Cookie(personCookie); err == nil {
		token = c.Value
	}
	sess, err := s.portal.Authenticate(r.Context(), token)
	if hasCode(err, domain.CodePortalSessionInvalid) {
		s.personPageOf(w, http.StatusUnauthorized, personPageData{Title: "You are signed out", Status: "signed_out",
			Body: "For your safety your page signs you out after 30 minutes. Open a new link to your page: the last e-mail we sent you has a link, and the page it opens can send you a new one."})
		return domain.PortalSession{}, false
	}
	if err != nil {
		s.personFailure(w, r, err)
		return domain.PortalSession{}, false
	}
	return sess, true
}

func (s *Server) personPage(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.personSession(w, r)
	if !ok {
		return
	}
	v, err := s.portal.View(r.Context(), sess)
	if err != nil {
		s.personFailure(w, r, err)
		return
	}
	d := personPageData{Title: "What you shared with " + v.Customer, View: newPersonView(v), Customer: v.Customer}
	if s.disputes != nil {
		ds, err := s.disputes.PersonDisputes(r.Context(), sess)
		if err != nil {
			s.personFailure(w, r, err)
			return
		}
		d.View.CanDispute = true
		d.View.Disputes = personDisputes(ds, d.View.names, v.Customer, s.disputes.Now())
	}
	switch r.URL.Query().Get("done") {
	case "revoked":
		d.Notice = "Your consent was taken back. " + v.Customer + " can no longer read new data from it."
	case "disputed":
		d.Notice = "We received your dispute. Its steps are below, with the date we must answer by."
	}
	s.personPageOf(w, http.StatusOK, d)
}

// sameSitePost refuses a post made from another site (the cookie is
// SameSite=Strict too).
func (s *Server) sameSitePost(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := s.crossOrigin.Check(r); err != nil {
			s.personPageOf(w, http.StatusForbidden, personPageData{Title: "This request came from another site",
				Body: "Use the buttons on your own page."})
			return
		}
		h(w, r)
	}
}

// revokeConsent takes consent back to the account named by the form's
// account_id, or to every account when it is "all".
func (s *Server) revokeConsent(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.personSession(w, r)
	if !ok {
		return
	}
	id := r.PostFormValue("account_id")
	if id == "all" {
		id = ""
	}
	if _, err := s.portal.Revoke(r.Context(), sess, id); err != nil {
		s.personFailure(w, r, err)
		return
	}
	http.Redirect(w, r, personPath+"?done=revoked", http.StatusSeeOther)
}

func (s *Server) signOutPerson(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(personCookie); err == nil {
		if err := s.portal.SignOut(r.Context(), c.Value); err != nil {
			s.personFailure(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: personCookie, Path: personPath, MaxAge: -1, HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteStrictMode})
	s.personPageOf(w, http.StatusOK, personPageData{Title: "You are signed out", Status: "signed_out",
		Body: "You can close this page."})
}

// personReport sends the person to a fresh download link of their report.
func (s *Server) personReport(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.personSession(w, r)
	if !ok {
		return
	}
	l, err := s.portal.ReportLink(r.Context(), sess, r.PathValue("report_type"))
	if err != nil {
		s.personFailure(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, l.DownloadURL, http.StatusSeeOther)
}

// hasCode says whether err is a domain error with the code.
func hasCode(err error, code string) bool {
	var de *domain.Error
	return errors.As(err, &de) && de.Code == code
}

// personDocument sends the person to a fresh download link of a
// document they uploaded.
func (s *Server) personDocument(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.personSession(w, r)
	if !ok {
		return
	}
	l, err := s.portal.DocumentLink(r.Context(), sess, r.PathValue("document_id"))
	if err != nil {
		s.personFailure(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, l.DownloadURL, http.StatusSeeOther)
}

// personFailure answers an error on the person's pages in words.
func (s *Server) personFailure(w http.ResponseWriter, r *http.Request, err error) {
	var de *domain.Error
	if errors.As(err, &de) && de.Kind != domain.KindInternal && de.Kind != domain.KindUnavailable {
		status := http.StatusBadRequest
		switch de.Kind {
		case domain.KindNotFound:
			status = http.StatusNotFound
		case domain.KindRateLimited:
			status = http.StatusTooManyRequests
		}
		title := "This did not work"
		if de.Code == domain.CodePortalLinkInvalid {
			title = "This link is not valid"
		}
		s.personPageOf(w, status, personPageData{Title: title, Status: strings.ToLower(de.Code), Body: de.Message})
		return
	}
	s.log.ErrorContext(r.Context(), "person's page", "request_id", domain.RequestID(r.Context()), "error", err)
	s.personPageOf(w, http.StatusServiceUnavailable, personPageData{Title: "Something went wrong on our side",
		Body: "Please try again in a few minutes."})
}

type personForm struct {
	Action, Label string
	Quiet         bool
}

type personPageData struct {
	Title, Body, Status, Muted, Notice, Customer string
	Form                                         *personForm
	View                                         *personViewData
}

type personConnectionData struct {
	AccountID, Name, Platform, Consented, Refreshed, Readable string
	Connected, ByYou                                          bool
	Paystubs                                                  []personPaystubData
	Form                                                      disputeFormData
}

type personReportData struct {
	Type, Title, Built, Requester, Purpose string
	Form                                   disputeFormData
}

type personRevocationData struct {
	When, Told, Deleted, Kept, Reason string
}

type personUploadData struct {
	ID, Title, When string
}

type personViewData struct {
	Connections []personConnectionData
	Uploads     []personUploadData
	Reports     []personReportData
	Revocations []personRevocationData
	Disputes    []personDisputeData
	AnyOpen     bool
	// CanDispute is set when this server takes disputes.
	CanDispute bool
	// names are the page's paystubs and employments in words, by id,
	// for the disputes that name them.
	names map[string]string
}

const personDate = "January 2, 2006, 15:04 UTC"

func newPersonView(v domain.PersonView) *personViewData {
	out := &personViewData{names: map[string]string{}}
	for _, c := range v.Connections {
		d := personConnectionData{AccountID: c.AccountID, Name: c.EmployerName, Platform: c.PlatformName, Connected: c.Connected,
			ByYou: c.DisconnectedBy == domain.DisconnectedByEndUser, Readable: strings.Join(c.Readable, ", "),
			Consented: "not recorded", Refreshed: "not yet"}
		if d.Name == "" {
			d.Name = "Payroll account"
		}
		if d.Platform == "" {
			d.Platform = "a payroll platform"
		}
		if d.Readable == "" {
			d.Readable = "nothing yet"
		}
		if c.ConsentedAt != nil {
			d.Consented = c.ConsentedAt.UTC().Format(personDate)
		}
		if c.LastRefreshed != nil {
			d.Refreshed = c.LastRefreshed.UTC().Format(personDate)
		}
		out.AnyOpen = out.AnyOpen || c.Connected
		d.Form = disputeFormData{Key: "employment-" + c.AccountID, Type: domain.DisputedEmployment, ID: c.AccountID,
			What: "your employment at " + d.Name}
		out.names[c.AccountID] = d.Form.What
		for _, p := range c.Paystubs {
			paid := day(p.PayDate)
			what := "your paystub paid " + paid
			out.names[p.ID] = what
			form := func(field string) disputeFormData {
				return disputeFormData{Key: "paystub-" + p.ID + "-" + field, Type: domain.DisputedPaystub, ID: p.ID, Field: field,
					What: "the " + fieldWords(field) + " of " + what}
			}
			d.Paystubs = append(d.Paystubs, personPaystubData{ID: p.ID, Paid: paid, Net: p.NetPayAmount.Formatted(),
				Gross: p.GrossPayAmount.Formatted(), NetForm: form("net_pay_amount"), GrossForm: form("gross_pay_amount")})
		}
		out.Connections = append(out.Connections, d)
	}
	for _, u := range v.Uploads {
		title := strings.ReplaceAll(u.DocumentType, "_", " ")
		if u.FileName != "" {
			title += " (" + u.FileName + ")"
		}
		out.Uploads = append(out.Uploads, personUploadData{ID: u.DocumentID, Title: title, When: u.UploadedAt.UTC().Format(personDate)})
	}
	for _, r := range v.Reports {
		d := personReportData{Type: r.Type, Title: reportTitle(r.Type), Built: r.BuiltAt.UTC().Format(personDate),
			Requester: r.Requester, Purpose: strings.ReplaceAll(r.Purpose, "_", " ")}
		if d.Purpose == "" {
			d.Purpose = "not given"
		}
		d.Form = disputeFormData{Key: "report-" + r.Type, Type: domain.DisputedReportField, Field: "contents", ReportType: r.Type,
			What: "your " + strings.ToLower(d.Title) + " report"}
		out.Reports = append(out.Reports, d)
	}
	for _, k := range v.Revocations {
		out.Revocations = append(out.Revocations, personRevocationData{When: k.RevokedAt.UTC().Format(personDate), Told: k.SourceTold,
			Deleted: k.Deleted, Kept: k.Kept, Reason: k.KeptReason})
	}
	return out
}

func reportTitle(t string) string {
	if t == domain.ReportVOE {
		return "Verification of employment"
	}
	return "Verification of income and employment"
}

var personPageTemplate = template.Must(template.Must(template.New("person").Parse(`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{{.Title}}</title>
  <link rel="stylesheet" href="/me/person.css">
</head>
<body>
  <main>
{{- if .View}}
    <header>
      <h1>{{.Title}}</h1>
      <form method="post" action="/me/sign_out"><button type="submit" class="quiet">Sign out</button></form>
    </header>
    <p class="muted">You connected these through Payline when {{.Customer}} asked. Only you and {{.Customer}} see them.</p>
{{- if .Notice}}
    <p class="notice" role="status" id="notice">{{.Notice}}</p>
{{- end}}
    <h2 id="connections">Your payroll accounts</h2>
{{- range .View.Connections}}
    <section class="card" aria-labelledby="acct-{{.AccountID}}" data-account="{{.AccountID}}">
      <h3 id="acct-{{.AccountID}}">{{.Name}}</h3>
{{- if .Connected}}
      <span class="status on">Shared</span>
{{- else if .ByYou}}
      <span class="status off" data-status="revoked">You took your consent back</span>
{{- else}}
      <span class="status off">Disconnected</span>
{{- end}}
      <dl>
        <dt>Through</dt><dd>{{.Platform}}</dd>
        <dt>You agreed</dt><dd>{{.Consented}}</dd>
        <dt>{{if .Connected}}They can read{{else}}They could read{{end}}</dt><dd>{{.Readable}}</dd>
        <dt>Last updated</dt><dd>{{.Refreshed}}</dd>
      </dl>
{{- if $.View.CanDispute}}
{{template "dispute" .Form}}
{{- if .Paystubs}}
      <h4>Your paystubs</h4>
      <ul class="stubs">
{{- range .Paystubs}}
        <li data-paystub="{{.ID}}">
          <p class="paid">Paid {{.Paid}}</p>
          <div class="figure"><span>Net pay <strong>{{.Net}}</strong></span>
{{template "dispute" .NetForm}}
          </div>
          <div class="figure"><span>Gross pay <strong>{{.Gross}}</strong></span>
{{template "dispute" .GrossForm}}
          </div>
        </li>
{{- end}}
      </ul>
{{- end}}
{{- end}}
{{- if .Connected}}
      <form method="post" action="/me/revoke">
        <input type="hidden" name="account_id" value="{{.AccountID}}">
        <button type="submit" class="danger" aria-describedby="acct-{{.AccountID}}">Take back my consent</button>
      </form>
{{- end}}
    </section>
{{- else}}
    <p>You have not shared a payroll account.</p>
{{- end}}
{{- if .View.Uploads}}
    <h2 id="uploads">Documents you uploaded</h2>
{{- range .View.Uploads}}
    <section class="card" data-document="{{.ID}}">
      <h3>{{.Title}}</h3>
      <p class="muted">Uploaded {{.When}}</p>
      <a class="button quiet" href="/me/documents/{{.ID}}">Download</a>
    </section>
{{- end}}
{{- end}}
{{- if .View.AnyOpen}}
    <form method="post" action="/me/revoke">
      <input type="hidden" name="account_id" value="all">
      <button type="submit" class="danger">Take back my consent to everything</button>
    </form>
    <p class="muted">Taking consent back stops updates at once, tells your payroll provider's connection to end, and deletes the data read from it. Reports already made about you are kept as the law requires.</p>
{{- end}}
    <h2 id="reports">Reports made about you</h2>
{{- range .View.Reports}}
    <section class="card">
      <h3>{{.Title}}</h3>
      <dl>
        <dt>Made</dt><dd>{{.Built}}</dd>
        <dt>For</dt><dd>{{.Requester}}</dd>
        <dt>Purpose</dt><dd>{{.Purpose}}</dd>
      </dl>
      <a class="button quiet" href="/me/reports/{{.Type}}">Download the report (PDF)</a>
{{- if $.View.CanDispute}}
{{template "dispute" .Form}}
{{- end}}
    </section>
{{- else}}
    <p>No report has been made about you.</p>
{{- end}}
{{- if .View.CanDispute}}
    <h2 id="disputes">Your disputes</h2>
{{- range .View.Disputes}}
    <section class="card" aria-labelledby="dispute-{{.ID}}" data-dispute="{{.ID}}">
      <h3 id="dispute-{{.ID}}">You dispute {{.What}}</h3>
      <span class="status {{if eq .StatusKey "resolved"}}on{{else}}wait{{end}}" data-status="{{.StatusKey}}">{{.Status}}</span>
      <dl>
        <dt>You wrote</dt><dd>{{.Note}}</dd>
        <dt>We received it</dt><dd data-received>{{.Received}}</dd>
        <dt>We must answer by</dt><dd data-due>{{.Due}}{{if .Overdue}} (late){{end}}</dd>
        <dt>Told your provider</dt><dd data-told>{{.Told}}</dd>
      </dl>
      <h4>Steps</h4>
      <ol class="steps">
{{- range .Steps}}
        <li>{{.}}</li>
{{- end}}
      </ol>
    </section>
{{- else}}
    <p>You have not disputed anything. If something on this page is wrong, press "Dispute this" next to it and tell us what. The law gives us 30 days to look into it and answer you.</p>
{{- end}}
{{- end}}
{{- if .View.Revocations}}
    <h2 id="revocations">Consent you took back</h2>
{{- range .View.Revocations}}
    <section class="card">
      <h3>{{.When}}</h3>
      <dl>
        <dt>Your provider</dt><dd>{{.Told}}</dd>
        <dt>Deleted</dt><dd>{{.Deleted}}</dd>
        <dt>Kept</dt><dd>{{.Kept}}</dd>
{{- if .Reason}}
        <dt>Why kept</dt><dd>{{.Reason}}</dd>
{{- end}}
      </dl>
    </section>
{{- end}}
{{- end}}
{{- else}}
    <h1>{{.Title}}</h1>
    <p{{if .Status}} data-status="{{.Status}}"{{end}}>{{.Body}}</p>
{{- if .Form}}
    <form method="post" action="{{.Form.Action}}">
      <button type="submit"{{if .Form.Quiet}} class="quiet"{{end}}>{{.Form.Label}}</button>
    </form>
{{- end}}
{{- if .Muted}}
    <p class="muted">{{.Muted}}</p>
{{- end}}
{{- end}}
    <p class="muted">Payline connects payroll accounts for the companies that ask you to.</p>
  </main>
</body>
</html>
`)).Parse(disputeFormTemplate))

func (s *Server) personPageOf(w http.ResponseWriter, status int, d personPageData) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; form-action 'self'; frame-ancestors 'none'")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	_ = personPageTemplate.Execute(w, d) // a failed write is a client gone: no one left to tell
}
