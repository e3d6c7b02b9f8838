// Package documents reads uploaded paystubs and W-2s of any layout: the
// words of a PDF's text layer with their positions (poppler's
// pdftotext), or of a picture, a scanned PDF or a PDF drawn as outlines
// through OCR (tesseract, after the picture is prepared), interpreted by
// one layout-agnostic reader of tables, labels and values whose
// candidate readings the arithmetic judges. Every program runs with a
// timeout and a memory bound, and at most a bounded number of documents
// are read at once. It implements domain.UploadParser and
// domain.PageRenderer and fills the file facts the domain's checks read.
package documents

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"payline/domain"
)

// Reader reads uploaded documents. The zero value is not usable; make
// one with NewReader.
type Reader struct {
	tesseract string // "" when OCR is not installed
	pdftotext string
	pdftoppm  string
	timeout   time.Duration
	memory    int64
	maxPages  int
	// slots bounds the documents read at once, instance-wide: reading
	// runs programs that take a core and hundreds of megabytes each.
	slots chan struct{}
}

// Option configures a Reader.
type Option func(*Reader)

// WithTesseract runs tesseract from path; an empty path looks it up in
// PATH. A path that does not exist leaves the reader without OCR.
func WithTesseract(path string) Option { return func(r *Reader) { r.tesseract = path } }

// WithPoppler runs pdftotext and pdftoppm from dir; empty looks them up
// in PATH.
func WithPoppler(dir string) Option {
	return func(r *Reader) {
		if dir != "" {
			r.pdftotext, r.pdftoppm = filepath.Join(dir, "pdftotext"), filepath.Join(dir, "pdftoppm")
		}
	}
}

// WithTimeout bounds each program the reader runs (default 30 s: OCR of
// a 300 dpi page takes a few seconds on one core).
func WithTimeout(d time.Duration) Option { return func(r *Reader) { r.timeout = d } }

// WithMemoryLimit bounds the address space of each program the reader
// runs, in bytes (default 1 GiB).
func WithMemoryLimit(bytes int64) Option { return func(r *Reader) { r.memory = bytes } }

// WithMaxPages reads at most n pages of a PDF (default 6: a paystub or
// W-2 is a page or two; a "download all" export a few).
func WithMaxPages(n int) Option { return func(r *Reader) { r.maxPages = n } }

// WithConcurrency reads at most n documents at once in this process
// (default: the number of cores); others wait their turn or their
// caller's context.
func WithConcurrency(n int) Option {
	return func(r *Reader) { r.slots = make(chan struct{}, max(1, n)) }
}

// NewReader makes a Reader; programs not found leave the reader unable
// to read what needs them, which its answers then say.
func NewReader(opts ...Option) *Reader {
	r := &Reader{timeout: 30 * time.Second, memory: 1 << 30, maxPages: 6}
	for _, o := range opts {
		o(r)
	}
	if r.slots == nil {
		r.slots = make(chan struct{}, max(1, runtime.NumCPU()))
	}
	look := func(p *string, name string) {
		if *p == "" {
			*p, _ = exec.LookPath(name)
			return
		}
		if _, err := os.Stat(*p); err != nil {
			*p = ""
		}
	}
	if r.tesseract == "" {
		look(&r.tesseract, "tesseract")
	} else {
		look(&r.tesseract, "")
	}
	look(&r.pdftotext, "pdftotext")
	look(&r.pdftoppm, "pdftoppm")
	return r
}

// OCR says whether the reader can read pictures.
func (r *Reader) OCR() bool { return r.tesseract != "" }

