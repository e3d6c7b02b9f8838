package reports

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// embedFonts finishes the fonts of a document fpdf wrote: each simple
// font's placeholder program becomes the subset of the codes the pages
// draw in it, and every font is named as a subset, "ABCDEF+" before its
// PostScript name. The six letters come from the codes each font draws,
// so the same document gets the same name; regular and bold share them (a
// subset's tag tells it from other subsets of the same font, and the
// documents reader reads one family embedded under two tags as text that
// a second program added).
func (f *pdfFile) embedFonts() error {
	resources, err := f.fontResources()
	if err != nil {
		return err
	}
	used := map[int]*[256]bool{}
	byName := make(map[string]int, len(resources))
	for n, name := range resources {
		used[n] = new([256]bool)
		byName[name] = n
	}
	current := -1 // the font selected: a page goes on with the last one's
	for _, n := range f.pageContents() {
		content, err := f.streamData(n)
		if err != nil {
			return err
		}
		current = drawnCodes(content, byName, used, current)
	}
	tag := subsetTag(resources, used)

	names := map[string]string{}
	for _, t := range typefaces() {
		names[t.postScript] = tag + t.postScript
		// fpdf's UTF-8 path names a font "utf8" and its family and style.
		names["utf8"+strings.ToLower(fontFamily)+t.style] = tag + t.postScript
	}
	for n, obj := range f.objects {
		body := objectBody(obj)
		if !bytes.HasPrefix(body, []byte("<</Type /Font\n")) {
			continue
		}
		if bytes.Contains(body, []byte("\n/Subtype /TrueType\n")) {
			if err := f.embedSubset(n, body, used[n]); err != nil {
				return err
			}
		}
		f.set(n, renamed(body, "/BaseFont /", names))
		if desc, ok := reference(body, "/FontDescriptor "); ok && desc < len(f.objects) {
			f.set(desc, renamed(objectBody(f.objects[desc]), "/FontName /", names))
		}
	}
	return nil
}

// embedSubset puts the subset of the codes used in place of the program
// of the simple font object n (body), which must be one of the reports'.
func (f *pdfFile) embedSubset(n int, body []byte, used *[256]bool) error {
	var font *simpleFont
	for _, t := range typefaces() {
		if bytes.Contains(body, []byte("/BaseFont /"+t.postScript+"\n")) {
			font = t.winAnsi
		}
	}
	desc, ok := reference(body, "/FontDescriptor ")
	if font == nil || !ok || desc >= len(f.objects) {
		return fmt.Errorf("reports: font object %d of the PDF is not one of the reports' fonts", n)
	}
	file, ok := reference(objectBody(f.objects[desc]), "/FontFile2 ")
	if !ok || file >= len(f.objects) {
		return fmt.Errorf("reports: the descriptor of font object %d of the PDF names no font file", n)
	}
	if used == nil {
		used = new([256]bool) // a font no page selects: its missing glyph alone
	}
	f.set(file, font.subset(used))
	return nil
}

// subsetTag is the six letters and plus sign that name the document's
// subsets: a digest of the codes each font resource draws, so the same
// document gets the same tag.
func subsetTag(resources map[int]string, used map[int]*[256]bool) string {
	objects := slices.Sorted(maps.Keys(resources))
	digest := sha256.New()
	for _, n := range objects {
		set := codeSet(used[n])
		digest.Write([]byte(resources[n]))
		digest.Write(set[:])
	}
	sum := digest.Sum(nil)
	var tag [7]byte
	for i := range 6 {
		tag[i] = 'A' + sum[i]%26
	}
	tag[6] = '+'
	return string(tag[:])
}

// fontResources maps the objects of the fonts the pages' resources name
// to their resource names (fpdf writes one resource dictionary, which
// all pages share).
func (f *pdfFile) fontResources() (map[int]string, error) {
	out := map[int]string{}
	for _, obj := range f.objects {
		body := objectBody(obj)
		if !bytes.HasPrefix(body, []byte("<<\n/ProcSet ")) {
			continue
		}
		at := bytes.Index(body, []byte("\n/Font <<\n"))
		if at < 0 {
			continue
		}
		dict, _, ok := bytes.Cut(body[at+len("\n/Font <<\n"):], []byte(">>"))
		if !ok {
			return nil, fmt.Errorf("reports: the PDF's font resources are not closed")
		}
		for _, line := range bytes.Split(bytes.TrimSpace(dict), []byte("\n")) {
			var name string
			var n int
			if _, err := fmt.Sscanf(string(line), "/%s %d 0 R", &name, &n); err != nil || n <= 0 || n >= len(f.objects) {
				return nil, fmt.Errorf("reports: the PDF's font resource %q is not a reference", line)
			}
			out[n] = name
		}
	}
	return out, nil
}

