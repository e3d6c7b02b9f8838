package reports_test

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"codeberg.org/go-pdf/fpdf"

	"payline/reports"
)

// uncompressedPDF is a three-page document as fpdf writes it with page
// compression off, the input pdfFile expects.
func uncompressedPDF(t testing.TB) []byte {
	f := fpdf.New("P", "mm", "Letter", "")
	f.SetCompression(false)
	f.SetFont("Helvetica", "", 11)
	for page := range 3 {
		f.AddPage()
		for line := range 40 {
			f.CellFormat(0, 5, "page "+strconv.Itoa(page+1)+" line "+strconv.Itoa(line+1)+" of the same words again", "", 1, "L", false, 0, "")
		}
	}
	var b bytes.Buffer
	if err := f.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var (
	plainStream = regexp.MustCompile(`(?s)\n(\d+) 0 obj\n<</Length (\d+)>>\nstream\n`)
	flateStream = regexp.MustCompile(`(?s)\n(\d+) 0 obj\n<</Filter /FlateDecode /Length (\d+)>>\nstream\n`)
)

// streams are the contents of the streams re matches, by object number.
func streams(t *testing.T, pdf []byte, re *regexp.Regexp, inflate bool) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, m := range re.FindAllSubmatchIndex(pdf, -1) {
		n, _ := strconv.Atoi(string(pdf[m[4]:m[5]]))
		data := pdf[m[1] : m[1]+n]
		if inflate {
			r, err := zlib.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if data, err = io.ReadAll(r); err != nil {
				t.Fatal(err)
			}
		}
		out[string(pdf[m[2]:m[3]])] = data
	}
	return out
}

// TestCompressPages: each page stream comes out Flate-compressed and
// inflates to what it was, every cross-reference entry names its
// object's new offset, startxref names the table, the text reads the
// same (pdftotext) and a second pass changes nothing.
func TestCompressPages(t *testing.T) {
	raw := uncompressedPDF(t)
	got, err := reports.CompressPages(raw)
	if err != nil {
		t.Fatal(err)
	}
	before, after := streams(t, raw, plainStream, false), streams(t, got, flateStream, true)
	if len(before) != 3 || len(after) != 3 {
		t.Fatalf("%d page streams before, %d compressed after; want 3 and 3", len(before), len(after))
	}
	for n, want := range before {
		if !bytes.Equal(after[n], want) {
			t.Errorf("object %s inflates to %d bytes that differ from its %d before", n, len(after[n]), len(want))
		}
	}
	if len(got) >= len(raw)/2 {
		t.Errorf("%d bytes compressed from %d", len(got), len(raw))
	}

	xref := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(got)
	if xref == nil {
		t.Fatalf("no startxref at the end: %q", got[len(got)-40:])
	}
	at, _ := strconv.Atoi(string(xref[1]))
	if !bytes.HasPrefix(got[at:], []byte("xref\n0 ")) {
		t.Fatalf("startxref %d names %q", at, got[at:at+10])
	}
	entries := regexp.MustCompile(`(?m)^(\d{10}) 00000 n $`).FindAllSubmatch(got[at:], -1)
	if len(entries) == 0 {
		t.Fatal("no entries in the cross-reference table")
	}
	for i, e := range entries {
		off, _ := strconv.Atoi(string(e[1]))
		if want := strconv.Itoa(i+1) + " 0 obj\n"; !bytes.HasPrefix(got[off:], []byte(want)) {
			t.Errorf("entry %d names offset %d, which holds %q", i+1, off, got[off:min(len(got), off+12)])
		}
	}

	again, err := reports.CompressPages(got)
	if err != nil || !bytes.Equal(again, got) {
		t.Errorf("a second pass changed the document (%v)", err)
	}
	if a, b := textOf(t, raw), textOf(t, got); a != b || !strings.Contains(b, "page 3 line 40") {
		t.Errorf("pdftotext reads %d characters before and %d after", len(a), len(b))
	}
}

// TestCompressPagesRefusesDamage: a document that is not fpdf's shape
// is refused with an error, never half rewritten.
func TestCompressPagesRefusesDamage(t *testing.T) {
	raw := uncompressedPDF(t)
	m := plainStream.FindSubmatchIndex(raw)
	longer := bytes.Clone(raw)
	longer = append(longer[:m[4]:m[4]], append([]byte("9"), raw[m[4]:]...)...)
	for name, pdf := range map[string][]byte{
		"empty":          nil,
		"cut in half":    raw[:len(raw)/2],
		"no startxref":   bytes.ReplaceAll(raw, []byte("startxref"), []byte("startxraf")),
		"bad table":      bytes.Replace(raw, []byte(" 00000 n \n"), []byte(" 00000 f \n"), 1),
		"wrong length":   longer,
		"offset too far": bytes.Replace(raw, []byte("xref\n0 "), []byte("xref\n0 9"), 1),
	} {
		if out, err := reports.CompressPages(pdf); err == nil {
			t.Errorf("%s: no error (%d bytes out)", name, len(out))
		}
	}
}

// FuzzCompressPages: any bytes give a document or an error, never a
// panic, and what comes out is a fixed point of a second pass.
func FuzzCompressPages(f *testing.F) {
	f.Add(uncompressedPDF(f))
	f.Add([]byte("%PDF-1.3\n1 0 obj\n<</Length -5>>\nstream\n\nendstream\nendobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer\n<<>>\nstartxref\n58\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, pdf []byte) {
		out, err := reports.CompressPages(pdf)
		if err != nil {
			return
		}
		again, err := reports.CompressPages(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("a second pass changed the document (%v)", err)
		}
	})
}