// ParseUpload implements domain.UploadParser for paystubs and W-2s in
// PDF, PNG or JPEG: one ParsedUpload per document the file holds (a PDF
// of several paystubs, one a page, gives several). A file it cannot read
// gives one with no data, a warning that says why and its Refusal.
// Errors: domain.ErrUploadInflatesTooLarge, the context's.
func (r *Reader) ParseUpload(ctx context.Context, documentType, contentType string, data []byte) ([]domain.ParsedUpload, error) {
	select {
	case r.slots <- struct{}{}:
		defer func() { <-r.slots }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	out, err := r.read(ctx, documentType, contentType, data)
	if err == nil && ctx.Err() != nil {
		return nil, ctx.Err() // the caller left: what was read is not worth keeping
	}
	return out, err
}

// Read is ParseUpload for one document: the first the file holds.
func (r *Reader) Read(ctx context.Context, documentType, contentType string, data []byte) (domain.ParsedUpload, error) {
	out, err := r.ParseUpload(ctx, documentType, contentType, data)
	if err != nil || len(out) == 0 {
		return domain.ParsedUpload{}, err
	}
	return out[0], nil
}

// source is the words of a file as pages, where they came from, and what
// the file's page shows where its text layer may not.
type source struct {
	doc        page
	ocr        bool
	mismatches []domain.TextMismatch
	// unsure are places a check could not read surely.
	unsure []word
}

func (r *Reader) read(ctx context.Context, documentType, contentType string, data []byte) ([]domain.ParsedUpload, error) {
	if documentType != domain.DocumentPaystub && documentType != domain.DocumentW2 {
		return refused(domain.FileFacts{}, domain.RefusalUnreadable, "Payline reads paystubs and W-2s; this document type is not read."), nil
	}
	dir, err := os.MkdirTemp("", "payline-document-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	var src source
	var facts domain.FileFacts
	switch contentType {
	case "application/pdf":
		var refusal, why string
		src, facts, refusal, why, err = r.readPDF(ctx, dir, documentType, data)
		if err != nil {
			return nil, err
		}
		if refusal != "" {
			return refused(facts, refusal, why), nil
		}
	case "image/png", "image/jpeg":
		facts.OCR = r.OCR()
		if !r.OCR() {
			return refused(facts, domain.RefusalUnreadable, notInstalled), nil
		}
		words, size, err := r.ocrPicture(ctx, dir, data, 1, documentType)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			return refused(facts, domain.RefusalUnreadable, pictureProblem(err)), nil
		}
		if len(words) == 0 {
			return refused(facts, domain.RefusalUnreadable, "No text could be recognized in this picture."), nil
		}
		src = source{doc: buildLayout(words, ocrGap), ocr: true}
		src.doc.sizes = map[int][2]float64{1: size}
	default:
		return refused(facts, domain.RefusalUnreadable, "Payline reads PDFs, PNGs and JPEGs; this file is none of them."), nil
	}
	facts.Mismatches = src.mismatches
	if kind := classify(src.doc); kind != documentType && kind != "" {
		return refused(facts, domain.RefusalNotThisDocument, notThis(documentType, kind)), nil
	}
	if documentType == domain.DocumentW2 {
		w2, warnings, readings, doubts := readW2(src.doc, src.ocr)
		return []domain.ParsedUpload{{Data: domain.ParsedDocument{W2: w2}, Warnings: warnings, File: facts,
			Readings: readings, Doubts: doubts}}, nil
	}
	parts := splitStubs(src.doc)
	out := make([]domain.ParsedUpload, len(parts))
	for i, part := range parts {
		read := readPaystub(part, src.ocr)
		p := domain.ParsedUpload{Data: domain.ParsedDocument{Paystub: read.stub}, Warnings: read.warnings, File: facts,
			Readings: read.readings, Doubts: read.doubts}
		p.File.Mismatches = mismatchesOf(src.mismatches, part, read.stub)
		p.Doubts = append(p.Doubts, unsureDoubts(src.unsure, part)...)
		if len(parts) > 1 {
			p.Part = i + 1
		}
		out[i] = p
	}
	return out, nil
}

// Gaps, in line heights, that part two phrases: a text layer's word
// boxes are an em high, OCR's only as high as the ink.
const (
	textGap = 0.6
	ocrGap  = 0.9
)

const notInstalled = "Nothing could be read from this picture: OCR is not installed on this server (tesseract), so Payline reads only PDFs with a text layer."

func refused(facts domain.FileFacts, refusal, why string) []domain.ParsedUpload {
	return []domain.ParsedUpload{{File: facts, Refusal: refusal,
		Warnings: []domain.DocumentWarning{{Field: "parsed_data", Status: "unparsable", Message: why}}}}
}

func pictureProblem(err error) string {
	switch {
	case errors.Is(err, errTooManyPixels):
		return "This picture is too large to read (" + err.Error() + "); upload a photo of at most 40 megapixels."
	case errors.Is(err, context.DeadlineExceeded):
		return "Reading this picture took too long."
	}
	return "This picture could not be read: " + err.Error() + "."
}

// readPDF reads a PDF's words: its text layer where it has a readable
// one (with the places the page may show otherwise read as shown), else
// OCR of its drawn pages (a scan, text drawn as outlines, a text layer
// of unreadable glyphs). refusal and why say why nothing was read.
func (r *Reader) readPDF(ctx context.Context, dir, documentType string, data []byte) (src source, facts domain.FileFacts, refusal, why string, err error) {
	scan, err := scanPDF(data, domain.MaxUploadInflatedBytes)
	if err != nil {
		return source{}, scan.facts, "", "", err
	}
	facts = scan.facts
	if scan.imagePixels > maxPDFImagePixels {
		return source{}, facts, domain.RefusalUnreadable, fmt.Sprintf("This PDF holds a picture of %d million pixels, more than Payline draws (%d million); upload a smaller copy or a photo.",
			scan.imagePixels/1_000_000, maxPDFImagePixels/1_000_000), nil
	}
	if r.pdftotext == "" {
		return source{}, facts, domain.RefusalUnreadable, "Nothing could be read from this PDF: poppler's pdftotext is not installed on this server.", nil
	}
	path := filepath.Join(dir, "upload.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return source{}, facts, "", "", err
	}
	if scan.showsText || scan.encrypted {
		words, sizes, err := r.textLayerWords(ctx, path)
		switch {
		case ctx.Err() != nil:
			return source{}, facts, "", "", ctx.Err()
		case err != nil && scan.encrypted && strings.Contains(strings.ToLower(err.Error()), "password"):
			return source{}, facts, domain.RefusalEncrypted, "This PDF is protected by a password, so it could not be opened. Open it with its password and save or print it as a new PDF without one.", nil
		case errors.Is(err, context.DeadlineExceeded):
			return source{}, facts, domain.RefusalUnreadable, "Reading this PDF took too long.", nil
		case err == nil && readableText(words):
			src := source{doc: buildLayout(words, textGap)}
			src.doc.sizes = sizes
			if places := suspectPlaces(words, scan.covers, sizes); len(places) > 0 && r.OCR() && r.pdftoppm != "" {
				seen, mismatches, unsure, err := r.seenOnPage(ctx, dir, path, words, places)
				if err != nil {
					return source{}, facts, "", "", fmt.Errorf("documents: drawing the page to check its text: %w", err)
				}
				src = source{doc: buildLayout(seen, textGap), mismatches: mismatches, unsure: unsure}
				src.doc.sizes = sizes
			}
			return src, facts, "", "", nil
		}
	}
	facts.OCR = r.OCR()
	if !r.OCR() {
		return source{}, facts, domain.RefusalUnreadable, "Nothing could be read from this PDF: it has no readable text layer (a scan, or text drawn as shapes) and " +
			"OCR is not installed on this server (tesseract).", nil
	}
	if r.pdftoppm == "" {
		return source{}, facts, domain.RefusalUnreadable, "Nothing could be read from this scanned PDF: poppler's pdftoppm is not installed on this server.", nil
	}
	pages, err := r.rasterize(ctx, path, dir)
	if ctx.Err() != nil {
		return source{}, facts, "", "", ctx.Err()
	}
	if err != nil {
		return source{}, facts, domain.RefusalUnreadable, drawProblem(err), nil
	}
	var words []word
	sizes := map[int][2]float64{}
	for i, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			return source{}, facts, "", "", err
		}
		ws, size, err := r.ocrPicture(ctx, dir, b, i+1, documentType)
		if ctx.Err() != nil {
			return source{}, facts, "", "", ctx.Err()
		}
		if err != nil {
			return source{}, facts, domain.RefusalUnreadable, "No text could be recognized in this PDF's pages: " + err.Error() + ".", nil
		}
		words = append(words, ws...)
		sizes[i+1] = size
	}
	if len(words) == 0 {
		return source{}, facts, domain.RefusalUnreadable, "No text could be recognized in this scanned PDF.", nil
	}
	src = source{doc: buildLayout(words, ocrGap), ocr: true}
	src.doc.sizes = sizes
	return src, facts, "", "", nil
}

