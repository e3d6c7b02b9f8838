package main

import (
	"bytes"
	"compress/zlib"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Tools run one at a time, niced; their results are cached by input so that re-running the
// generator after a change only redoes what changed.

var cacheDir = "/tmp/blindcorpus-cache"
var tmpRoot string
var noCache bool

func key(parts ...[]byte) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:", len(p))
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func cached(k string, fn func() ([]byte, error)) []byte {
	path := filepath.Join(cacheDir, k)
	if !noCache {
		if b, err := os.ReadFile(path); err == nil {
			return b
		}
	}
	b, err := fn()
	if err != nil {
		fatalf("%v", err)
	}
	os.MkdirAll(cacheDir, 0o755)
	os.WriteFile(path, b, 0o644)
	return b
}

func fatalf(f string, a ...any) {
	fmt.Fprintf(os.Stderr, "blindcorpus: "+f+"\n", a...)
	os.Exit(1)
}

func tmpdir() string {
	d, err := os.MkdirTemp(tmpRoot, "w")
	if err != nil {
		fatalf("%v", err)
	}
	return d
}

func run(dir string, name string, args ...string) error {
	cmd := exec.Command("nice", append([]string{"-n", "10", name}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}

// chromePDF prints HTML with headless Chromium.
func chromePDF(html string) []byte {
	return cached(key([]byte("chrome1"), []byte(html)), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "page.html"), []byte(html), 0o644)
		prof := filepath.Join(d, "profile")
		err := run(d, "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir="+prof, "--print-to-pdf="+filepath.Join(d, "out.pdf"), "--no-pdf-header-footer",
			"file://"+filepath.Join(d, "page.html"))
		if err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.pdf"))
	})
}

// sofficePDF converts a document (HTML, .fodt) with LibreOffice.
func sofficePDF(data []byte, ext string) []byte {
	return cached(key([]byte("soffice2"), []byte(ext), data), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		in := filepath.Join(d, "doc."+ext)
		os.WriteFile(in, data, 0o644)
		args := []string{"-env:UserInstallation=file://" + filepath.Join(d, "lo"), "--headless", "--convert-to", "pdf", "--outdir", d, in}
		if ext == "html" || ext == "htm" {
			args = []string{"-env:UserInstallation=file://" + filepath.Join(d, "lo"), "--headless", "--infilter=HTML (StarWriter)", "--convert-to", "pdf:writer_pdf_Export", "--outdir", d, in}
		}
		if err := run(d, "soffice", args...); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "doc.pdf"))
	})
}

// raster renders one page of a PDF to PNG.
func raster(pdf []byte, dpi int, page int, gray bool) []byte {
	return cached(key([]byte("ppm1"), pdf, []byte(fmt.Sprint(dpi, page, gray))), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		args := []string{"-r", fmt.Sprint(dpi), "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), "-png", "-aa", "yes", "-aaVector", "yes"}
		if gray {
			args = append(args, "-gray")
		}
		args = append(args, "-singlefile", "in.pdf", "out")
		if err := run(d, "pdftoppm", args...); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.png"))
	})
}

// rasterXY renders a page at different horizontal and vertical resolutions (faxes).
func rasterXY(pdf []byte, xdpi, ydpi int, page int) []byte {
	return cached(key([]byte("ppmxy1"), pdf, []byte(fmt.Sprint(xdpi, ydpi, page))), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		if err := run(d, "pdftoppm", "-rx", fmt.Sprint(xdpi), "-ry", fmt.Sprint(ydpi), "-f", fmt.Sprint(page), "-l", fmt.Sprint(page),
			"-png", "-gray", "-singlefile", "in.pdf", "out"); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.png"))
	})
}

// magick runs ImageMagick's convert on inputs named in0.ext, in1.ext ... ; args refer to them by
// {in0}, {in1}; the output is out.<outExt>.
func magick(ins [][]byte, inExt []string, args []string, outExt string) []byte {
	parts := [][]byte{[]byte("magick1"), []byte(strings.Join(args, "\x00")), []byte(outExt)}
	parts = append(parts, ins...)
	return cached(key(parts...), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		var a []string
		for i, b := range ins {
			os.WriteFile(filepath.Join(d, fmt.Sprintf("in%d.%s", i, inExt[i])), b, 0o644)
		}
		for _, x := range args {
			for i := range ins {
				x = strings.ReplaceAll(x, fmt.Sprintf("{in%d}", i), fmt.Sprintf("in%d.%s", i, inExt[i]))
			}
			a = append(a, x)
		}
		a = append(a, "out."+outExt)
		if err := run(d, "/usr/bin/convert", a...); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out."+outExt))
	})
}

