package documents

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"payline/domain"
)

// pdfScan is what one pass over a PDF's bytes learns without
// interpreting its pages: the file facts the forgery checks read, and
// whether any page draws text at all.
type pdfScan struct {
	facts    domain.FileFacts
	inflated int
	// showsText: some content stream draws text (Tj or TJ), so the PDF
	// has a text layer worth extracting.
	showsText bool
	// encrypted: the file has an encryption dictionary (it may still
	// open without a password: only an owner's).
	encrypted bool
	// covers are white shapes and pictures a content stream draws after
	// its text, and annotations' boxes, in PDF user space: where the
	// page may show something other than its text layer.
	covers []rect
	// imagePixels is the largest picture's size as its dictionary
	// declares it (width × height), which poppler would decode whole to
	// draw its page.
	imagePixels int64
}

var (
	baseFont     = regexp.MustCompile(`/BaseFont\s*/([^\s/<>\[\]()]+)`)
	infoString   = regexp.MustCompile(`/(Producer|Creator|CreationDate|ModDate)\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)`)
	xmpProducer  = regexp.MustCompile(`(?s)<(pdf:Producer|xmp:CreatorTool)>(.*?)</(?:pdf:Producer|xmp:CreatorTool)>|(pdf:Producer|xmp:CreatorTool)="([^"]*)"`)
	textShowing  = regexp.MustCompile(`(?:\)|>|\])\s*(?:Tj|TJ|'|")`)
	fontSubsetID = regexp.MustCompile(`^[A-Z]{6}\+`)
	imageStream  = regexp.MustCompile(`/Subtype\s*/Image\b`)
	imageWidth   = regexp.MustCompile(`/Width\s+(\d+)(\s+\d+\s+R\b)?`)
	imageHeight  = regexp.MustCompile(`/Height\s+(\d+)(\s+\d+\s+R\b)?`)
	encryptDict  = regexp.MustCompile(`/Encrypt\s+\d+\s+\d+\s+R|/Encrypt\s*<<`)
)

// streamDict is the dictionary of the stream that starts at the end of
// b: from its object's start (the last "obj") to the keyword.
func streamDict(b []byte) []byte {
	from := max(0, len(b)-4096)
	d := b[from:]
	if i := bytes.LastIndex(d, []byte("obj")); i >= 0 {
		d = d[i:]
	}
	return d
}

// scanPDF reads a PDF's streams, inflating the Flate-compressed ones up
// to budget bytes in all (past it: domain.ErrUploadInflatesTooLarge, read
// no further), and collects its Info dictionary, XMP producers, fonts
// and incremental updates. Streams that do not inflate are read as they
// are.
func scanPDF(data []byte, budget int) (pdfScan, error) {
	var s pdfScan
	fonts, producers := newOrderedSet(), newOrderedSet()
	readMeta := func(b []byte) {
		for _, m := range baseFont.FindAllSubmatch(b, -1) {
			fonts.add(fontSubsetID.ReplaceAllString(string(m[1]), ""))
		}
		for _, m := range infoString.FindAllSubmatch(b, -1) {
			v := strings.TrimSpace(decodePDFString(m[2]))
			switch string(m[1]) {
			case "Producer":
				s.facts.Producer = v
				producers.add(v)
			case "Creator":
				s.facts.Creator = v
				producers.add(v)
			case "CreationDate":
				s.facts.Created = parsePDFDate(v)
			case "ModDate":
				s.facts.Modified = parsePDFDate(v)
			}
		}
		for _, m := range xmpProducer.FindAllSubmatch(b, -1) {
			producers.add(strings.TrimSpace(string(m[2]) + string(m[4])))
		}
	}
	readMeta(data)
	tally := newFontTally()
	tally.objects(data)
	firstEOF := bytes.Index(data, []byte("%%EOF"))
	if firstEOF >= 0 && bytes.Count(data, []byte("%%EOF")) < 2 {
		firstEOF = -1
	}
	rest := data
	for {
		start := bytes.Index(rest, []byte("stream"))
		if start < 0 {
			break
		}
		if start >= 3 && string(rest[start-3:start]) == "end" {
			rest = rest[start+6:]
			continue
		}
		dict := streamDict(rest[:start])
		body := rest[start+6:]
		body = bytes.TrimPrefix(bytes.TrimPrefix(body, []byte("\r")), []byte("\n"))
		end := bytes.Index(body, []byte("endstream"))
		if end < 0 {
			end = len(body)
		}
		content := body[:end]
		rest = body[end:]
		// A picture's pixels are not read here (poppler draws them under
		// its memory bound): an official form's large image is no bomb.
		if imageStream.Match(dict) {
			s.imagePixels = max(s.imagePixels, declaredPixels(dict))
			continue
		}
		// Every Flate layer is inflated, within the one budget: a stream
		// filtered [/FlateDecode /FlateDecode] inflates twice.
		for range max(1, min(4, bytes.Count(dict, []byte("FlateDecode")))) {
			zr, err := zlib.NewReader(bytes.NewReader(content))
			if err != nil {
				break
			}
			out, err := io.ReadAll(io.LimitReader(zr, int64(budget-s.inflated)+1))
			s.inflated += len(out)
			if s.inflated > budget {
				return pdfScan{inflated: s.inflated}, domain.ErrUploadInflatesTooLarge
			}
			if err != nil && len(out) == 0 {
				break
			}
			content = out
		}
		// A stream an incremental update added draws over the text the
		// file had before it.
		updated := firstEOF >= 0 && len(data)-len(rest) > firstEOF
		if textShowing.Match(content) {
			s.showsText = true
			tally.content(content)
		}
		if textShowing.Match(content) || updated {
			s.covers = append(s.covers, coversAfterText(content, updated)...)
		}
		if bytes.Contains(content, []byte("/BaseFont")) || bytes.Contains(content, []byte("/Font")) {
			tally.objects(content)
		}
		if bytes.Contains(content, []byte("/BaseFont")) || bytes.Contains(content, []byte("Producer")) ||
			bytes.Contains(content, []byte("CreatorTool")) || bytes.Contains(content, []byte("/Creator")) {
			readMeta(content)
		}
	}
	s.encrypted = encryptDict.Match(data)
	s.covers = append(s.covers, annotationRects(data)...)
	s.facts.Fonts = fonts.items
	s.facts.FontUse = tally.uses()
	s.facts.Producers = producers.items
	s.facts.Revisions = max(0, bytes.Count(data, []byte("%%EOF"))-1)
	return s, nil
}