// drawProblem says why a PDF's pages could not be drawn, for a person.
func drawProblem(err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "Drawing this PDF's pages took too long; it may be damaged or its pages very large."
	case errors.Is(err, errNoPages):
		return "This PDF's pages could not be drawn within the server's memory bound; its pages may be very large. Upload a smaller copy or a photo."
	}
	return "This PDF could not be read: it is damaged or not a PDF."
}

// readableText says whether a text layer's words read as text: most are
// made of letters, digits and the punctuation of figures, and there are
// enough of them. A layer of glyph codes with no Unicode map (a font
// without one) reads as symbols, and the drawn page is read instead.
func readableText(words []word) bool {
	if len(words) < 8 {
		return false
	}
	good := 0
	for _, w := range words {
		ok := true
		for _, c := range w.text {
			if c < 0x20 || c == 0xFFFD || (c > 0x7E && c < 0xA0) {
				ok = false
				break
			}
		}
		if ok && (strings.ContainsAny(w.text, "aeiouAEIOU0123456789")) {
			good++
		}
	}
	return good*10 >= len(words)*7
}

// mismatchesOf keeps the differences on a part's pages, each named by
// the money field read as the figure the page shows there.
func mismatchesOf(ms []domain.TextMismatch, part page, stub *domain.ReadPaystub) []domain.TextMismatch {
	var out []domain.TextMismatch
	pages := map[int]bool{}
	for _, l := range part.lines {
		pages[l.page] = true
	}
	for _, m := range ms {
		if !pages[m.Page] {
			continue
		}
		if v, ok := parseAmount(m.Shown); ok && stub != nil {
			for _, f := range []struct {
				name string
				v    *int64
			}{{"net_pay_amount", stub.NetPayAmount}, {"gross_pay_amount", stub.GrossPayAmount}, {"net_pay_ytd", stub.NetPayYTD},
				{"gross_pay_ytd", stub.GrossPayYTD}, {"total_taxes", stub.TotalTaxes}, {"total_deductions", stub.TotalDeductions}} {
				if f.v != nil && (*f.v == v || *f.v == -v) {
					m.Field = f.name
					break
				}
			}
		}
		out = append(out, m)
	}
	return out
}

