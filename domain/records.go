package domain

import (
	"context"
	"encoding/json"
	"time"
)

// Record kinds: list products stored as records.
const (
	RecordTaxForm  = "tax_form"
	RecordShift    = "shift"
	RecordDocument = "document"
)

// Products produced by the tax_forms and shifts jobs.
const (
	ProductTaxForms = "tax_forms"
	ProductShifts   = "shifts"
)

// Record is one stored list item: a tax form, a shift or an end user's
// document. SortKey orders a list (newest first); Body is the item as JSON.
type Record struct {
	ID           string
	Kind         string
	AccountID    string
	EndUserID    string
	DocumentType string
	SortKey      string
	CreatedAt    time.Time
	Body         json.RawMessage
	// Link is a document's fresh download link, set when it is read.
	Link *DocumentLink
}

// RecordFilter picks records of one kind, by account or by end user.
type RecordFilter struct {
	Kind         string
	AccountID    string
	EndUserID    string
	DocumentType string
}

// RecordStore holds list products.
type RecordStore interface {
	// PutRecords stores records whose ids are new and returns how many.
	PutRecords(ctx context.Context, s Scope, rs []Record) (int, error)
	// FindRecords pages records by (sort key, id), newest first.
	FindRecords(ctx context.Context, s Scope, f RecordFilter, p PageRequest) (Page[Record], error)
	// Record returns ErrNoRows when the scope has no such record.
	Record(ctx context.Context, s Scope, kind, id string) (Record, error)
	// RecordsByID returns the scope's records of the kind with the given
	// ids in one query, in no particular order; unknown ids are left out.
	RecordsByID(ctx context.Context, s Scope, kind string, ids []string) ([]Record, error)
	// RecordsOfAccounts pages the records of a kind of each account, as
	// FindRecords would one account's, in one query.
	RecordsOfAccounts(ctx context.Context, s Scope, kind string, accountIDs []string, p PageRequest) (map[string]Page[Record], error)
	// DocumentsOfEndUsers pages each end user's documents (of one type,
	// or all when docType is ""), in one query.
	DocumentsOfEndUsers(ctx context.Context, s Scope, docType string, endUserIDs []string, p PageRequest) (map[string]Page[Record], error)
	// SetBillNavigatorStatus records the end user's bill navigator status.
	SetBillNavigatorStatus(ctx context.Context, s Scope, endUserID, status, reason string, at time.Time) error
	// BillNavigatorStatus is the end user's recorded status, "" for none.
	BillNavigatorStatus(ctx context.Context, s Scope, endUserID string) (string, error)
}

// Shift is a worked shift from a time-and-attendance platform.
type Shift struct {
	StartDate string `json:"start_date"`
	EndDate   string `json:"end_date"`
	// Type is the work performed: shift, rideshare, delivery or other.
	Type     string `json:"type"`
	Timezone string `json:"timezone"`
	// Timestamps are the periods worked, clock-in to clock-out.
	Timestamps []ShiftPeriod `json:"timestamps"`
	Earnings   []PayLine     `json:"earnings"`
	Currency   string        `json:"currency"`
}

// ShiftPeriod is one period worked, from clock-in to clock-out (RFC 3339).
type ShiftPeriod struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// UnmarshalJSON reads a shift in the vendor's shape, and shifts stored
// before Payline used it: timestamps as [{type: shift_start|shift_end,
// timestamp}], no type and no currency.
func (s *Shift) UnmarshalJSON(b []byte) error {
	type plain Shift
	var raw struct {
		plain
		Timestamps []struct {
			From      string `json:"from"`
			To        string `json:"to"`
			Type      string `json:"type"`
			Timestamp string `json:"timestamp"`
		} `json:"timestamps"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*s = Shift(raw.plain)
	s.Timestamps = nil
	for _, t := range raw.Timestamps {
		switch {
		case t.Type == "shift_start":
			s.Timestamps = append(s.Timestamps, ShiftPeriod{From: t.Timestamp})
		case t.Type == "shift_end" && len(s.Timestamps) > 0 && s.Timestamps[len(s.Timestamps)-1].To == "":
			s.Timestamps[len(s.Timestamps)-1].To = t.Timestamp
		case t.Type == "":
			s.Timestamps = append(s.Timestamps, ShiftPeriod{From: t.From, To: t.To})
		}
	}
	if s.Type == "" {
		s.Type = "shift"
	}
	if s.Currency == "" {
		s.Currency = "USD"
	}
	inCurrency(s.Earnings, s.Currency)
	return nil
}

// DatedShift is a shift with its record id.
type DatedShift struct {
	ID string
	Shift
}

// DatedW2 is a W-2 with the ids of its tax form and document records.
type DatedW2 struct {
	TaxFormID  string
	DocumentID string
	W2
	// File is the form as its source holds it (an upstream's PDF or scan),
	// kept as the document's file; nil renders one from the parsed data
	// on first download.
	File *Document
}

// Document is a file a connector read: its bytes and content type.
type Document struct {
	ContentType string
	Body        []byte
}

// TaxFormType is a stored tax form type as the APIs name it: the vendor's
// "W-2" for what Payline stores (and documents call) "w2".
func TaxFormType(stored string) string {
	if stored == "w2" {
		return "W-2"
	}
	return stored
}