// pageContents are the content streams of the pages, in page order.
func (f *pdfFile) pageContents() []int {
	var out []int
	for _, obj := range f.objects {
		if body := objectBody(obj); bytes.HasPrefix(body, []byte("<</Type /Page\n")) {
			if n, ok := reference(body, "/Contents "); ok && n < len(f.objects) {
				out = append(out, n)
			}
		}
	}
	return out
}

// streamData is the data of stream object n, which must be uncompressed
// (a page as fpdf draws it with compression off).
func (f *pdfFile) streamData(n int) ([]byte, error) {
	body := objectBody(f.objects[n])
	dict, data, ok := bytes.Cut(body, []byte(">>\nstream\n"))
	length, err := strconv.Atoi(string(bytes.TrimPrefix(dict, []byte("<</Length "))))
	if !ok || err != nil || length < 0 || length > len(data) {
		return nil, fmt.Errorf("reports: object %d of the PDF is not an uncompressed stream", n)
	}
	return data[:length], nil
}

// drawnCodes marks, for each font, the codes a content stream's strings
// show in it: a font is selected by its resource name (/F1 8.00 Tf) and
// shows the literal strings that follow, as fpdf writes them (text is
// never in hex strings, and an escape is a backslash and one character).
// current is the font object selected when the stream begins, -1 for
// none; it returns the one selected at its end. Strings and selections
// are found by searching for their first bytes rather than by reading
// every operator: a page is mostly coordinates.
func drawnCodes(content []byte, byName map[string]int, used map[int]*[256]bool, current int) int {
	selection := func(from int) int {
		for {
			at := bytes.Index(content[from:], []byte(" Tf"))
			if at < 0 {
				return len(content)
			}
			if end := from + at + 3; end == len(content) || isDelimiter(content[end]) {
				return from + at
			}
			from += at + 3
		}
	}
	tf := selection(0)
	for i := 0; i < len(content); {
		open := bytes.IndexByte(content[i:], '(')
		if open < 0 {
			open = len(content)
		} else {
			open += i
		}
		for tf < open {
			// "/F1 8.00 Tf": the name is the last one before the size.
			if slash := bytes.LastIndexByte(content[i:tf], '/'); slash >= 0 {
				name := content[i+slash+1 : tf]
				if sp := bytes.IndexByte(name, ' '); sp >= 0 {
					name = name[:sp]
				}
				if n, ok := byName[string(name)]; ok {
					current = n
				}
			}
			tf = selection(tf + 3)
		}
		if open == len(content) {
			break
		}
		set := used[current]
		j := open + 1
		for ; j < len(content) && content[j] != ')'; j++ {
			c := content[j]
			if c == '\\' && j+1 < len(content) {
				j++
				c = unescaped(content[j])
			}
			if set != nil {
				set[c] = true
			}
		}
		i = j + 1
		if tf < i {
			tf = selection(i) // " Tf" inside the string was text
		}
	}
	return current
}

// isDelimiter reports whether c ends a name or an operator.
func isDelimiter(c byte) bool {
	return strings.IndexByte(" \t\r\n\f/()<>[]{}%", c) >= 0
}

// unescaped is the character an escape (a backslash and c) stands for.
func unescaped(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	return c
}

// renamed is body with the name after key ("/BaseFont /") replaced by
// its entry in names, if it has one.
func renamed(body []byte, key string, names map[string]string) []byte {
	at := bytes.Index(body, []byte(key))
	if at < 0 {
		return body
	}
	start := at + len(key)
	end := start
	for end < len(body) && !isDelimiter(body[end]) {
		end++
	}
	to, ok := names[string(body[start:end])]
	if !ok {
		return body
	}
	out := make([]byte, 0, len(body)+len(to))
	return append(append(append(out, body[:start]...), to...), body[end:]...)
}

// reference is the object number after key ("/Contents ") in body, as
// "key N 0 R".
func reference(body []byte, key string) (int, bool) {
	at := bytes.Index(body, []byte(key))
	if at < 0 {
		return 0, false
	}
	rest := body[at+len(key):]
	end := bytes.IndexByte(rest, ' ')
	if end < 0 || !bytes.HasPrefix(rest[end:], []byte(" 0 R")) {
		return 0, false
	}
	n, err := strconv.Atoi(string(rest[:end]))
	return n, err == nil && n > 0
}

// objectBody is an object's text between its "n 0 obj" line and its
// "endobj" line.
func objectBody(obj []byte) []byte {
	_, body, _ := bytes.Cut(obj, []byte("\n"))
	body = bytes.TrimSuffix(body, []byte("endobj\n"))
	return bytes.TrimSuffix(body, []byte("\n"))
}

// set makes body the body of object n.
func (f *pdfFile) set(n int, body []byte) {
	obj := fmt.Appendf(make([]byte, 0, len(body)+32), "%d 0 obj\n", n)
	f.objects[n] = append(append(obj, body...), "\nendobj\n"...)
}
