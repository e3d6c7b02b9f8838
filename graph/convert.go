package graph

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"payline/domain"
	"payline/graph/model"
)

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// microseconds truncates a filter time as REST does, so both transports
// and both databases agree.
func microseconds(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}

// pageInfo describes a page read with the arguments a. A page read
// forward knows whether more follow it, and has one before it exactly
// when it was asked for from a cursor; read backward, the other way round.
func pageInfo[T any](p domain.Page[T], a connArgs) *model.PageInfo {
	info := &model.PageInfo{HasNextPage: p.Next != nil, HasPreviousPage: a.after != ""}
	if a.backward() {
		info.HasNextPage, info.HasPreviousPage = a.before != "", p.Prev != nil
	}
	if len(p.Cursors) > 0 {
		start, end := p.Cursors[0].Encode(), p.Cursors[len(p.Cursors)-1].Encode()
		info.StartCursor, info.EndCursor = &start, &end
	}
	return info
}

// nodes is a connection's nodes, the items of its edges in their order.
func nodes[T any](p domain.Page[T]) []*T {
	out := make([]*T, len(p.Items))
	for i := range p.Items {
		out[i] = &p.Items[i]
	}
	return out
}

// edges makes a connection's edges, each with its item's own cursor.
func edges[T, E any](p domain.Page[T], edge func(cursor string, node *T) E) []E {
	out := make([]E, len(p.Items))
	for i := range p.Items {
		out[i] = edge(p.Cursors[i].Encode(), &p.Items[i])
	}
	return out
}

