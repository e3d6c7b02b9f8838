package reports

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// fpdf finishes a document in ways that cost more than they need to or
// that PDF/A does not accept, and offers no hook to change them: it
// compresses each page's content stream with a zlib writer of its own (a
// writer is ~600 KB to allocate and clear: a third of a twelve-page
// render, docs/benchmarks.md), compresses the output intent's profile the
// same way for every document, and writes no file identifier. So
// documents are drawn uncompressed and without an output intent, and
// pdfFile takes the finished file apart into its objects, compresses the
// page streams with writers reused across documents, adds what PDF/A asks
// (pdfa.go) and writes the cross-reference table anew.

// pdfFile is a document as fpdf writes it (objects, one classic
// cross-reference section, trailer), by object.
type pdfFile struct {
	header []byte
	// objects[n] is object n, from "n 0 obj" through "endobj\n"; [0] is
	// the free list's head, unused.
	objects [][]byte
	// trailer is "trailer\n<< ... >>\n", up to startxref.
	trailer []byte
}

var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level: no error
	return w
}}

// deflateOnce is data zlib-compressed as tightly as zlib can, for what is
// compressed once a process and written into many documents (the font
// subsets, the output intent's profile).
func deflateOnce(data []byte) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression) // a valid level: no error
	zw.Write(data)                                         // writes to a bytes.Buffer do not fail
	zw.Close()
	return z.Bytes()
}

// deflate is data zlib-compressed at fpdf's level, by a pooled writer.
func deflate(data []byte) []byte {
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	var z bytes.Buffer
	zw.Reset(&z)
	zw.Write(data) // writes to a bytes.Buffer do not fail
	zw.Close()
	return z.Bytes()
}

// parsePDF takes pdf apart. Anything but fpdf's layout is refused.
func parsePDF(pdf []byte) (*pdfFile, error) {
	xref, err := startXref(pdf)
	if err != nil {
		return nil, err
	}
	offsets, trailer, err := parseXref(pdf, xref)
	if err != nil {
		return nil, err
	}
	// Objects in the order they appear in the file, each running to the
	// next one's start (or the table's).
	order := make([]int, 0, len(offsets))
	for n := 1; n < len(offsets); n++ {
		order = append(order, n)
	}
	slices.SortFunc(order, func(a, b int) int { return offsets[a] - offsets[b] })
	if len(order) == 0 || offsets[order[0]] <= 0 {
		return nil, fmt.Errorf("reports: the PDF has no objects")
	}
	f := &pdfFile{header: pdf[:offsets[order[0]]], objects: make([][]byte, len(offsets)), trailer: trailer}
	for i, n := range order {
		end := xref
		if i+1 < len(order) {
			end = offsets[order[i+1]]
		}
		obj := pdf[offsets[n]:end]
		if !bytes.HasPrefix(obj, fmt.Appendf(nil, "%d 0 obj\n", n)) || !bytes.HasSuffix(obj, []byte("endobj\n")) {
			return nil, fmt.Errorf("reports: the PDF's cross-reference entry %d does not name object %d", n, n)
		}
		f.objects[n] = obj
	}
	return f, nil
}

// compressStreams compresses, with Flate, every stream whose dictionary
// is only its length: fpdf's page contents when compression is off.
// Other streams (fonts, already compressed; the XMP packet, which PDF/A
// wants readable) stay as they are.
func (f *pdfFile) compressStreams() error {
	tail := []byte("\nendstream\nendobj\n")
	for n, obj := range f.objects {
		head := fmt.Appendf(nil, "%d 0 obj\n<</Length ", n)
		if n == 0 || !bytes.HasPrefix(obj, head) {
			continue
		}
		rest := obj[len(head):]
		gt := bytes.Index(rest, []byte(">>\nstream\n"))
		if gt < 0 {
			continue
		}
		length, err := strconv.Atoi(string(rest[:gt]))
		if err != nil {
			continue // a length that is a reference, or more keys: not a page of fpdf's
		}
		data := rest[gt+len(">>\nstream\n"):]
		if length < 0 || length > len(data) || !bytes.Equal(data[length:], tail) {
			return fmt.Errorf("reports: object %d of the PDF is not a stream of its stated length", n)
		}
		z := deflate(data[:length])
		out := fmt.Appendf(make([]byte, 0, len(z)+64), "%d 0 obj\n<</Filter /FlateDecode /Length %d>>\nstream\n", n, len(z))
		out = append(out, z...)
		f.objects[n] = append(out, tail...)
	}
	return nil
}

