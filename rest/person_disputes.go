package rest

import (
	"mime"
	"net/http"
	"sort"
	"strings"
	"time"

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
	// The page's own form posts here too, as a form without script: it
	// is answered with the page; JSON with JSON.
	asJSON := s.personJSON(s.openPersonDispute)
	asForm := s.sameSitePost(s.disputeFromPage)
	s.mux.Handle("POST "+personPath+"/disputes", s.unvouched(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if t, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); t == "application/x-www-form-urlencoded" {
			asForm(w, r)
			return
		}
		asJSON(w, r)
	})))
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

// disputeFromPage opens the dispute the page's "Dispute this" form names
// (item_type, item_id, field, report_type and the person's note), then
// shows the page at its disputes.
func (s *Server) disputeFromPage(w http.ResponseWriter, r *http.Request) {
	sess, ok := s.personSession(w, r)
	if !ok {
		return
	}
	_, err := s.disputes.OpenPersonDispute(r.Context(), sess, domain.DisputeRequest{
		Item: domain.DisputeItem{Type: r.PostFormValue("item_type"), ID: r.PostFormValue("item_id"), Field: r.PostFormValue("field"),
			ReportType: r.PostFormValue("report_type")},
		Note: r.PostFormValue("note")})
	if err != nil {
		s.personFailure(w, r, err)
		return
	}
	http.Redirect(w, r, personPath+"?done=disputed#disputes", http.StatusSeeOther)
}

// disputeFormData is one "Dispute this" form: the item it names and the
// item in words.
type disputeFormData struct {
	Key, Type, ID, Field, ReportType, What string
}

type personPaystubData struct {
	ID, Paid, Net, Gross string
	NetForm, GrossForm   disputeFormData
}

type personDisputeData struct {
	ID, What, Status, StatusKey, Received, Due, Told, Note string
	Overdue                                                bool
	Steps                                                  []string
}

// personDisputes draws the person's disputes in words. names are the
// items the page knows (paystubs, employments), by item id.
func personDisputes(ds []domain.Dispute, names map[string]string, customer string, now time.Time) []personDisputeData {
	var out []personDisputeData
	for _, d := range ds {
		what := names[d.Item.ID]
		switch d.Item.Type {
		case domain.DisputedPaystub:
			if what == "" {
				what = "a paystub"
			}
			if d.Item.Field != "" {
				what = "the " + fieldWords(d.Item.Field) + " of " + what
			}
		case domain.DisputedEmployment:
			if what == "" {
				what = "an employment"
			}
		case domain.DisputedReportField:
			what = "your " + strings.ToLower(reportTitle(d.Item.ReportType)) + " report"
		case domain.DisputedDocument:
			what = "a document you uploaded"
		default:
			what = "an item"
		}
		p := personDisputeData{ID: d.ID, What: what, StatusKey: string(d.Status), Received: d.ReceivedAt.UTC().Format(personDate),
			Due: d.DueAt.UTC().Format(personDate), Note: d.Note, Overdue: d.Overdue(now)}
		switch d.Status {
		case domain.DisputeOpen:
			p.Status = "Received"
		case domain.DisputeInvestigating:
			p.Status = "Being checked"
		case domain.DisputeResolved:
			p.Status = "Answered: " + outcomeWords(d.Outcome)
		}
		n := d.Notice
		switch n.Status {
		case domain.NoticeAcknowledged:
			p.Told = "Yes"
			if n.NotifiedAt != nil {
				p.Told += ", on " + n.NotifiedAt.UTC().Format(personDate)
			}
		case domain.NoticePending:
			p.Told = "Not yet: we must tell your payroll provider by " + n.DueAt.UTC().Format(personDate)
		case domain.NoticeNoFurnisher:
			p.Told = "No one to tell: " + n.Reason
		default:
			p.Told = "No: " + n.Reason
		}
		type step struct {
			at   time.Time
			text string
		}
		var steps []step
		for _, st := range d.Steps {
			var t string
			switch st.Status {
			case domain.DisputeOpen:
				t = "We received your dispute. We must answer by " + d.ReceivedAt.AddDate(0, 0, domain.DisputeDays).UTC().Format(personDate) + "."
				if st.By != domain.ActorEndUser {
					t = customer + " sent us your dispute. We must answer by " + d.ReceivedAt.AddDate(0, 0, domain.DisputeDays).UTC().Format(personDate) + "."
				}
			case domain.DisputeInvestigating:
				t = customer + " began checking it."
			case domain.DisputeResolved:
				t = "Answered: " + outcomeWords(st.Outcome) + "."
				if st.Reason != "" {
					t += " Why: " + st.Reason
				}
			}
			steps = append(steps, step{st.At, t})
		}
		for _, in := range d.Information {
			steps = append(steps, step{in.At, "You added information."})
		}
		if d.ExtendedAt != nil {
			steps = append(steps, step{*d.ExtendedAt, "Because you added information, we now have until " + d.DueAt.UTC().Format(personDate) + " to answer."})
		}
		if n.NotifiedAt != nil {
			steps = append(steps, step{*n.NotifiedAt, "Your payroll provider was told of your dispute."})
		}
		sort.SliceStable(steps, func(i, j int) bool { return steps[i].at.Before(steps[j].at) })
		for _, st := range steps {
			p.Steps = append(p.Steps, st.at.UTC().Format(personDate)+": "+st.text)
		}
		out = append(out, p)
	}
	return out
}

// fieldWords names a paystub's field in words ("net pay").
func fieldWords(field string) string {
	return strings.ReplaceAll(strings.TrimSuffix(field, "_amount"), "_", " ")
}

func outcomeWords(o domain.DisputeOutcome) string {
	switch o {
	case domain.DisputeCorrected:
		return "corrected"
	case domain.DisputeVerified:
		return "checked and found right as it was"
	case domain.DisputeDeleted:
		return "deleted"
	}
	return string(o)
}

// day is a pay date as people read it ("January 2, 2026"), or as stored
// when it does not parse.
func day(d domain.Date) string {
	t, err := time.Parse(time.DateOnly, d.String())
	if err != nil {
		return d.String()
	}
	return t.Format("January 2, 2006")
}

// disputeFormTemplate is "Dispute this": a native <details> (the page has
// no script) opening a form that asks only what is wrong, in the
// person's words, and posts it to /me/disputes.
const disputeFormTemplate = `{{define "dispute"}}      <details class="dispute">
        <summary aria-label="Dispute this: {{.What}}">Dispute this</summary>
        <form method="post" action="/me/disputes">
          <input type="hidden" name="item_type" value="{{.Type}}">
{{- if .ID}}
          <input type="hidden" name="item_id" value="{{.ID}}">
{{- end}}
{{- if .Field}}
          <input type="hidden" name="field" value="{{.Field}}">
{{- end}}
{{- if .ReportType}}
          <input type="hidden" name="report_type" value="{{.ReportType}}">
{{- end}}
          <label for="note-{{.Key}}">What is wrong with {{.What}}? Tell us in your own words.</label>
          <textarea id="note-{{.Key}}" name="note" rows="4" maxlength="4000" required></textarea>
          <button type="submit">Send my dispute</button>
        </form>
      </details>
{{end}}`
