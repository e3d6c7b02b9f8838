package reports_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/encoding/charmap"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
)

// renderedDocument is a PDF of one of the kinds reports renders.
type renderedDocument struct {
	name string
	pdf  []byte
	// winAnsi: its text is all in Windows-1252, so it is set in simple
	// fonts; else in fpdf's UTF-8 (CID) fonts.
	winAnsi bool
}

// everyDocument renders every kind of PDF reports makes: a VOIE (the
// golden one; one whose name WinAnsi holds only with accents; one whose
// name it cannot hold; one with a character no font has; one with a
// control character), a VOE, a VOIE
// of uploads, a W-2, a direct deposit form and a paystub. The odd names
// carry XML's and PDF's special characters, for the metadata.
func everyDocument(t *testing.T) []renderedDocument {
	t.Helper()
	voie, src := goldenReport(domain.ReportVOIE)
	voe, _ := goldenReport(domain.ReportVOE)
	accented, wide, cjk, control := voie, voie, voie, voie
	accented.Employee.Name.FullName = "Zoë Fernández-O'Brien & <Sons> (Ltd)"
	wide.Employee.Name.FullName = "Łukasz Wróbel & <Sons>"
	cjk.Employee.Name.FullName = "Wei 陈伟 Zhang"
	control.Employee.Name.FullName = "Amara\aVaughan\t"
	uploads, uploadsSrc := uploadsReport(t, goldenUploads())
	a := src[0].Account
	w2 := sandbox.NewPerson(a).W2s(goldenNow.AddDate(-2, 0, 0), goldenNow)[0]
	form := domain.DepositForm{ID: "0195f0a0-0000-7000-8000-00000000bbbb", AccountID: a.ID, EndUserID: a.EndUserID, EmployeeName: "Ada Lovelace",
		EmployerName: a.EmployerName, CreatedAt: goldenNow, Target: domain.SwitchTarget{Name: "Savings", Type: "savings", LastFour: "6789", RoutingNumber: "011000015"}}
	stub := src[0].Paystubs[len(src[0].Paystubs)-1]
	var out []renderedDocument
	for _, d := range []struct {
		name    string
		winAnsi bool
		render  func() ([]byte, error)
	}{
		{"voie", true, func() ([]byte, error) { return reports.RenderVerification(voie, src) }},
		{"voie-accented", true, func() ([]byte, error) { return reports.RenderVerification(accented, src) }},
		{"voie-utf8", false, func() ([]byte, error) { return reports.RenderVerification(wide, src) }},
		{"voie-unprintable", false, func() ([]byte, error) { return reports.RenderVerification(cjk, src) }},
		{"voie-control-character", false, func() ([]byte, error) { return reports.RenderVerification(control, src) }},
		{"voe", true, func() ([]byte, error) { return reports.RenderVerification(voe, src) }},
		{"voie-uploads", true, func() ([]byte, error) { return reports.RenderVerification(uploads, uploadsSrc) }},
		{"w2", true, func() ([]byte, error) { return reports.RenderW2(w2.DocumentID, w2.W2, goldenNow) }},
		{"deposit-form", true, func() ([]byte, error) { return reports.RenderDepositForm(form) }},
		{"paystub", true, func() ([]byte, error) { return reports.RenderPaystub(stub) }},
	} {
		pdf, err := d.render()
		if err != nil {
			t.Fatalf("%s: %v", d.name, err)
		}
		out = append(out, renderedDocument{d.name, pdf, d.winAnsi})
	}
	return out
}

