package reports_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"payline/domain"
	"payline/reports"
)

// TestPDFA checks the rules of PDF/A-2b that the tools here can check, on
// the embedded-font path (no PDF/A validator installs from Debian or npm):
// every font embedded (pdffonts); an XMP packet that parses, says part 2
// conformance B and agrees with the information dictionary (pdfinfo); an
// output intent GTS_PDFA1 with a three-component ICC profile whose header
// and tag table are consistent (qpdf --json); a file identifier in the
// trailer; no encryption; a binary comment in the header. The Helvetica
// path claims none of it and must not carry the XMP claim.
func TestPDFA(t *testing.T) {
	tools := map[string]string{"qpdf": tool(t, "qpdf", "qpdf"), "pdffonts": poppler(t, "pdffonts"), "pdfinfo": poppler(t, "pdfinfo")}
	voie, src := goldenReport(domain.ReportVOIE)
	wide := voie
	wide.Employee.Name.FullName = "Łukasz Wróbel & <Sons>"
	pdf, err := reports.RenderVerification(wide, src)
	if err != nil {
		t.Fatal(err)
	}
	path := writePDF(t, "voie-embedded.pdf", pdf)
	run := func(tool string, args ...string) string {
		out, err := exec.Command(tools[tool], append(args, path)...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", tool, args, err, out)
		}
		return string(out)
	}

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
	if check := run("qpdf", "--check"); !strings.Contains(check, "No syntax or stream encoding errors found") || strings.Contains(strings.ToLower(check), "warning") {
		t.Errorf("qpdf --check:\n%s", check)
	}

	fonts := strings.Split(strings.TrimSpace(run("pdffonts")), "\n")
	if len(fonts) < 3 {
		t.Fatalf("pdffonts found no fonts:\n%s", strings.Join(fonts, "\n"))
	}
	for _, line := range fonts[2:] {
		if f := strings.Fields(line); len(f) < 5 || !slicesContainsYesAt(f) {
			t.Errorf("a font not embedded: %s", line)
		}
	}

	// The XMP packet and the information dictionary agree.
	var meta struct {
		Part, Conformance, Keywords, Producer, CreatorTool, CreateDate string
		Title                                                          string `xml:"RDF>Description>title>Alt>li"`
		Description                                                    string `xml:"RDF>Description>description>Alt>li"`
		Creator                                                        string `xml:"RDF>Description>creator>Seq>li"`
	}
	raw := run("pdfinfo", "-meta")
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
	for _, line := range strings.Split(run("pdfinfo", "-isodates"), "\n") {
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
		if pair[0] == "" || pair[0] != pair[1] {
			t.Errorf("%s: XMP %q, information dictionary %q", k, pair[0], pair[1])
		}
	}
	if !strings.Contains(info["Subject"], "Łukasz Wróbel & <Sons>") {
		t.Errorf("the subject %q lost the name's characters", info["Subject"])
	}

	// The output intent and its ICC profile.
	out, err := exec.Command(tools["qpdf"], "--json=2", "--json-key=qpdf", "--decode-level=all", "--json-stream-data=inline", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		QPDF []json.RawMessage `json:"qpdf"` // the file's header, then its objects
	}
	var objects map[string]struct {
		Value  map[string]any `json:"value"`
		Stream *struct {
			Dict map[string]any `json:"dict"`
			Data []byte         `json:"data"`
		} `json:"stream"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.QPDF) != 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	if err := json.Unmarshal(doc.QPDF[1], &objects); err != nil {
		t.Fatal(err)
	}
	var root, infoDict string
	var size float64
	if tr, ok := objects["trailer"]; ok {
		root, _ = tr.Value["/Root"].(string)
		infoDict, _ = tr.Value["/Info"].(string)
		size, _ = tr.Value["/Size"].(float64)
	}
	count := 0
	for k := range objects {
		if strings.HasPrefix(k, "obj:") {
			count++
		}
	}
	if int(size) != count+1 {
		t.Errorf("the trailer's /Size is %v for %d objects", size, count)
	}
	if objects["obj:"+infoDict].Value["/Producer"] == nil {
		t.Errorf("the trailer's /Info %q is not the information dictionary", infoDict)
	}
	catalog := objects["obj:"+root].Value
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

	// The Helvetica path makes no such claim.
	plain, err := reports.RenderVerification(voie, src)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("pdfaid")) || bytes.Contains(plain, []byte("/OutputIntents")) {
		t.Error("the Helvetica path claims PDF/A, which its unembedded font rules out")
	}
}

func slicesContainsYesAt(fields []string) bool {
	// pdffonts: name type encoding emb sub uni object ID; the name may
	// hold no spaces, the type may ("CID TrueType"): count from the end.
	return len(fields) >= 7 && fields[len(fields)-5] == "yes"
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
