package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

var work string // a scratch folder for one run

// run runs a program under nice, with a timeout, and fails loudly.
func run(timeout time.Duration, name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "nice", append([]string{"-n", "10", name}, args...)...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, b)
	}
	return nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func tmp(name string) string { return filepath.Join(work, name) }

// chromiumPDF prints an HTML page with headless Chromium.
func chromiumPDF(page string, created time.Time) []byte {
	in, out := tmp("page.html"), tmp("page.pdf")
	must(os.WriteFile(in, []byte(page), 0o600))
	os.Remove(out)
	prof, err := os.MkdirTemp(work, "chromium-")
	must(err)
	defer os.RemoveAll(prof)
	must(run(120*time.Second, "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+prof,
		"--print-to-pdf="+out, "--no-pdf-header-footer", "file://"+in))
	b, err := os.ReadFile(out)
	must(err)
	return fixDates(b, created)
}

// writerPDF converts an HTML page to PDF with LibreOffice Writer.
func writerPDF(page string, created time.Time) []byte {
	in := tmp("doc.html")
	out := tmp("doc.pdf")
	must(os.WriteFile(in, []byte(page), 0o600))
	os.Remove(out)
	must(run(180*time.Second, "soffice", "--headless", "--norestore", "-env:UserInstallation=file://"+tmp("lo-profile"),
		"--infilter=HTML (StarWriter)", "--convert-to", "pdf:writer_pdf_Export", "--outdir", work, in))
	b, err := os.ReadFile(out)
	must(err)
	return fixDates(b, created)
}

// fixDates stamps a converter's dates and file id from the document's
// own date, in the same number of bytes: the same run, the same bytes.
func fixDates(pdf []byte, created time.Time) []byte {
	sum := sha256.Sum256([]byte(created.String()))
	id := []byte(strings.ToUpper(hex.EncodeToString(sum[:])))
	pdf = pdfID.ReplaceAllFunc(pdf, func(m []byte) []byte {
		out := append([]byte{}, m...)
		copy(out[1:1+32], id)
		return out
	})
	return pdfDates.ReplaceAllFunc(pdf, func(m []byte) []byte {
		key, _, _ := bytes.Cut(m, []byte("("))
		stamp := []byte(created.UTC().Format("20060102150405"))
		out := append([]byte{}, m...)
		copy(out[len(key)+3:], stamp)
		return out
	})
}

var (
	pdfID    = regexp.MustCompile(`<[0-9A-Fa-f]{32}>|/[0-9A-F]{32}\b`)
	pdfDates = regexp.MustCompile(`/(?:CreationDate|ModDate)\s*\(D:\d{14}`)
)

// rasterize renders a PDF's pages at dpi (x and y) to PNG files.
func rasterize(pdf []byte, rx, ry int, gray bool) []string {
	in := tmp("r.pdf")
	must(os.WriteFile(in, pdf, 0o600))
	matches, _ := filepath.Glob(tmp("r-*.png"))
	for _, m := range matches {
		os.Remove(m)
	}
	args := []string{"-rx", fmt.Sprint(rx), "-ry", fmt.Sprint(ry), "-png"}
	if gray {
		args = append(args, "-gray")
	}
	must(run(300*time.Second, "pdftoppm", append(args, in, tmp("r"))...))
	matches, _ = filepath.Glob(tmp("r-*.png"))
	return matches
}

// magick runs ImageMagick's convert.
func magick(args ...string) { must(run(300*time.Second, "/usr/bin/convert", args...)) }

// outlines redraws a PDF's text as outlines (no text layer).
func outlines(pdf []byte) []byte {
	in, out := tmp("o-in.pdf"), tmp("o-out.pdf")
	must(os.WriteFile(in, pdf, 0o600))
	must(run(300*time.Second, "gs", "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-o", out, "-sDEVICE=pdfwrite", "-dNoOutputFonts", in))
	b, err := os.ReadFile(out)
	must(err)
	return stripGSDates(b)
}

var gsVolatile = regexp.MustCompile(`(/(?:CreationDate|ModDate)\s*\(D:)[0-9+\-Z']+|(<x(?:mp|ap):(?:ModifyDate|CreateDate|MetadataDate)>)[^<]*|(/ID\s*\[\s*<)[0-9A-Fa-f]+>\s*<[0-9A-Fa-f]+|(uuid:)[0-9a-f\-]+`)

// stripGSDates makes Ghostscript's output the same from run to run: its
// dates and ids are set to fixed values of the same length.
func stripGSDates(b []byte) []byte {
	return gsVolatile.ReplaceAllFunc(b, func(m []byte) []byte {
		out := append([]byte{}, m...)
		for i, start := 0, false; i < len(out); i++ {
			c := out[i]
			if !start && (c == '(' || c == '>' || c == '<' || c == ':') {
				start = true
				continue
			}
			if start && c >= '1' && c <= '9' || start && c >= 'a' && c <= 'f' || start && c >= 'A' && c <= 'F' {
				out[i] = '0'
			}
		}
		return out
	})
}