// orderedSet keeps strings once each, in order of first sight.
type orderedSet struct{ items []string }

func newOrderedSet() *orderedSet { return &orderedSet{} }

func (o *orderedSet) add(v string) {
	if v != "" && !slices.Contains(o.items, v) {
		o.items = append(o.items, v)
	}
}

// decodePDFString reads a PDF string object, literal "(...)" or hex
// "<...>", UTF-16BE when it starts with a byte order mark and
// PDFDocEncoding (read as Latin-1) otherwise.
func decodePDFString(raw []byte) string {
	var b []byte
	switch {
	case len(raw) >= 2 && raw[0] == '(':
		b = unescapePDF(raw[1 : len(raw)-1])
	case len(raw) >= 2 && raw[0] == '<':
		hex := bytes.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, raw[1:len(raw)-1])
		if len(hex)%2 == 1 {
			hex = append(hex, '0')
		}
		b = make([]byte, len(hex)/2)
		for i := range b {
			b[i] = unhex(hex[2*i])<<4 | unhex(hex[2*i+1])
		}
	}
	if len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF {
		u := make([]uint16, (len(b)-2)/2)
		for i := range u {
			u[i] = uint16(b[2+2*i])<<8 | uint16(b[3+2*i])
		}
		return string(utf16.Decode(u))
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

// unescapePDF undoes a PDF literal string's escapes: \( \) \\ \n and \ddd.
func unescapePDF(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		i++
		switch c := b[i]; {
		case c == 'n':
			out = append(out, '\n')
		case c == 'r':
			out = append(out, '\r')
		case c == 't':
			out = append(out, '\t')
		case c >= '0' && c <= '7':
			v, n := 0, 0
			for n < 3 && i < len(b) && b[i] >= '0' && b[i] <= '7' {
				v, n, i = v*8+int(b[i]-'0'), n+1, i+1
			}
			i--
			out = append(out, byte(v))
		default:
			out = append(out, c)
		}
	}
	return out
}

var pdfDate = regexp.MustCompile(`^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?'?`)

// parsePDFDate reads a PDF date, D:YYYYMMDDHHmmSSOHH'mm', as UTC; a date
// that does not parse is the zero time.
func parsePDFDate(v string) time.Time {
	m := pdfDate.FindStringSubmatch(v)
	if m == nil {
		return time.Time{}
	}
	n := func(i, def int) int {
		if m[i] == "" {
			return def
		}
		x := 0
		for _, c := range m[i] {
			x = x*10 + int(c-'0')
		}
		return x
	}
	t := time.Date(n(1, 0), time.Month(n(2, 1)), n(3, 1), n(4, 0), n(5, 0), n(6, 0), 0, time.UTC)
	if m[7] == "+" || m[7] == "-" {
		off := time.Duration(n(8, 0))*time.Hour + time.Duration(n(9, 0))*time.Minute
		if m[7] == "+" {
			off = -off
		}
		t = t.Add(off)
	}
	return t
}

// declaredPixels is the width × height a picture's dictionary declares,
// each side capped at 10⁶ (a side too long to parse is at the cap) so the
// product cannot overflow; 0 when either is missing or indirect ("/Width
// 5 0 R": its value is elsewhere, and the programs' memory bound holds
// such a picture).
func declaredPixels(dict []byte) int64 {
	side := func(re *regexp.Regexp) int64 {
		m := re.FindSubmatch(dict)
		if m == nil || m[2] != nil {
			return 0
		}
		n, err := strconv.ParseInt(string(m[1]), 10, 64)
		if err != nil {
			return 1_000_000
		}
		return min(n, 1_000_000)
	}
	return side(imageWidth) * side(imageHeight)
}
