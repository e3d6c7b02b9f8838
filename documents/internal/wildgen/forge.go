package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Forgeries as people make them: painted over in a PDF editor (an
// incremental update that draws a white box and another figure on top, as
// text, as an image, as vector outlines or as a FreeText annotation), an
// editor's update that rewrites the page, and figures retyped, copied or
// put in a series where they do not follow.

var (
	reObjPage  = regexp.MustCompile(`(?s)(\d+) 0 obj\s*<</Type /Page\b(.*?)>>\s*endobj`)
	reContents = regexp.MustCompile(`/Contents (\d+) 0 R`)
	reRes      = regexp.MustCompile(`/Resources (\d+) 0 R`)
	reRoot     = regexp.MustCompile(`/Root (\d+ 0 R)`)
	reStartX   = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)
	reSize     = regexp.MustCompile(`/Size (\d+)`)
	reMedia    = regexp.MustCompile(`/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]`)
)

type fpdfFile struct {
	data                []byte
	page, contents, res int
	pageDict            string
	size                int
	root, startx        string
	pageH               float64
}

func parseFpdf(pdf []byte) fpdfFile {
	pm := reObjPage.FindSubmatch(pdf)
	f := fpdfFile{data: pdf}
	f.page, _ = strconv.Atoi(string(pm[1]))
	f.pageDict = string(pm[2])
	c := reContents.FindStringSubmatch(f.pageDict)
	r := reRes.FindStringSubmatch(f.pageDict)
	f.contents, _ = strconv.Atoi(c[1])
	f.res, _ = strconv.Atoi(r[1])
	f.size, _ = strconv.Atoi(string(reSize.FindSubmatch(pdf)[1]))
	f.root = string(reRoot.FindSubmatch(pdf)[1])
	f.startx = string(reStartX.FindSubmatch(pdf)[1])
	f.pageH, _ = strconv.ParseFloat(string(reMedia.FindSubmatch(pdf)[2]), 64)
	return f
}

// object returns the text of object n: "<<...>>" and its stream.
func object(pdf []byte, n int) string {
	re := regexp.MustCompile(fmt.Sprintf(`(?s)\n%d 0 obj\s*(.*?)\s*endobj`, n))
	m := re.FindSubmatch(pdf)
	if m == nil {
		panic(fmt.Sprintf("no object %d", n))
	}
	return string(m[1])
}

// fontKey is the resource name of a base font in the page's resources.
func (f fpdfFile) fontKey(base string) string {
	res := object(f.data, f.res)
	for _, m := range regexp.MustCompile(`/(\w+) (\d+) 0 R`).FindAllStringSubmatch(res, -1) {
		n, _ := strconv.Atoi(m[2])
		if strings.Contains(object(f.data, n), "/BaseFont /"+base+"\n") {
			return m[1]
		}
	}
	panic("no font " + base)
}

// update appends an incremental update: the objects given (by number),
// and a new Info naming the editor.
func (f fpdfFile) update(objs map[int]string, producer string, created, modified time.Time) []byte {
	var b bytes.Buffer
	b.Write(f.data)
	info := f.size
	for n := range objs {
		if n >= info {
			info = n + 1
		}
	}
	pdfDate := func(t time.Time) string { return t.UTC().Format("D:20060102150405Z") }
	objs[info] = fmt.Sprintf("<</Producer (%s)\n/Creator (%s)\n/CreationDate (%s)\n/ModDate (%s)>>", producer, producer, pdfDate(created), pdfDate(modified))
	var nums []int
	for n := range objs {
		nums = append(nums, n)
	}
	for i := range nums {
		for k := i + 1; k < len(nums); k++ {
			if nums[k] < nums[i] {
				nums[i], nums[k] = nums[k], nums[i]
			}
		}
	}
	offs := map[int]int{}
	for _, n := range nums {
		offs[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, objs[n])
	}
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for _, n := range nums {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", n, offs[n])
	}
	fmt.Fprintf(&b, "trailer\n<</Size %d /Root %s /Info %d 0 R /Prev %s>>\nstartxref\n%d\n%%%%EOF\n", info+1, f.root, info, f.startx, xref)
	return b.Bytes()
}

