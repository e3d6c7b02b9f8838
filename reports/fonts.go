package reports

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/image/font/sfnt"
)

// Every PDF of this package is set in Liberation Sans 2.1.5 (reports/fonts,
// Debian's fonts-liberation2, SIL Open Font License), embedded as subsets:
// a free sans serif with Helvetica's widths, so text keeps the layout it
// had in Helvetica, and every viewer, archive and picture test draws the
// glyphs the file carries instead of whatever font its machine puts in
// place of one left out (issue 51).
var (
	//go:embed fonts/LiberationSans-Regular.ttf
	liberationRegular []byte
	//go:embed fonts/LiberationSans-Bold.ttf
	liberationBold []byte
)

// FontLicense is the licence of the fonts built into this package (and so
// into the binary), which the SIL Open Font License asks every copy of
// them to carry. The PDFs set in them are not bound by it.
//
//go:embed fonts/LICENSE
var FontLicense string

// fontFamily is the family every document sets its text in (fpdf's name
// for it; the PDF names the fonts by their PostScript names).
const fontFamily = "LiberationSans"

// typeface is one style of the reports' font, read once a process.
type typeface struct {
	style      string // fpdf's: "" or "B"
	postScript string // the font's PostScript name
	font       *trueType
	// winAnsi is the style as a simple font in Windows-1252, with the
	// subsets documents embed (simple_fonts.go).
	winAnsi *simpleFont
	// utf8 is the font without hinting and the tables fpdf does not
	// read, for fpdf's UTF-8 path (text WinAnsi cannot hold).
	utf8 []byte
}

// typefaces are the regular and bold styles, prepared once a process.
var typefaces = sync.OnceValue(func() [2]*typeface {
	return [2]*typeface{
		mustTypeface(liberationRegular, "", "LiberationSans"),
		mustTypeface(liberationBold, "B", "LiberationSans-Bold"),
	}
})

func mustTypeface(ttf []byte, style, postScript string) *typeface {
	t, err := newTypeface(ttf, style, postScript)
	if err != nil {
		panic(err) // the embedded fonts are constants; every test reads them
	}
	return t
}

func newTypeface(ttf []byte, style, postScript string) (*typeface, error) {
	font, err := parseTrueType(ttf)
	if err != nil {
		return nil, err
	}
	lean, err := unhinted(ttf)
	if err != nil {
		return nil, err
	}
	t := &typeface{style: style, postScript: postScript, font: font, utf8: lean}
	if t.winAnsi, err = newSimpleFont(font, postScript, style == "B"); err != nil {
		return nil, err
	}
	return t, nil
}

// printable reports whether every style of the font has a glyph for r,
// so text in r never draws the missing-glyph box (which PDF/A forbids).
func printable(r rune) bool {
	if r < 0x20 || r == 0x7f {
		return false
	}
	for _, t := range typefaces() {
		if t.font.glyphIndex(r) == 0 {
			return false
		}
	}
	return true
}

// trueType is a TrueType font read for embedding: its tables, and each
// glyph's outline (without instructions: viewers do not run them) and
// horizontal metrics.
type trueType struct {
	tables     map[string][]byte
	unitsPerEm int
	glyphs     [][]byte
	advances   []uint16
	bearings   []uint16 // left side bearings, as stored (int16)
	// cmap is x/image's reading of the font's character map, behind a
	// mutex (its buffer is not safe for concurrent use).
	mu   sync.Mutex
	cmap *sfnt.Font
	buf  sfnt.Buffer
}

