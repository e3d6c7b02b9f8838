// Command wildgen writes the development half of the "documents in the
// wild" corpus (testdata/documents/wild): paystubs in the style of many
// payroll providers, odd shapes, pictures (phone photos, scans, faxes),
// W-2s, documents that are not paystubs, and forgeries, each file beside
// its truth in JSON (testdata/documents/blind/TRUTH.md). Every person,
// employer and figure is invented; the figures hold together.
//
// It is run by hand from the repository's root, never by tests:
//
//	go run ./documents/internal/wildgen
//
// It needs chromium, soffice (LibreOffice Writer), pdftoppm, ImageMagick's
// convert, gs, qpdf and the handwriting fonts of fonts-dkg-handwriting
// and fonts-breip. The seed is fixed: the same run
// writes the same documents, except where Chromium's or LibreOffice's own
// bytes change with their versions.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var outDir = filepath.Join("testdata", "documents", "wild")

// Layout draws a stub.
type Layout struct {
	Name, Means string
	View        func(Stub) View
	Render      func(Stub, View) []byte
}

type IndexEntry struct {
	Name   string `json:"name"`
	File   string `json:"file"`
	Layout string `json:"layout"`
	Medium string `json:"medium"`
	Kind   string `json:"kind"`
	Honest bool   `json:"honest"`
}

var index []IndexEntry