func stream(dict string, data []byte) string {
	return fmt.Sprintf("<<%s /Length %d>>\nstream\n%s\nendstream", dict, len(data), data)
}

func pdfEsc(s string) string {
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// whiteBox is the PDF rectangle (x, y, w, h in PDF space) that covers a
// mark and a new figure of width nw right-aligned with it.
func whiteBox(f fpdfFile, mk [4]float64, nw float64) (x, y, w, h float64) {
	right := mk[0] + mk[2]
	w = max(mk[2], nw) + 5
	x = right - w + 2
	size := mk[3]
	y = f.pageH - mk[1] - size*0.3
	h = size * 1.25
	return x, y, w + 1, h
}

// paintText: a white box over the mark and the new figure typed on top in
// the base font.
func paintText(pdf []byte, mk [4]float64, text, base string, producer string, created, modified time.Time) []byte {
	f := parseFpdf(pdf)
	key := f.fontKey(base)
	size := mk[3]
	p := newP("P", "x", created)
	p.font(map[string]string{"Helvetica": "Helvetica", "Helvetica-Bold": "Helvetica", "Times-Bold": "Times", "Times-Roman": "Times"}[base],
		map[string]string{"Helvetica-Bold": "B", "Times-Bold": "B"}[base], size)
	nw := p.GetStringWidth(text)
	x, y, w, h := whiteBox(f, mk, nw)
	right := mk[0] + mk[2]
	content := fmt.Sprintf("q 1 1 1 rg %.2f %.2f %.2f %.2f re f Q\nBT /%s %.2f Tf 0 g %.2f %.2f Td (%s) Tj ET", x, y, w, h, key, size, right-nw, f.pageH-mk[1], pdfEsc(text))
	n := f.size
	page := reContents.ReplaceAllString(f.pageDict, fmt.Sprintf("/Contents [$1 0 R %d 0 R]", n))
	return f.update(map[int]string{n: stream("", []byte(content)), f.page: "<</Type /Page" + page + ">>"}, producer, created, modified)
}

// paintImage: a white box and a picture of the new figure (a JPEG drawn
// by ImageMagick) placed over it; the page's resources gain the image.
func paintImage(pdf []byte, mk [4]float64, text, ttf string, producer string, created, modified time.Time) []byte {
	f := parseFpdf(pdf)
	size := mk[3]
	p := newP("P", "x", created)
	p.font("Times", "B", size)
	nw := p.GetStringWidth(text) * 1.04
	x, y, w, h := whiteBox(f, mk, nw)
	scale := 300.0 / 72
	pw, ph := int(w*scale), int(h*scale)
	out := tmp("figure.jpg")
	magick("-size", fmt.Sprintf("%dx%d", pw, ph), "xc:white", "-font", ttf, "-pointsize", fmt.Sprintf("%.1f", size*scale),
		"-fill", "black", "-gravity", "SouthEast", "-annotate", fmt.Sprintf("+%d+%d", int(2*scale), int(size*0.3*scale)), text, "-colorspace", "Gray", "-type", "Grayscale", "-quality", "85", out)
	img, err := os.ReadFile(out)
	must(err)
	n := f.size
	content := fmt.Sprintf("q 1 1 1 rg %.2f %.2f %.2f %.2f re f Q\nq %.2f 0 0 %.2f %.2f %.2f cm /ImEdit1 Do Q", x, y, w, h, w, h, x, y)
	res := object(pdf, f.res)
	res = strings.Replace(res, "/XObject <<", fmt.Sprintf("/XObject <<\n/ImEdit1 %d 0 R", n+1), 1)
	page := reContents.ReplaceAllString(f.pageDict, fmt.Sprintf("/Contents [$1 0 R %d 0 R]", n))
	return f.update(map[int]string{
		n:      stream("", []byte(content)),
		n + 1:  stream(fmt.Sprintf("/Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /DCTDecode", pw, ph), img),
		f.res:  res,
		f.page: "<</Type /Page" + page + ">>",
	}, producer, created, modified)
}

// paintOutlines: a white box and the new figure drawn as vector paths (the
// figure typed in a small PDF, then turned to outlines by Ghostscript).
func paintOutlines(pdf []byte, mk [4]float64, text string, producer string, created, modified time.Time) []byte {
	f := parseFpdf(pdf)
	size := mk[3]
	orient := "P"
	if f.pageH < 700 {
		orient = "L"
	}
	p := newP(orient, "x", created)
	p.font("Helvetica", "B", size)
	nw := p.GetStringWidth(text)
	right := mk[0] + mk[2]
	p.Text(right-nw, mk[1], text)
	in, out, q := tmp("fig.pdf"), tmp("fig-o.pdf"), tmp("fig-q.pdf")
	must(os.WriteFile(in, p.bytes(), 0o600))
	must(run(60*time.Second, "gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-o", out, "-sDEVICE=pdfwrite", "-dNoOutputFonts", in))
	must(run(60*time.Second, "qpdf", "--qdf", "--object-streams=disable", out, q))
	qb, err := os.ReadFile(q)
	must(err)
	m := regexp.MustCompile(`(?s)%% Contents for page 1.*?stream\n(.*?)endstream`).FindSubmatch(qb)
	paths := m[1]
	x, y, w, h := whiteBox(f, mk, nw)
	content := append([]byte(fmt.Sprintf("q 1 1 1 rg %.2f %.2f %.2f %.2f re f Q\nq\n", x, y, w, h)), paths...)
	content = append(content, []byte("Q")...)
	n := f.size
	page := reContents.ReplaceAllString(f.pageDict, fmt.Sprintf("/Contents [$1 0 R %d 0 R]", n))
	return f.update(map[int]string{n: stream("", content), f.page: "<</Type /Page" + page + ">>"}, producer, created, modified)
}

// paintAnnot: a FreeText annotation with a white background and the new
// figure, laid over the old one.
func paintAnnot(pdf []byte, mk [4]float64, text string, producer string, created, modified time.Time) []byte {
	f := parseFpdf(pdf)
	size := mk[3]
	p := newP("P", "x", created)
	p.font("Helvetica", "B", size)
	nw := p.GetStringWidth(text)
	x, y, w, h := whiteBox(f, mk, nw)
	n := f.size
	ap := fmt.Sprintf("1 1 1 rg 0 0 %.2f %.2f re f BT /Helv %.2f Tf 0 g %.2f %.2f Td (%s) Tj ET", w, h, size, w-nw-3, size*0.3, pdfEsc(text))
	page := f.pageDict + fmt.Sprintf("\n/Annots [%d 0 R]", n)
	return f.update(map[int]string{
		n: fmt.Sprintf("<</Type /Annot /Subtype /FreeText /Rect [%.2f %.2f %.2f %.2f] /Contents (%s) /DA (/Helv %.2f Tf 0 g) /C [1 1 1] /BS << /W 0 >> /F 4 /AP << /N %d 0 R >> /M (D:%s)>>",
			x, y, x+w, y+h, pdfEsc(text), size, n+1, modified.UTC().Format("20060102150405Z")),
		n + 1:  stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 %.2f %.2f] /Resources << /Font << /Helv %d 0 R >> >>", w, h, n+2), []byte(ap)),
		n + 2:  "<</Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding>>",
		f.page: "<</Type /Page" + page + ">>",
	}, producer, created, modified)
}

// editorRewrite: an editor's incremental update that replaces the page's
// content with that of the altered stub (same layout, so same resources).
func editorRewrite(orig, altered []byte, producer string, created, modified time.Time) []byte {
	f := parseFpdf(orig)
	a := parseFpdf(altered)
	body := object(altered, a.contents)
	return f.update(map[int]string{f.contents: body}, producer, created, modified)
}