func parseTrueType(ttf []byte) (*trueType, error) {
	be := binary.BigEndian
	tables, err := sfntTables(ttf)
	if err != nil {
		return nil, err
	}
	head, maxp, hhea, hmtx := tables["head"], tables["maxp"], tables["hhea"], tables["hmtx"]
	if len(head) < 54 || len(maxp) < 6 || len(hhea) < 36 {
		return nil, fmt.Errorf("reports: the font lacks head, maxp or hhea")
	}
	count := int(be.Uint16(maxp[4:]))
	metrics := int(be.Uint16(hhea[34:]))
	if metrics == 0 || metrics > count || len(hmtx) < 4*metrics+2*(count-metrics) {
		return nil, fmt.Errorf("reports: the font's hmtx table is shorter than its %d glyphs", count)
	}
	t := &trueType{tables: tables, unitsPerEm: int(be.Uint16(head[18:])),
		advances: make([]uint16, count), bearings: make([]uint16, count)}
	for g := range count {
		if g < metrics {
			t.advances[g], t.bearings[g] = be.Uint16(hmtx[4*g:]), be.Uint16(hmtx[4*g+2:])
		} else {
			t.advances[g], t.bearings[g] = t.advances[metrics-1], be.Uint16(hmtx[4*metrics+2*(g-metrics):])
		}
	}
	if t.glyphs, err = glyphOutlines(tables, count); err != nil {
		return nil, err
	}
	if t.unitsPerEm == 0 {
		return nil, fmt.Errorf("reports: the font has no units per em")
	}
	if t.cmap, err = sfnt.Parse(ttf); err != nil {
		return nil, fmt.Errorf("reports: the font's character map: %w", err)
	}
	return t, nil
}

// glyphIndex is r's glyph, 0 (the missing glyph) when the font has none.
func (t *trueType) glyphIndex(r rune) uint16 {
	t.mu.Lock()
	defer t.mu.Unlock()
	i, err := t.cmap.GlyphIndex(&t.buf, r)
	if err != nil {
		return 0
	}
	return uint16(i)
}

// thousandths is a length in font units as thousandths of an em, as PDF
// states widths and metrics, rounded to the nearest.
func (t *trueType) thousandths(units int) int {
	v := units * 1000
	if v < 0 {
		return -((-v + t.unitsPerEm/2) / t.unitsPerEm)
	}
	return (v + t.unitsPerEm/2) / t.unitsPerEm
}

// sfntTables reads a font file's table directory.
func sfntTables(ttf []byte) (map[string][]byte, error) {
	be := binary.BigEndian
	if len(ttf) < 12 {
		return nil, fmt.Errorf("reports: a font of %d bytes", len(ttf))
	}
	count := int(be.Uint16(ttf[4:]))
	if 12+16*count > len(ttf) {
		return nil, fmt.Errorf("reports: the font's table directory is cut short")
	}
	tables := map[string][]byte{}
	for i := range count {
		e := ttf[12+16*i:]
		off, size := int(be.Uint32(e[8:])), int(be.Uint32(e[12:]))
		if off < 0 || size < 0 || off+size > len(ttf) {
			return nil, fmt.Errorf("reports: the font's %q table lies outside it", e[:4])
		}
		tables[string(e[:4])] = ttf[off : off+size]
	}
	return tables, nil
}

// glyphOutlines is each of the count glyphs' glyf entries without their
// instructions.
func glyphOutlines(tables map[string][]byte, count int) ([][]byte, error) {
	be := binary.BigEndian
	head, loca, glyf := tables["head"], tables["loca"], tables["glyf"]
	if len(head) < 54 || loca == nil || glyf == nil {
		return nil, fmt.Errorf("reports: the font lacks head, loca or glyf")
	}
	long := be.Uint16(head[50:]) == 1
	if (long && len(loca) < 4*(count+1)) || (!long && len(loca) < 2*(count+1)) {
		return nil, fmt.Errorf("reports: the font's loca table is shorter than its %d glyphs", count)
	}
	at := func(i int) int {
		if long {
			return int(be.Uint32(loca[4*i:]))
		}
		return 2 * int(be.Uint16(loca[2*i:]))
	}
	out := make([][]byte, count)
	for g := range count {
		start, end := at(g), at(g+1)
		if start > end || end > len(glyf) {
			return nil, fmt.Errorf("reports: glyph %d of the font lies outside glyf", g)
		}
		stripped, err := withoutInstructions(glyf[start:end])
		if err != nil {
			return nil, fmt.Errorf("reports: glyph %d of the font: %w", g, err)
		}
		out[g] = stripped
	}
	return out, nil
}