// TestEveryFontEmbedded: pdffonts lists every font of every kind of PDF
// as embedded and subset (six letters and a plus sign before its name),
// one of the reports' two (Liberation Sans, regular and bold), sharing
// one tag (the documents reader reads one family under two tags as text
// a second program added); a WinAnsi document's as TrueType in WinAnsi,
// the others' as CID TrueType with a Unicode map. So every viewer, archive
// and picture test draws the glyphs the file carries.
func TestEveryFontEmbedded(t *testing.T) {
	bin := poppler(t, "pdffonts")
	font := regexp.MustCompile(`^([A-Z]{6})\+(LiberationSans|LiberationSans-Bold) +(TrueType +WinAnsi|CID TrueType +Identity-H) +yes +yes +(yes|no) +\d+ +0$`)
	for _, doc := range everyDocument(t) {
		out, err := exec.Command(bin, writePDF(t, doc.name+".pdf", doc.pdf)).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: pdffonts: %v\n%s", doc.name, err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) < 3 {
			t.Errorf("%s: pdffonts lists no fonts:\n%s", doc.name, out)
			continue
		}
		tags := map[string]bool{}
		for _, line := range lines[2:] {
			m := font.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("%s: a font not embedded as a subset of the reports' fonts: %s", doc.name, line)
				continue
			}
			tags[m[1]] = true
			if simple := strings.HasPrefix(m[3], "TrueType"); simple != doc.winAnsi {
				t.Errorf("%s: %s, want a simple font: %v", doc.name, line, doc.winAnsi)
			}
		}
		if len(tags) > 1 {
			t.Errorf("%s: the fonts have %d subset tags, want one:\n%s", doc.name, len(tags), out)
		}
	}
}

// TestPDFA checks, on every kind of PDF, the rules of PDF/A-2b that the
// tools here can check (no PDF/A validator installs from Debian or npm):
// every font embedded (TestEveryFontEmbedded) with widths that agree
// with its program, code by code; an XMP packet that parses, says part 2
// conformance B and agrees with the information dictionary (pdfinfo); an
// output intent GTS_PDFA1 with a three-component ICC profile whose header
// and tag table are consistent (qpdf --json); a file identifier in the
// trailer; no encryption; a binary comment in the header; qpdf --check.
func TestPDFA(t *testing.T) {
	tools := map[string]string{"qpdf": tool(t, "qpdf", "qpdf"), "pdfinfo": poppler(t, "pdfinfo")}
	for _, doc := range everyDocument(t) {
		t.Run(doc.name, func(t *testing.T) {
			path := writePDF(t, doc.name+".pdf", doc.pdf)
			run := func(tool string, args ...string) string {
				out, err := exec.Command(tools[tool], append(args, path)...).CombinedOutput()
				if err != nil {
					t.Fatalf("%s %v: %v\n%s", tool, args, err, out)
				}
				return string(out)
			}
			checkFileStructure(t, doc.pdf, run("qpdf", "--check"))
			info := checkXMP(t, run("pdfinfo", "-meta"), run("pdfinfo", "-isodates"))
			if doc.name == "voie-utf8" && !strings.Contains(info["Subject"], "Łukasz Wróbel & <Sons>") {
				t.Errorf("the subject %q lost the name's characters", info["Subject"])
			}
			objects := qpdfObjects(t, tools["qpdf"], path)
			checkOutputIntent(t, objects)
			glyphs := checkFontWidths(t, objects)
			// Every character the text layer holds has a glyph in one of
			// the embedded programs: the subsets hold what is drawn.
			missing := map[rune]bool{}
			for _, r := range textOf(t, doc.pdf) {
				if !unicode.IsSpace(r) && !missing[r] && !slices.ContainsFunc(glyphs, func(has func(rune) bool) bool { return has(r) }) {
					missing[r] = true
					t.Errorf("no embedded font has a glyph for %q, which the text shows", r)
				}
			}
		})
	}
}

func checkFileStructure(t *testing.T, pdf []byte, check string) {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.")) || len(bytes.Fields(pdf[:40])) < 2 {
		t.Fatalf("header %q", pdf[:20])
	}
	second := bytes.SplitN(pdf, []byte("\n"), 3)[1]
	high := 0
	for _, c := range second {
		if c > 127 {
			high++
		}
	}
	if second[0] != '%' || high < 4 {
		t.Errorf("the second line %q is not a comment of at least four bytes above 127", second)
	}
	if !regexp.MustCompile(`trailer\n<<\n/ID \[<[0-9a-f]{32}> <[0-9a-f]{32}>\]\n`).Match(pdf) || bytes.Contains(pdf, []byte("/Encrypt")) {
		t.Error("the trailer has no file id, or the document is encrypted")
	}
	if !strings.Contains(check, "No syntax or stream encoding errors found") || strings.Contains(strings.ToLower(check), "warning") {
		t.Errorf("qpdf --check:\n%s", check)
	}
}

