package rest

import (
	"net/http"
	"time"

	"payline/domain"
	"payline/rest/wire"
)

const resDispute = "dispute"

// disputeRoutes are the customer's dispute API (docs/disputes.md): the
// list and one dispute, investigate and resolve, and a dispute filed on
// the person's behalf with the customer's key (the person's own page
// files through domain.DisputeService.OpenPersonDispute with its
// session).
func (s *Server) disputeRoutes() {
	if s.disputes == nil {
		return
	}
	s.handle("GET /v1/disputes", s.listDisputes)
	s.handle("GET /v1/disputes/{dispute_id}", s.getDispute)
	s.handle("POST /v1/disputes/{dispute_id}/investigate", s.investigateDispute)
	s.handle("POST /v1/disputes/{dispute_id}/resolve", s.resolveDispute)
	s.handle("POST /v1/end_users/{end_user_id}/disputes", s.openDispute)
	s.handle("POST /v1/end_users/{end_user_id}/disputes/{dispute_id}/information", s.addDisputeInformation)
}

type disputeItemJSON struct {
	Type       string  `json:"type"`
	ID         *string `json:"id"`
	Field      *string `json:"field"`
	ReportType *string `json:"report_type,omitempty"`
	AccountID  *string `json:"account_id"`
}

type furnisherNoticeJSON struct {
	Status     string     `json:"status"`
	Route      *string    `json:"route"`
	DueAt      wire.Time  `json:"due_at"`
	NotifiedAt *wire.Time `json:"notified_at"`
	Reference  *string    `json:"reference"`
	Reason     *string    `json:"reason"`
}

type disputeStepJSON struct {
	Status  domain.DisputeStatus   `json:"status"`
	Outcome *domain.DisputeOutcome `json:"outcome,omitempty"`
	By      string                 `json:"by"`
	At      wire.Time              `json:"at"`
	Reason  *string                `json:"reason,omitempty"`
}

type disputeInformationJSON struct {
	Note       string    `json:"note"`
	DocumentID *string   `json:"document_id"`
	At         wire.Time `json:"at"`
}

type disputeJSON struct {
	ID                  string                   `json:"id"`
	EndUserID           string                   `json:"end_user_id"`
	Status              domain.DisputeStatus     `json:"status"`
	Outcome             *domain.DisputeOutcome   `json:"outcome"`
	Reason              *string                  `json:"reason"`
	Item                disputeItemJSON          `json:"item"`
	Note                string                   `json:"note"`
	DocumentID          *string                  `json:"document_id"`
	ReceivedAt          wire.Time                `json:"received_at"`
	DueAt               wire.Time                `json:"due_at"`
	ExtendedAt          *wire.Time               `json:"extended_at"`
	Overdue             bool                     `json:"overdue"`
	FurnisherNotifiedAt *wire.Time               `json:"furnisher_notified_at"`
	FurnisherNotice     furnisherNoticeJSON      `json:"furnisher_notice"`
	ResolvedAt          *wire.Time               `json:"resolved_at"`
	Steps               []disputeStepJSON        `json:"steps"`
	Information         []disputeInformationJSON `json:"information"`
}

