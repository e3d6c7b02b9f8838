package reports

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// fpdf compresses each page's content stream with a zlib writer of its
// own, and a writer is ~600 KB to allocate and clear: for a report of
// twelve pages that was a third of the render (docs/benchmarks.md). So
// documents are drawn uncompressed and compressPages compresses the page
// streams afterwards with writers reused across documents.

var zlibWriters = sync.Pool{New: func() any {
	w, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed) // a valid level: no error
	return w
}}

// compressPages returns pdf, an uncompressed document as fpdf writes it
// (objects, a classic cross-reference table, trailer), with every stream
// whose dictionary is only its length (fpdf's page contents) compressed
// with Flate and the cross-reference table and startxref recomputed.
// Other streams (fonts, already compressed; the XMP packet, which PDF/A
// wants readable) are copied as they are.
func compressPages(pdf []byte) ([]byte, error) {
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
	for n := range offsets {
		if n > 0 {
			order = append(order, n)
		}
	}
	slices.SortFunc(order, func(a, b int) int { return offsets[a] - offsets[b] })
	if len(order) == 0 || offsets[order[0]] <= 0 {
		return nil, fmt.Errorf("reports: the PDF has no objects to compress")
	}

	out := bytes.NewBuffer(make([]byte, 0, len(pdf)/2))
	out.Write(pdf[:offsets[order[0]]])
	moved := make([]int, len(offsets))
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	for i, n := range order {
		end := xref
		if i+1 < len(order) {
			end = offsets[order[i+1]]
		}
		if offsets[n] > end || end > len(pdf) {
			return nil, fmt.Errorf("reports: object %d of the PDF overlaps the next", n)
		}
		moved[n] = out.Len()
		obj := pdf[offsets[n]:end]
		head := fmt.Appendf(nil, "%d 0 obj\n<</Length ", n)
		if !bytes.HasPrefix(obj, head) {
			out.Write(obj)
			continue
		}
		rest := obj[len(head):]
		gt := bytes.Index(rest, []byte(">>\nstream\n"))
		if gt < 0 {
			out.Write(obj)
			continue
		}
		length, err := strconv.Atoi(string(rest[:gt]))
		if err != nil {
			out.Write(obj) // a length that is a reference or more keys: not fpdf's page
			continue
		}
		data := rest[gt+len(">>\nstream\n"):]
		tail := []byte("\nendstream\nendobj\n")
		if length < 0 || length > len(data) || !bytes.Equal(data[length:], tail) {
			return nil, fmt.Errorf("reports: object %d of the PDF is not a stream of its stated length", n)
		}
		var z bytes.Buffer
		zw.Reset(&z)
		if _, err := zw.Write(data[:length]); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
		fmt.Fprintf(out, "%d 0 obj\n<</Filter /FlateDecode /Length %d>>\nstream\n", n, z.Len())
		out.Write(z.Bytes())
		out.Write(tail)
	}

	table := out.Len()
	fmt.Fprintf(out, "xref\n0 %d\n0000000000 65535 f \n", len(offsets))
	for n := 1; n < len(offsets); n++ {
		fmt.Fprintf(out, "%010d 00000 n \n", moved[n])
	}
	out.Write(trailer)
	fmt.Fprintf(out, "startxref\n%d\n%%%%EOF\n", table)
	return out.Bytes(), nil
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
		if at+20 > len(pdf) || string(pdf[at+10:at+20]) != " 00000 n \n" {
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
