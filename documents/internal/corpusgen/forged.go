package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

var (
	pageObject = regexp.MustCompile(`(?s)(\d+) 0 obj\s*<<\s*/Type /Page\b(.*?)>>\s*endobj`)
	contentsRe = regexp.MustCompile(`/Contents (\d+) 0 R`)
	rootRe     = regexp.MustCompile(`/Root (\d+ 0 R)`)
	startXref  = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	sizeRe     = regexp.MustCompile(`/Size (\d+)`)
	fontKeyRe  = regexp.MustCompile(`/Font\s*<<\s*/(\w+) \d+ 0 R`)
)

// appendEdit appends an incremental update to an fpdf PDF, the way a PDF
// editor saves a change: a content stream that paints a white box over
// the spot (x, y, in points from the top left of a letter page) and draws
// text there, the page with that stream added, and a new Info dictionary
// naming the editor as producer with a modification date after creation.
func appendEdit(pdf []byte, x, y float64, text, producer string, created, modified time.Time) ([]byte, error) {
	pm := pageObject.FindSubmatch(pdf)
	cm := contentsRe.FindSubmatch(pdf[bytes.Index(pdf, pm[0]):])
	root := rootRe.FindSubmatch(pdf)
	sx := startXref.FindSubmatch(pdf)
	size := sizeRe.FindSubmatch(pdf)
	fk := fontKeyRe.FindSubmatch(pdf)
	if pm == nil || cm == nil || root == nil || sx == nil || size == nil || fk == nil {
		return nil, fmt.Errorf("not the fpdf PDF appendEdit expects")
	}
	n, _ := strconv.Atoi(string(size[1]))
	contentObj, infoObj := n, n+1
	pageNum, _ := strconv.Atoi(string(pm[1]))
	const pageHeight = 792.0
	stream := fmt.Sprintf("q 1 1 1 rg %.2f %.2f 80 12 re f Q BT /%s 9 Tf 0 g %.2f %.2f Td (%s) Tj ET",
		x, pageHeight-y-11, fk[1], x+4, pageHeight-y-9, text)
	var b bytes.Buffer
	b.Write(pdf)
	offsets := map[int]int{}
	offsets[contentObj] = b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<</Length %d>>\nstream\n%s\nendstream\nendobj\n", contentObj, len(stream), stream)
	offsets[pageNum] = b.Len()
	page := contentsRe.ReplaceAllString(string(pm[2]), fmt.Sprintf("/Contents [$1 0 R %d 0 R]", contentObj))
	fmt.Fprintf(&b, "%d 0 obj\n<</Type /Page%s>>\nendobj\n", pageNum, page)
	offsets[infoObj] = b.Len()
	pdfDate := func(t time.Time) string { return t.UTC().Format("D:20060102150405Z") }
	fmt.Fprintf(&b, "%d 0 obj\n<</Producer (%s)\n/Creator (%s)\n/CreationDate (%s)\n/ModDate (%s)>>\nendobj\n",
		infoObj, producer, producer, pdfDate(created), pdfDate(modified))
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for _, o := range []int{pageNum, contentObj, infoObj} {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", o, offsets[o])
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d /Root %s /Info %d 0 R /Prev %s>>\nstartxref\n%d\n%%%%EOF\n", n+2, root[1], infoObj, sx[1], xref)
	return b.Bytes(), nil
}
