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
		p, a, err := s.accounts.Product(r.Context(), scopeOf(r), accountID, product)
		if err != nil {
			return response{}, err
		}
		var data map[string]any
		if err := json.Unmarshal(p.Body, &data); err != nil {
			return response{}, err
		}
		data["id"], data["account_id"] = p.ID, accountID
		data["created_at"], data["updated_at"] = wire.Time(p.CreatedAt), wire.Time(p.UpdatedAt)
		resp := object(product, data)
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
	pg, a, err := s.accounts.Paystubs(r.Context(), scopeOf(r), r.PathValue("account_id"), from, p)
	if err != nil {
		return response{}, err
	}
	resp := page(resPaystub, mapAll(pg.Items, newPaystubJSON), pg.Next)
	resp.meta["refreshed_at"] = wire.Time(a.DataRefreshedAt[domain.ProductPaystubs])
	return resp, nil
}

func (s *Server) getPaystub(r *http.Request) (response, error) {
	p, err := s.accounts.Paystub(r.Context(), scopeOf(r), r.PathValue("account_id"), r.PathValue("paystub_id"))
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

// recordJSON renders a stored record with its id, account and time.
func recordJSON(r domain.Record) (map[string]any, error) {
	body := r.Body
	if r.Kind == domain.RecordShift {
		// Through domain.Shift, so shifts stored in the earlier shape are
		// served in the vendor's.
		var s domain.Shift
		if err := json.Unmarshal(body, &s); err != nil {
			return nil, err
		}
		body, _ = json.Marshal(s)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	out["id"], out["created_at"] = r.ID, wire.Time(r.CreatedAt)
	if r.Kind == domain.RecordTaxForm {
		// The vendor's tax form: form_type "W-2" and an integer year.
		out["form_type"] = domain.TaxFormType(fmt.Sprint(out["form_type"]))
		if y, err := strconv.Atoi(fmt.Sprint(out["year"])); err == nil {
			out["year"] = y
		}
		if r.Link != nil {
			out["document"] = r.Link
		}
	}
	if r.Kind == domain.RecordDocument {
		out["end_user_id"] = r.EndUserID
		if r.Link != nil {
			out["document"] = r.Link
		}
	} else {
		out["account_id"] = r.AccountID
	}
	return out, nil
}

func recordsJSON(rs []domain.Record) ([]map[string]any, error) {
	out := make([]map[string]any, len(rs))
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
		pg, a, err := s.accounts.AccountRecords(r.Context(), scopeOf(r), r.PathValue("account_id"), kind, product, p)
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
	pg, err := s.accounts.Documents(r.Context(), scopeOf(r), r.PathValue("end_user_id"), docType, p)
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
	f, err := s.accounts.TaxForm(r.Context(), scopeOf(r), r.PathValue("account_id"), r.PathValue("tax_form_id"))
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
	d, err := s.accounts.Document(r.Context(), scopeOf(r), r.PathValue("end_user_id"), r.PathValue("document_id"))
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
	es, err := s.accounts.EarningsStream(r.Context(), scopeOf(r), r.PathValue("end_user_id"))
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
	if err := s.accounts.SetBillNavigatorStatus(r.Context(), scopeOf(r), r.PathValue("end_user_id"), b.Action, b.Reason); err != nil {
		return response{}, err
	}
	return response{status: http.StatusNoContent}, nil
}

// newPaystubJSON is a paystub as REST shows it (the codec's API view).
func newPaystubJSON(p domain.Paystub) domain.APIPaystub { return domain.APIPaystub{Paystub: p} }