// add appends an object whose body is body ("<< ... >>", with a stream
// after it or not) and returns its number.
func (f *pdfFile) add(body []byte) int {
	n := len(f.objects)
	obj := fmt.Appendf(nil, "%d 0 obj\n", n)
	obj = append(obj, body...)
	f.objects = append(f.objects, append(obj, "\nendobj\n"...))
	return n
}

// find is the number of the one object whose text after its "n 0 obj"
// line starts with prefix.
func (f *pdfFile) find(prefix string) (int, error) {
	found := 0
	for n, obj := range f.objects {
		if _, body, ok := bytes.Cut(obj, []byte("\n")); n > 0 && ok && bytes.HasPrefix(body, []byte(prefix)) {
			if found > 0 {
				return 0, fmt.Errorf("reports: the PDF has two objects starting %q", prefix)
			}
			found = n
		}
	}
	if found == 0 {
		return 0, fmt.Errorf("reports: the PDF has no object starting %q", prefix)
	}
	return found, nil
}

// bytes writes the document: the objects in number order, a
// cross-reference table of their new offsets, and the trailer with its
// /Size counting any objects added.
func (f *pdfFile) bytes() []byte {
	size := len(f.header) + len(f.trailer) + 20*len(f.objects) + 64
	for _, obj := range f.objects {
		size += len(obj)
	}
	out := bytes.NewBuffer(make([]byte, 0, size))
	out.Write(f.header)
	offsets := make([]int, len(f.objects))
	for n := 1; n < len(f.objects); n++ {
		offsets[n] = out.Len()
		out.Write(f.objects[n])
	}
	table := out.Len()
	fmt.Fprintf(out, "xref\n0 %d\n0000000000 65535 f \n", len(f.objects))
	for n := 1; n < len(f.objects); n++ {
		fmt.Fprintf(out, "%010d 00000 n \n", offsets[n])
	}
	trailer := f.trailer
	if i := bytes.Index(trailer, []byte("\n/Size ")); i >= 0 {
		if j := bytes.IndexByte(trailer[i+1:], '\n'); j >= 0 {
			trailer = slices.Concat(trailer[:i+1], fmt.Appendf(nil, "/Size %d", len(f.objects)), trailer[i+1+j:])
		}
	}
	out.Write(trailer)
	fmt.Fprintf(out, "startxref\n%d\n%%%%EOF\n", table)
	return out.Bytes()
}

// startXref is the offset the document's last startxref names.
func startXref(pdf []byte) (int, error) {
	i := bytes.LastIndex(pdf, []byte("\nstartxref\n"))
	if i < 0 {
		return 0, fmt.Errorf("reports: the PDF has no startxref")
	}
	line, _, _ := bytes.Cut(pdf[i+len("\nstartxref\n"):], []byte("\n"))
	xref, err := strconv.Atoi(string(line))
	if err != nil || xref <= 0 || xref >= i {
		return 0, fmt.Errorf("reports: the PDF's startxref %q is not an offset in it", line)
	}
	return xref, nil
}

// parseXref reads the single-section cross-reference table at xref: the
// offset of each object (index 0 is the free list's head) and the
// trailer up to, not including, startxref.
func parseXref(pdf []byte, xref int) ([]int, []byte, error) {
	var count int
	if _, err := fmt.Sscanf(string(pdf[xref:min(len(pdf), xref+32)]), "xref\n0 %d\n", &count); err != nil || count < 1 {
		return nil, nil, fmt.Errorf("reports: the PDF's cross-reference table is not one section from object 0")
	}
	entries := bytes.Index(pdf[xref:], []byte("\n0000000000 65535 f \n"))
	if entries < 0 {
		return nil, nil, fmt.Errorf("reports: the PDF's cross-reference table lacks its free-list head")
	}
	at := xref + entries + len("\n0000000000 65535 f \n")
	if count-1 > (len(pdf)-at)/20 {
		return nil, nil, fmt.Errorf("reports: the PDF's cross-reference table is shorter than its %d entries", count)
	}
	offsets := make([]int, count)
	for n := 1; n < count; n++ {
		if string(pdf[at+10:at+20]) != " 00000 n \n" {
			return nil, nil, fmt.Errorf("reports: entry %d of the PDF's cross-reference table is not an object in use", n)
		}
		off, err := strconv.Atoi(string(pdf[at : at+10]))
		if err != nil || off >= xref {
			return nil, nil, fmt.Errorf("reports: entry %d of the PDF's cross-reference table is not an offset", n)
		}
		offsets[n] = off
		at += 20
	}
	end := bytes.LastIndex(pdf, []byte("startxref\n"))
	if !bytes.HasPrefix(pdf[at:], []byte("trailer\n")) || end < at {
		return nil, nil, fmt.Errorf("reports: no trailer follows the PDF's cross-reference table")
	}
	return offsets, pdf[at:end], nil
}
