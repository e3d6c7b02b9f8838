package reports_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"

	"payline/reports"
)

// shippedFonts are the font files reports/fonts holds, by name.
func shippedFonts(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range []string{"LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"} {
		b, err := os.ReadFile(filepath.Join("fonts", name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// tableTags are the tags in a font's table directory.
func tableTags(ttf []byte) []string {
	var tags []string
	for i := range int(binary.BigEndian.Uint16(ttf[4:])) {
		tags = append(tags, string(ttf[12+16*i:16+16*i]))
	}
	return tags
}

// sameGlyph reports whether glyph a of font fa and glyph b of font fb
// have the same outline and advance, as x/image's parser reads them.
func sameGlyph(t *testing.T, fa *sfnt.Font, a sfnt.GlyphIndex, fb *sfnt.Font, b sfnt.GlyphIndex) bool {
	t.Helper()
	var b1, b2 sfnt.Buffer
	ppem := fixed.I(int(fa.UnitsPerEm()))
	s1, err1 := fa.LoadGlyph(&b1, a, ppem, nil)
	s2, err2 := fb.LoadGlyph(&b2, b, ppem, nil)
	a1, _ := fa.GlyphAdvance(&b1, a, ppem, 0)
	a2, _ := fb.GlyphAdvance(&b2, b, ppem, 0)
	return (err1 == nil) == (err2 == nil) && slices.Equal(s1, s2) && a1 == a2
}

// TestUnhinted: the fonts fpdf's UTF-8 path embeds keep every glyph's
// outline and advance exactly (compared glyph by glyph through x/image's
// own parser), lose the glyphs' instructions and the layout tables no PDF
// reads, keep the tables ISO 32000-1 requires of an embedded TrueType
// font, and are a valid font file (its checksum adjustment makes the
// whole file sum to 0xB1B0AFBA).
func TestUnhinted(t *testing.T) {
	for name, ttf := range shippedFonts(t) {
		out, err := reports.Unhinted(ttf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(out) > len(ttf)*75/100 {
			t.Errorf("%s: %d bytes from %d; the instructions and layout tables should have gone", name, len(out), len(ttf))
		}
		for _, tag := range []string{"GPOS", "GSUB", "kern", "gasp"} {
			if slices.Contains(tableTags(out), tag) {
				t.Errorf("%s still has its %q table", name, tag)
			}
		}
		for _, tag := range []string{"fpgm", "prep", "cvt "} { // ISO 32000-1, 9.9
			if !slices.Contains(tableTags(out), tag) {
				t.Errorf("%s lost its %q table, which an embedded TrueType font keeps", name, tag)
			}
		}
		var sum uint32
		for i := 0; i < len(out); i += 4 {
			sum += binary.BigEndian.Uint32(out[i:])
		}
		if len(out)%4 != 0 || sum != 0xB1B0AFBA {
			t.Errorf("%s: the file sums to %#x over %d bytes, want 0xb1b0afba", name, sum, len(out))
		}
		before, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		after, err := sfnt.Parse(out)
		if err != nil {
			t.Fatalf("%s: x/image cannot parse the unhinted font: %v", name, err)
		}
		if before.NumGlyphs() != after.NumGlyphs() {
			t.Fatalf("%s: %d glyphs, want %d", name, after.NumGlyphs(), before.NumGlyphs())
		}
		for g := range before.NumGlyphs() {
			if !sameGlyph(t, before, sfnt.GlyphIndex(g), after, sfnt.GlyphIndex(g)) {
				t.Fatalf("%s: glyph %d's outline or advance changed", name, g)
			}
		}
	}
}

// TestUnhintedRefusesDamage: a font cut short or with a glyph outside its
// table is refused with an error.
func TestUnhintedRefusesDamage(t *testing.T) {
	ttf := shippedFonts(t)["LiberationSans-Regular.ttf"]
	if _, err := reports.Unhinted(ttf[:100]); err == nil {
		t.Error("a font cut at 100 bytes: no error")
	}
	if _, err := reports.Unhinted(nil); err == nil {
		t.Error("no font: no error")
	}
	broken := slices.Clone(ttf)
	for i := range int(binary.BigEndian.Uint16(broken[4:])) {
		if e := broken[12+16*i:]; string(e[:4]) == "glyf" {
			binary.BigEndian.PutUint32(e[12:], 10) // glyf now ends before its glyphs
		}
	}
	if _, err := reports.Unhinted(broken); err == nil {
		t.Error("a glyf table cut to 10 bytes: no error")
	}
}

// TestSubsetsHoldWhatIsDrawn: a page of every character WinAnsi holds,
// in regular and in bold (parentheses and backslashes among them, which
// a PDF string escapes, and " Tf", an operator's name, as text), reads
// back whole (pdftotext), and each style's embedded subset draws every
// one of them with the shipped font's own outline and advance: composite
// glyphs (accented letters) with their components, renumbered.
func TestSubsetsHoldWhatIsDrawn(t *testing.T) {
	var sheet strings.Builder
	for code := 0x21; code <= 0xff; code++ {
		if r := charmap.Windows1252.DecodeByte(byte(code)); r != '\ufffd' && r != 0x7f {
			sheet.WriteRune(r)
		}
	}
	sheet.WriteString(" a Tf b (c) \\ d")
	pdf, err := reports.CharacterSheet(sheet.String())
	if err != nil {
		t.Fatal(err)
	}
	// pdftotext reads the soft hyphen as a hyphen.
	want := strings.Join(strings.Fields(strings.ReplaceAll(sheet.String(), "\u00ad", "-")), "")
	if text := strings.Join(strings.Fields(textOf(t, pdf)), ""); strings.Count(text, want) != 2 {
		t.Errorf("the sheet's text does not read back twice:\n%s", text)
	}
	path := writePDF(t, "sheet.pdf", pdf)
	objects := qpdfObjects(t, tool(t, "qpdf", "qpdf"), path)
	shipped := map[string]*sfnt.Font{}
	for name, ttf := range shippedFonts(t) {
		f, err := sfnt.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		shipped[strings.TrimSuffix(strings.TrimSuffix(name, ".ttf"), "-Regular")] = f
	}
	styles := 0
	for _, o := range objects {
		d := o.dict()
		if d["/Type"] != "/Font" || d["/Subtype"] != "/TrueType" {
			continue
		}
		base, _ := d["/BaseFont"].(string)
		original := shipped[base[len("/ABCDEF+"):]]
		descRef, _ := d["/FontDescriptor"].(string)
		fileRef, _ := objects["obj:"+descRef].dict()["/FontFile2"].(string)
		file := objects["obj:"+fileRef].Stream
		if original == nil || file == nil {
			t.Fatalf("font %s: no shipped font of its name, or no program", base)
		}
		subset, err := sfnt.Parse(file.Data)
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		styles++
		var buf sfnt.Buffer
		for _, r := range sheet.String() {
			got, err1 := subset.GlyphIndex(&buf, r)
			want, err2 := original.GlyphIndex(&buf, r)
			if err1 != nil || err2 != nil || got == 0 || !sameGlyph(t, subset, got, original, want) {
				t.Errorf("%s: %q is glyph %d of the subset, not glyph %d of the shipped font (%v, %v)", base, r, got, want, err1, err2)
			}
		}
	}
	if styles != 2 {
		t.Errorf("%d simple fonts, want regular and bold", styles)
	}
}
