package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Document uploads: a user who cannot log in to their payroll account
// uploads paystubs or W-2s in Link instead.
const (
	MaxUploadFiles = 10
	MaxUploadBytes = 10 << 20 // per file
	// MaxUploadRequestBytes bounds a whole upload request: every file at
	// its largest, plus the multipart framing.
	MaxUploadRequestBytes = MaxUploadFiles*MaxUploadBytes + 1<<20
	// MaxUploadInflatedBytes bounds what one uploaded file's compressed
	// content (a PDF's Flate streams) may inflate to, in all, when it is
	// read: a few kilobytes of compressed zeros per stream would
	// otherwise make megabytes each, for any number of streams.
	MaxUploadInflatedBytes = 16 << 20
	DocumentPaystub        = "paystub"
)

// ErrUploadInflatesTooLarge is an UploadParser's answer for a file whose
// compressed content inflates past MaxUploadInflatedBytes; UploadDocuments
// refuses the upload with UPLOAD_TOO_LARGE_INFLATED.
var ErrUploadInflatesTooLarge = errors.New("the file's compressed content inflates past the upload bound")

// uploadTypes are the content types an upload may have, by what its bytes
// are (net/http's sniffing), never by its name.
var uploadTypes = map[string]string{"application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg"}

// UploadFile is one file as the user sent it.
type UploadFile struct {
	Name string
	Data []byte
	// Size is the file's whole size when Data holds only its start (a
	// transport stops reading a file past MaxUploadBytes).
	Size int64
}

// ParsedUpload is what a document parser read from an uploaded file: the
// document's parsed data (none set when nothing could be read), warnings
// naming what could not be read and why, and the facts about the file
// itself that the forgery checks read.
type ParsedUpload struct {
	Data     ParsedDocument
	Warnings []DocumentWarning
	File     FileFacts
}

// FontUse is how much of a file's text one font draws.
type FontUse struct {
	Font             string
	Strings, Figures int
}

// FileFacts are what a parser learnt about an uploaded file beside its
// figures: its metadata (PDF Info), the fonts its text is drawn in and
// the programs that made it, and whether its text came from OCR.
type FileFacts struct {
	Producer string
	Creator  string
	Created  time.Time // zero when the file does not say
	Modified time.Time // zero when the file does not say
	// Fonts are the base font names the text is drawn in, each once, in
	// order of first use (PDFs only).
	Fonts []string
	// FontUse says, per font (base font name, PDFs only), how many strings
	// the pages draw in it and how many of those are figures (amounts or
	// dates), as far as its encoding lets them be read (an embedded
	// subset's glyph ids cannot: those count as strings only).
	FontUse []FontUse
	// Producers are every producer or creator string the file carries
	// (its Info dictionary, its XMP, incremental updates), each once.
	Producers []string
	// Revisions counts the file's incremental updates (PDF: one per %%EOF
	// after the first).
	Revisions int
	OCR       bool
}

// Read says whether anything was read.
func (p ParsedDocument) Read() bool { return p.W2 != nil || p.DepositForm != nil || p.Paystub != nil }

// UploadParser reads uploaded documents (the documents package reads
// paystubs and W-2s of any layout).
type UploadParser interface {
	// ParseUpload reads one file; a file it cannot read gives an empty
	// ParsedUpload and no error. Errors: ErrUploadInflatesTooLarge when
	// the file's compressed content inflates past MaxUploadInflatedBytes
	// (it stops reading there).
	ParseUpload(documentType, contentType string, data []byte) (ParsedUpload, error)
}

// uploadsRefusal says why a session may not upload documents, nil when it
// may: the token has not connected an account, names the end user the
// documents would belong to, and is neither an on-demand update of an
// account nor a bill change. Errors: LINK_TOKEN_USED, INVALID_FIELDS.
func (s LinkSession) uploadsRefusal() error {
	t := s.Token
	switch {
	case s.Account != nil:
		return Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already connected an account; create a new one to upload documents")
	case t.EndUserID == "":
		return Errorf(KindInvalid, CodeInvalidFields, "this link token names no end_user_id to keep the documents for")
	case t.AccountID != "":
		return Errorf(KindInvalid, CodeInvalidFields, "this link token updates account %s; documents are uploaded with a token that names an end_user_id and no account_id", t.AccountID)
	case t.BillJob() != "":
		return Errorf(KindInvalid, CodeInvalidFields, "this link token asks for a bill change (%s), which documents cannot make", t.BillJob())
	}
	return nil
}