// checkXMP: the XMP packet (pdfinfo -meta) says PDF/A-2b and agrees with
// the information dictionary (pdfinfo -isodates), which it returns.
func checkXMP(t *testing.T, raw, infoText string) map[string]string {
	t.Helper()
	var meta struct {
		Part, Conformance, Keywords, Producer, CreatorTool, CreateDate string
		Title                                                          string `xml:"RDF>Description>title>Alt>li"`
		Description                                                    string `xml:"RDF>Description>description>Alt>li"`
		Creator                                                        string `xml:"RDF>Description>creator>Seq>li"`
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"part", &meta.Part}, {"conformance", &meta.Conformance}, {"Keywords", &meta.Keywords}, {"Producer", &meta.Producer},
		{"CreatorTool", &meta.CreatorTool}, {"CreateDate", &meta.CreateDate}} {
		m := regexp.MustCompile(`<[a-z]+:` + f.name + `>([^<]*)<`).FindStringSubmatch(raw)
		if m == nil {
			t.Fatalf("no %s in the XMP packet:\n%s", f.name, raw)
		}
		*f.dst = m[1]
	}
	start := strings.Index(raw, "<x:xmpmeta")
	end := strings.Index(raw, "</x:xmpmeta>")
	if start < 0 || end < start {
		t.Fatalf("no XMP packet:\n%s", raw)
	}
	if err := xml.Unmarshal([]byte(raw[start:end+len("</x:xmpmeta>")]), &meta); err != nil {
		t.Fatalf("the XMP packet does not parse: %v", err)
	}
	info := map[string]string{}
	for _, line := range strings.Split(infoText, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok {
			info[k] = strings.TrimSpace(v)
		}
	}
	unescape := func(s string) string {
		return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">").Replace(s)
	}
	if meta.Part != "2" || meta.Conformance != "B" {
		t.Errorf("XMP says PDF/A part %q conformance %q", meta.Part, meta.Conformance)
	}
	for k, pair := range map[string][2]string{
		"Title": {meta.Title, info["Title"]}, "Subject": {meta.Description, info["Subject"]}, "Author": {meta.Creator, info["Author"]},
		"Keywords": {unescape(meta.Keywords), info["Keywords"]}, "Producer": {meta.Producer, info["Producer"]},
		"Creator": {meta.CreatorTool, info["Creator"]}, "CreationDate": {meta.CreateDate, strings.TrimSuffix(info["CreationDate"], "Z")},
	} {
		// (pdfinfo's lines are read trimmed, so the XMP's value is too)
		if pair[0] == "" || strings.TrimSpace(pair[0]) != pair[1] {
			t.Errorf("%s: XMP %q, information dictionary %q", k, pair[0], pair[1])
		}
	}
	return info
}

// qpdfObject is an object as qpdf --json prints it: a value, or a stream
// (its dictionary and decoded data).
type qpdfObject struct {
	Value  any `json:"value"`
	Stream *struct {
		Dict map[string]any `json:"dict"`
		Data []byte         `json:"data"`
	} `json:"stream"`
}

// dict is the object's dictionary, the stream's if it is one.
func (o qpdfObject) dict() map[string]any {
	if o.Stream != nil {
		return o.Stream.Dict
	}
	d, _ := o.Value.(map[string]any)
	return d
}

