package domain

import (
	"context"
	"errors"
	"fmt"
)

// Documents pages an end user's documents; docType filters by type.
func (s *DocumentService) Documents(ctx context.Context, sc Scope, endUserID, docType string, p PageRequest) (Page[Record], error) {
	page, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID, DocumentType: docType}, p)
	if err != nil {
		return Page[Record]{}, err
	}
	// An end user is known by an account or, after uploading documents in
	// Link without logging in, by those documents alone.
	if len(page.Items) == 0 && p.Cursor == nil {
		any, err := s.tx.Records().FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID}, PageRequest{Limit: 1})
		if err != nil {
			return Page[Record]{}, err
		}
		if len(any.Items) == 0 {
			if _, err := s.endUsers.checkEndUser(ctx, sc, endUserID, false); err != nil {
				return Page[Record]{}, err
			}
		}
	}
	if s.reporter != nil {
		links := s.reporter.DocumentLinks(ctx, sc, page.Items)
		for i := range page.Items {
			page.Items[i].Link = &links[i]
		}
	}
	return page, nil
}

// Document returns one of an end user's documents.
func (s *DocumentService) Document(ctx context.Context, sc Scope, endUserID, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) || (err == nil && r.EndUserID != endUserID) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "end user %q has no document %s", endUserID, id)
	}
	if err != nil {
		return Record{}, err
	}
	return r, s.link(ctx, sc, &r)
}

// DocumentByID returns one of the scope's documents, whichever end user's,
// with a fresh download link. Errors: INVALID_FIELDS, DOCUMENT_NOT_FOUND.
func (s *DocumentService) DocumentByID(ctx context.Context, sc Scope, id string) (Record, error) {
	if err := CheckID("document_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordDocument, id)
	if errors.Is(err, ErrNoRows) {
		return Record{}, Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	}
	if err != nil {
		return Record{}, err
	}
	return r, s.link(ctx, sc, &r)
}

// DocumentsByID loads documents of any of the scope's end users for a
// batch read, each with a fresh download link.
func (s *DocumentService) DocumentsByID(ctx context.Context, sc Scope, ids []string) ([]Record, []error) {
	found, err := s.tx.Records().RecordsByID(ctx, sc, RecordDocument, ids)
	if err != nil {
		return failAll[Record](len(ids), err)
	}
	for i := range found {
		if err := s.link(ctx, sc, &found[i]); err != nil {
			return failAll[Record](len(ids), err)
		}
	}
	return inOrder(ids, found, func(r Record) string { return r.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeDocumentNotFound, "no document with id %s", id)
	})
}

// DocumentsOfEndUsers pages the documents of many end users at once, each
// with a fresh download link, as Documents does one end user's; the end
// users are known (a parent already read), so none is refused.
func (s *DocumentService) DocumentsOfEndUsers(ctx context.Context, sc Scope, endUserIDs []string, docType string, p PageRequest) (map[string]Page[Record], error) {
	pages, err := s.tx.Records().DocumentsOfEndUsers(ctx, sc, docType, endUserIDs, p)
	if err != nil {
		return nil, err
	}
	if s.reporter == nil {
		return pages, nil
	}
	var docs []Record
	for _, page := range pages {
		docs = append(docs, page.Items...)
	}
	links := s.reporter.DocumentLinks(ctx, sc, docs)
	byID := map[string]*DocumentLink{}
	for i := range docs {
		byID[docs[i].ID] = &links[i]
	}
	for _, page := range pages {
		for i := range page.Items {
			page.Items[i].Link = byID[page.Items[i].ID]
		}
	}
	return pages, nil
}

// TaxForm returns one of an account's tax forms, with a signed link to
// the form's document. Errors: ACCOUNT_NOT_FOUND, TAX_FORM_NOT_FOUND.
func (s *DocumentService) TaxForm(ctx context.Context, sc Scope, accountID, id string) (Record, error) {
	if _, err := s.accounts.Account(ctx, sc, accountID); err != nil {
		return Record{}, err
	}
	if err := CheckID("tax_form_id", id); err != nil {
		return Record{}, err
	}
	r, err := s.tx.Records().Record(ctx, sc, RecordTaxForm, id)
	if errors.Is(err, ErrNoRows) || (err == nil && r.AccountID != accountID) {
		return Record{}, Errorf(KindNotFound, CodeTaxFormNotFound, "account %s has no tax form %s", accountID, id)
	}
	if err != nil {
		return Record{}, err
	}
	if r.TaxForm == nil || r.TaxForm.DocumentID == "" {
		return r, nil
	}
	doc, err := s.tx.Records().Record(ctx, sc, RecordDocument, r.TaxForm.DocumentID)
	if err != nil {
		return Record{}, fmt.Errorf("document of tax form %s: %w", id, err)
	}
	if err := s.link(ctx, sc, &doc); err != nil {
		return Record{}, err
	}
	r.Link = doc.Link
	return r, nil
}

// link gives a document a fresh download link, rendering its PDF first
// when it has none.
func (s *DocumentService) link(ctx context.Context, sc Scope, doc *Record) error {
	if s.reporter == nil {
		return nil
	}
	l, err := s.reporter.DocumentLink(ctx, sc, *doc)
	if err != nil {
		return err
	}
	doc.Link = &l
	return nil
}