// UploadsOffered reports whether Link offers this session the upload
// screen: the one rule UploadDocuments and PreviewUploads enforce.
func (s LinkSession) UploadsOffered() bool { return s.uploadsRefusal() == nil }

// readUpload is one uploaded file, read and checked on its own.
type readUpload struct {
	file        UploadFile
	contentType string
	parsed      ParsedUpload
	// reasons are the checks of the file alone that failed.
	reasons []FraudReason
}

// readUploads checks every file (type by content: PDF, PNG or JPEG; at
// most MaxUploadBytes; at most MaxUploadFiles; inflating to at most
// MaxUploadInflatedBytes when read), then reads each and runs the checks
// of a file alone. Errors: MISSING_FIELDS, INVALID_FIELDS,
// UPLOAD_TOO_LARGE_INFLATED.
func (s *LinkService) readUploads(ctx context.Context, documentType string, files []UploadFile) ([]readUpload, error) {
	var p Problems
	if documentType != DocumentPaystub && documentType != DocumentW2 {
		p.Invalid("document_type", "must be paystub or w2, got %q", documentType)
	}
	switch {
	case len(files) == 0:
		p.Missing("files")
	case len(files) > MaxUploadFiles:
		p.Invalid("files", "at most %d files, got %d", MaxUploadFiles, len(files))
	}
	out := make([]readUpload, len(files))
	for i, f := range files {
		field := fmt.Sprintf("files[%d] (%s)", i, f.Name)
		out[i].file = f
		switch {
		case len(f.Data) == 0:
			p.Invalid(field, "is empty")
		case max(f.Size, int64(len(f.Data))) > MaxUploadBytes:
			p.Invalid(field, "is %.1f MB; files must be at most %d MB", float64(max(f.Size, int64(len(f.Data))))/(1<<20), MaxUploadBytes>>20)
		default:
			ct, _, _ := cutParams(http.DetectContentType(f.Data))
			if _, ok := uploadTypes[ct]; !ok {
				p.Invalid(field, "is not a PDF, PNG or JPEG (its content is %s, whatever its name says)", ct)
			}
			out[i].contentType = ct
		}
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		parsed, err := s.parseUpload(documentType, out[i].contentType, i, out[i].file)
		if err != nil {
			return nil, err
		}
		out[i].parsed = parsed
		if !parsed.Data.Read() {
			continue
		}
		facts, err := s.employerFacts(ctx, parsed.Data)
		if err != nil {
			return nil, err
		}
		out[i].reasons = CheckDocument(parsed.Data, parsed.File, facts)
	}
	return out, nil
}

// employerFacts looks the employer a document names up in the directory:
// by the EIN it prints, and by its name.
func (s *LinkService) employerFacts(ctx context.Context, d ParsedDocument) (EmployerFacts, error) {
	var name, ein string
	switch {
	case d.Paystub != nil:
		name, ein = d.Paystub.EmployerName, NormalizeEIN(d.Paystub.EmployerEIN)
	case d.W2 != nil:
		name = d.W2.EmployerName
	}
	var facts EmployerFacts
	if ein != "" {
		e, err := s.directory.EmployerByEIN(ctx, ein)
		switch {
		case err == nil:
			facts.ByEIN = &e
		case !IsKind(err, KindNotFound):
			return facts, err
		}
	}
	if name = strings.TrimSpace(name); name != "" && len(name) <= MaxSearchQuery {
		found, err := s.directory.Search(ctx, SearchQuery{Q: name, ResponseTypes: []ResponseType{ResponseEmployer}, Limit: 10})
		if err != nil {
			return facts, err
		}
		for _, r := range found {
			if r.Employer != nil && SameEmployerName(r.Employer.Name, name) {
				facts.ByName = append(facts.ByName, *r.Employer)
			}
		}
	}
	return facts, nil
}

// storedSeries is what the series checks read of the end user's stored
// paystubs: those that were read and not suspected (a suspected stub
// would cast its doubt on the ones that follow it).
func storedSeries(ctx context.Context, records RecordStore, sc Scope, endUserID string) ([]SeriesStub, error) {
	docs, err := ReadAll(ctx, func(ctx context.Context, p PageRequest) (Page[Record], error) {
		return records.FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID, DocumentType: DocumentPaystub}, p)
	})
	if err != nil {
		return nil, err
	}
	var out []SeriesStub
	for _, d := range docs {
		if b := d.Document; b != nil && b.ParsedData.Paystub != nil && b.Fraud.Status == FraudNotSuspected {
			out = append(out, SeriesStub{DocumentID: d.ID, Stub: *b.ParsedData.Paystub})
		}
	}
	return out, nil
}