func optText(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func optTime(t *time.Time) *wire.Time {
	if t == nil {
		return nil
	}
	v := wire.Time(*t)
	return &v
}

// newDisputeJSON is a dispute as the API shows it; overdue is judged at
// now.
func newDisputeJSON(d domain.Dispute, now time.Time) disputeJSON {
	out := disputeJSON{ID: d.ID, EndUserID: d.EndUserID, Status: d.Status, Reason: optText(d.Reason),
		Item: disputeItemJSON{Type: d.Item.Type, ID: optText(d.Item.ID), Field: optText(d.Item.Field), ReportType: optText(d.Item.ReportType),
			AccountID: optText(d.Item.AccountID)},
		Note: d.Note, DocumentID: optText(d.DocumentID), ReceivedAt: wire.Time(d.ReceivedAt), DueAt: wire.Time(d.DueAt),
		ExtendedAt: optTime(d.ExtendedAt), Overdue: d.Overdue(now), FurnisherNotifiedAt: optTime(d.Notice.NotifiedAt),
		FurnisherNotice: furnisherNoticeJSON{Status: d.Notice.Status, Route: optText(d.Notice.Route), DueAt: wire.Time(d.Notice.DueAt),
			NotifiedAt: optTime(d.Notice.NotifiedAt), Reference: optText(d.Notice.Reference), Reason: optText(d.Notice.Reason)},
		ResolvedAt: optTime(d.ResolvedAt), Steps: []disputeStepJSON{}, Information: []disputeInformationJSON{}}
	if d.Outcome != "" {
		o := d.Outcome
		out.Outcome = &o
	}
	for _, st := range d.Steps {
		j := disputeStepJSON{Status: st.Status, By: st.By, At: wire.Time(st.At), Reason: optText(st.Reason)}
		if st.Outcome != "" {
			o := st.Outcome
			j.Outcome = &o
		}
		out.Steps = append(out.Steps, j)
	}
	for _, in := range d.Information {
		out.Information = append(out.Information, disputeInformationJSON{Note: in.Note, DocumentID: optText(in.DocumentID), At: wire.Time(in.At)})
	}
	return out
}

func (s *Server) disputeObject(d domain.Dispute) response {
	return object(resDispute, newDisputeJSON(d, s.disputes.Now()))
}

// listDisputes is GET /v1/disputes: newest receipt first, narrowed by
// end_user_id, status (open, investigating, resolved) and overdue=true.
func (s *Server) listDisputes(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	var f domain.DisputeFilter
	f.EndUserID, _ = q.str("end_user_id")
	status, _ := q.str("status")
	overdue := q.boolean("overdue")
	p := q.page(domain.ListDisputes)
	if err := q.err(); err != nil {
		return response{}, err
	}
	st, err := domain.ParseDisputeStatus(status)
	if err != nil {
		return response{}, err
	}
	f.Status, f.Overdue = st, overdue != nil && *overdue
	pg, err := s.disputes.Disputes(r.Context(), scopeOf(r), f, p)
	if err != nil {
		return response{}, err
	}
	now := s.disputes.Now()
	return page(resDispute, mapAll(pg.Items, func(d domain.Dispute) disputeJSON { return newDisputeJSON(d, now) }), pg.Next), nil
}

func (s *Server) getDispute(r *http.Request) (response, error) {
	d, err := s.disputes.Dispute(r.Context(), scopeOf(r), r.PathValue("dispute_id"))
	if err != nil {
		return response{}, err
	}
	return s.disputeObject(d), nil
}

func (s *Server) investigateDispute(r *http.Request) (response, error) {
	d, err := s.disputes.Investigate(r.Context(), scopeOf(r), r.PathValue("dispute_id"))
	if err != nil {
		return response{}, err
	}
	return s.disputeObject(d), nil
}

// resolveBody is the body of POST /v1/disputes/{dispute_id}/resolve.
type resolveBody struct {
	Outcome domain.DisputeOutcome `json:"outcome"`
	Reason  string                `json:"reason"`
}

func (s *Server) resolveDispute(r *http.Request) (response, error) {
	var b resolveBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	d, err := s.disputes.Resolve(r.Context(), scopeOf(r), r.PathValue("dispute_id"), domain.ResolveRequest{Outcome: b.Outcome, Reason: b.Reason})
	if err != nil {
		return response{}, err
	}
	return s.disputeObject(d), nil
}

// openDisputeBody is the body of POST /v1/end_users/{end_user_id}/disputes.
type openDisputeBody struct {
	Item struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Field      string `json:"field"`
		ReportType string `json:"report_type"`
	} `json:"item"`
	Note       string `json:"note"`
	DocumentID string `json:"document_id"`
}

// openDispute is POST /v1/end_users/{end_user_id}/disputes: the customer
// files the person's dispute on their behalf with its API key; the steps
// name the key.
func (s *Server) openDispute(r *http.Request) (response, error) {
	var b openDisputeBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	d, err := s.disputes.OpenDispute(r.Context(), scopeOf(r), r.PathValue("end_user_id"), domain.DisputeRequest{
		Item: domain.DisputeItem{Type: b.Item.Type, ID: b.Item.ID, Field: b.Item.Field, ReportType: b.Item.ReportType},
		Note: b.Note, DocumentID: b.DocumentID}, domain.ActorOf(r.Context()))
	if err != nil {
		return response{}, err
	}
	resp := s.disputeObject(d)
	resp.status = http.StatusCreated
	return resp, nil
}

// informationBody is new information the person brings to a dispute.
type informationBody struct {
	Note       string `json:"note"`
	DocumentID string `json:"document_id"`
}

// addDisputeInformation is POST .../disputes/{dispute_id}/information:
// new information the person brought, passed on by the customer; the
// first during the period extends the due time to 45 days.
func (s *Server) addDisputeInformation(r *http.Request) (response, error) {
	var b informationBody
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	d, err := s.disputes.AddInformation(r.Context(), scopeOf(r), r.PathValue("end_user_id"), r.PathValue("dispute_id"), b.Note, b.DocumentID)
	if err != nil {
		return response{}, err
	}
	return s.disputeObject(d), nil
}
