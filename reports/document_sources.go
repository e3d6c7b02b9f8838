package reports

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"payline/domain"
)

// uploadedPaystubs reads the paystub documents an end user uploaded (and
// any other paystub documents, which documentSources leaves aside).
func uploadedPaystubs(ctx context.Context, records domain.RecordStore, sc domain.Scope, endUserID string) ([]domain.Record, error) {
	return domain.ReadAll(ctx, func(ctx context.Context, p domain.PageRequest) (domain.Page[domain.Record], error) {
		return records.FindRecords(ctx, sc, domain.RecordFilter{Kind: domain.RecordDocument, EndUserID: endUserID, DocumentType: domain.DocumentPaystub}, p)
	})
}

// endUserData reads what a report of the end user is built from: their
// accounts and the paystubs they uploaded. Errors: END_USER_NOT_FOUND
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
	docs, err := uploadedPaystubs(ctx, records, sc, endUserID)
	if err != nil {
		return nil, nil, err
	}
	if noAccounts && len(docs) == 0 {
		return nil, nil, domain.Errorf(domain.KindNotFound, domain.CodeEndUserNotFound,
			"end user %q has no accounts and no uploaded paystubs: a %s report reads the identity, employment, income and paystubs jobs of the end user's accounts, or the paystubs they upload in Link; create a link token with this end_user_id",
			endUserID, strings.ToUpper(reportType))
	}
	return as, docs, nil
}

// documentSources turns uploaded paystubs into report sources, one per
// employer (domain.DocumentEmployments), and lists the documents left
// out. It also says when the latest paystub was uploaded, used or not
// (zero for none): a report of documents all left out still says so.
// identity gives the first source the name read from the stubs, for an
// end user no account reports an identity for.
func documentSources(docs []domain.Record, identity bool) ([]Source, []domain.ExcludedDocument, time.Time) {
	emps, excluded := domain.DocumentEmployments(docs)
	var out []Source
	var updated time.Time
	for _, e := range emps {
		a := domain.Account{ID: e.DocumentIDs[0], EmployerName: e.EmployerName, CreatedAt: e.UploadedAt,
			DataUpdatedAt: map[string]time.Time{domain.ProductPaystubs: e.UploadedAt}}
		src := Source{Account: a, EIN: e.EmployerEIN, Paystubs: e.Paystubs, DocumentIDs: e.DocumentIDs}
		switch c := e.Compensation; {
		case c != nil:
			// The latest stub's rate (domain.CompensationOf says how).
			src.Income = &domain.Income{PayFrequency: e.PayFrequency, Currency: domain.CurrencyUSD,
				CompensationAmount: domain.USD(c.Amount), CompensationUnit: c.Unit}
		case e.PayFrequency != "":
			// The pay periods say how often; no stub says the rate.
			src.Income = &domain.Income{PayFrequency: e.PayFrequency, Currency: domain.CurrencyUSD, CompensationAmount: domain.USD(0)}
		}
		if identity {
			if name := employeeName(docs, e.DocumentIDs); name != "" {
				src.Identity = &domain.Identity{FullName: name}
				identity = false
			}
		}
		out = append(out, src)
	}
	for _, d := range docs {
		if d.Document != nil && d.Document.AccountID == nil && d.CreatedAt.After(updated) {
			updated = d.CreatedAt
		}
	}
	if excluded == nil {
		excluded = []domain.ExcludedDocument{}
	}
	return out, excluded, updated
}

// employeeName is the employee name read from the first of the documents
// that has one.
func employeeName(docs []domain.Record, ids []string) string {
	for _, d := range docs {
		for _, id := range ids {
			if d.ID == id && d.Document != nil && d.Document.ParsedData.Paystub != nil && d.Document.ParsedData.Paystub.EmployeeName != "" {
				return d.Document.ParsedData.Paystub.EmployeeName
			}
		}
	}
	return ""
}

// writeDocumentsVersion adds the uploaded documents to a data version:
// their ids and fraud statuses (an upload is never changed, so these say
// all that can move).
func writeDocumentsVersion(w io.Writer, docs []domain.Record) {
	for _, d := range docs {
		status := ""
		if d.Document != nil {
			status = d.Document.Fraud.Status
		}
		fmt.Fprintf(w, "document %s %s\n", d.ID, status)
	}
}

// withDocuments adds the end user's uploaded paystubs to the sources read
// from their accounts, and the documents left out to the report.
func withDocuments(sources []Source, updated time.Time, docs []domain.Record) ([]Source, []domain.ExcludedDocument, time.Time) {
	identity := true
	for _, s := range sources {
		if s.Identity != nil {
			identity = false
		}
	}
	more, excluded, at := documentSources(docs, identity)
	if at.After(updated) {
		updated = at
	}
	return append(sources, more...), excluded, updated
}
