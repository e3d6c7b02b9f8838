package domain

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
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
	// Inconsistent: the figures read contradict each other.
	// Deprecated: the domain's forgery checks (CheckPaystub) replace it.
	Inconsistent bool
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

// UploadDocuments stores the files a user uploaded in Link as documents of
// the token's end user, in one transaction with their documents.added
// events; the token is then used. Every file is checked first (type by
// content: PDF, PNG or JPEG; at most MaxUploadBytes; at most
// MaxUploadFiles; inflating to at most MaxUploadInflatedBytes when read),
// so a refusal stores nothing. Each document has
// warnings (unparsable when nothing could be read) and fraud.status
// (unavailable then, suspected when the figures contradict each other).
func (s *LinkService) UploadDocuments(ctx context.Context, value, documentType string, files []UploadFile) (int, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return 0, err
	}
	t := sess.Token
	if sess.Account != nil {
		return 0, Errorf(KindInvalid, CodeLinkTokenUsed, "this link token already connected an account; create a new one to upload documents")
	}
	if t.EndUserID == "" {
		return 0, Errorf(KindInvalid, CodeInvalidFields, "this link token names no end_user_id to keep the documents for")
	}
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
	types := make([]string, len(files))
	for i, f := range files {
		field := fmt.Sprintf("files[%d] (%s)", i, f.Name)
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
			types[i] = ct
		}
	}
	if err := p.Err(); err != nil {
		return 0, err
	}
	now := s.clock.Now()
	type doc struct {
		rec  Record
		file File
	}
	docs := make([]doc, len(files))
	for i, f := range files {
		parsed, err := s.parseUpload(documentType, types[i], i, f)
		if err != nil {
			return 0, err
		}
		warnings, fraud := []DocumentWarning{}, "not_suspected"
		switch {
		case !parsed.Data.Read():
			fraud = "unavailable"
			warnings = append(warnings, DocumentWarning{Field: "parsed_data", Status: "unparsable",
				Message: "Nothing could be read from this file: Payline reads PDFs with a text layer in the layout it renders."})
		case parsed.Inconsistent:
			fraud = "suspected"
		}
		id := NewID()
		body := &DocumentBody{DocumentType: documentType, ParsedData: parsed.Data, Warnings: warnings,
			Fraud: DocumentFraud{Status: fraud}, FileName: f.Name}
		sum := sha256.Sum256(f.Data)
		docs[i] = doc{
			rec: Record{ID: id, Kind: RecordDocument, EndUserID: t.EndUserID, DocumentType: documentType,
				SortKey: now.Format(time.RFC3339Nano), CreatedAt: now, Document: body},
			file: File{ID: id, CustomerID: t.CustomerID, Mode: t.Mode, Kind: documentType,
				Filename: fmt.Sprintf("%s-%d.%s", documentType, i+1, uploadTypes[types[i]]), ContentType: types[i],
				SHA256: hex.EncodeToString(sum[:]), CreatedAt: now, Body: f.Data},
		}
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx Tx) error {
		if err := tx.LinkTokens().MarkLinkTokenUsed(ctx, t.Scope(), t.ID, now); err != nil {
			if errors.Is(err, ErrNoRows) {
				return Errorf(KindInvalid, CodeLinkTokenUsed, "this link token was already used; create a new one")
			}
			return err
		}
		for _, d := range docs {
			if _, err := tx.Records().PutRecords(ctx, t.Scope(), []Record{d.rec}); err != nil {
				return err
			}
			if err := tx.Reports().PutFile(ctx, t.Scope(), d.file); err != nil {
				return err
			}
			if err := PublishEvent(ctx, tx, t.Scope(), "documents.added", now, map[string]any{
				"document_id": d.rec.ID, "document_type": documentType, "end_user_id": t.EndUserID, "account_id": nil,
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return len(docs), nil
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