// Tables a font is embedded without: the layout tables (kerning, OpenType
// substitutions and positioning), read by neither fpdf nor a viewer of a
// PDF, whose text is already laid out; the tables of hinted metrics per
// size and of hinting by size, which the glyphs' instructions (removed:
// PDF viewers scale glyphs rather than run them, and they are a third of
// a glyph's bytes) would make true; FontForge's time stamp and a
// signature the changes would break. The font program, control values
// and pre-program (fpgm, cvt, prep) stay: ISO 32000-1 (9.9) requires them
// of an embedded TrueType font that had them, so PDF/A does.
var droppedTables = []string{"hdmx", "LTSH", "VDMX", "gasp", "kern", "GPOS", "GSUB", "GDEF", "FFTM", "DSIG"}

// unhinted returns the TrueType font ttf without its glyphs' instructions
// and without the tables droppedTables names: outlines, metrics and the
// other tables unchanged but for post, which keeps no glyph names
// (version 3), and loca, rewritten in its long form.
func unhinted(ttf []byte) ([]byte, error) {
	be := binary.BigEndian
	tables, err := sfntTables(ttf)
	if err != nil {
		return nil, err
	}
	head, maxp := tables["head"], tables["maxp"]
	if len(head) < 54 || len(maxp) < 6 {
		return nil, fmt.Errorf("reports: the font lacks head or maxp")
	}
	glyphs, err := glyphOutlines(tables, int(be.Uint16(maxp[4:])))
	if err != nil {
		return nil, err
	}
	tables["loca"], tables["glyf"] = glyphTables(glyphs)
	head = slices.Clone(head)
	be.PutUint16(head[50:], 1) // indexToLocFormat: long
	tables["head"] = head
	tables["maxp"] = withoutInstructionSize(maxp)
	if post := tables["post"]; len(post) >= 32 {
		tables["post"] = nameless(post)
	}
	for _, t := range droppedTables {
		delete(tables, t)
	}
	return writeSFNT(ttf[:4], tables), nil
}

// glyphTables lays glyph outlines out as a loca table (long form) and its
// glyf table, each glyph on a four-byte boundary.
func glyphTables(glyphs [][]byte) (loca, glyf []byte) {
	be := binary.BigEndian
	size := 0
	for _, g := range glyphs {
		size += (len(g) + 3) &^ 3
	}
	loca, glyf = make([]byte, 4*(len(glyphs)+1)), make([]byte, 0, size)
	for i, g := range glyphs {
		be.PutUint32(loca[4*i:], uint32(len(glyf)))
		glyf = append(glyf, g...)
		for len(glyf)%4 != 0 {
			glyf = append(glyf, 0)
		}
	}
	be.PutUint32(loca[4*len(glyphs):], uint32(len(glyf)))
	return loca, glyf
}

// withoutInstructionSize is maxp saying no glyph has instructions.
func withoutInstructionSize(maxp []byte) []byte {
	if binary.BigEndian.Uint32(maxp) != 0x00010000 || len(maxp) < 28 {
		return maxp
	}
	maxp = slices.Clone(maxp)
	binary.BigEndian.PutUint16(maxp[26:], 0) // maxSizeOfInstructions
	return maxp
}

// nameless is a post table's header as version 3: the same italic angle,
// underline and pitch, no glyph names (a PDF's simple TrueType font maps
// codes to glyphs through the Unicode cmap, never by name).
func nameless(post []byte) []byte {
	out := slices.Clone(post[:32])
	binary.BigEndian.PutUint32(out, 0x00030000)
	return out
}

