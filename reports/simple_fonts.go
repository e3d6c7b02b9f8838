package reports

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/text/encoding/charmap"
)

// A document whose text Windows-1252 (WinAnsi) holds, nearly every one,
// sets it in the fonts as PDF simple fonts: one byte a character, widths
// from the font, and a subset of the font embedded with only the glyphs
// its pages draw. fpdf embeds a TrueType simple font whole and offers no
// hook to subset it, so the document is drawn with a placeholder program
// and, once written, each font's program is replaced by the subset of the
// codes its pages show (embedFonts, below). Subsets are kept per set of
// codes, so a process builds each once; fpdf's UTF-8 path, which the few
// documents WinAnsi cannot hold take, parses and subsets the whole font
// for every document (docs/benchmarks.md).

// simpleFont is one style of the font as a simple font in WinAnsi.
type simpleFont struct {
	font       *trueType
	postScript string
	// definition is fpdf's font definition (its JSON, as makefont
	// writes it): metrics in thousandths of an em and each code's width.
	definition []byte
	// glyph is each code's glyph (0 where the font has none), and char
	// the code's Unicode character.
	glyph [256]uint16
	char  [256]rune

	mu      sync.Mutex
	subsets map[[32]byte][]byte
}

// subsetsKept bounds the subsets a style keeps: documents differ in the
// characters of names and addresses, so a busy process meets many sets.
const subsetsKept = 256

// fpdfDefinition is fpdf's font definition, as its JSON names the fields.
type fpdfDefinition struct {
	Tp   string
	Name string
	Desc struct {
		Ascent, Descent, CapHeight, Flags int
		FontBBox                          struct{ Xmin, Ymin, Xmax, Ymax int }
		ItalicAngle, StemV, MissingWidth  int
	}
	Up, Ut       int
	Cw           []int
	Enc, File    string
	OriginalSize int
}

// nonsymbolic is the font descriptor flag of a font in a standard
// encoding (PDF/A requires it of a TrueType font in WinAnsiEncoding).
const nonsymbolic = 32

func newSimpleFont(font *trueType, postScript string, bold bool) (*simpleFont, error) {
	be := binary.BigEndian
	s := &simpleFont{font: font, postScript: postScript, subsets: map[[32]byte][]byte{}}
	head, os2, post := font.tables["head"], font.tables["OS/2"], font.tables["post"]
	if len(os2) < 90 || len(post) < 32 {
		return nil, fmt.Errorf("reports: %s lacks an OS/2 table of version 2 or a post table", postScript)
	}
	units := func(b []byte, at int) int { return font.thousandths(int(int16(be.Uint16(b[at:])))) }
	def := fpdfDefinition{Tp: "TrueType", Name: postScript, Enc: "cp1252", File: postScript + ".z", Cw: make([]int, 256)}
	def.Desc.Ascent, def.Desc.Descent, def.Desc.CapHeight = units(os2, 68), units(os2, 70), units(os2, 88)
	def.Desc.FontBBox.Xmin, def.Desc.FontBBox.Ymin = units(head, 36), units(head, 38)
	def.Desc.FontBBox.Xmax, def.Desc.FontBBox.Ymax = units(head, 40), units(head, 42)
	def.Desc.ItalicAngle = int(int16(be.Uint16(post[4:]))) // the integer part of a 16.16 number
	def.Desc.Flags, def.Desc.StemV = nonsymbolic, 70
	if bold {
		def.Desc.StemV = 120 // fpdf's makefont: a guess by weight, as PDF's field is
	}
	def.Desc.MissingWidth = font.thousandths(int(font.advances[0]))
	def.Up, def.Ut = units(post, 8), units(post, 10)
	for code := range 256 {
		s.char[code] = charmap.Windows1252.DecodeByte(byte(code))
		if code >= 0x20 && code != 0x7f && s.char[code] != '\ufffd' {
			s.glyph[code] = font.glyphIndex(s.char[code])
		}
		def.Cw[code] = font.thousandths(int(font.advances[s.glyph[code]]))
	}
	var err error
	s.definition, err = json.Marshal(def)
	return s, err
}

