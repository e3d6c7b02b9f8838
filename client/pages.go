package client

import (
	"context"
	"iter"
	"net/http"

	"payline.dev/client/api"
)

// Each list endpoint has an iterator that follows meta.next_cursor from
// the first page to the last, fetching a page only when the loop needs
// it. params (nil for none) sets the filters and the page size; its
// cursor is the iterator's to set. An error ends the loop:
//
//	for stub, err := range c.Paystubs(ctx, accountID, nil) {
//		if err != nil {
//			return err
//		}
//		...
//	}

// each yields the items of every page that page returns, given the
// cursor of the page to fetch (nil for the first).
func each[T any](page func(cursor *string) ([]T, *string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var cursor *string
		for {
			items, next, err := page(cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == nil || *next == "" {
				return
			}
			cursor = next
		}
	}
}

// unexpected is the error for a success answer that was not the JSON
// the API describes.
func unexpected(resp *http.Response) error {
	return &Error{StatusCode: resp.StatusCode, Type: "UNEXPECTED_RESPONSE",
		Message:   "the answer was " + resp.Header.Get("Content-Type") + ", not the JSON the API describes",
		RequestID: resp.Header.Get("x-service-request-id")}
}

// copyOf returns a copy of *p (or a zero P) for an iterator to set the
// cursor on without changing the caller's.
func copyOf[P any](p *P) P {
	if p == nil {
		var zero P
		return zero
	}
	return *p
}

// Employers iterates over ListEmployers's items.
func (c *Client) Employers(ctx context.Context, params *api.ListEmployersParams) iter.Seq2[api.Employer, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Employer, *string, error) {
		p.Cursor = cursor
		r, err := c.ListEmployersWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Platforms iterates over ListPlatforms's items.
func (c *Client) Platforms(ctx context.Context, params *api.ListPlatformsParams) iter.Seq2[api.Platform, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Platform, *string, error) {
		p.Cursor = cursor
		r, err := c.ListPlatformsWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Jobs iterates over ListJobs's items.
func (c *Client) Jobs(ctx context.Context, params *api.ListJobsParams) iter.Seq2[api.Job, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Job, *string, error) {
		p.Cursor = cursor
		r, err := c.ListJobsWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Accounts iterates over ListAccounts's items.
func (c *Client) Accounts(ctx context.Context, params *api.ListAccountsParams) iter.Seq2[api.Account, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Account, *string, error) {
		p.Cursor = cursor
		r, err := c.ListAccountsWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// EndUserAccounts iterates over ListEndUserAccounts's items.
func (c *Client) EndUserAccounts(ctx context.Context, endUserID string, params *api.ListEndUserAccountsParams) iter.Seq2[api.Account, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Account, *string, error) {
		p.Cursor = cursor
		r, err := c.ListEndUserAccountsWithResponse(ctx, endUserID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Paystubs iterates over ListPaystubs's items.
func (c *Client) Paystubs(ctx context.Context, accountID string, params *api.ListPaystubsParams) iter.Seq2[api.Paystub, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Paystub, *string, error) {
		p.Cursor = cursor
		r, err := c.ListPaystubsWithResponse(ctx, accountID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Shifts iterates over ListShifts's items.
func (c *Client) Shifts(ctx context.Context, accountID string, params *api.ListShiftsParams) iter.Seq2[api.Shift, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Shift, *string, error) {
		p.Cursor = cursor
		r, err := c.ListShiftsWithResponse(ctx, accountID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// TaxForms iterates over ListTaxForms's items.
func (c *Client) TaxForms(ctx context.Context, accountID string, params *api.ListTaxFormsParams) iter.Seq2[api.TaxForm, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.TaxForm, *string, error) {
		p.Cursor = cursor
		r, err := c.ListTaxFormsWithResponse(ctx, accountID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Documents iterates over ListDocuments's items.
func (c *Client) Documents(ctx context.Context, endUserID string, params *api.ListDocumentsParams) iter.Seq2[api.Document, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Document, *string, error) {
		p.Cursor = cursor
		r, err := c.ListDocumentsWithResponse(ctx, endUserID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// DocumentReviews iterates over ListDocumentReviews's items: the review
// queue, newest upload first.
func (c *Client) DocumentReviews(ctx context.Context, params *api.ListDocumentReviewsParams) iter.Seq2[api.Document, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Document, *string, error) {
		p.Cursor = cursor
		r, err := c.ListDocumentReviewsWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Payouts iterates over ListEarningsStreamPayouts's items.
func (c *Client) Payouts(ctx context.Context, endUserID string, params *api.ListEarningsStreamPayoutsParams) iter.Seq2[api.Payout, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Payout, *string, error) {
		p.Cursor = cursor
		r, err := c.ListEarningsStreamPayoutsWithResponse(ctx, endUserID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Webhooks iterates over ListWebhooks's items.
func (c *Client) Webhooks(ctx context.Context, params *api.ListWebhooksParams) iter.Seq2[api.Webhook, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Webhook, *string, error) {
		p.Cursor = cursor
		r, err := c.ListWebhooksWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// LinkOrders iterates over ListLinkOrders's items.
func (c *Client) LinkOrders(ctx context.Context, params *api.ListLinkOrdersParams) iter.Seq2[api.LinkOrder, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.LinkOrder, *string, error) {
		p.Cursor = cursor
		r, err := c.ListLinkOrdersWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// Disputes iterates over ListDisputes's items.
func (c *Client) Disputes(ctx context.Context, params *api.ListDisputesParams) iter.Seq2[api.Dispute, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.Dispute, *string, error) {
		p.Cursor = cursor
		r, err := c.ListDisputesWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// WebhookDeliveries iterates over ListWebhookDeliveries's items.
func (c *Client) WebhookDeliveries(ctx context.Context, webhookID string, params *api.ListWebhookDeliveriesParams) iter.Seq2[api.WebhookDelivery, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.WebhookDelivery, *string, error) {
		p.Cursor = cursor
		r, err := c.ListWebhookDeliveriesWithResponse(ctx, webhookID, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}

// APIKeys iterates over ListAPIKeys's items.
func (c *Client) APIKeys(ctx context.Context, params *api.ListAPIKeysParams) iter.Seq2[api.APIKey, error] {
	p := copyOf(params)
	return each(func(cursor *string) ([]api.APIKey, *string, error) {
		p.Cursor = cursor
		r, err := c.ListAPIKeysWithResponse(ctx, &p)
		if err != nil {
			return nil, nil, err
		}
		if r.JSON200 == nil {
			return nil, nil, unexpected(r.HTTPResponse)
		}
		return r.JSON200.Data, r.JSON200.Meta.NextCursor, nil
	})
}
