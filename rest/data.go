package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"payline/domain"
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
		data["created_at"], data["updated_at"] = apiTime(p.CreatedAt), apiTime(p.UpdatedAt)
		resp := object(product, data)
		resp.meta = map[string]any{"refreshed_at": apiTime(a.DataRefreshedAt[product])}
		return resp, nil
	}
}

// paystubJSON is a paystub with the spec's fields; the itemised taxes and
// deductions stay internal (they feed W-2s).
type paystubJSON struct {
	ID                  string           `json:"id"`
	AccountID           string           `json:"account_id"`
	PayDate             string           `json:"pay_date"`
	PayPeriodStart      string           `json:"pay_period_start"`
	PayPeriodEnd        string           `json:"pay_period_end"`
	GrossPayAmount      int64            `json:"gross_pay_amount"`
	GrossPayYTD         int64            `json:"gross_pay_ytd"`
	NetPayAmount        int64            `json:"net_pay_amount"`
	NetPayYTD           int64            `json:"net_pay_ytd"`
	CheckAmount         int64            `json:"check_amount"`
	TotalTaxes          int64            `json:"total_taxes"`
	TotalDeductions     int64            `json:"total_deductions"`
	TotalReimbursements int64            `json:"total_reimbursements"`
	Currency            string           `json:"currency"`
	EmployerName        string           `json:"employer_name"`
	ExternalPaystubID   string           `json:"external_paystub_id"`
	Earnings            []domain.PayLine `json:"earnings"`
	CreatedAt           apiTime          `json:"created_at"`
}

func newPaystubJSON(p domain.Paystub) paystubJSON {
	return paystubJSON{ID: p.ID, AccountID: p.AccountID, PayDate: p.PayDate, PayPeriodStart: p.PayPeriodStart,
		PayPeriodEnd: p.PayPeriodEnd, GrossPayAmount: p.GrossPayAmount, GrossPayYTD: p.GrossPayYTD,
		NetPayAmount: p.NetPayAmount, NetPayYTD: p.NetPayYTD, CheckAmount: p.CheckAmount, TotalTaxes: p.TotalTaxes,
		TotalDeductions: p.TotalDeductions, TotalReimbursements: p.TotalReimbursements, Currency: p.Currency,
		EmployerName: p.EmployerName, ExternalPaystubID: p.ExternalPaystubID, Earnings: p.Earnings, CreatedAt: apiTime(p.CreatedAt)}
}

func (s *Server) listPaystubs(r *http.Request) (response, error) {
	q := newQuery(r.URL)
	from, _ := q.str("from_pay_date")
	if from != "" {
		if _, err := time.Parse(time.DateOnly, from); err != nil {
			q.p.Invalid("from_pay_date", "must be a date in YYYY-MM-DD form, got %q", from)
		}
	}
	p := q.page(domain.ListPaystubs)
	if err := q.err(); err != nil {
		return response{}, err
	}
	pg, a, err := s.accounts.Paystubs(r.Context(), scopeOf(r), r.PathValue("account_id"), from, p)
	if err != nil {
		return response{}, err
	}
	resp := page(resPaystub, mapAll(pg.Items, newPaystubJSON), pg.Next)
	resp.meta["refreshed_at"] = apiTime(a.DataRefreshedAt[domain.ProductPaystubs])
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