// judge decides each new document's fraud outcome: the checks of its file
// and the series checks over the stored paystubs and the new ones.
func judge(docs []readUpload, ids []string, stored []SeriesStub) []DocumentFraud {
	series := slices.Clone(stored)
	for i, d := range docs {
		if p := d.parsed.Data.Paystub; p != nil && len(d.reasons) == 0 {
			series = append(series, SeriesStub{DocumentID: ids[i], New: true, Stub: *p})
		}
	}
	more := CheckSeries(series)
	out := make([]DocumentFraud, len(docs))
	for i, d := range docs {
		out[i] = FraudOf(d.parsed.Data.Read(), append(slices.Clone(d.reasons), more[ids[i]]...))
	}
	return out
}

// uploadWarnings are a document's warnings: the parser's, and one that
// says nothing could be read when nothing was.
func uploadWarnings(p ParsedUpload) []DocumentWarning {
	out := append([]DocumentWarning{}, p.Warnings...)
	if !p.Data.Read() && !slices.ContainsFunc(out, func(w DocumentWarning) bool { return w.Status == "unparsable" && w.Field == "parsed_data" }) {
		out = append(out, DocumentWarning{Field: "parsed_data", Status: "unparsable",
			Message: "Nothing could be read from this file: no paystub or W-2 figures were found in its text layer or, for a picture or a scanned page, by OCR."})
	}
	return out
}

