package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"payline/domain"
	"payline/rest/wire"
)

// productHandler serves GET /accounts/{id}/<product>: {data, meta}, where
// data is the stored product with its id, account_id and times, and
// meta.refreshed_at says when it was last read from the platform.
func (s *Server) productHandler(product string) apiHandler {
	return func(r *http.Request) (response, error) {
		accountID := r.PathValue("account_id")
		p, a, err := s.products.Product(r.Context(), scopeOf(r), accountID, product)
		if err != nil {
			return response{}, err
		}
		v, _ := p.Of(product)
		resp := object(product, withFields{
			fields: productFields{ID: p.ID, AccountID: accountID, CreatedAt: wire.Time(p.CreatedAt), UpdatedAt: wire.Time(p.UpdatedAt)},
			object: v})
		resp.meta = map[string]any{"refreshed_at": wire.Time(a.DataRefreshedAt[product])}
		return resp, nil
	}
}

func (s *Server) listPaystubs(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	from, _ := q.str("from_pay_date") // checked by the domain, as for GraphQL
	p := q.page(domain.ListPaystubs)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, a, err := s.products.Paystubs(r.Context(), scopeOf(r), r.PathValue("account_id"), from, p)
	if err != nil {
		return response{}, err
	}
	resp := page(resPaystub, mapAll(pg.Items, newPaystubJSON), pg.Next)
	resp.meta["refreshed_at"] = wire.Time(a.DataRefreshedAt[domain.ProductPaystubs])
	return resp, nil
}

func (s *Server) getPaystub(r *http.Request) (response, error) {
	p, err := s.products.Paystub(r.Context(), scopeOf(r), r.PathValue("account_id"), r.PathValue("paystub_id"))
	if err != nil {
		return response{}, err
	}
	return object(resPaystub, newPaystubJSON(p)), nil
}

func (s *Server) disconnect(r *http.Request) (response, error) {
	if err := s.accounts.Disconnect(r.Context(), scopeOf(r), r.PathValue("account_id")); err != nil {
		return response{}, err
	}
	return response{status: http.StatusNoContent}, nil
}

func (s *Server) disableMonitoring(r *http.Request) (response, error) {
	if err := s.accounts.DisableMonitoring(r.Context(), scopeOf(r), r.PathValue("account_id")); err != nil {
		return response{}, err
	}
	return response{status: http.StatusNoContent}, nil
}

// productFields are what REST adds to a stored product: its id, account
// and times.
type productFields struct {
	ID        string    `json:"id"`
	AccountID string    `json:"account_id"`
	CreatedAt wire.Time `json:"created_at"`
	UpdatedAt wire.Time `json:"updated_at"`
}

// withFields writes an object's JSON with some fields of REST's before
// its own: {fields..., object's fields...}. Both must write objects.
type withFields struct {
	fields any
	object any
}

// MarshalJSON implements json.Marshaler.
func (w withFields) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(w.fields)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(w.object)
	if err != nil {
		return nil, err
	}
	if len(head) < 2 || len(body) < 2 || head[0] != '{' || body[0] != '{' {
		return nil, fmt.Errorf("withFields: %T and %T must write objects", w.fields, w.object)
	}
	if len(body) == 2 { // {}
		return head, nil
	}
	return append(append(head[:len(head)-1], ','), body[1:]...), nil
}

// taxFormJSON is a tax form as REST shows it: the vendor's form_type
// ("W-2") and an integer year, with its document's fresh link.
type taxFormJSON struct {
	ID         string               `json:"id"`
	AccountID  string               `json:"account_id"`
	CreatedAt  wire.Time            `json:"created_at"`
	Year       int                  `json:"year"`
	FormType   string               `json:"form_type"`
	DocumentID string               `json:"document_id"`
	Document   *domain.DocumentLink `json:"document,omitempty"`
	ParsedData domain.W2            `json:"parsed_data"`
}

// recordFields are what REST adds to a shift or a document: its id, its
// account (a shift) or end user (a document), and when it was stored.
type recordFields struct {
	ID        string    `json:"id"`
	AccountID string    `json:"account_id,omitempty"`
	EndUserID string    `json:"end_user_id,omitempty"`
	CreatedAt wire.Time `json:"created_at"`
}

