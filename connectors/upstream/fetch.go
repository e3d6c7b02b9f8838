package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// doKept reads a single-object product the upstream keeps into v, and
// its id and times there into origin.
func (c *Client) doKept(ctx context.Context, path string, v any, origin *domain.RecordOrigin) error {
	k := &kept{v: v}
	err := c.do(ctx, "GET", path, nil, k)
	*origin = k.origin
	return err
}

// Fetch implements domain.Connector: a data product of a connected
// account, read from the upstream's REST API (every page of a list). The
// upstream's product bodies are the spec's shapes, which the domain's
// types read directly; amounts stay integer cents throughout.
func (c *Client) Fetch(ctx context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	base := "/v1/accounts/" + url.PathEscape(r.Account.ID)
	var f domain.Fetched
	var err error
	switch r.Product {
	case domain.ProductIdentity:
		f.Identity = new(domain.Identity)
		err = c.doKept(ctx, base+"/identity", f.Identity, &f.Origin)
	case domain.ProductEmployment:
		f.Employment = new(domain.Employment)
		err = c.doKept(ctx, base+"/employment", f.Employment, &f.Origin)
	case domain.ProductIncome:
		f.Income = new(domain.Income)
		err = c.doKept(ctx, base+"/income", f.Income, &f.Origin)
	case domain.ProductAllocations:
		var body struct {
			Allocations []domain.DepositAllocation `json:"allocations"`
		}
		err = c.doKept(ctx, base+"/direct_deposit_allocations", &body, &f.Origin)
		f.Allocations = body.Allocations
	case domain.ProductPaystubs:
		q := url.Values{}
		if !r.Since.IsZero() {
			q.Set("from_pay_date", r.Since.UTC().Format(time.DateOnly))
		}
		err = each(ctx, c, base+"/paystubs", q, func(items []domain.Paystub) (bool, error) {
			f.Paystubs = append(f.Paystubs, items...)
			return true, nil
		})
	case domain.ProductShifts:
		err = each(ctx, c, base+"/shifts", nil, func(items []json.RawMessage) (bool, error) {
			for _, raw := range items {
				var s domain.DatedShift
				if err := json.Unmarshal(raw, &s.Shift); err != nil {
					return false, err
				}
				var id struct {
					ID string `json:"id"`
				}
				if err := json.Unmarshal(raw, &id); err != nil {
					return false, err
				}
				s.ID = id.ID
				f.Shifts = append(f.Shifts, s)
			}
			return true, nil
		})
	case domain.ProductTaxForms:
		err = each(ctx, c, base+"/tax_forms", nil, func(items []struct {
			ID         string    `json:"id"`
			FormType   string    `json:"form_type"`
			DocumentID string    `json:"document_id"`
			ParsedData domain.W2 `json:"parsed_data"`
		}) (bool, error) {
			for _, t := range items {
				if t.FormType != "W-2" && t.FormType != "w2" {
					continue // only W-2s are stored here
				}
				f.W2s = append(f.W2s, domain.DatedW2{TaxFormID: t.ID, DocumentID: t.DocumentID, W2: t.ParsedData})
			}
			return true, nil
		})
		// Each form's document, as the upstream holds it.
		endUser := domain.UpstreamEndUser(r.Account.CustomerID, r.Account.EndUserID)
		for i := 0; err == nil && i < len(f.W2s); i++ {
			if f.W2s[i].DocumentID == "" {
				continue
			}
			var doc domain.Document
			if doc, err = c.document(ctx, endUser, f.W2s[i].DocumentID); err == nil {
				f.W2s[i].File = &doc
			}
		}
	default:
		return f, fmt.Errorf("the upstream relay does not read %s yet", r.Product)
	}
	if err != nil {
		return domain.Fetched{}, fmt.Errorf("read %s of upstream account %s: %w", r.Product, r.Account.ID, err)
	}
	return f, nil
}

// cents parses a dollar amount from its JSON text, never through a float.
func cents(raw json.RawMessage) (*int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	m, err := domain.ParseDollars(domain.Number(raw), domain.UpToTwoPlaces)
	if err != nil {
		return nil, err
	}
	return &m.Amount, nil
}

func percent(raw json.RawMessage) (int, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	// Whole percentages, 0 included (a platform without percentage
	// switches says 0); a vendor may write 10.0.
	n, err := strconv.Atoi(strings.TrimSuffix(string(raw), ".0"))
	if err != nil || n < 0 || n > 100 {
		return 0, fmt.Errorf("not a whole percentage from 0 to 100: %s", raw)
	}
	return n, nil
}
