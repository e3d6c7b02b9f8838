package storage

import (
	"encoding/json"
	"fmt"

	"payline/domain"
)

// The stored shapes of typed bodies: a product, a record and a report are
// stored as the JSON the domain's codec writes (domain/product_json.go),
// sealed; these functions are the one place that turns them into bytes
// and back, so no layer above handles raw JSON.

// encodeProduct is the stored JSON of a single-object product.
func encodeProduct(product string, d domain.ProductData) ([]byte, error) {
	v, ok := d.Of(product)
	if !ok {
		return nil, fmt.Errorf("no single-object product %q", product)
	}
	if v == nil {
		return nil, fmt.Errorf("product %s: no data", product)
	}
	return json.Marshal(v)
}

// decodeProduct reads a stored single-object product.
func decodeProduct(product string, b []byte) (domain.ProductData, error) {
	d, into, ok := domain.NewProductData(product)
	if !ok {
		return d, fmt.Errorf("no single-object product %q", product)
	}
	return d, json.Unmarshal(b, into)
}

// encodeRecord is the stored JSON of a record's body, by its kind.
func encodeRecord(r domain.Record) ([]byte, error) {
	var v any
	switch r.Kind {
	case domain.RecordTaxForm:
		v = r.TaxForm
	case domain.RecordShift:
		v = r.Shift
	case domain.RecordDocument:
		v = r.Document
	default:
		return nil, fmt.Errorf("no record kind %q", r.Kind)
	}
	if v == nil {
		return nil, fmt.Errorf("%s record %s: no body", r.Kind, r.ID)
	}
	return json.Marshal(v)
}

// decodeRecord reads a stored record's body into r, by its kind.
func decodeRecord(r *domain.Record, b []byte) error {
	switch r.Kind {
	case domain.RecordTaxForm:
		r.TaxForm = new(domain.TaxForm)
		return json.Unmarshal(b, r.TaxForm)
	case domain.RecordShift:
		r.Shift = new(domain.Shift)
		return json.Unmarshal(b, r.Shift)
	case domain.RecordDocument:
		r.Document = new(domain.DocumentBody)
		return json.Unmarshal(b, r.Document)
	}
	return fmt.Errorf("no record kind %q", r.Kind)
}