// subset is the font program with the glyphs of the codes used, as the
// body of a PDF stream object (FontFile2), built once a process for each
// set of codes.
func (s *simpleFont) subset(used *[256]bool) []byte {
	key := codeSet(used)
	s.mu.Lock()
	body, ok := s.subsets[key]
	s.mu.Unlock()
	if ok {
		return body
	}
	program := s.build(used)
	z := deflateOnce(program)
	body = fmt.Appendf(make([]byte, 0, len(z)+80), "<</Length %d /Filter /FlateDecode /Length1 %d>>\nstream\n", len(z), len(program))
	body = append(append(body, z...), "\nendstream"...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.subsets) >= subsetsKept {
		for k := range s.subsets { // any one: Go's map order is random
			delete(s.subsets, k)
			break
		}
	}
	s.subsets[key] = body
	return body
}

// codeSet is a set of codes as 256 bits.
func codeSet(used *[256]bool) [32]byte {
	var set [32]byte
	for code, u := range used {
		if u {
			set[code/8] |= 1 << (code % 8)
		}
	}
	return set
}

// build writes the subset of the font that draws the codes used: the
// missing glyph, each code's glyph and the glyphs those are composed of,
// numbered anew in that order; a Unicode cmap (3,1) for them, which is how
// a viewer finds a WinAnsi code's glyph in a nonsymbolic TrueType font;
// their metrics; the tables unhinted keeps, without glyph names.
func (s *simpleFont) build(used *[256]bool) []byte {
	be := binary.BigEndian
	t := s.font
	old := []uint16{0}
	renumbered := map[uint16]uint16{0: 0}
	var add func(g uint16)
	add = func(g uint16) {
		if _, ok := renumbered[g]; ok {
			return
		}
		renumbered[g] = uint16(len(old))
		old = append(old, g)
		for _, at := range componentIndexes(t.glyphs[g]) {
			add(be.Uint16(t.glyphs[g][at:]))
		}
	}
	var chars []cmapEntry
	for code, u := range used {
		if g := s.glyph[code]; u && g != 0 {
			add(g)
			chars = append(chars, cmapEntry{s.char[code], renumbered[g]})
		}
	}
	glyphs := make([][]byte, len(old))
	hmtx := make([]byte, 4*len(old))
	for i, g := range old {
		glyphs[i] = t.glyphs[g]
		if at := componentIndexes(glyphs[i]); len(at) > 0 {
			glyphs[i] = slices.Clone(glyphs[i])
			for _, a := range at {
				be.PutUint16(glyphs[i][a:], renumbered[be.Uint16(glyphs[i][a:])])
			}
		}
		be.PutUint16(hmtx[4*i:], t.advances[g])
		be.PutUint16(hmtx[4*i+2:], t.bearings[g])
	}
	tables := map[string][]byte{"hmtx": hmtx, "cmap": unicodeCmap(chars), "post": nameless(t.tables["post"]),
		"OS/2": t.tables["OS/2"], "name": essentialNames(t.tables["name"])}
	for _, tag := range []string{"cvt ", "fpgm", "prep"} { // see droppedTables
		if table, ok := t.tables[tag]; ok {
			tables[tag] = table
		}
	}
	tables["loca"], tables["glyf"] = glyphTables(glyphs)
	tables["head"] = slices.Clone(t.tables["head"])
	be.PutUint16(tables["head"][50:], 1) // indexToLocFormat: long
	tables["hhea"] = slices.Clone(t.tables["hhea"])
	be.PutUint16(tables["hhea"][34:], uint16(len(old))) // numberOfHMetrics
	tables["maxp"] = slices.Clone(withoutInstructionSize(t.tables["maxp"]))
	be.PutUint16(tables["maxp"][4:], uint16(len(old))) // numGlyphs
	return writeSFNT([]byte{0, 1, 0, 0}, tables)
}

