package documents

import (
	"regexp"
	"strings"

	"payline/domain"
)

var (
	// contentOp finds, in order, a content stream's font selections (Tf)
	// and the strings it shows (Tj, TJ).
	contentOp = regexp.MustCompile(`/([^\s/<>\[\]()]+)\s+[-\d.]+\s+Tf|(\((?:\\.|[^\\)])*\))\s*Tj|(<[0-9A-Fa-f\s]*>)\s*Tj|\[((?:\\.|[^\]\\])*)\]\s*TJ`)
	arrayStr  = regexp.MustCompile(`\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>`)
	// fontResource is a font resource's name and its object (/F1 5 0 R)
	// inside a /Font dictionary; fontObject a font object's base font.
	fontDict    = regexp.MustCompile(`(?s)/Font\s*<<(.*?)>>`)
	fontRef     = regexp.MustCompile(`/([^\s/<>\[\]()]+)\s+(\d+)\s+0\s+R`)
	fontObject  = regexp.MustCompile(`(\d+)\s+0\s+obj\s*<<[^>]*?/BaseFont\s*/([^\s/<>\[\]()]+)`)
	figureText  = regexp.MustCompile(`^\(?-?\$?\s?-?[0-9][0-9,]*\.[0-9]{2}\)?$|^[0-9]{1,2}/[0-9]{1,2}/[0-9]{2,4}$|^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	resourceRef = regexp.MustCompile(`^[A-Za-z0-9_.+-]+$`)
)

// fontTally counts the strings a PDF's content streams draw per font
// resource, and the figures among them; fonts maps resource names and
// objects to base fonts, from every part of the file it is shown.
type fontTally struct {
	order            []string
	strings, figures map[string]int
	resource         map[string]string // resource name -> object number
	base             map[string]string // object number -> base font
}

func newFontTally() *fontTally {
	return &fontTally{strings: map[string]int{}, figures: map[string]int{}, resource: map[string]string{}, base: map[string]string{}}
}

// objects reads font resources and font objects from b (the file, or an
// inflated object stream).
func (t *fontTally) objects(b []byte) {
	for _, d := range fontDict.FindAllSubmatch(b, -1) {
		for _, m := range fontRef.FindAllSubmatch(d[1], -1) {
			t.resource[string(m[1])] = string(m[2])
		}
	}
	for _, m := range fontObject.FindAllSubmatch(b, -1) {
		t.base[string(m[1])] = fontSubsetID.ReplaceAllString(string(m[2]), "")
	}
}

// content tallies one content stream's strings by the font selected when
// each is shown.
func (t *fontTally) content(b []byte) {
	font := ""
	for _, m := range contentOp.FindAllSubmatch(b, -1) {
		if m[1] != nil {
			font = string(m[1])
			continue
		}
		var text string
		switch {
		case m[2] != nil:
			text = decodePDFString(m[2])
		case m[3] != nil:
			text = decodePDFString(m[3])
		default:
			var sb strings.Builder
			for _, s := range arrayStr.FindAll(m[4], -1) {
				sb.WriteString(decodePDFString(s))
			}
			text = sb.String()
		}
		text = strings.TrimSpace(text)
		if font == "" || text == "" || !resourceRef.MatchString(font) {
			continue
		}
		if _, seen := t.strings[font]; !seen {
			t.order = append(t.order, font)
		}
		t.strings[font]++
		if figureText.MatchString(text) {
			t.figures[font]++
		}
	}
}

// uses is the tally by base font (a resource whose font object was not
// found keeps its resource name), in order of first use.
func (t *fontTally) uses() []domain.FontUse {
	var out []domain.FontUse
	index := map[string]int{}
	for _, res := range t.order {
		name := res
		if obj, ok := t.resource[res]; ok {
			if b, ok := t.base[obj]; ok {
				name = b
			} else {
				name = res + " (object " + obj + ")"
			}
		}
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, domain.FontUse{Font: name})
		}
		out[i].Strings += t.strings[res]
		out[i].Figures += t.figures[res]
	}
	return out
}
