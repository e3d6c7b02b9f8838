package domain

import (
	"cmp"
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
	// Pages are the further pages of a document photographed page by
	// page, Data its first: pictures (PNG or JPEG) all, kept and read as
	// one document (combinePages).
	Pages []UploadPage
}

// UploadPage is one further page of an uploaded document.
type UploadPage struct {
	Data []byte
	Size int64 // as UploadFile.Size
}

// ParsedUpload is what a document parser read of one document in an
// uploaded file: the document's parsed data (none set when nothing could
// be read), warnings naming what could not be read and why, where each
// field was read and how surely, the reader's own doubts, and the facts
// about the file itself that the forgery checks read.
type ParsedUpload struct {
	Data     ParsedDocument
	Warnings []DocumentWarning
	File     FileFacts
	// Readings say where each field was read (page, box) and how surely.
	Readings []FieldReading
	// Doubts are what the reader itself is unsure of (FIELDS_UNCERTAIN,
	// ...): reasons of kind doubt, which send the document to a person.
	Doubts []FraudReason
	// Refusal says why nothing was read when the file itself is the reason
	// (RefusalEncrypted, RefusalNotThisDocument, ...); "" otherwise.
	Refusal string
	// Part is which document of the file this is when it holds several
	// (1, 2, ...); 0 when it holds one.
	Part int
}

// Why a parser read nothing of a file, when the file says why: Link
// tells the person in their words, the warning tells the integrator.
const (
	// RefusalEncrypted: a PDF protected by a password.
	RefusalEncrypted = "encrypted"
	// RefusalNotThisDocument: the file is something else (an employment
	// letter uploaded as a paystub, a bank statement).
	RefusalNotThisDocument = "not_this_document"
	// RefusalUnreadable: damaged, not a PDF or picture, or no text found.
	RefusalUnreadable = "unreadable"
)

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
	// Mismatches are places where what the page shows differs from its
	// text layer, found where the file gave a reason to look (shapes or
	// pictures drawn over text, incremental updates, annotations): the
	// region is rendered and read by OCR.
	Mismatches []TextMismatch
}

// TextMismatch is a figure the text layer holds that the rendered page
// does not show: a white box painted over it, another figure on top.
type TextMismatch struct {
	Page int
	// Field is the field the text layer's figure was read as, if any.
	Field string
	// Layer is what the text layer holds there; Shown what the page shows
	// (read by OCR of the rendered region), "" when it shows nothing.
	Layer, Shown string
}

// Read says whether anything was read.
func (p ParsedDocument) Read() bool { return p.W2 != nil || p.DepositForm != nil || p.Paystub != nil }