// docinfo is a pdfmark setting the document dates (Ghostscript is told to omit its own, so
// that the output does not depend on the clock).
func docinfo(when time.Time, creator string) []byte {
	d := when.Format("20060102150405") + "-05'00'"
	s := fmt.Sprintf("[ /CreationDate (D:%s) /ModDate (D:%s)", d, d)
	if creator != "" {
		s += " /Creator (" + creator + ")"
	}
	return []byte(s + " /DOCINFO pdfmark\n")
}

func gsOutline(pdf []byte, when time.Time) []byte {
	info := docinfo(when, "")
	return cached(key([]byte("gsout2"), pdf, info), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		os.WriteFile(filepath.Join(d, "info.ps"), info, 0o644)
		if err := run(d, "gs", "-q", "-dNOPAUSE", "-dBATCH", "-o", "out.pdf", "-sDEVICE=pdfwrite", "-dNoOutputFonts",
			"-dOmitID", "-dOmitXMP", "-dOmitInfoDate", "in.pdf", "info.ps"); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.pdf"))
	})
}

// gsG4 rewrites a PDF so that its 1-bit images are CCITT Group 4 encoded.
func gsG4(pdf []byte, when time.Time, creator string) []byte {
	info := docinfo(when, creator)
	return cached(key([]byte("gsg4b"), pdf, info), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		os.WriteFile(filepath.Join(d, "info.ps"), info, 0o644)
		if err := run(d, "gs", "-q", "-dNOPAUSE", "-dBATCH", "-o", "out.pdf", "-sDEVICE=pdfwrite",
			"-dAutoFilterMonoImages=false", "-dMonoImageFilter=/CCITTFaxEncode", "-dEncodeMonoImages=true",
			"-dDownsampleMonoImages=false", "-dOmitID", "-dOmitXMP", "-dOmitInfoDate", "in.pdf", "info.ps"); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.pdf"))
	})
}

func qpdfEncrypt(pdf []byte, user, owner string) []byte {
	return cached(key([]byte("qpdfenc1"), pdf, []byte(user+"/"+owner)), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		if err := run(d, "qpdf", "--encrypt", user, owner, "256", "--", "in.pdf", "out.pdf"); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.pdf"))
	})
}

// pdfWords runs pdftotext -bbox on a page and returns its words with boxes (points, top-left origin).
type Word struct {
	Text                   string
	XMin, YMin, XMax, YMax float64
}

func pdfWords(pdf []byte, page int) []Word {
	b := cached(key([]byte("bbox1"), pdf, []byte(fmt.Sprint(page))), func() ([]byte, error) {
		d := tmpdir()
		defer os.RemoveAll(d)
		os.WriteFile(filepath.Join(d, "in.pdf"), pdf, 0o644)
		if err := run(d, "pdftotext", "-bbox", "-f", fmt.Sprint(page), "-l", fmt.Sprint(page), "in.pdf", "out.html"); err != nil {
			return nil, err
		}
		return os.ReadFile(filepath.Join(d, "out.html"))
	})
	var out []Word
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "<word ") {
			continue
		}
		var w Word
		i := strings.Index(line, ">")
		j := strings.LastIndex(line, "</word>")
		w.Text = htmlUnescape(line[i+1 : j])
		fmt.Sscanf(attr(line, "xMin"), "%g", &w.XMin)
		fmt.Sscanf(attr(line, "yMin"), "%g", &w.YMin)
		fmt.Sscanf(attr(line, "xMax"), "%g", &w.XMax)
		fmt.Sscanf(attr(line, "yMax"), "%g", &w.YMax)
		out = append(out, w)
	}
	return out
}