func main() {
	only := ""
	if len(os.Args) > 1 {
		only = os.Args[1] // a prefix of names: regenerate those only, for looking at a layout
	}
	var err error
	work, err = os.MkdirTemp("", "wildgen-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(work)
	if only == "" {
		must(os.RemoveAll(outDir))
	}
	must(os.MkdirAll(outDir, 0o755))
	filter = only
	plan()
	if only != "" {
		return
	}
	sort.Slice(index, func(a, b int) bool { return index[a].Name < index[b].Name })
	b, _ := json.MarshalIndent(index, "", "  ")
	must(os.WriteFile(filepath.Join(outDir, "index.json"), append(b, '\n'), 0o644))
	writeReadme()
}

var filter string

// emit writes a document and its truth.
func emit(t Truth, ext string, data []byte) {
	file := t.Name + "." + ext
	must(os.WriteFile(filepath.Join(outDir, file), data, 0o644))
	b, err := json.MarshalIndent(t, "", "  ")
	must(err)
	must(os.WriteFile(filepath.Join(outDir, t.Name+".json"), append(b, '\n'), 0o644))
	limit := 300 << 10
	if ext != "pdf" {
		limit = 700 << 10
	}
	if len(data) > limit {
		log.Printf("WARNING %s is %d KB", file, len(data)>>10)
	}
	index = append(index, IndexEntry{Name: t.Name, File: file, Layout: t.Layout, Medium: t.Medium, Kind: t.Kind, Honest: t.Honest})
	log.Printf("%-34s %-14s %6d KB", file, t.Medium, len(data)>>10)
}

func want(name string) bool { return filter == "" || strings.HasPrefix(name, filter) }

// Media: how a drawn PDF reaches the reader.
const (
	Text      = "text"
	Outline   = "outline"
	Photo     = "photo"     // JPEG, 150-200 dpi of paper
	Scan200   = "scan200"   // PNG, gray, 200 dpi
	Scan300   = "scan300"   // JPEG, gray, 300 dpi
	ImgPDF200 = "imgpdf200" // image-only PDF, gray JPEG, 200 dpi
	ImgPDF300 = "imgpdf300" // image-only PDF, black and white (G4), 300 dpi
	Fax196    = "fax196"    // 1-bit, 204 × 196, Group 4 in a PDF
	Fax98     = "fax98"     // 1-bit, 204 × 98
)

// apply turns the drawn PDF into the medium: the file's bytes, extension,
// truth medium and how it was made.
func apply(med string, pdf []byte, seed uint64, created time.Time, faxFrom string) (string, []byte, string, string) {
	switch med {
	case Text:
		return "pdf", pdf, "text_pdf", ""
	case Outline:
		return "pdf", outlines(pdf), "outline_pdf", ", then its text redrawn as outlines (gs -dNoOutputFonts)"
	case Photo:
		dpi := 150 + int(seed%6)*10
		return "jpg", photo(pdf, dpi, seed), "photo", fmt.Sprintf(", then photographed (pdftoppm at %d dpi; ImageMagick: on a table, turned, perspective, shadow, blur, noise; JPEG)", dpi)
	case Scan200:
		return "png", scan(pdf, 200, seed, "png"), "scan", ", then scanned (pdftoppm at 200 dpi, gray; ImageMagick: turned, softened, noise; PNG)"
	case Scan300:
		return "jpg", scan(pdf, 300, seed, "jpg"), "scan", ", then scanned (pdftoppm at 300 dpi, gray; ImageMagick: turned, softened, noise; JPEG)"
	case ImgPDF200:
		return "pdf", scanPDF(pdf, 200, seed, false, created), "image_pdf", ", then scanned to an image-only PDF (200 dpi gray JPEG)"
	case ImgPDF300:
		return "pdf", scanPDF(pdf, 300, seed, true, created), "image_pdf", ", then scanned to an image-only PDF (300 dpi black and white, Group 4)"
	case Fax196, Fax98:
		ry := 196
		if med == Fax98 {
			ry = 98
		}
		hdr := strings.ToUpper(created.AddDate(0, 0, 9).Format("Jan 02 2006 03:04PM")) + "  FROM: " + faxFrom
		return "pdf", fax(pdf, ry, seed, hdr, created), "fax", fmt.Sprintf(", then faxed (1-bit, 204 x %d dpi, Group 4 in a PDF)", ry)
	}
	panic(med)
}

// stubDoc writes one paystub drawn in a layout and carried by a medium.
func stubDoc(name string, l Layout, s Stub, med, series string) {
	if !want(name) {
		return
	}
	v := l.View(s)
	pdf := l.Render(s, v)
	seed := seedOf(name)
	ext, data, medium, how := apply(med, pdf, seed, s.PayDate, strings.ToUpper(s.Job.Emp.Code)+" PAYROLL "+s.Job.Emp.Phone)
	t := Truth{Name: name, Layout: l.Name, MadeBy: l.Means + how, Medium: medium, Kind: "paystub", Honest: true,
		Paystubs: []TStub{truthStub(s, v, 1)}}
	if series != "" {
		t.Series = sp(series)
	}
	emit(t, ext, data)
}

func seedOf(name string) uint64 {
	var h uint64 = 1469598103934665603
	for _, c := range name {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h % 1_000_000_007
}

var sitRates = map[string]int64{"IL": 495, "MA": 500, "CO": 440, "GA": 539, "IN": 300, "KY": 400, "MI": 425, "CA": 610, "MN": 535,
	"NY": 585, "PA": 307, "AZ": 250, "TN": 0, "OR": 875, "MD": 475}

// newJob invents a job: an employer of the list, a person, their pay.
func newJob(seed uint64, emp int, kind, freq string, year int) *Job {
	r := rand.New(rand.NewPCG(seed, 2026))
	e := employers[emp%len(employers)]
	j := &Job{Emp: e, P: newPerson(r, emp), Kind: kind, Freq: freq, Year: year, seed: seed,
		Bonus: map[int]int64{}, RSU: map[int]int64{}}
	j.Rate = int64(1800+2*r.IntN(1500)) * 100 // even cents, $18.00-$47.98
	j.Annual = int64(4_800_000 + 1000*r.IntN(9000))
	if kind == "salary" {
		j.Rate = j.Annual * 100 / 2080
	}
	j.SITRate = sitRates[e.State]
	j.SDI = e.State == "CA"
	j.Pct401k = int64(r.IntN(7))
	j.Medical = int64(4000 + r.IntN(9000))
	if r.IntN(2) == 0 {
		j.Dental = int64(600 + r.IntN(1400))
	}
	j.Match = r.IntN(2) == 0 && j.Pct401k > 0
	j.ERHealth = int64(20000 + r.IntN(30000))
	j.Dept = []string{"Operations", "Finance", "Clinical", "Warehouse", "Sales", "Engineering", "Front of House", "Facilities"}[r.IntN(8)]
	j.Title = []string{"Coordinator", "Analyst II", "Technician", "Associate", "Specialist", "Supervisor"}[r.IntN(6)]
	j.Location = e.City
	d := 2 + r.IntN(7)
	j.FirstEnd = time.Date(year, 1, d, 0, 0, 0, 0, time.UTC)
	if freq == "biweekly" {
		j.FirstEnd = j.FirstEnd.AddDate(0, 0, 7)
	}
	return j
}

func writeReadme() {
	layouts := map[string]map[string]int{}
	media := map[string]bool{}
	kinds := map[string]int{}
	for _, e := range index {
		if layouts[e.Layout] == nil {
			layouts[e.Layout] = map[string]int{}
		}
		layouts[e.Layout][e.Medium]++
		media[e.Medium] = true
		kinds[e.Kind]++
	}
	var ls, ms []string
	for l := range layouts {
		ls = append(ls, l)
	}
	for m := range media {
		ms = append(ms, m)
	}
	sort.Strings(ls)
	sort.Strings(ms)
	var b strings.Builder
	b.WriteString(readmeHead)
	fmt.Fprintf(&b, "\n## What is here\n\n%d documents:", len(index))
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for i, k := range ks {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d %s", kinds[k], k)
	}
	b.WriteString(".\n\n| layout | " + strings.Join(ms, " | ") + " | total |\n|---|" + strings.Repeat("---|", len(ms)+1) + "\n")
	for _, l := range ls {
		fmt.Fprintf(&b, "| %s |", l)
		t := 0
		for _, m := range ms {
			n := layouts[l][m]
			t += n
			if n == 0 {
				b.WriteString("  |")
			} else {
				fmt.Fprintf(&b, " %d |", n)
			}
		}
		fmt.Fprintf(&b, " %d |\n", t)
	}
	b.WriteString("\n## Layouts\n\n")
	for _, l := range ls {
		fmt.Fprintf(&b, "- **%s**: %s\n", l, layoutNotes[l])
	}
	b.WriteString("\n## Forgeries\n\n| file | method | evidence | changed | note |\n|---|---|---|---|---|\n")
	for _, f := range forgeryRows {
		b.WriteString(f + "\n")
	}
	must(os.WriteFile(filepath.Join(outDir, "README.md"), []byte(b.String()), 0o644))
}

var (
	layoutNotes = map[string]string{}
	forgeryRows []string
)
