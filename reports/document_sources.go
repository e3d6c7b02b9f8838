package reports

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"payline/domain"
)

// uploadedDocuments reads the paystubs and W-2s an end user uploaded: a
// report's documents (reportDocuments keeps only uploads).
func uploadedDocuments(ctx context.Context, records domain.RecordStore, sc domain.Scope, endUserID string) ([]domain.Record, error) {
	var out []domain.Record
	for _, typ := range []string{domain.DocumentPaystub, domain.DocumentW2} {
		docs, err := domain.ReadAll(ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Record], error) {
			return records.FindRecords(ctx, sc, domain.RecordFilter{Kind: domain.RecordDocument, EndUserID: endUserID, DocumentType: typ}, p)
		})
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return reportDocuments(out), nil
}

// reportDocuments are the documents a report reads of an end user's: the
// paystubs and W-2s they uploaded (a platform's W-2 is read from its
// account's tax forms, and a direct deposit form is no income), ordered
// by id, so every path that reads them versions a report alike.
func reportDocuments(docs []domain.Record) []domain.Record {
	var out []domain.Record
	for _, d := range docs {
		if b := d.Document; b != nil && b.AccountID == nil && (b.DocumentType == domain.DocumentPaystub || b.DocumentType == domain.DocumentW2) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b domain.Record) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// endUserData reads what a report of the end user is built from: their
// accounts and the paystubs and W-2s they uploaded. Errors: END_USER_NOT_FOUND
// when they have neither (the message says how to get either),
// INVALID_FIELDS for a malformed id.
func endUserData(ctx context.Context, accounts domain.AccountStore, records domain.RecordStore, sc domain.Scope, endUserID, reportType string) ([]domain.Account, []domain.Record, error) {
	as, err := domain.EndUserAccounts(ctx, accounts, sc, endUserID)
	noAccounts := false
	if e := domain.AsError(err); err != nil && e.Code == domain.CodeEndUserNotFound {
		noAccounts, err = true, nil
	}
	if err != nil {
		return nil, nil, err
	}
	docs, err := uploadedDocuments(ctx, records, sc, endUserID)
	if err != nil {
		return nil, nil, err
	}
	if noAccounts && len(docs) == 0 {
		return nil, nil, domain.Errorf(domain.KindNotFound, domain.CodeEndUserNotFound,
			"end user %q has no accounts and no uploaded paystubs or W-2s: a %s report reads the identity, employment, income and paystubs jobs of the end user's accounts, or the paystubs and W-2s they upload in Link; create a link token with this end_user_id",
			endUserID, strings.ToUpper(reportType))
	}
	return as, docs, nil
}

// withDocuments adds what the end user uploaded to the sources read from
// their accounts: an employment per employer of the uploaded paystubs
// (domain.DocumentEmployments), each uploaded W-2 to the employment of
// its employer (withUploadedW2s), and the documents left out, with what
// a report says of them. It also says when the latest upload was made,
// used or not: a report of documents all left out still says so. An end
// user no account reports an identity for gets the name printed on an
// upload.
func withDocuments(sources []Source, updated time.Time, docs []domain.Record) ([]Source, []SetAside, time.Time) {
	docs = reportDocuments(docs)
	emps, excluded := domain.DocumentEmployments(docs)
	w2s, w2sExcluded := domain.UploadedW2s(docs)
	out := slices.Clone(sources)
	for _, e := range emps {
		out = append(out, paystubSource(e))
	}
	out = withUploadedW2s(out, w2s)
	if !slices.ContainsFunc(sources, func(s Source) bool { return s.Identity != nil }) {
		nameFromUploads(out, docs)
	}
	for _, d := range docs {
		if d.CreatedAt.After(updated) {
			updated = d.CreatedAt
		}
	}
	byID := map[string]domain.Record{}
	for _, d := range docs {
		byID[d.ID] = d
	}
	setAside := []SetAside{}
	for _, x := range append(excluded, w2sExcluded...) {
		setAside = append(setAside, setAsideOf(x, byID[x.DocumentID]))
	}
	slices.SortFunc(setAside, func(a, b SetAside) int { return strings.Compare(a.DocumentID, b.DocumentID) })
	return out, setAside, updated
}

// paystubSource is an employment read from uploaded paystubs as a report
// source.
func paystubSource(e domain.DocumentEmployment) Source {
	a := domain.Account{ID: e.DocumentIDs[0], EmployerName: e.EmployerName, CreatedAt: e.UploadedAt,
		DataUpdatedAt: map[string]time.Time{domain.ProductPaystubs: e.UploadedAt}}
	src := Source{Account: a, EIN: e.EmployerEIN, Paystubs: e.Paystubs, DocumentIDs: slices.Clone(e.DocumentIDs),
		ReviewedIDs: e.ReviewedIDs, ReviewBases: e.ReviewBases, InvertedPeriods: e.InvertedPeriods}
	switch c := e.Compensation; {
	case c != nil:
		// The latest stub's rate (domain.CompensationOf says how).
		src.Income = &domain.Income{PayFrequency: e.PayFrequency, Currency: domain.CurrencyUSD,
			CompensationAmount: domain.USD(c.Amount), CompensationUnit: c.Unit}
	case e.PayFrequency != "":
		// The pay periods say how often; no stub says the rate.
		src.Income = &domain.Income{PayFrequency: e.PayFrequency, Currency: domain.CurrencyUSD, CompensationAmount: domain.USD(0)}
	}
	return src
}

// withUploadedW2s gives each uploaded W-2 to the employment of its
// employer (the same EIN; by normalized name where either has none, as
// domain.EmployerKey groups documents) for a year the employment has no
// W-2 of its account; of two employments at one employer, the one paid
// that year, else the one whose dates span it, else the first. A W-2 of
// an employer no employment is at makes an employment of its own, one per
// employer. Of two uploaded W-2s of one employer and year, the later
// upload is used.
func withUploadedW2s(sources []Source, w2s []domain.UploadedW2) []Source {
	for _, w := range w2s {
		i := employmentOfW2(sources, w)
		if i < 0 {
			a := domain.Account{ID: w.DocumentID, EmployerName: w.W2.EmployerName, CreatedAt: w.UploadedAt,
				DataUpdatedAt: map[string]time.Time{domain.ProductTaxForms: w.UploadedAt}}
			sources = append(sources, Source{Account: a, EIN: w.EmployerEIN, DocumentIDs: []string{}})
			i = len(sources) - 1
		}
		s := &sources[i]
		year := w.W2.TaxYear
		if _, own := s.W2s[year]; own {
			continue // the payroll account's own W-2 stands
		}
		if s.UploadedW2s == nil {
			s.UploadedW2s = map[string]domain.UploadedW2{}
		}
		if old, ok := s.UploadedW2s[year]; ok {
			if !w.UploadedAt.After(old.UploadedAt) {
				continue
			}
			s.DocumentIDs = slices.DeleteFunc(s.DocumentIDs, func(id string) bool { return id == old.DocumentID })
			s.ReviewedIDs = slices.DeleteFunc(s.ReviewedIDs, func(id string) bool { return id == old.DocumentID })
		}
		s.UploadedW2s[year] = w
		if s.DocumentIDs != nil {
			s.DocumentIDs = append(s.DocumentIDs, w.DocumentID)
			slices.Sort(s.DocumentIDs)
			if s.EIN == "" {
				s.EIN = w.EmployerEIN
			}
		}
		if w.ReviewBasis != "" {
			s.ReviewedIDs = append(s.ReviewedIDs, w.DocumentID)
			slices.Sort(s.ReviewedIDs)
			if !slices.Contains(s.ReviewBases, w.ReviewBasis) {
				s.ReviewBases = append(s.ReviewBases, w.ReviewBasis)
			}
		}
		if at := s.Account.DataUpdatedAt; s.DocumentIDs != nil && w.UploadedAt.After(dataAsOf(s.Account)) {
			at[domain.ProductTaxForms] = w.UploadedAt
		}
	}
	return sources
}

// employmentOfW2 is the index of the source an uploaded W-2 belongs to,
// -1 for none.
func employmentOfW2(sources []Source, w domain.UploadedW2) int {
	best, rank := -1, 0
	for i, s := range sources {
		if !sameEmployerAs(s, w) {
			continue
		}
		r := 1
		switch {
		case paidIn(s, w.W2.TaxYear):
			r = 3
		case spans(s, w.W2.TaxYear):
			r = 2
		}
		if r > rank {
			best, rank = i, r
		}
	}
	return best
}

// sameEmployerAs: a source is at a W-2's employer when their EINs match,
// or, where either has none, their names do (domain.SameEmployerName).
func sameEmployerAs(s Source, w domain.UploadedW2) bool {
	if s.EIN != "" && w.EmployerEIN != "" {
		return s.EIN == w.EmployerEIN
	}
	name := s.Account.EmployerName
	if s.Employment != nil && s.Employment.EmployerName != "" {
		name = s.Employment.EmployerName
	}
	return domain.SameEmployerName(name, w.W2.EmployerName) || domain.SameEmployerName(s.Account.EmployerName, w.W2.EmployerName)
}

// paidIn reports whether any of the source's paystubs is dated in year.
func paidIn(s Source, year string) bool {
	return slices.ContainsFunc(s.Paystubs, func(p domain.Paystub) bool { return payYear(p.PayDate.String()) == year })
}

// spans reports whether the employment's dates, as its payroll platform
// reports them, include some of year.
func spans(s Source, year string) bool {
	e := s.Employment
	if e == nil || !isDate(e.StartDate.String()) || e.StartDate.String()[:4] > year {
		return false
	}
	return e.TerminationDate == nil || !isDate(e.TerminationDate.String()) || e.TerminationDate.String()[:4] >= year
}

// nameFromUploads gives the first source with uploads the employee name
// printed on one of them (a paystub's, else a W-2's), and says which.
func nameFromUploads(sources []Source, docs []domain.Record) {
	for _, kind := range []string{domain.DocumentPaystub, domain.DocumentW2} {
		for i := range sources {
			for _, id := range sources[i].DocumentIDs {
				if name := printedName(docs, id, kind); name != "" {
					sources[i].Identity = &domain.Identity{FullName: name}
					sources[i].IdentityDocumentID = id
					return
				}
			}
		}
	}
}

// printedName is the employee name read from the document of the kind
// with the id, "" for none.
func printedName(docs []domain.Record, id, kind string) string {
	for _, d := range docs {
		if d.ID != id || d.Document == nil {
			continue
		}
		switch pd := d.Document.ParsedData; {
		case kind == domain.DocumentPaystub && pd.Paystub != nil:
			return strings.TrimSpace(pd.Paystub.EmployeeName)
		case kind == domain.DocumentW2 && pd.W2 != nil:
			return strings.TrimSpace(pd.W2.Applicant.Name)
		}
	}
	return ""
}

// writeDocumentsVersion adds the uploaded documents to a data version:
// their ids, fraud statuses and reviews (an upload's figures change only
// by a person's review, so these say all that can move).
func writeDocumentsVersion(w io.Writer, docs []domain.Record) {
	for _, d := range reportDocuments(docs) {
		status, review := d.Document.Fraud.Status, ""
		if r := d.Document.Review; r != nil {
			review = fmt.Sprintf(" %s %s %d", r.Status, r.Outcome, len(r.Corrections))
			if r.ReviewedAt != nil {
				review += " " + time.Time(*r.ReviewedAt).UTC().Format(time.RFC3339Nano)
			}
		}
		fmt.Fprintf(w, "document %s %s%s\n", d.ID, status, review)
	}
}