// componentIndexes are the offsets of a composite glyph's component glyph
// indexes (none for a simple glyph; the font's glyphs were read whole
// when it was loaded, so a composite here is well formed).
func componentIndexes(g []byte) []int {
	if len(g) < 10 || int16(binary.BigEndian.Uint16(g)) >= 0 {
		return nil
	}
	at, _, err := glyphComponents(g)
	if err != nil {
		return nil
	}
	return at
}

// cmapEntry maps a character to a glyph.
type cmapEntry struct {
	char  rune
	glyph uint16
}

// unicodeCmap is a cmap table with one subtable, Windows Unicode BMP
// (3,1) in format 4, mapping chars (all in the BMP) to their glyphs: a
// segment per run of consecutive characters on consecutive glyphs.
func unicodeCmap(chars []cmapEntry) []byte {
	be := binary.BigEndian
	slices.SortFunc(chars, func(a, b cmapEntry) int { return cmp.Compare(a.char, b.char) })
	type segment struct{ start, end, delta uint16 }
	var segs []segment
	for _, c := range chars {
		delta := c.glyph - uint16(c.char)
		if n := len(segs); n > 0 && uint16(c.char) == segs[n-1].end+1 && delta == segs[n-1].delta {
			segs[n-1].end++
			continue
		}
		segs = append(segs, segment{uint16(c.char), uint16(c.char), delta})
	}
	segs = append(segs, segment{0xffff, 0xffff, 1}) // the table's required last segment
	n := len(segs)
	search := 1
	selector := 0
	for search*2 <= n {
		search *= 2
		selector++
	}
	sub := make([]byte, 16+8*n)
	be.PutUint16(sub[0:], 4)
	be.PutUint16(sub[2:], uint16(len(sub)))
	be.PutUint16(sub[6:], uint16(2*n))
	be.PutUint16(sub[8:], uint16(2*search))
	be.PutUint16(sub[10:], uint16(selector))
	be.PutUint16(sub[12:], uint16(2*n-2*search))
	for i, s := range segs {
		be.PutUint16(sub[14+2*i:], s.end)
		be.PutUint16(sub[16+2*n+2*i:], s.start)
		be.PutUint16(sub[16+4*n+2*i:], s.delta)
		// idRangeOffset (sub[16+6*n+2*i:]) stays 0: glyphs by delta.
	}
	head := []byte{0, 0, 0, 1, 0, 3, 0, 1, 0, 0, 0, 12}
	return append(head, sub...)
}

// essentialNames is a name table with only the Windows records (platform
// 3) of the copyright notice, the family, style, unique, full and
// PostScript names and the version (name ids 0 to 6): a subset keeps its
// copyright and names, not the licence's text, trademark and URLs. A
// table it cannot read is kept whole.
func essentialNames(name []byte) []byte {
	be := binary.BigEndian
	if len(name) < 6 {
		return name
	}
	count, storage := int(be.Uint16(name[2:])), int(be.Uint16(name[4:]))
	if 6+12*count > len(name) || storage > len(name) {
		return name
	}
	var records, strs []byte
	kept := 0
	for i := range count {
		r := name[6+12*i : 18+12*i]
		length, off := int(be.Uint16(r[8:])), int(be.Uint16(r[10:]))
		if be.Uint16(r) != 3 || be.Uint16(r[6:]) > 6 {
			continue
		}
		if storage+off+length > len(name) {
			return name
		}
		rec := slices.Clone(r)
		be.PutUint16(rec[10:], uint16(len(strs)))
		records = append(records, rec...)
		strs = append(strs, name[storage+off:storage+off+length]...)
		kept++
	}
	out := make([]byte, 6, 6+len(records)+len(strs))
	be.PutUint16(out[2:], uint16(kept))
	be.PutUint16(out[4:], uint16(6+len(records)))
	return append(append(out, records...), strs...)
}
