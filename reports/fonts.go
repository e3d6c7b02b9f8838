package reports

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// The Go fonts are hinted: a TrueType program (fpgm, prep, cvt) and
// instructions in each glyph that fit outlines to a screen's pixel grid.
// PDF viewers scale glyphs freely and do not run them, and fpdf copies
// them into every subset it embeds: a third of each font's bytes in a
// report. The fonts are embedded without them, prepared once a process.
var (
	goRegular = sync.OnceValue(func() []byte { return mustUnhint(goregular.TTF) })
	goBold    = sync.OnceValue(func() []byte { return mustUnhint(gobold.TTF) })
)

func mustUnhint(ttf []byte) []byte {
	out, err := unhinted(ttf)
	if err != nil {
		panic(err) // the embedded fonts are constants; their test runs this
	}
	return out
}

// hintingTables are the tables that exist only for the glyphs'
// instructions.
var hintingTables = []string{"cvt ", "fpgm", "prep", "hdmx", "LTSH", "VDMX"}

// unhinted returns the TrueType font ttf without hinting: the hinting
// tables dropped, every glyph's instructions removed (outlines, metrics
// and every other table unchanged), loca rewritten in its long form.
func unhinted(ttf []byte) ([]byte, error) {
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
	head, maxp, loca, glyf := tables["head"], tables["maxp"], tables["loca"], tables["glyf"]
	if len(head) < 54 || len(maxp) < 6 || loca == nil || glyf == nil {
		return nil, fmt.Errorf("reports: the font lacks head, maxp, loca or glyf")
	}
	glyphs := int(be.Uint16(maxp[4:]))
	long := be.Uint16(head[50:]) == 1
	at := func(i int) int {
		if long {
			return int(be.Uint32(loca[4*i:]))
		}
		return 2 * int(be.Uint16(loca[2*i:]))
	}
	if (long && len(loca) < 4*(glyphs+1)) || (!long && len(loca) < 2*(glyphs+1)) {
		return nil, fmt.Errorf("reports: the font's loca table is shorter than its %d glyphs", glyphs)
	}

	newGlyf := make([]byte, 0, len(glyf))
	newLoca := make([]byte, 4*(glyphs+1))
	for g := range glyphs {
		be.PutUint32(newLoca[4*g:], uint32(len(newGlyf)))
		start, end := at(g), at(g+1)
		if start > end || end > len(glyf) {
			return nil, fmt.Errorf("reports: glyph %d of the font lies outside glyf", g)
		}
		stripped, err := withoutInstructions(glyf[start:end])
		if err != nil {
			return nil, fmt.Errorf("reports: glyph %d of the font: %w", g, err)
		}
		newGlyf = append(newGlyf, stripped...)
		for len(newGlyf)%4 != 0 {
			newGlyf = append(newGlyf, 0)
		}
	}
	be.PutUint32(newLoca[4*glyphs:], uint32(len(newGlyf)))

	head = slices.Clone(head)
	be.PutUint32(head[8:], 0)  // checkSumAdjustment, set below
	be.PutUint16(head[50:], 1) // indexToLocFormat: long
	tables["head"], tables["loca"], tables["glyf"] = head, newLoca, newGlyf
	if be.Uint32(maxp) == 0x00010000 && len(maxp) >= 28 {
		maxp = slices.Clone(maxp)
		be.PutUint16(maxp[26:], 0) // maxSizeOfInstructions
		tables["maxp"] = maxp
	}
	for _, t := range hintingTables {
		delete(tables, t)
	}
	return writeSFNT(ttf[:4], tables), nil
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
	const (
		argsAreWords      = 0x0001
		haveScale         = 0x0008
		moreComponents    = 0x0020
		haveXYScale       = 0x0040
		haveTwoByTwo      = 0x0080
		haveInstructions  = 0x0100
		componentHeadSize = 4
	)
	p, last := 10, 10
	for {
		if p+componentHeadSize > len(g) {
			return nil, fmt.Errorf("a component cut short")
		}
		flags := be.Uint16(g[p:])
		last = p
		p += componentHeadSize
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
			return nil, fmt.Errorf("a component cut short")
		}
		if flags&moreComponents == 0 {
			break
		}
	}
	out := slices.Clone(g[:p])
	be.PutUint16(out[last:], be.Uint16(out[last:])&^haveInstructions)
	return out, nil
}

// writeSFNT lays tables out as a font file: the directory sorted by tag,
// each table on a four-byte boundary with its checksum, and head's
// checkSumAdjustment set as the specification says.
func writeSFNT(version []byte, tables map[string][]byte) []byte {
	be := binary.BigEndian
	tags := make([]string, 0, len(tables))
	for t := range tables {
		tags = append(tags, t)
	}
	slices.Sort(tags)
	n := len(tags)
	entrySelector := 0
	for 1<<(entrySelector+1) <= n {
		entrySelector++
	}
	out := make([]byte, 12+16*n)
	copy(out, version)
	be.PutUint16(out[4:], uint16(n))
	be.PutUint16(out[6:], uint16(16<<entrySelector))
	be.PutUint16(out[8:], uint16(entrySelector))
	be.PutUint16(out[10:], uint16(16*n-16<<entrySelector))
	var body []byte
	headAt := -1
	for i, t := range tags {
		data := tables[t]
		if t == "head" {
			headAt = len(out) + len(body)
		}
		e := out[12+16*i:]
		copy(e, t)
		be.PutUint32(e[4:], checksum(data))
		be.PutUint32(e[8:], uint32(len(out)+len(body)))
		be.PutUint32(e[12:], uint32(len(data)))
		body = append(body, data...)
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
	}
	out = append(out, body...)
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
