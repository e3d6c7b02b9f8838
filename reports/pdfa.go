package reports

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// Every document is PDF/A-2b. Its fonts are all embedded, with widths
// that agree with their programs (fonts.go, simple_fonts.go); it also
// carries what PDF/A-2b asks beyond that and fpdf leaves out by default:
// an XMP metadata packet that says the part and conformance and repeats
// the information dictionary, an sRGB output intent with its ICC
// profile, and a file identifier in the trailer. TestPDFA checks each of
// these on every kind of document.

// pdfaConformance gives the document PDF/A-2b's XMP packet; pdfaFinish
// adds the rest to the written file.
func pdfaConformance(f *fpdf.Fpdf, m pdfMeta, created time.Time) {
	f.SetXmpMetadata(xmpPacket(m, created))
}

// xmpPacket is the document's XMP metadata: PDF/A part 2, conformance B,
// and the same title, subject, author, keywords, tools and dates as the
// information dictionary fpdf writes (PDF/A requires the two to agree).
func xmpPacket(m pdfMeta, created time.Time) []byte {
	esc := func(s string) string {
		var b strings.Builder
		// EscapeText fails only when its writer does, and a
		// strings.Builder never does.
		_ = xml.EscapeText(&b, []byte(s))
		return b.String()
	}
	// fpdf writes the dates as D:YYYYMMDDHHmmSS, without a zone; XMP's
	// form of the same instant, also without one.
	date := created.Format("2006-01-02T15:04:05")
	return []byte(`<?xpacket begin="` + "\ufeff" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/">
   <pdfaid:part>2</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">` + esc(m.Title) + `</rdf:li></rdf:Alt></dc:title>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">` + esc(m.Subject) + `</rdf:li></rdf:Alt></dc:description>
   <dc:creator><rdf:Seq><rdf:li>Payline</rdf:li></rdf:Seq></dc:creator>
   <pdf:Keywords>` + esc(strings.Join(m.Keywords, ", ")) + `</pdf:Keywords>
   <pdf:Producer>Payline</pdf:Producer>
   <xmp:CreatorTool>Payline</xmp:CreatorTool>
   <xmp:CreateDate>` + date + `</xmp:CreateDate>
   <xmp:ModifyDate>` + date + `</xmp:ModifyDate>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>`)
}

// pdfaFinish adds to a document fpdf wrote what PDF/A asks beyond its
// fonts and XMP packet, and writes it: the output intent (sRGB, its
// profile compressed once a process rather than by fpdf for every
// document) and the file identifier, two copies of a digest of the
// document, so the same bytes give the same id. It checks that the
// trailer's /Info names the information dictionary, which fpdf (v0.12.0)
// gets wrong when it writes output intents itself. TestPDFA reads all of
// it back.
func pdfaFinish(f *pdfFile) ([]byte, error) {
	catalog, err := f.find("<<\n/Type /Catalog\n")
	if err != nil {
		return nil, err
	}
	info, err := f.find("<<\n/Producer ")
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(f.trailer, fmt.Appendf(nil, "\n/Info %d 0 R\n", info)) {
		return nil, fmt.Errorf("reports: the PDF's trailer does not name its information dictionary, object %d", info)
	}
	profile := f.add(iccStream())
	obj := f.objects[catalog]
	at := bytes.Index(obj, []byte("/Type /Catalog\n")) + len("/Type /Catalog\n")
	f.objects[catalog] = slices.Concat(obj[:at], fmt.Appendf(nil, "/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1 "+
		"/OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /DestOutputProfile %d 0 R >>]\n", profile), obj[at:])

	pdf := f.bytes()
	i := bytes.LastIndex(pdf, []byte("\ntrailer\n<<\n")) + len("\ntrailer\n<<\n")
	sum := sha256.Sum256(pdf)
	id := hex.EncodeToString(sum[:16])
	return slices.Concat(pdf[:i], []byte("/ID [<"+id+"> <"+id+">]\n"), pdf[i:]), nil
}

// iccStream is the output intent's profile as a PDF stream object's body.
var iccStream = sync.OnceValue(func() []byte {
	z := deflateOnce(srgbProfile())
	out := fmt.Appendf(nil, "<< /N 3 /Alternate /DeviceRGB /Length %d /Filter /FlateDecode >>\nstream\n", len(z))
	return append(append(out, z...), "\nendstream"...)
})

// srgbProfile is an ICC (version 2.1) display profile of sRGB, written
// here from the standard's published values rather than copied from a
// vendor's file: D50-adapted primaries (Bradford, as ICC profiles state
// them), the D50 white point, and the sRGB transfer curve sampled at 1024
// points. It is the destination profile of the output intent.
var srgbProfile = sync.OnceValue(func() []byte {
	s15 := func(v float64) uint32 { return uint32(int32(math.Round(v * 65536))) }
	xyz := func(x, y, z float64) []byte {
		b := make([]byte, 20)
		copy(b, "XYZ ")
		binary.BigEndian.PutUint32(b[8:], s15(x))
		binary.BigEndian.PutUint32(b[12:], s15(y))
		binary.BigEndian.PutUint32(b[16:], s15(z))
		return b
	}
	curve := func() []byte {
		const n = 1024
		b := make([]byte, 12+2*n)
		copy(b, "curv")
		binary.BigEndian.PutUint32(b[8:], n)
		for i := range n {
			v := float64(i) / (n - 1)
			if v <= 0.04045 {
				v /= 12.92
			} else {
				v = math.Pow((v+0.055)/1.055, 2.4)
			}
			binary.BigEndian.PutUint16(b[12+2*i:], uint16(math.Round(v*65535)))
		}
		return b
	}()
	desc := func(s string) []byte {
		b := make([]byte, 12+len(s)+1+4+4+2+1+67)
		copy(b, "desc")
		binary.BigEndian.PutUint32(b[8:], uint32(len(s)+1))
		copy(b[12:], s)
		return b
	}
	text := func(s string) []byte {
		b := make([]byte, 8+len(s)+1)
		copy(b, "text")
		copy(b[8:], s)
		return b
	}
	type tag struct {
		sig  string
		data []byte
	}
	tags := []tag{
		{"desc", desc("sRGB IEC61966-2.1")},
		{"cprt", text("No copyright: written by Payline from IEC 61966-2-1's values")},
		{"wtpt", xyz(0.9642, 1.0, 0.8249)},
		{"rXYZ", xyz(0.4361, 0.2225, 0.0139)},
		{"gXYZ", xyz(0.3851, 0.7169, 0.0971)},
		{"bXYZ", xyz(0.1431, 0.0606, 0.7141)},
		{"rTRC", curve}, {"gTRC", curve}, {"bTRC", curve},
	}
	pad := func(n int) int { return (n + 3) &^ 3 }
	tableEnd := 128 + 4 + 12*len(tags)
	var body []byte
	offsets := map[*byte]int{} // the three curves share one copy
	table := make([]byte, 4+12*len(tags))
	binary.BigEndian.PutUint32(table, uint32(len(tags)))
	for i, t := range tags {
		off, shared := offsets[&t.data[0]]
		if !shared {
			off = tableEnd + len(body)
			offsets[&t.data[0]] = off
			body = append(body, t.data...)
			body = append(body, make([]byte, pad(len(t.data))-len(t.data))...)
		}
		e := table[4+12*i:]
		copy(e, t.sig)
		binary.BigEndian.PutUint32(e[4:], uint32(off))
		binary.BigEndian.PutUint32(e[8:], uint32(len(t.data)))
	}
	header := make([]byte, 128)
	binary.BigEndian.PutUint32(header[0:], uint32(tableEnd+len(body)))
	binary.BigEndian.PutUint32(header[8:], 0x02100000) // version 2.1
	copy(header[12:], "mntr")
	copy(header[16:], "RGB ")
	copy(header[20:], "XYZ ")
	for i, v := range []uint16{2026, 1, 1, 0, 0, 0} { // a fixed date: the profile never changes
		binary.BigEndian.PutUint16(header[24+2*i:], v)
	}
	copy(header[36:], "acsp")
	binary.BigEndian.PutUint32(header[68:], s15(0.9642)) // the PCS illuminant, D50
	binary.BigEndian.PutUint32(header[72:], s15(1.0))
	binary.BigEndian.PutUint32(header[76:], s15(0.8249))
	out := append(header, table...)
	return append(out, body...)
})
