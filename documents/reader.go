// Package documents reads uploaded paystubs and W-2s of any layout: the
// words of a PDF's text layer with their positions (poppler's
// pdftotext), or of a picture or scanned PDF through OCR (tesseract, run
// as a program with a timeout and a memory bound), interpreted by one
// layout-agnostic reader of labels, values and tables. It implements
// domain.UploadParser and fills the file facts the domain's forgery
// checks read.
package documents

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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

// WithMaxPages reads at most n pages of a PDF (default 4: a paystub or
// W-2 is a page or two).
func WithMaxPages(n int) Option { return func(r *Reader) { r.maxPages = n } }

// NewReader makes a Reader; programs not found leave the reader unable
// to read what needs them, which its answers then say.
func NewReader(opts ...Option) *Reader {
	r := &Reader{timeout: 30 * time.Second, memory: 1 << 30, maxPages: 4}
	for _, o := range opts {
		o(r)
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
// PDF, PNG or JPEG. A file it cannot read gives no data and a warning on
// parsed_data that says why. Errors: domain.ErrUploadInflatesTooLarge,
// the context's.
func (r *Reader) ParseUpload(ctx context.Context, documentType, contentType string, data []byte) ([]domain.ParsedUpload, error) {
	p, err := r.Read(ctx, documentType, contentType, data)
	if err != nil {
		return nil, err
	}
	return []domain.ParsedUpload{p}, nil
}

// Read is ParseUpload with a context that bounds the programs it runs.
func (r *Reader) Read(ctx context.Context, documentType, contentType string, data []byte) (domain.ParsedUpload, error) {
	if documentType != domain.DocumentPaystub && documentType != domain.DocumentW2 {
		return unparsable(domain.FileFacts{}, "Payline reads paystubs and W-2s; this document type is not read."), nil
	}
	dir, err := os.MkdirTemp("", "payline-document-")
	if err != nil {
		return domain.ParsedUpload{}, err
	}
	defer os.RemoveAll(dir)
	var doc page
	var facts domain.FileFacts
	switch contentType {
	case "application/pdf":
		var ok bool
		var why string
		doc, facts, ok, why, err = r.readPDF(ctx, dir, data)
		if err != nil {
			return domain.ParsedUpload{File: facts}, err
		}
		if !ok {
			return unparsable(facts, why), nil
		}
	case "image/png", "image/jpeg":
		facts.OCR = r.OCR()
		if !r.OCR() {
			return unparsable(facts, notInstalled), nil
		}
		path := filepath.Join(dir, "upload.img")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			return domain.ParsedUpload{}, err
		}
		words, err := r.ocrWords(ctx, path, 1)
		if err != nil || len(words) == 0 {
			return unparsable(facts, "No text could be recognized in this picture."), nil
		}
		doc = buildLayout(deskew(words), ocrGap)
	default:
		return unparsable(facts, "Payline reads PDFs, PNGs and JPEGs; this file is none of them."), nil
	}
	parsed := domain.ParsedUpload{File: facts}
	if documentType == domain.DocumentW2 {
		w2, warnings := readW2(doc)
		parsed.Data.W2, parsed.Warnings = w2, warnings
	} else {
		stub, warnings := readPaystub(doc)
		parsed.Data.Paystub, parsed.Warnings = stub, warnings
	}
	return parsed, nil
}

// Gaps, in line heights, that part two phrases: a text layer's word
// boxes are an em high, OCR's only as high as the ink.
const (
	textGap = 0.6
	ocrGap  = 0.9
)

const notInstalled = "Nothing could be read from this picture: OCR is not installed on this server (tesseract), so Payline reads only PDFs with a text layer."

func unparsable(facts domain.FileFacts, why string) domain.ParsedUpload {
	return domain.ParsedUpload{File: facts, Warnings: []domain.DocumentWarning{{Field: "parsed_data", Status: "unparsable", Message: why}}}
}

// readPDF reads a PDF's words: its text layer, or OCR of its pages when
// it draws no text (a scan). ok is false, with the reason, when nothing
// could be read.
func (r *Reader) readPDF(ctx context.Context, dir string, data []byte) (doc page, facts domain.FileFacts, ok bool, why string, err error) {
	scan, err := scanPDF(data, domain.MaxUploadInflatedBytes)
	if err != nil {
		return page{}, scan.facts, false, "", err
	}
	facts = scan.facts
	if r.pdftotext == "" {
		return page{}, facts, false, "Nothing could be read from this PDF: poppler's pdftotext is not installed on this server.", nil
	}
	path := filepath.Join(dir, "upload.pdf")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return page{}, facts, false, "", err
	}
	if scan.showsText {
		words, err := r.textLayerWords(ctx, path)
		if err == nil && len(words) > 0 {
			return buildLayout(words, textGap), facts, true, "", nil
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return page{}, facts, false, "Reading this PDF took too long.", nil
		}
	}
	facts.OCR = r.OCR()
	if !r.OCR() {
		return page{}, facts, false, "Nothing could be read from this PDF: it has no text layer (a scan) and " +
			"OCR is not installed on this server (tesseract).", nil
	}
	if r.pdftoppm == "" {
		return page{}, facts, false, "Nothing could be read from this scanned PDF: poppler's pdftoppm is not installed on this server.", nil
	}
	pages, err := r.rasterize(ctx, path, dir)
	if err != nil || len(pages) == 0 {
		return page{}, facts, false, "This PDF could not be read: it is damaged or not a PDF.", nil
	}
	var words []word
	for i, p := range pages {
		ws, err := r.ocrWords(ctx, p, i+1)
		if err != nil {
			return page{}, facts, false, "No text could be recognized in this scanned PDF.", nil
		}
		words = append(words, ws...)
	}
	if len(words) == 0 {
		return page{}, facts, false, "No text could be recognized in this scanned PDF.", nil
	}
	return buildLayout(deskew(words), ocrGap), facts, true, "", nil
}