// readingQuality scores a reading of a picture: a paystub's figures that
// close count most, then each main field found, its lines matching its
// gross, and fewer doubts; a W-2's boxes read, and those whose taxes
// match their wages at the statutory rates.
func readingQuality(doc page, documentType string) float64 {
	if documentType == domain.DocumentW2 {
		w2, _, _, doubts := readW2(doc, true)
		score := 0.0
		if b := w2.Boxes; b != nil {
			for _, v := range []*int64{b.Box1, b.Box2, b.Box3, b.Box4, b.Box5, b.Box6} {
				if v != nil {
					score++
				}
			}
			score += 0.5 * float64(len(b.States)+len(b.Box12))
		}
		for _, f := range []string{w2.EmployerName, w2.EmployerEIN, w2.TaxYear, w2.Applicant.Name} {
			if f != "" {
				score += 0.5
			}
		}
		return score - 2*float64(len(doubts))
	}
	r := readPaystub(doc, true)
	p := r.stub
	score := 0.0
	for _, ok := range []bool{p.GrossPayAmount != nil, p.NetPayAmount != nil, p.PayDate != "", p.GrossPayYTD != nil, p.NetPayYTD != nil,
		p.EmployerName != "", p.PayPeriodEnd != ""} {
		if ok {
			score++
		}
	}
	reasons := append(r.doubts, domain.CheckDocument(domain.ParsedDocument{Paystub: p}, domain.FileFacts{}, domain.EmployerFacts{})...)
	if len(reasons) == 0 && p.GrossPayAmount != nil && p.NetPayAmount != nil {
		score += 4
	}
	return score - float64(len(reasons))
}

// unsureDoubts names the places of a part a check could not read surely.
func unsureDoubts(ws []word, part page) []domain.FraudReason {
	if len(ws) == 0 {
		return nil
	}
	var texts []string
	for _, w := range ws {
		texts = append(texts, fmt.Sprintf("%q on page %d", w.text, w.page))
	}
	return []domain.FraudReason{{Code: domain.FraudFieldsUncertain,
		Message: "something is drawn over " + strings.Join(texts, ", ") + " and the page could not be read there surely; a person should compare the page with the figures read"}}
}