func attr(s, name string) string {
	i := strings.Index(s, name+"=\"")
	if i < 0 {
		return ""
	}
	s = s[i+len(name)+2:]
	return s[:strings.Index(s, "\"")]
}

func htmlUnescape(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#39;", "'").Replace(s)
}

func imageSize(b []byte) (int, int) {
	c, _, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		fatalf("image size: %v", err)
	}
	return c.Width, c.Height
}

// PDF writing for image-only pages.

type pdfImage struct {
	Data  []byte // JPEG (DCT) or raw 1-bit rows (already packed)
	W, H  int
	Gray  bool
	Bits1 bool
	PageW float64 // points
	PageH float64
}

type rawPDF struct {
	buf     bytes.Buffer
	offsets []int
}

func (p *rawPDF) obj(body string, stream []byte) int {
	p.offsets = append(p.offsets, p.buf.Len())
	n := len(p.offsets)
	fmt.Fprintf(&p.buf, "%d 0 obj\n%s", n, body)
	if stream != nil {
		p.buf.WriteString("\nstream\n")
		p.buf.Write(stream)
		p.buf.WriteString("\nendstream")
	}
	p.buf.WriteString("\nendobj\n")
	return n
}

// imagesPDF writes a PDF whose pages are images, as scanner software does.
func imagesPDF(imgs []pdfImage, producer, creator string, when time.Time) []byte {
	p := &rawPDF{}
	p.buf.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	// reserve: 1 catalog, 2 pages, 3 info
	p.offsets = []int{0, 0, 0}
	var kids []string
	for _, im := range imgs {
		var img int
		if im.Bits1 {
			var z bytes.Buffer
			zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
			zw.Write(im.Data)
			zw.Close()
			img = p.obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 1 /Decode [1 0] /Filter /FlateDecode /Length %d >>", im.W, im.H, z.Len()), z.Bytes())
		} else {
			cs := "/DeviceRGB"
			if im.Gray {
				cs = "/DeviceGray"
			}
			img = p.obj(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace %s /BitsPerComponent 8 /Filter /DCTDecode /Length %d >>", im.W, im.H, cs, len(im.Data)), im.Data)
		}
		content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im0 Do Q", im.PageW, im.PageH)
		c := p.obj(fmt.Sprintf("<< /Length %d >>", len(content)), []byte(content))
		pg := p.obj(fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im0 %d 0 R >> /ProcSet [/PDF /ImageB /ImageC] >> /Contents %d 0 R >>", im.PageW, im.PageH, img, c), nil)
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	set := func(n int, body string) {
		p.offsets[n-1] = p.buf.Len()
		fmt.Fprintf(&p.buf, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	set(1, "<< /Type /Catalog /Pages 2 0 R >>")
	set(2, fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids)))
	set(3, fmt.Sprintf("<< /Producer (%s) /Creator (%s) /CreationDate (D:%s) /ModDate (D:%s) >>", producer, creator, when.Format("20060102150405")+"-05'00'", when.Format("20060102150405")+"-05'00'"))
	xref := p.buf.Len()
	fmt.Fprintf(&p.buf, "xref\n0 %d\n0000000000 65535 f \n", len(p.offsets)+1)
	for _, o := range p.offsets {
		fmt.Fprintf(&p.buf, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&p.buf, "trailer\n<< /Size %d /Root 1 0 R /Info 3 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(p.offsets)+1, xref)
	return p.buf.Bytes()
}

// pbmRows reads a binary PBM (P4) and returns width, height and packed rows (1 = black).
func pbmRows(b []byte) (int, int, []byte) {
	var w, h int
	r := bytes.NewReader(b)
	var magic string
	fmt.Fscan(r, &magic)
	if magic != "P4" {
		fatalf("not P4")
	}
	// skip comments
	readInt := func() int {
		for {
			var tok string
			fmt.Fscan(r, &tok)
			if strings.HasPrefix(tok, "#") {
				for {
					c, err := r.ReadByte()
					if err != nil || c == '\n' {
						break
					}
				}
				continue
			}
			var n int
			fmt.Sscan(tok, &n)
			return n
		}
	}
	w = readInt()
	h = readInt()
	r.ReadByte() // single whitespace
	rest := make([]byte, r.Len())
	r.Read(rest)
	return w, h, rest
}