// encrypt protects a PDF with a user password (AES-256).
func encrypt(pdf []byte, user, owner string) []byte {
	in, out := tmp("e-in.pdf"), tmp("e-out.pdf")
	must(os.WriteFile(in, pdf, 0o600))
	must(run(60*time.Second, "qpdf", "--static-id", "--static-aes-iv", "--encrypt", user, owner, "256", "--", in, out))
	b, err := os.ReadFile(out)
	must(err)
	return b
}

// pdfImage is one page image for an image-only PDF.
type pdfImage struct {
	data       []byte
	filter     string // DCTDecode, CCITTFaxDecode, FlateDecode
	w, h       int
	gray, mono bool
	wPt, hPt   float64
}

// imagePDF writes a PDF whose pages are only pictures, as a scanner does.
func imagePDF(pages []pdfImage, producer string, created time.Time) []byte {
	var b bytes.Buffer
	offs := []int{0}
	obj := func(body string, stream []byte) int {
		offs = append(offs, b.Len())
		n := len(offs) - 1
		fmt.Fprintf(&b, "%d 0 obj\n%s\n", n, body)
		if stream != nil {
			b.WriteString("stream\n")
			b.Write(stream)
			b.WriteString("\nendstream\n")
		}
		b.WriteString("endobj\n")
		return n
	}
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	n := len(pages)
	// objects: 1 catalog, 2 pages, then per page: page, content, image
	first := 3
	kids := []string{}
	for i := range pages {
		kids = append(kids, fmt.Sprintf("%d 0 R", first+3*i))
	}
	obj("<< /Type /Catalog /Pages 2 0 R >>", nil)
	obj(fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n), nil)
	for i, p := range pages {
		ct, im := first+3*i+1, first+3*i+2
		obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> >> /Contents %d 0 R >>", p.wPt, p.hPt, im, ct), nil)
		content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", p.wPt, p.hPt)
		obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
		cs, bpc, extra := "/DeviceRGB", 8, ""
		if p.gray {
			cs = "/DeviceGray"
		}
		if p.mono {
			cs, bpc = "/DeviceGray", 1
		}
		if p.filter == "CCITTFaxDecode" {
			extra = fmt.Sprintf(" /DecodeParms << /K -1 /Columns %d /Rows %d /BlackIs1 false >>", p.w, p.h)
		}
		obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent %d /Filter /%s%s /Length %d >>",
			p.w, p.h, cs, bpc, p.filter, extra, len(p.data)), p.data)
	}
	info := obj(fmt.Sprintf("<< /Producer (%s) /Creator (%s) /CreationDate (D:%s) >>", producer, producer, created.UTC().Format("20060102150405Z")), nil)
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(offs))
	for _, o := range offs[1:] {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(offs), info, xref)
	return b.Bytes()
}

// g4 reads the Group 4 data and size of a single-strip TIFF that convert
// wrote with -compress Group4.
func g4(tiff []byte) (data []byte, w, h int) {
	var bo binary.ByteOrder = binary.LittleEndian
	if string(tiff[:2]) == "MM" {
		bo = binary.BigEndian
	}
	ifd := bo.Uint32(tiff[4:])
	n := int(bo.Uint16(tiff[ifd:]))
	var offs, counts []uint32
	val := func(e []byte) []uint32 {
		typ, cnt := bo.Uint16(e[2:]), bo.Uint32(e[4:])
		size := map[uint16]uint32{3: 2, 4: 4}[typ]
		p := e[8:12]
		if size*cnt > 4 {
			at := bo.Uint32(e[8:])
			p = tiff[at : at+size*cnt]
		}
		out := make([]uint32, cnt)
		for i := range out {
			if size == 2 {
				out[i] = uint32(bo.Uint16(p[2*i:]))
			} else {
				out[i] = bo.Uint32(p[4*i:])
			}
		}
		return out
	}
	for i := 0; i < n; i++ {
		e := tiff[int(ifd)+2+12*i : int(ifd)+2+12*i+12]
		switch bo.Uint16(e) {
		case 256:
			w = int(val(e)[0])
		case 257:
			h = int(val(e)[0])
		case 259:
			if c := val(e)[0]; c != 4 {
				panic(fmt.Sprintf("TIFF compression %d, not Group 4", c))
			}
		case 273:
			offs = val(e)
		case 279:
			counts = val(e)
		}
	}
	if len(offs) != 1 {
		panic(fmt.Sprintf("TIFF has %d strips", len(offs)))
	}
	return tiff[offs[0] : offs[0]+counts[0]], w, h
}