// withoutInstructions is one glyph's glyf entry without its
// instructions: a simple glyph's instruction length becomes zero, a
// composite's WE_HAVE_INSTRUCTIONS flag is cleared and its trailing
// instructions dropped.
func withoutInstructions(g []byte) ([]byte, error) {
	be := binary.BigEndian
	if len(g) == 0 {
		return nil, nil
	}
	if len(g) < 10 {
		return nil, fmt.Errorf("a header of %d bytes", len(g))
	}
	contours := int(int16(be.Uint16(g)))
	if contours >= 0 {
		p := 10 + 2*contours
		if p+2 > len(g) {
			return nil, fmt.Errorf("cut short")
		}
		n := int(be.Uint16(g[p:]))
		if p+2+n > len(g) {
			return nil, fmt.Errorf("instructions past its end")
		}
		out := make([]byte, 0, len(g)-n)
		out = append(out, g[:p]...)
		out = append(out, 0, 0)
		return append(out, g[p+2+n:]...), nil
	}
	components, end, err := glyphComponents(g)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(g[:end])
	last := components[len(components)-1] - 2 // the last component's flags
	be.PutUint16(out[last:], be.Uint16(out[last:])&^haveInstructions)
	return out, nil
}

// Flags of a composite glyph's components.
const (
	argsAreWords     = 0x0001
	haveScale        = 0x0008
	moreComponents   = 0x0020
	haveXYScale      = 0x0040
	haveTwoByTwo     = 0x0080
	haveInstructions = 0x0100
)

// glyphComponents reads a composite glyph: the offset of each component's
// glyph index in g, and where the components end (its instructions, if
// any, follow).
func glyphComponents(g []byte) (indexes []int, end int, err error) {
	be := binary.BigEndian
	p := 10
	for {
		if p+4 > len(g) {
			return nil, 0, fmt.Errorf("a component cut short")
		}
		flags := be.Uint16(g[p:])
		indexes = append(indexes, p+2)
		p += 4
		if flags&argsAreWords != 0 {
			p += 4
		} else {
			p += 2
		}
		switch {
		case flags&haveScale != 0:
			p += 2
		case flags&haveXYScale != 0:
			p += 4
		case flags&haveTwoByTwo != 0:
			p += 8
		}
		if p > len(g) {
			return nil, 0, fmt.Errorf("a component cut short")
		}
		if flags&moreComponents == 0 {
			return indexes, p, nil
		}
	}
}

// writeSFNT lays tables out as a font file: the directory sorted by tag,
// each table on a four-byte boundary with its checksum, and head's
// checkSumAdjustment set as the specification says.
func writeSFNT(version []byte, tables map[string][]byte) []byte {
	be := binary.BigEndian
	tags := make([]string, 0, len(tables))
	size := 12 + 16*len(tables)
	for t, data := range tables {
		tags = append(tags, t)
		size += (len(data) + 3) &^ 3
	}
	slices.Sort(tags)
	n := len(tags)
	entrySelector := 0
	for 1<<(entrySelector+1) <= n {
		entrySelector++
	}
	out := make([]byte, 12+16*n, size)
	copy(out, version)
	be.PutUint16(out[4:], uint16(n))
	be.PutUint16(out[6:], uint16(16<<entrySelector))
	be.PutUint16(out[8:], uint16(entrySelector))
	be.PutUint16(out[10:], uint16(16*n-16<<entrySelector))
	headAt := -1
	for i, t := range tags {
		data := tables[t]
		if t == "head" && len(data) >= 12 {
			headAt = len(out)
			data = slices.Clone(data)
			be.PutUint32(data[8:], 0) // checkSumAdjustment, set last
		}
		e := out[12+16*i:]
		copy(e, t)
		be.PutUint32(e[4:], checksum(data))
		be.PutUint32(e[8:], uint32(len(out)))
		be.PutUint32(e[12:], uint32(len(data)))
		out = append(out, data...)
		for len(out)%4 != 0 {
			out = append(out, 0)
		}
	}
	if headAt >= 0 {
		be.PutUint32(out[headAt+8:], 0xB1B0AFBA-checksum(out))
	}
	return out
}

// checksum is the sum of b's big-endian 32-bit words, zero-padded.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}