// qpdfObjects are a PDF's objects ("obj:N 0 R") and its trailer, as qpdf
// reads them, streams decoded.
func qpdfObjects(t *testing.T, qpdf, path string) map[string]qpdfObject {
	t.Helper()
	out, err := exec.Command(qpdf, "--json=2", "--json-key=qpdf", "--decode-level=all", "--json-stream-data=inline", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		QPDF []json.RawMessage `json:"qpdf"` // the file's header, then its objects
	}
	var objects map[string]qpdfObject
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.QPDF) != 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	if err := json.Unmarshal(doc.QPDF[1], &objects); err != nil {
		t.Fatal(err)
	}
	return objects
}

// checkOutputIntent: the trailer names the catalog and information
// dictionary and counts the objects; the catalog has one output intent,
// GTS_PDFA1, with a consistent ICC profile, and its XMP metadata.
func checkOutputIntent(t *testing.T, objects map[string]qpdfObject) {
	t.Helper()
	trailer := objects["trailer"].dict()
	root, _ := trailer["/Root"].(string)
	infoDict, _ := trailer["/Info"].(string)
	size, _ := trailer["/Size"].(float64)
	count := 0
	for k := range objects {
		if strings.HasPrefix(k, "obj:") {
			count++
		}
	}
	if int(size) != count+1 {
		t.Errorf("the trailer's /Size is %v for %d objects", size, count)
	}
	if objects["obj:"+infoDict].dict()["/Producer"] == nil {
		t.Errorf("the trailer's /Info %q is not the information dictionary", infoDict)
	}
	catalog := objects["obj:"+root].dict()
	intents, _ := catalog["/OutputIntents"].([]any)
	if len(intents) != 1 {
		t.Fatalf("%d output intents in the catalog %v", len(intents), catalog)
	}
	intent, _ := intents[0].(map[string]any)
	if intent["/S"] != "/GTS_PDFA1" || intent["/DestOutputProfile"] == nil {
		t.Fatalf("output intent %v", intent)
	}
	profile := objects["obj:"+intent["/DestOutputProfile"].(string)].Stream
	if profile == nil || profile.Dict["/N"] != float64(3) {
		t.Fatalf("the intent's profile is not a three-component stream: %+v", profile)
	}
	checkICC(t, profile.Data)
	if _, ok := catalog["/Metadata"]; !ok {
		t.Error("the catalog has no /Metadata")
	}
}

