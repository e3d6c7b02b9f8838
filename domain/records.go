package domain

import (
	"context"
	"encoding/json"
	"fmt"
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
// document. SortKey orders a list (newest first). What it holds is typed
// by Kind: exactly one of TaxForm, Shift and Document is set.
type Record struct {
	ID           string
	Kind         string
	AccountID    string
	EndUserID    string
	DocumentType string
	SortKey      string
	CreatedAt    time.Time
	TaxForm      *TaxForm      // RecordTaxForm
	Shift        *Shift        // RecordShift
	Document     *DocumentBody // RecordDocument
	// Link is a document's fresh download link, set when it is read.
	Link *DocumentLink
}

// TaxForm is a tax form of an account, as its platform holds it; version
// 1 reads W-2s. FormType is stored as Payline's "w2" (TaxFormType gives
// the API's "W-2").
type TaxForm struct {
	Year       string `json:"year"`
	FormType   string `json:"form_type"`
	DocumentID string `json:"document_id"`
	ParsedData W2     `json:"parsed_data"`
}

// DocumentBody is an end user's document: what it is, the account it
// came from (nil for an upload), what was read from it, and the checks.
type DocumentBody struct {
	DocumentType string            `json:"document_type"`
	AccountID    *string           `json:"account_id"`
	Document     *DocumentRef      `json:"document,omitempty"`
	ParsedData   ParsedDocument    `json:"parsed_data"`
	Warnings     []DocumentWarning `json:"warnings"`
	Fraud        DocumentFraud     `json:"fraud"`
	FileName     string            `json:"file_name,omitempty"`
	// Readings say where each field of an uploaded document was read and
	// how sure the reader is of it (none for a platform's document).
	Readings []FieldReading `json:"readings,omitempty"`
	// Review is a person's review of an uploaded document the checks left
	// in doubt (nil when none was needed: docs/documents.md).
	Review *DocumentReview `json:"review,omitempty"`
	// FilePart is which of the uploaded file's documents this is, when the
	// file held several (a PDF of three paystubs): 1, 2, ...; 0 for a file
	// of one.
	FilePart int `json:"file_part,omitempty"`
}

// DocumentRef is a document's file as stored before a link is minted:
// its id, no link yet.
type DocumentRef struct {
	ID                    string     `json:"id"`
	DownloadURL           *string    `json:"download_url"`
	DownloadURLExpiration *Timestamp `json:"download_url_expiration"`
}

// DocumentWarning says what could not be read from a document.
type DocumentWarning struct {
	Field   string `json:"field"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

// DocumentFraud is the outcome of a document's checks: not_suspected,
// needs_review (a doubt a person should settle), suspected (evidence of
// tampering) or unavailable (nothing was read, no check could run).
type DocumentFraud struct {
	Status  string        `json:"status"`
	Reasons []FraudReason `json:"reasons,omitempty"`
}

// FraudReason is one check that failed: a code from docs/documents.md, a
// message saying what does not add up, the fields it is about, and its
// kind: evidence of tampering, or a doubt for a person to settle (a
// misread is never evidence).
type FraudReason struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Kind    string   `json:"kind,omitempty"`
	Fields  []string `json:"fields,omitempty"`
}

// ParsedDocument is what was read from a document, by its type: a W-2,
// a direct deposit form Payline made, or an uploaded paystub; all nil
// when nothing could be read (JSON null).
type ParsedDocument struct {
	W2          *W2
	DepositForm *DepositFormData
	Paystub     *ReadPaystub
}

// DepositFormData is a direct deposit form's parsed data: who, where the
// pay goes and the switch's allocation.
type DepositFormData struct {
	DocumentType        string    `json:"document_type"`
	EmployeeName        string    `json:"employee_name"`
	EmployerName        string    `json:"employer_name"`
	AccountName         string    `json:"account_name"`
	AccountType         string    `json:"account_type"`
	MaskedAccountNumber string    `json:"masked_account_number"`
	RoutingNumber       string    `json:"routing_number"`
	Params              JobParams `json:"params"`
}

// ReadPaystub is what was read from an uploaded paystub: amounts in
// cents of USD. A field the reader could not find is empty (and named in
// the document's warnings); lines keep the paystub's order.
type ReadPaystub struct {
	DocumentType   string `json:"document_type"`
	EmployerName   string `json:"employer_name"`
	EmployerEIN    string `json:"employer_ein,omitempty"`
	EmployeeName   string `json:"employee_name,omitempty"`
	PayDate        string `json:"pay_date,omitempty"`
	PayPeriodStart string `json:"pay_period_start,omitempty"`
	PayPeriodEnd   string `json:"pay_period_end,omitempty"`
	GrossPayAmount *int64 `json:"gross_pay_amount,omitempty"`
	NetPayAmount   *int64 `json:"net_pay_amount,omitempty"`
	GrossPayYTD    *int64 `json:"gross_pay_ytd,omitempty"`
	NetPayYTD      *int64 `json:"net_pay_ytd,omitempty"`
	// TotalTaxes and TotalDeductions are the period's totals as the
	// paystub prints them (nil when it prints none).
	TotalTaxes      *int64 `json:"total_taxes,omitempty"`
	TotalDeductions *int64 `json:"total_deductions,omitempty"`
	// Reimbursements are the period's non-taxable additions to net pay
	// (expenses, per diem, mileage): in net, not in gross.
	Reimbursements *int64    `json:"reimbursements,omitempty"`
	Earnings       []PayLine `json:"earnings,omitempty"`
	Taxes          []PayLine `json:"taxes,omitempty"`
	Deductions     []PayLine `json:"deductions,omitempty"`
	Currency       string    `json:"currency,omitempty"`
}

// MarshalJSON implements json.Marshaler: the parsed data set, or null.
func (p ParsedDocument) MarshalJSON() ([]byte, error) {
	switch {
	case p.W2 != nil:
		return json.Marshal(p.W2)
	case p.DepositForm != nil:
		return json.Marshal(p.DepositForm)
	case p.Paystub != nil:
		return json.Marshal(p.Paystub)
	}
	return []byte("null"), nil
}

// UnmarshalJSON implements json.Unmarshaler, by the data's document_type.
func (p *ParsedDocument) UnmarshalJSON(b []byte) error {
	*p = ParsedDocument{}
	if string(b) == "null" {
		return nil
	}
	var kind struct {
		DocumentType string `json:"document_type"`
	}
	if err := json.Unmarshal(b, &kind); err != nil {
		return err
	}
	switch kind.DocumentType {
	case DocumentW2:
		p.W2 = new(W2)
		return json.Unmarshal(b, p.W2)
	case DocumentDepositForm:
		p.DepositForm = new(DepositFormData)
		return json.Unmarshal(b, p.DepositForm)
	case DocumentPaystub:
		p.Paystub = new(ReadPaystub)
		return json.Unmarshal(b, p.Paystub)
	}
	return fmt.Errorf("parsed data of an unknown document type %q", kind.DocumentType)
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
	StartDate Date `json:"start_date"`
	EndDate   Date `json:"end_date"`
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