// orNull turns a not-found into null: a query for another customer's id
// sees nothing, not an error that tells it the id exists.
func orNull[T any](v *T, err error) (*T, error) {
	if domain.IsKind(err, domain.KindNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return v, nil
}

func usd(cents int64) *domain.Money {
	m := domain.USD(cents)
	return &m
}

func moneyIn(amount int64, currency string) *domain.Money {
	return &domain.Money{Amount: amount, Currency: currency}
}

func centsMoney(cents *int64) *domain.Money {
	if cents == nil {
		return nil
	}
	return usd(*cents)
}

// dollarsFloat serves the deprecated float dollar fields: the decimal text
// of the cents, read as the nearest float, the best a float can say.
func dollarsFloat(cents *int64) *float64 {
	if cents == nil {
		return nil
	}
	// Decimal is always a valid decimal literal ("-12.34"), so ParseFloat
	// cannot fail; it only rounds, which is what the field promises.
	f, _ := strconv.ParseFloat(domain.USD(*cents).Decimal(), 64)
	return &f
}

func productTimes(m map[string]time.Time) []*model.ProductTime {
	out := make([]*model.ProductTime, 0, len(m))
	for p, at := range m {
		out = append(out, &model.ProductTime{Product: p, At: at})
	}
	slices.SortFunc(out, func(a, b *model.ProductTime) int {
		if a.Product < b.Product {
			return -1
		}
		return 1
	})
	return out
}

// productOf reads an account's product through the batch loader; nil
// when no job has produced it.
func productOf[T any](ctx context.Context, accountID, product string, pick func(domain.ProductData) *T) (*T, error) {
	p, err := loadersFrom(ctx).products.Load(ctx, productKey{accountID, product})
	if err != nil || p == nil {
		return nil, err
	}
	return pick(p.ProductData), nil
}

func jobFilter(f *model.JobFilter) domain.JobFilter {
	if f == nil {
		return domain.JobFilter{}
	}
	return domain.JobFilter{JobTypes: f.Types, Outcome: deref(f.Outcome), AccountID: deref(f.AccountID),
		LinkTokenID: deref(f.LinkTokenID), From: microseconds(f.From), To: microseconds(f.To)}
}

func accountFilter(f *model.AccountFilter) domain.AccountFilter {
	if f == nil {
		return domain.AccountFilter{}
	}
	return domain.AccountFilter{Connected: f.Connected, MonitoringStatus: deref(f.MonitoringStatus),
		PlatformID: deref(f.PlatformID), EndUserID: deref(f.EndUserID)}
}

func linkTokenRequest(in model.CreateLinkTokenInput) domain.LinkTokenRequest {
	r := domain.LinkTokenRequest{OrgName: in.OrgName, EndUserID: deref(in.EndUserID), Solution: deref(in.Solution),
		Features: in.Features, RequiredJobs: in.RequiredJobs, EmployerID: deref(in.EmployerID), PlatformID: deref(in.PlatformID),
		AccountID: deref(in.AccountID), SkipIntroScreen: deref(in.SkipIntroScreen),
		DisableDirectDepositSplitting: deref(in.DisableDirectDepositSplitting), Language: deref(in.Language)}
	if a := in.Allocation; a != nil {
		r.Allocation = &domain.AllocationRequest{Type: deref(a.Type), Value: a.Value.Number()}
		for _, t := range a.Targets {
			r.Allocation.Targets = append(r.Allocation.Targets, domain.AllocationTarget{Name: deref(t.Name), Type: t.Type,
				AccountNumber: t.AccountNumber, RoutingNumber: t.RoutingNumber})
		}
	}
	if m := in.PlatformMatching; m != nil {
		r.PlatformMatching = &domain.PlatformMatching{SocialSecurityNumber: deref(m.SocialSecurityNumber),
			SocialSecurityLastFour: deref(m.SocialSecurityLastFour), FirstName: deref(m.FirstName), LastName: deref(m.LastName),
			DateOfBirth: deref(m.DateOfBirth), MobilePhoneNumber: deref(m.MobilePhoneNumber),
			HomeAddressZipCode: deref(m.HomeAddressZipCode), Email: deref(m.Email)}
	}
	return r
}

// documentOf maps an end-user document record to its GraphQL type.
func documentOf(rec domain.Record) (*model.Document, error) {
	if rec.Document == nil {
		return nil, fmt.Errorf("document %s: not a document record", rec.ID)
	}
	d := &model.Document{ID: rec.ID, CreatedAt: rec.CreatedAt, DocumentType: rec.DocumentType, AccountID: rec.Document.AccountID,
		W2: rec.Document.ParsedData.W2, Fraud: &rec.Document.Fraud, EndUserID: rec.EndUserID, FileName: optional(rec.Document.FileName),
		Review: reviewOf(rec.Document.Review), Readings: readingsOf(rec.Document.Readings), Fields: fieldsOf(rec.Document)}
	if d.Fraud.Reasons == nil {
		fraud := rec.Document.Fraud
		fraud.Reasons = []domain.FraudReason{}
		d.Fraud = &fraud
	}
	if d.AccountID != nil && *d.AccountID == "" {
		d.AccountID = nil
	}
	if rec.Link != nil {
		d.DownloadURL, d.DownloadURLExpiration = rec.Link.DownloadURL, time.Time(rec.Link.DownloadURLExpiration)
	}
	return d, nil
}

func shiftOf(rec domain.Record) (*model.Shift, error) {
	if rec.Shift == nil {
		return nil, fmt.Errorf("shift %s: not a shift record", rec.ID)
	}
	s := rec.Shift
	out := &model.Shift{ID: rec.ID, StartDate: s.StartDate.String(), EndDate: s.EndDate.String(), Timezone: s.Timezone}
	if n := len(s.Timestamps); n > 0 {
		var err error
		if out.StartedAt, err = domain.ParseTimestamp(s.Timestamps[0].From); err != nil {
			return nil, err
		}
		if out.EndedAt, err = domain.ParseTimestamp(s.Timestamps[n-1].To); err != nil {
			return nil, err
		}
	}
	for i := range s.Earnings {
		out.Earnings = append(out.Earnings, &s.Earnings[i])
	}
	return out, nil
}

func taxFormOf(rec domain.Record) (*model.TaxForm, error) {
	f := rec.TaxForm
	if f == nil {
		return nil, fmt.Errorf("tax form %s: not a tax form record", rec.ID)
	}
	return &model.TaxForm{ID: rec.ID, Year: f.Year, FormType: domain.TaxFormType(f.FormType), DocumentID: f.DocumentID, W2: &f.ParsedData}, nil
}

// pointers relays a channel of values as pointers until it closes.
func pointers[T any](ctx context.Context, in <-chan T) <-chan *T {
	out := make(chan *T)
	go func() {
		defer close(out)
		for v := range in {
			select {
			case out <- &v:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// report returns an end user's report, null while no job has read data.
func (r *endUserResolver) report(ctx context.Context, endUserID, reportType string) (*domain.VerificationReport, error) {
	l := loadersFrom(ctx).voie
	if reportType == domain.ReportVOE {
		l = loadersFrom(ctx).voe
	}
	return l.Load(ctx, endUserID)
}
