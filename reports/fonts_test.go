package reports_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"payline/reports"
)

// tableTags are the tags in a font's table directory.
func tableTags(ttf []byte) []string {
	var tags []string
	for i := range int(binary.BigEndian.Uint16(ttf[4:])) {
		tags = append(tags, string(ttf[12+16*i:16+16*i]))
	}
	return tags
}

// TestUnhinted: the fonts reports embed keep every glyph's outline and
// advance exactly (compared glyph by glyph through x/image's own parser),
// lose the hinting tables and instructions, and are a valid font file
// (its checksum adjustment makes the whole file sum to 0xB1B0AFBA).
func TestUnhinted(t *testing.T) {
	for name, ttf := range map[string][]byte{"regular": goregular.TTF, "bold": gobold.TTF} {
		out, err := reports.Unhinted(ttf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(out) > len(ttf)*85/100 {
			t.Errorf("%s: %d bytes from %d; the instructions should have gone", name, len(out), len(ttf))
		}
		for _, tag := range []string{"fpgm", "prep", "cvt "} {
			if slices.Contains(tableTags(out), tag) {
				t.Errorf("%s still has its %q table", name, tag)
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
		var b1, b2 sfnt.Buffer
		ppem := fixed.I(int(before.UnitsPerEm()))
		for g := range before.NumGlyphs() {
			i := sfnt.GlyphIndex(g)
			s1, err1 := before.LoadGlyph(&b1, i, ppem, nil)
			s2, err2 := after.LoadGlyph(&b2, i, ppem, nil)
			if (err1 == nil) != (err2 == nil) || !slices.Equal(s1, s2) {
				t.Fatalf("%s: glyph %d's outline changed (%v, %v)", name, g, err1, err2)
			}
			a1, _ := before.GlyphAdvance(&b1, i, ppem, 0)
			a2, _ := after.GlyphAdvance(&b2, i, ppem, 0)
			if a1 != a2 {
				t.Fatalf("%s: glyph %d advances %v, want %v", name, g, a2, a1)
			}
		}
	}
}

// TestUnhintedRefusesDamage: a font cut short or with a glyph outside its
// table is refused with an error.
func TestUnhintedRefusesDamage(t *testing.T) {
	if _, err := reports.Unhinted(goregular.TTF[:100]); err == nil {
		t.Error("a font cut at 100 bytes: no error")
	}
	if _, err := reports.Unhinted(nil); err == nil {
		t.Error("no font: no error")
	}
	broken := slices.Clone(goregular.TTF)
	for i := range int(binary.BigEndian.Uint16(broken[4:])) {
		if e := broken[12+16*i:]; string(e[:4]) == "glyf" {
			binary.BigEndian.PutUint32(e[12:], 10) // glyf now ends before its glyphs
		}
	}
	if _, err := reports.Unhinted(broken); err == nil {
		t.Error("a glyf table cut to 10 bytes: no error")
	}
}
