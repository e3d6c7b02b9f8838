package main

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Incremental updates of a PDF with a classic cross-reference table, as a PDF editor writes them:
// the original bytes stay, new versions of changed objects are appended with a new xref section
// whose trailer points back (/Prev) to the old one.

type pdfFile struct {
	b        []byte
	prevXref int
	size     int
	root     string
	info     string
}

var reStartxref = regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`)

func parsePDF(b []byte) *pdfFile {
	m := reStartxref.FindSubmatch(b)
	if m == nil {
		fatalf("pdfedit: no startxref")
	}
	f := &pdfFile{b: b}
	f.prevXref, _ = strconv.Atoi(string(m[1]))
	tr := b[f.prevXref:]
	i := bytes.Index(tr, []byte("trailer"))
	if i < 0 {
		fatalf("pdfedit: no classic trailer")
	}
	tr = tr[i:]
	get := func(key string) string {
		re := regexp.MustCompile(`/` + key + `\s+(\d+ \d+ R|\d+)`)
		mm := re.FindSubmatch(tr)
		if mm == nil {
			return ""
		}
		return string(mm[1])
	}
	f.size, _ = strconv.Atoi(get("Size"))
	f.root, f.info = get("Root"), get("Info")
	return f
}

// object returns the text between "N 0 obj" and "endobj" of the last definition of object n.
func (f *pdfFile) object(n int) string {
	re := regexp.MustCompile(fmt.Sprintf(`(?s)(?:^|[\r\n])%d 0 obj\s*(.*?)endobj`, n))
	all := re.FindAllSubmatch(f.b, -1)
	if all == nil {
		fatalf("pdfedit: object %d not found", n)
	}
	return string(all[len(all)-1][1])
}

// pages returns page object numbers in file order.
func (f *pdfFile) pages() []int {
	re := regexp.MustCompile(`(?s)(\d+) 0 obj\s*<<\s*/Type\s*/Page[^s]`)
	var out []int
	seen := map[int]bool{}
	for _, m := range re.FindAllSubmatch(f.b, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		// fpdf writes "<</Type /Page\n"
		fatalf("pdfedit: no page objects")
	}
	return out
}

func refNum(ref string) int {
	n, _ := strconv.Atoi(strings.Fields(ref)[0])
	return n
}

type update struct {
	f    *pdfFile
	objs map[int]string // object number → full body (dict, with stream if any)
	next int
	info string
}

func (f *pdfFile) begin() *update { return &update{f: f, objs: map[int]string{}, next: f.size} }

func (u *update) add(body string) int {
	n := u.next
	u.next++
	u.objs[n] = body
	return n
}

func (u *update) set(n int, body string) { u.objs[n] = body }

func streamObj(dict string, data []byte) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

func (u *update) bytes() []byte {
	var b bytes.Buffer
	b.Write(u.f.b)
	if !bytes.HasSuffix(u.f.b, []byte("\n")) {
		b.WriteByte('\n')
	}
	nums := make([]int, 0, len(u.objs))
	for n := range u.objs {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	off := map[int]int{}
	for _, n := range nums {
		off[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, u.objs[n])
	}
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for i := 0; i < len(nums); {
		k := i
		for k+1 < len(nums) && nums[k+1] == nums[k]+1 {
			k++
		}
		fmt.Fprintf(&b, "%d %d\n", nums[i], k-i+1)
		for _, n := range nums[i : k+1] {
			fmt.Fprintf(&b, "%010d 00000 n \n", off[n])
		}
		i = k + 1
	}
	size := max(u.next, u.f.size)
	info := u.f.info
	if u.info != "" {
		info = u.info
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %s", size, u.f.root)
	if info != "" {
		fmt.Fprintf(&b, " /Info %s", info)
	}
	fmt.Fprintf(&b, " /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", u.f.prevXref, xref)
	return b.Bytes()
}

// withFont returns a page's resource dictionary text with one more font; it may rewrite the
// indirect objects the resources live in.
func (u *update) addFont(pageNum int, pageDict string, name string, fontRef int) string {
	fontEntry := fmt.Sprintf("/%s %d 0 R ", name, fontRef)
	reRes := regexp.MustCompile(`/Resources\s+(\d+) 0 R`)
	if m := reRes.FindStringSubmatch(pageDict); m != nil {
		rn, _ := strconv.Atoi(m[1])
		res := u.f.object(rn)
		u.set(rn, u.fontInto(res, fontEntry))
		return pageDict
	}
	i := strings.Index(pageDict, "/Resources")
	if i < 0 {
		fatalf("pdfedit: page without resources")
	}
	// the inline resource dictionary: find its extent
	j := i + strings.Index(pageDict[i:], "<<")
	depth, k := 0, j
	for ; k < len(pageDict)-1; k++ {
		if pageDict[k:k+2] == "<<" {
			depth++
			k++
		} else if pageDict[k:k+2] == ">>" {
			depth--
			k++
			if depth == 0 {
				break
			}
		}
	}
	res := pageDict[j : k+1]
	return pageDict[:j] + u.fontInto(res, fontEntry) + pageDict[k+1:]
}

func (u *update) fontInto(res string, entry string) string {
	reInd := regexp.MustCompile(`/Font\s+(\d+) 0 R`)
	if m := reInd.FindStringSubmatch(res); m != nil {
		fn, _ := strconv.Atoi(m[1])
		fd := u.f.object(fn)
		k := strings.Index(fd, "<<")
		u.set(fn, fd[:k+2]+entry+fd[k+2:])
		return res
	}
	if k := strings.Index(res, "/Font"); k >= 0 {
		l := k + strings.Index(res[k:], "<<")
		return res[:l+2] + entry + res[l+2:]
	}
	k := strings.Index(res, "<<")
	return res[:k+2] + "/Font << " + entry + ">> " + res[k+2:]
}

// helvWidth is the width of s in Helvetica (1000 units per em) for the characters of figures.
func helvWidth(s string, bold bool) float64 {
	w := 0.0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9', c == '$':
			w += 556
		case c == ',', c == '.':
			w += 278
		case c == '-', c == '(', c == ')':
			w += 333
		case c == ' ':
			w += 278
		default:
			w += 600
		}
	}
	return w / 1000
}

type paint struct {
	Box  Word   // the word to cover (pdftotext -bbox, top-left origin)
	Text string // what to type on top
	Bold bool
}

// paintOver appends an incremental update to page pageIdx (0-based) that covers each word with
// a white rectangle and types the new text, right-aligned where the old figure ended.
func paintOver(pdf []byte, pageIdx int, ps []paint) []byte {
	f := parsePDF(pdf)
	pages := f.pages()
	pn := pages[pageIdx]
	pd := f.object(pn)
	mb := regexp.MustCompile(`/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]`).FindStringSubmatch(pd)
	pageH := 792.0
	if mb != nil {
		pageH, _ = strconv.ParseFloat(mb[4], 64)
	}
	u := f.begin()
	font := u.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	fontB := u.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	var ops strings.Builder
	for _, p := range ps {
		h := p.Box.YMax - p.Box.YMin
		size := h / 1.15
		x0, x1 := p.Box.XMin-1.2, p.Box.XMax+1.2
		w := helvWidth(p.Text, p.Bold) * size
		if x1-w-1 < x0 {
			x0 = x1 - w - 2
		}
		fmt.Fprintf(&ops, "1 1 1 rg 1 1 1 RG %.2f %.2f %.2f %.2f re f\n", x0, pageH-p.Box.YMax-0.8, x1-x0, h+1.6)
		fn := "FX1"
		if p.Bold {
			fn = "FX2"
		}
		base := pageH - p.Box.YMax + 0.22*size
		fmt.Fprintf(&ops, "BT /%s %.2f Tf 0 0 0 rg %.2f %.2f Td (%s) Tj ET\n", fn, size, p.Box.XMax-w, base, pdfEsc(p.Text))
	}
	q := u.add(streamObj("", []byte("q\n")))
	qq := u.add(streamObj("", []byte("\nQ\n")))
	over := u.add(streamObj("", []byte(ops.String())))
	// contents: [q old Q overlay]
	reC := regexp.MustCompile(`/Contents\s+(\[[^\]]*\]|\d+ 0 R)`)
	m := reC.FindStringSubmatchIndex(pd)
	if m == nil {
		fatalf("pdfedit: page without contents")
	}
	old := pd[m[2]:m[3]]
	old = strings.Trim(old, "[] ")
	nd := pd[:m[2]] + fmt.Sprintf("[%d 0 R %s %d 0 R %d 0 R]", q, old, qq, over) + pd[m[3]:]
	nd = u.addFont(pn, nd, "FX1", font)
	nd = u.addFont(pn, nd, "FX2", fontB)
	u.set(pn, strings.TrimSpace(nd))
	return u.bytes()
}

// editText appends an incremental update that rewrites the page's content stream replacing
// literal strings (fpdf-style "(old) Tj"), and a new document information dictionary naming the
// editor as producer.
func editText(pdf []byte, repl map[string]string, producer string, when time.Time) []byte {
	f := parsePDF(pdf)
	u := f.begin()
	for _, pn := range f.pages() {
		pd := f.object(pn)
		m := regexp.MustCompile(`/Contents\s+(\d+) 0 R`).FindStringSubmatch(pd)
		cn, _ := strconv.Atoi(m[1])
		body := f.object(cn)
		si := strings.Index(body, "stream")
		ei := strings.LastIndex(body, "endstream")
		raw := []byte(strings.TrimLeft(body[si+6:ei], "\r\n"))
		raw = bytes.TrimRight(raw, "\r\n")
		data := raw
		if strings.Contains(body[:si], "FlateDecode") {
			zr, err := zlib.NewReader(bytes.NewReader(raw))
			if err != nil {
				fatalf("pdfedit: inflate: %v", err)
			}
			data, _ = io.ReadAll(zr)
		}
		changed := false
		keys := make([]string, 0, len(repl))
		for a := range repl {
			keys = append(keys, a)
		}
		sort.Strings(keys)
		reStr := regexp.MustCompile(`\((?:[^()\\]|\\.)*\) Tj`)
		s := reStr.ReplaceAllStringFunc(string(data), func(lit string) string {
			for _, a := range keys {
				ea := pdfEsc(a)
				for i := strings.Index(lit, ea); i >= 0; {
					before := lit[i-1]
					after := lit[i+len(ea)]
					if !(before >= '0' && before <= '9' || before == ',' || before == '.') && !(after >= '0' && after <= '9') {
						lit = lit[:i] + pdfEsc(repl[a]) + lit[i+len(ea):]
						changed = true
					}
					j := strings.Index(lit[i+1:], ea)
					if j < 0 {
						break
					}
					i += 1 + j
				}
			}
			return lit
		})
		if !changed {
			continue
		}
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write([]byte(s))
		zw.Close()
		u.set(cn, streamObj("/Filter /FlateDecode", z.Bytes()))
	}
	old := ""
	if f.info != "" {
		old = f.object(refNum(f.info))
	}
	title := regexp.MustCompile(`/Title\s*(\([^)]*\))`).FindStringSubmatch(old)
	creation := regexp.MustCompile(`/CreationDate\s*(\([^)]*\))`).FindStringSubmatch(old)
	info := fmt.Sprintf("<< /Producer (%s) /ModDate (D:%s-05'00')", producer, when.Format("20060102150405"))
	if title != nil {
		info += " /Title " + title[1]
	}
	if creation != nil {
		info += " /CreationDate " + creation[1]
	}
	info += " /Creator (" + producer + ") >>"
	in := u.add(info)
	u.info = fmt.Sprintf("%d 0 R", in)
	return u.bytes()
}