// UploadParser reads uploaded documents (the documents package reads
// paystubs and W-2s of any layout).
type UploadParser interface {
	// ParseUpload reads one file: one ParsedUpload per document it holds
	// (a PDF of three paystubs gives three), at least one; a file it
	// cannot read gives one with no data, a warning and its Refusal, and
	// no error. Reading stops when ctx ends. Errors:
	// ErrUploadInflatesTooLarge when the file's compressed content
	// inflates past MaxUploadInflatedBytes (it stops reading there); the
	// context's error when it ended.
	ParseUpload(ctx context.Context, documentType, contentType string, data []byte) ([]ParsedUpload, error)
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

// readUpload is one document of an uploaded file, read and checked on its
// own.
type readUpload struct {
	file        UploadFile
	fileIndex   int
	contentType string
	parsed      ParsedUpload
	// quality is what was measured of a picture's pages, the worst of
	// them (measured: false for a PDF).
	quality  PictureQuality
	measured bool
	// reasons are the reader's doubts and the checks of the document alone
	// that failed.
	reasons []FraudReason
}

// readUploads checks every file (type by content: PDF, PNG or JPEG; at
// most MaxUploadBytes; at most MaxUploadFiles; inflating to at most
// MaxUploadInflatedBytes when read), then reads each, one or more
// documents a file, and, when check is set, runs the checks of a document
// alone (a preview runs none: it is not an oracle for them). Errors:
// MISSING_FIELDS, INVALID_FIELDS, UPLOAD_TOO_LARGE_INFLATED,
// UPLOAD_TOO_SLOW_TO_READ (the files took longer than the reading limit), and the
// context's when the caller left.
func (s *LinkService) readUploads(ctx context.Context, documentType string, files []UploadFile, check bool) ([]readUpload, error) {
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
	// A file's name is the user's device's: shown as it came, but
	// without the characters that would spoof it (CleanText).
	files = slices.Clone(files)
	for i := range files {
		files[i].Name = cmp.Or(CleanText(files[i].Name), fmt.Sprintf("file %d", i+1))
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
	count := 0
	for i, f := range files {
		count += 1 + len(f.Pages)
		for j, pg := range f.Pages {
			field := fmt.Sprintf("files[%d] (%s) page %d", i, f.Name, j+2)
			ct, _, _ := cutParams(http.DetectContentType(pg.Data))
			switch {
			case len(pg.Data) == 0:
				p.Invalid(field, "is empty")
			case max(pg.Size, int64(len(pg.Data))) > MaxUploadBytes:
				p.Invalid(field, "is %.1f MB; pages must be at most %d MB", float64(max(pg.Size, int64(len(pg.Data))))/(1<<20), MaxUploadBytes>>20)
			case ct != "image/png" && ct != "image/jpeg", types[i] == "application/pdf":
				p.Invalid(field, "a document of several pages is pictures (PNG or JPEG) only; a PDF holds its own pages")
			}
		}
	}
	if count > MaxUploadFiles && len(files) <= MaxUploadFiles {
		p.Invalid("files", "at most %d files and pages in all, got %d", MaxUploadFiles, count)
	}
	if err := p.Err(); err != nil {
		return nil, err
	}
	files, quality, err := combineUploadPages(files, types)
	if err != nil {
		return nil, err
	}
	// All the files together are read within the reading limit; past it
	// the programs are stopped and the request refused (nothing stored).
	limit := cmp.Or(s.uploads.reading, MaxUploadReading)
	reading, cancel := context.WithTimeoutCause(ctx, limit, errReadingTooLong)
	defer cancel()
	var out []readUpload
	for i, f := range files {
		parsed, err := s.parseUpload(reading, documentType, types[i], i, f)
		if err != nil && ctx.Err() == nil && errors.Is(context.Cause(reading), errReadingTooLong) {
			return nil, tooSlowToRead(limit)
		}
		if err != nil {
			return nil, err
		}
		for _, d := range parsed {
			d.Data.CleanText()
			r := readUpload{file: f, fileIndex: i, contentType: types[i], parsed: d, quality: quality[i], measured: types[i] != "application/pdf"}
			if check && d.Data.Read() {
				facts, err := s.employerFacts(ctx, d.Data)
				if err != nil {
					return nil, err
				}
				r.reasons = append(slices.Clone(d.Doubts), CheckDocument(d.Data, d.File, facts)...)
			}
			out = append(out, r)
		}
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

// storedSeries is the end user's stored paystubs, as the series checks
// read them: those whose figures do not count toward income (suspected,
// or not yet accepted by a reviewer) are Doubted: a suspected stub would
// cast its doubt on the ones that follow it, a doubtful one its misreads;
// only CheckVersions reads them.
func storedSeries(ctx context.Context, records RecordStore, sc Scope, endUserID string) ([]SeriesStub, error) {
	docs, err := ReadAll(ctx, func(ctx context.Context, p PageRequest) (Page[Record], error) {
		return records.FindRecords(ctx, sc, RecordFilter{Kind: RecordDocument, EndUserID: endUserID, DocumentType: DocumentPaystub}, p)
	})
	if err != nil {
		return nil, err
	}
	var out []SeriesStub
	for _, d := range docs {
		if b := d.Document; b != nil && b.ParsedData.Paystub != nil {
			out = append(out, SeriesStub{DocumentID: d.ID, Stub: *b.ParsedData.Paystub, Doubted: !b.CountsAsIncome()})
		}
	}
	return out, nil
}

// judge decides each new document's fraud outcome: the checks of its file
// and the series checks over the stored paystubs and the new ones. Only
// new stubs read without a doubt join the series: evidence is never
// drawn from figures the reader may have misread. Every new stub is
// compared with the end user's other versions of it (CheckVersions).
func judge(docs []readUpload, ids []string, stored []SeriesStub) []DocumentFraud {
	series := slices.Clone(stored)
	for i, d := range docs {
		if p := d.parsed.Data.Paystub; p != nil {
			series = append(series, SeriesStub{DocumentID: ids[i], New: true, Stub: *p, Doubted: len(d.reasons) > 0})
		}
	}
	more, versions := CheckSeries(series), CheckVersions(series)
	out := make([]DocumentFraud, len(docs))
	for i, d := range docs {
		out[i] = FraudOf(d.parsed.Data.Read(), slices.Concat(d.reasons, more[ids[i]], versions[ids[i]]))
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
	release, err := s.admitUploads(ctx, t, false)
	if err != nil {
		return 0, err
	}
	defer release()
	read, err := s.readUploads(ctx, documentType, files, true)
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
		if err := completeLinkOrder(ctx, tx, t, "", now); err != nil {
			return err
		}
		stored, err := storedSeries(ctx, tx.Records(), t.Scope(), t.EndUserID)
		if err != nil {
			return err
		}
		frauds := judge(read, ids, stored)
		for i, d := range read {
			body := &DocumentBody{DocumentType: documentType, ParsedData: d.parsed.Data, Warnings: uploadWarnings(d.parsed),
				Fraud: frauds[i], FileName: d.file.Name, Readings: d.parsed.Readings, Review: ReviewOf(frauds[i]), FilePart: d.parsed.Part}
			rec := Record{ID: ids[i], Kind: RecordDocument, EndUserID: t.EndUserID, DocumentType: documentType,
				SortKey: now.Format(time.RFC3339Nano), CreatedAt: now, Document: body}
			// A file of several documents is kept with each: every document
			// downloads the file it was read from.
			sum := sha256.Sum256(d.file.Data)
			file := File{ID: ids[i], CustomerID: t.CustomerID, Mode: t.Mode, Kind: documentType,
				Filename: fmt.Sprintf("%s-%d.%s", documentType, d.fileIndex+1, uploadTypes[d.contentType]), ContentType: d.contentType,
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
			if body.Review != nil {
				if err := PublishEvent(ctx, tx, t.Scope(), EventDocumentsReviewRequired, now, DocumentReviewRequiredPayload(rec)); err != nil {
					return err
				}
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

// Notes of an upload preview, in the end user's words. None accuses: a
// document the checks doubt, or even suspect, goes to a person, and the
// end user is told only that.
const (
	noteRead       = "We read this paystub."
	noteReadW2     = "We read this W-2."
	noteUnread     = "We couldn't read this file. Upload the PDF your employer or payroll provider gave you, or a sharp photo of the whole paystub, upright and in good light."
	noteEncrypted  = "This PDF is protected by a password, so we can't open it. Open it with its password and save or print it as a new PDF without one, or upload a photo of the paystub."
	noteNotPaystub = "This file doesn't look like a paystub (it may be a letter or a statement), so it won't count toward your income. Upload your paystubs instead."
	noteNotW2      = "This file doesn't look like a W-2, so it won't count. Upload the W-2 form itself."
	noteReview     = "We read this file. A person will check some of its figures before it counts toward your income; you don't need to do anything."
	noteTooDark    = "This picture is too dark to read. Take it again in better light, with the whole page in the picture."
	noteBlurred    = "This picture is blurred, so we can't read it. Hold the phone still, let it focus on the page, and take it again."
	noteIncomplete = "We couldn't read everything on this file. A person will check it before it counts toward your income; a clearer copy may help."
)

// UploadPreview is what Link tells the user about one document before
// they submit it: whether it was read, what was read, and a note in the
// end user's words. It never names the check a document failed: the
// integrator sees that in the document's fraud.reasons.
type UploadPreview struct {
	Name         string
	Read         bool
	EmployerName string
	PayDate      string
	NetPay       *Money
	Note         string
}

// PreviewUploads reads the files a user chose in Link and says, per file,
// what was read, storing nothing and leaving the token unused, so the
// user can change the files before submitting. It runs none of the
// forgery checks and its note never depends on them: a preview that said
// whether a file passed would let a forger try edits until one did. The
// checks run on upload (UploadDocuments), where another version of a
// stub uploaded before is itself a doubt. Errors: those of
// UploadDocuments.
func (s *LinkService) PreviewUploads(ctx context.Context, value, documentType string, files []UploadFile) ([]UploadPreview, error) {
	sess, err := s.Open(ctx, value)
	if err != nil {
		return nil, err
	}
	if err := sess.uploadsRefusal(); err != nil {
		return nil, err
	}
	release, err := s.admitUploads(ctx, sess.Token, true)
	if err != nil {
		return nil, err
	}
	defer release()
	read, err := s.readUploads(ctx, documentType, files, false)
	if err != nil {
		return nil, err
	}
	out := make([]UploadPreview, len(read))
	for i, d := range read {
		out[i] = preview(documentType, d)
	}
	return out, nil
}

// preview is what Link tells of one document read: what was read, and a
// note from the reading alone: read, read without a figure income needs
// (a person will look), or why nothing was read.
func preview(documentType string, d readUpload) UploadPreview {
	name := d.file.Name
	if d.parsed.Part > 0 {
		name = fmt.Sprintf("%s (%d)", name, d.parsed.Part)
	}
	pv := UploadPreview{Name: name, Read: d.parsed.Data.Read(), Note: noteUnread}
	switch d.parsed.Refusal {
	case RefusalEncrypted:
		pv.Note = noteEncrypted
	case RefusalNotThisDocument:
		pv.Note = noteNotPaystub
		if documentType == DocumentW2 {
			pv.Note = noteNotW2
		}
	}
	if w := d.parsed.Data.W2; w != nil {
		pv.EmployerName, pv.Note = w.EmployerName, noteReadW2
	}
	if p := d.parsed.Data.Paystub; p != nil {
		pv.EmployerName, pv.PayDate, pv.Note = p.EmployerName, p.PayDate, noteRead
		if p.NetPayAmount != nil {
			m := USD(*p.NetPayAmount)
			pv.NetPay = &m
		}
	}
	if pv.Read && len(checkMissing(d.parsed.Data)) > 0 {
		pv.Note = noteIncomplete
	}
	// A picture read incompletely or not at all that measures too dark or
	// blurred is asked again, as the modal asks before sending. One read
	// whole is not: a dim but sharp photo reads well.
	if (!pv.Read || pv.Note == noteIncomplete) && d.parsed.Refusal == "" && d.measured {
		switch {
		case d.quality.TooDark():
			pv.Note = noteTooDark
		case d.quality.Blurred():
			pv.Note = noteBlurred
		}
	}
	return pv
}

// parseUpload reads the i-th file with the parser, if there is one, and
// refuses it when its content inflates past MaxUploadInflatedBytes.
// Without a parser a file is kept unread. Errors:
// UPLOAD_TOO_LARGE_INFLATED, the context's.
func (s *LinkService) parseUpload(ctx context.Context, documentType, contentType string, i int, f UploadFile) ([]ParsedUpload, error) {
	if s.parser == nil {
		return []ParsedUpload{{}}, nil
	}
	parsed, err := s.parser.ParseUpload(ctx, documentType, contentType, f.Data)
	if errors.Is(err, ErrUploadInflatesTooLarge) {
		field := fmt.Sprintf("files[%d] (%s)", i, f.Name)
		return nil, &Error{Kind: KindInvalid, Code: CodeUploadTooLargeInflated, Fields: []string{field}, Err: err,
			Message: fmt.Sprintf("%s: its compressed content inflates to more than %d MB, more than Payline reads of one file; upload it in smaller files",
				field, MaxUploadInflatedBytes>>20)}
	}
	if err != nil {
		return nil, err
	}
	if len(parsed) == 0 {
		parsed = []ParsedUpload{{}}
	}
	return parsed, nil
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