// checkFontWidths: the widths each font dictionary states agree with its
// embedded program's advances (PDF/A-2 6.2.11.5), code by code (a simple
// font's Widths, through WinAnsi and the program's Unicode cmap) or CID by
// CID (a CID font's W, through its CIDToGIDMap), in thousandths of an em
// rounded; and a simple font's subset holds the glyphs of a document,
// not the whole font's 2,600. It returns, for each font, whether its
// program has a glyph for a character.
func checkFontWidths(t *testing.T, objects map[string]qpdfObject) []func(rune) bool {
	t.Helper()
	var glyphs []func(rune) bool
	ref := func(d map[string]any, key string) qpdfObject { s, _ := d[key].(string); return objects["obj:"+s] }
	fonts := 0
	for name, o := range objects {
		d := o.dict()
		if d["/Type"] != "/Font" || (d["/Subtype"] != "/TrueType" && d["/Subtype"] != "/CIDFontType2") {
			continue
		}
		fonts++
		desc := ref(d, "/FontDescriptor").dict()
		file := ref(desc, "/FontFile2").Stream
		if file == nil {
			t.Errorf("%s %v: no FontFile2", name, d["/BaseFont"])
			continue
		}
		program, err := sfnt.Parse(file.Data)
		if err != nil {
			t.Errorf("%s %v: the embedded program does not parse: %v", name, d["/BaseFont"], err)
			continue
		}
		var buf sfnt.Buffer
		upm := int(program.UnitsPerEm())
		advance := func(g sfnt.GlyphIndex) int {
			a, err := program.GlyphAdvance(&buf, g, fixed.I(upm), 0)
			if err != nil {
				t.Fatalf("%s: glyph %d: %v", name, g, err)
			}
			return (a.Round()*1000 + upm/2) / upm
		}
		widths := map[int]int{} // code or CID -> the dictionary's width
		gid := func(c int) sfnt.GlyphIndex { return 0 }
		if d["/Subtype"] == "/TrueType" {
			first, _ := d["/FirstChar"].(float64)
			w, _ := ref(d, "/Widths").Value.([]any)
			for i, v := range w {
				widths[int(first)+i] = int(v.(float64))
			}
			gid = func(c int) sfnt.GlyphIndex {
				g, _ := program.GlyphIndex(&buf, charmap.Windows1252.DecodeByte(byte(c)))
				return g
			}
			if program.NumGlyphs() > 200 {
				t.Errorf("%s %v: %d glyphs embedded: not a subset", name, d["/BaseFont"], program.NumGlyphs())
			}
		} else {
			m := ref(d, "/CIDToGIDMap").Stream
			if m == nil {
				t.Errorf("%s: no CIDToGIDMap stream", name)
				continue
			}
			gid = func(c int) sfnt.GlyphIndex {
				if 2*c+1 >= len(m.Data) {
					return 0
				}
				return sfnt.GlyphIndex(binary.BigEndian.Uint16(m.Data[2*c:]))
			}
			w, _ := d["/W"].([]any)
			for i := 0; i < len(w); {
				start := int(w[i].(float64))
				if list, ok := w[i+1].([]any); ok { // c [w1 w2 ...]
					for k, v := range list {
						widths[start+k] = int(v.(float64))
					}
					i += 2
					continue
				}
				for c := start; c <= int(w[i+1].(float64)); c++ { // first last w
					widths[c] = int(w[i+2].(float64))
				}
				i += 3
			}
		}
		if d["/Subtype"] == "/TrueType" {
			glyphs = append(glyphs, func(r rune) bool {
				code, ok := charmap.Windows1252.EncodeRune(r)
				return ok && gid(int(code)) != 0
			})
		} else {
			glyphs = append(glyphs, func(r rune) bool { return gid(int(r)) != 0 }) // fpdf's CIDs are code points
		}
		checked := 0
		for c, want := range widths {
			g := gid(c)
			if g == 0 {
				continue // a code no text uses: its glyph is not in the subset
			}
			checked++
			if got := advance(g); got != want {
				t.Errorf("%s %v: code %d's width is %d in the dictionary, %d in the program", name, d["/BaseFont"], c, want, got)
			}
		}
		if checked < 10 {
			t.Errorf("%s %v: only %d widths checked", name, d["/BaseFont"], checked)
		}
	}
	if fonts == 0 {
		t.Error("no TrueType fonts in the document")
	}
	return glyphs
}

// checkICC reads an ICC profile's header and tag table and requires them
// to be consistent: the declared size, the signature, an RGB display
// profile, and every tag inside the profile.
func checkICC(t *testing.T, p []byte) {
	t.Helper()
	if len(p) < 132 {
		t.Fatalf("ICC profile of %d bytes", len(p))
	}
	be := binary.BigEndian
	if int(be.Uint32(p)) != len(p) || string(p[36:40]) != "acsp" || string(p[12:16]) != "mntr" || string(p[16:20]) != "RGB " || string(p[20:24]) != "XYZ " {
		t.Fatalf("ICC header: size %d of %d, %q %q %q %q", be.Uint32(p), len(p), p[36:40], p[12:16], p[16:20], p[20:24])
	}
	n := int(be.Uint32(p[128:]))
	seen := map[string]bool{}
	for i := range n {
		e := p[132+12*i:]
		sig, off, size := string(e[:4]), int(be.Uint32(e[4:])), int(be.Uint32(e[8:]))
		if off%4 != 0 || off+size > len(p) || off < 132+12*n {
			t.Errorf("tag %s at %d+%d outside the profile of %d bytes", sig, off, size, len(p))
			continue
		}
		seen[sig] = true
	}
	for _, want := range []string{"desc", "cprt", "wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"} {
		if !seen[want] {
			t.Errorf("the profile lacks the %s tag a display profile needs", want)
		}
	}
}