// recordJSON renders a stored record with its id, account and time.
func recordJSON(r domain.Record) (any, error) {
	switch {
	case r.TaxForm != nil:
		year, _ := strconv.Atoi(r.TaxForm.Year)
		return taxFormJSON{ID: r.ID, AccountID: r.AccountID, CreatedAt: wire.Time(r.CreatedAt), Year: year,
			FormType: domain.TaxFormType(r.TaxForm.FormType), DocumentID: r.TaxForm.DocumentID, Document: r.Link,
			ParsedData: r.TaxForm.ParsedData}, nil
	case r.Shift != nil:
		return withFields{fields: recordFields{ID: r.ID, AccountID: r.AccountID, CreatedAt: wire.Time(r.CreatedAt)}, object: r.Shift}, nil
	case r.Document != nil:
		body := *r.Document
		if l := r.Link; l != nil {
			body.Document = &domain.DocumentRef{ID: l.ID, DownloadURL: &l.DownloadURL, DownloadURLExpiration: &l.DownloadURLExpiration}
		}
		return withFields{fields: recordFields{ID: r.ID, EndUserID: r.EndUserID, CreatedAt: wire.Time(r.CreatedAt)}, object: body}, nil
	}
	return nil, fmt.Errorf("%s record %s has no body", r.Kind, r.ID)
}

func recordsJSON(rs []domain.Record) ([]any, error) {
	out := make([]any, len(rs))
	for i, r := range rs {
		var err error
		if out[i], err = recordJSON(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Server) accountRecords(kind, product string) apiHandler {
	return func(r *http.Request) (response, error) {
		q := newQuery(r.URL)
		p := q.page(kind)
		if err := q.err(); err != nil {
			return response{}, err
		}
		pg, a, err := s.products.AccountRecords(r.Context(), scopeOf(r), r.PathValue("account_id"), kind, product, p)
		if err != nil {
			return response{}, err
		}
		items, err := recordsJSON(pg.Items)
		if err != nil {
			return response{}, err
		}
		resp := page(kind, items, pg.Next)
		resp.meta["refreshed_at"] = wire.Time(a.DataRefreshedAt[product])
		return resp, nil
	}
}

func (s *Server) listDocuments(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	docType, _ := q.str("type")
	if docType != "" && docType != "direct_deposit_form" && docType != "w2" {
		q.p.Invalid("type", "must be direct_deposit_form or w2, got %q", docType)
	}
	p := q.page(domain.RecordDocument)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, err := s.documents.Documents(r.Context(), scopeOf(r), r.PathValue("end_user_id"), docType, p)
	if err != nil {
		return response{}, err
	}
	items, err := recordsJSON(pg.Items)
	if err != nil {
		return response{}, err
	}
	return page(domain.RecordDocument, items, pg.Next), nil
}

func (s *Server) getTaxForm(r *http.Request) (response, error) {
	f, err := s.documents.TaxForm(r.Context(), scopeOf(r), r.PathValue("account_id"), r.PathValue("tax_form_id"))
	if err != nil {
		return response{}, err
	}
	out, err := recordJSON(f)
	if err != nil {
		return response{}, err
	}
	return object(domain.RecordTaxForm, out), nil
}

func (s *Server) getDocument(r *http.Request) (response, error) {
	d, err := s.documents.Document(r.Context(), scopeOf(r), r.PathValue("end_user_id"), r.PathValue("document_id"))
	if err != nil {
		return response{}, err
	}
	out, err := recordJSON(d)
	if err != nil {
		return response{}, err
	}
	return object(domain.RecordDocument, out), nil
}

func (s *Server) earningsStream(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	p := q.page("earnings_stream_payouts")
	if err := q.err(); err != nil {
		return response{}, err
	}
	es, err := s.endUsers.EarningsStream(r.Context(), scopeOf(r), r.PathValue("end_user_id"))
	if err != nil {
		return response{}, err
	}
	payouts := es.Payouts
	if p.Cursor != nil {
		i := 0
		for i < len(payouts) && payouts[i].PayDate <= p.Cursor.Key {
			i++
		}
		payouts = payouts[i:]
	}
	pg := domain.PageOf("earnings_stream_payouts", payouts, p.Limit, func(x domain.Payout) (string, string) { return x.PayDate, x.PayDate })
	resp := page("earnings_stream_payout", pg.Items, pg.Next)
	var refreshed, updated any
	if !es.RefreshedAt.IsZero() {
		refreshed, updated = wire.Time(es.RefreshedAt), wire.Time(es.UpdatedAt)
	}
	resp.meta["refreshed_at"], resp.meta["updated_at"] = refreshed, updated
	return resp, nil
}

func (s *Server) billNavigatorStatus(r *http.Request) (response, error) {
	var b struct {
		Action string `json:"action"`
		Reason string `json:"reason"`
	}
	if err := wire.Decode(r, &b); err != nil {
		return response{}, err
	}
	if err := s.endUsers.SetBillNavigatorStatus(r.Context(), scopeOf(r), r.PathValue("end_user_id"), b.Action, b.Reason); err != nil {
		return response{}, err
	}
	return response{status: http.StatusNoContent}, nil
}

// newPaystubJSON is a paystub as REST shows it (the codec's API view).
func newPaystubJSON(p domain.Paystub) any { return p.APIView() }