// UploadDocuments stores the files a user uploaded in Link as documents of
// the token's end user, in one transaction with their documents.added and
// documents.parsed events; the token is then used. Every file is checked
// first (readUploads), so a refusal stores nothing. Each document has
// warnings (unparsable when nothing could be read) and fraud: unavailable
// when nothing was read, suspected with its reasons when a forgery check
// failed (docs/documents.md), not_suspected otherwise. The series checks
// read the end user's stored paystubs inside the transaction; stored
// documents keep their status. Errors: those of Open, uploadsRefusal and
// readUploads.
func (s *LinkService) UploadDocuments(ctx context.Context, value, documentType string, files []UploadFile) (int, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return 0, err
	}
	if err := sess.uploadsRefusal(); err != nil {
		return 0, err
	}
	t := sess.Token
	read, err := s.readUploads(ctx, documentType, files)
	if err != nil {
		return 0, err
	}
	now := s.clock.Now()
	ids := make([]string, len(read))
	for i := range ids {
		ids[i] = NewID()
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.LinkTokens().MarkLinkTokenUsed(ctx, t.Scope(), t.ID, now); err != nil {
			if errors.Is(err, ErrNoRows) {
				return Errorf(KindInvalid, CodeLinkTokenUsed, "this link token was already used; create a new one")
			}
			return err
		}
		stored, err := storedSeries(ctx, tx.Records(), t.Scope(), t.EndUserID)
		if err != nil {
			return err
		}
		frauds := judge(read, ids, stored)
		for i, d := range read {
			body := &DocumentBody{DocumentType: documentType, ParsedData: d.parsed.Data, Warnings: uploadWarnings(d.parsed),
				Fraud: frauds[i], FileName: d.file.Name}
			rec := Record{ID: ids[i], Kind: RecordDocument, EndUserID: t.EndUserID, DocumentType: documentType,
				SortKey: now.Format(time.RFC3339Nano), CreatedAt: now, Document: body}
			sum := sha256.Sum256(d.file.Data)
			file := File{ID: ids[i], CustomerID: t.CustomerID, Mode: t.Mode, Kind: documentType,
				Filename: fmt.Sprintf("%s-%d.%s", documentType, i+1, uploadTypes[d.contentType]), ContentType: d.contentType,
				SHA256: hex.EncodeToString(sum[:]), CreatedAt: now, Body: d.file.Data}
			if _, err := tx.Records().PutRecords(ctx, t.Scope(), []Record{rec}); err != nil {
				return err
			}
			if err := tx.Reports().PutFile(ctx, t.Scope(), file); err != nil {
				return err
			}
			if err := PublishEvent(ctx, tx, t.Scope(), "documents.added", now, map[string]any{
				"document_id": rec.ID, "document_type": documentType, "end_user_id": t.EndUserID, "account_id": nil,
			}); err != nil {
				return err
			}
			if err := PublishEvent(ctx, tx, t.Scope(), EventDocumentsParsed, now, DocumentsParsedPayload(rec)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(read), nil
}

// EventDocumentsParsed is sent for each uploaded document once it is read
// and checked, with what was read.
const EventDocumentsParsed = "documents.parsed"

// DocumentsParsedPayload is a documents.parsed event's payload: the
// document, what was read from it, its warnings and its fraud outcome.
func DocumentsParsedPayload(r Record) map[string]any {
	return map[string]any{"document_id": r.ID, "document_type": r.DocumentType, "end_user_id": r.EndUserID, "account_id": nil,
		"parsed_data": r.Document.ParsedData, "warnings": r.Document.Warnings, "fraud": r.Document.Fraud}
}

// UploadPreview is what Link tells the user about one file before they
// submit it: whether it was read, what was read, and a note in the end
// user's words. It never names the forgery check a file failed: the
// integrator sees that in the document's fraud.reasons.
type UploadPreview struct {
	Name         string
	Read         bool
	EmployerName string
	PayDate      string
	NetPay       *Money
	Note         string
}

// Notes of an upload preview, in the end user's words.
const (
	noteRead       = "We read this paystub."
	noteReadW2     = "We read this W-2."
	noteUnread     = "We couldn't read this file. Upload the PDF your employer or payroll provider gave you, or a sharp photo of the whole paystub, upright and in good light."
	noteSuspected  = "We read this file, but some of its figures don't match each other or your other paystubs. It won't count toward your income unless it is reviewed."
	noteIncomplete = "We read this file, but not its pay date, gross pay and net pay, so it won't count toward your income."
)

// PreviewUploads reads the files a user chose in Link and says, per file,
// what was read, storing nothing and leaving the token unused, so the
// user can change the files before submitting. The checks are those
// UploadDocuments runs. Errors: those of UploadDocuments.
func (s *LinkService) PreviewUploads(ctx context.Context, value, documentType string, files []UploadFile) ([]UploadPreview, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return nil, err
	}
	if err := sess.uploadsRefusal(); err != nil {
		return nil, err
	}
	read, err := s.readUploads(ctx, documentType, files)
	if err != nil {
		return nil, err
	}
	stored, err := storedSeries(ctx, s.tx.Records(), sess.Token.Scope(), sess.Token.EndUserID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(read))
	for i := range ids {
		ids[i] = fmt.Sprintf("preview-%d", i+1)
	}
	frauds := judge(read, ids, stored)
	out := make([]UploadPreview, len(read))
	for i, d := range read {
		out[i] = preview(d, frauds[i])
	}
	return out, nil
}

func preview(d readUpload, fraud DocumentFraud) UploadPreview {
	pv := UploadPreview{Name: d.file.Name, Read: d.parsed.Data.Read(), Note: noteUnread}
	if w := d.parsed.Data.W2; w != nil {
		pv.EmployerName, pv.Note = w.EmployerName, noteReadW2
	}
	if p := d.parsed.Data.Paystub; p != nil {
		pv.EmployerName, pv.PayDate, pv.Note = p.EmployerName, p.PayDate, noteRead
		if p.NetPayAmount != nil {
			m := USD(*p.NetPayAmount)
			pv.NetPay = &m
		}
		if _, ok := p.Paystub(""); !ok {
			pv.Note = noteIncomplete
		}
	}
	if fraud.Status == FraudSuspected {
		pv.Note = noteSuspected
	}
	return pv
}

// parseUpload reads the i-th file with the parser, if there is one, and
// refuses it when its content inflates past MaxUploadInflatedBytes.
// Errors: UPLOAD_TOO_LARGE_INFLATED.
func (s *LinkService) parseUpload(documentType, contentType string, i int, f UploadFile) (ParsedUpload, error) {
	if s.parser == nil {
		return ParsedUpload{}, nil
	}
	parsed, err := s.parser.ParseUpload(documentType, contentType, f.Data)
	if errors.Is(err, ErrUploadInflatesTooLarge) {
		field := fmt.Sprintf("files[%d] (%s)", i, f.Name)
		return ParsedUpload{}, &Error{Kind: KindInvalid, Code: CodeUploadTooLargeInflated, Fields: []string{field}, Err: err,
			Message: fmt.Sprintf("%s: its compressed content inflates to more than %d MB, more than Payline reads of one file; upload it in smaller files",
				field, MaxUploadInflatedBytes>>20)}
	}
	return parsed, err
}

// cutParams drops the parameters of a media type: "text/plain; charset=utf-8"
// is "text/plain".
func cutParams(ct string) (string, string, bool) {
	for i := range len(ct) {
		if ct[i] == ';' {
			return ct[:i], ct[i+1:], true
		}
	}
	return ct, "", false
}
