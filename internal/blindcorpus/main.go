// Command blindcorpus writes the blind half of the payroll documents corpus
// (testdata/documents/blind) from the written description in DESCRIPTION.md.
//
//	go run ./internal/blindcorpus            # from the module root; writes every document
//	go run ./internal/blindcorpus -only adp  # only documents whose name starts with adp
//
// Every figure is computed in integer cents by simulating each person's pay year period by
// period; the truths are checked to add up before anything is written. Tools (Chromium,
// LibreOffice, pdftoppm, ImageMagick, Ghostscript, qpdf) run one at a time under nice; their
// outputs are cached in /tmp/blindcorpus-cache by input.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type Doc struct {
	T    Truth
	Ext  string
	Make func() []byte
	// for checks: the simulated stubs behind each truth entry (nil for forgeries and non-stubs)
	src []*Stub
}

func main() {
	out := flag.String("out", "testdata/documents/blind", "output folder")
	only := flag.String("only", "", "only write documents whose name has this prefix")
	flag.BoolVar(&noCache, "nocache", false, "ignore the tool cache")
	flag.Parse()
	var err error
	tmpRoot, err = os.MkdirTemp("", "blindcorpus")
	if err != nil {
		fatalf("%v", err)
	}
	defer os.RemoveAll(tmpRoot)

	docs := corpus()
	if err := check(docs); err != nil {
		fatalf("check: %v", err)
	}
	os.MkdirAll(*out, 0o755)
	if *only == "" {
		// remove documents of earlier runs
		for _, ext := range []string{"*.pdf", "*.png", "*.jpg", "*.json"} {
			old, _ := filepath.Glob(filepath.Join(*out, ext))
			for _, f := range old {
				os.Remove(f)
			}
		}
	}
	type entry struct {
		Name   string `json:"name"`
		File   string `json:"file"`
		Layout string `json:"layout"`
		Medium string `json:"medium"`
		Kind   string `json:"kind"`
		Honest bool   `json:"honest"`
	}
	var index []entry
	for _, d := range docs {
		file := d.T.Name + "." + d.Ext
		index = append(index, entry{d.T.Name, file, d.T.Layout, d.T.Medium, d.T.Kind, d.T.Honest})
		if *only != "" && !strings.HasPrefix(d.T.Name, *only) {
			continue
		}
		b := d.Make()
		if err := os.WriteFile(filepath.Join(*out, file), b, 0o644); err != nil {
			fatalf("%v", err)
		}
		writeJSON(filepath.Join(*out, d.T.Name+".json"), d.T)
		fmt.Printf("%-28s %-18s %-12s %7d bytes\n", file, d.T.Layout, d.T.Medium, len(b))
	}
	if *only == "" {
		writeJSON(filepath.Join(*out, "index.json"), index)
		if rd := readme(docs); rd != "" {
			os.WriteFile(filepath.Join(*out, "README.md"), []byte(rd), 0o644)
		}
	}
}

func writeJSON(path string, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fatalf("%v", err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		fatalf("%v", err)
	}
}

// check verifies every honest truth: sums, and YTDs across each series.
func check(docs []*Doc) error {
	names := map[string]bool{}
	type sk struct {
		series string
		year   int
		idx    int
	}
	bySeries := map[sk]TStub{}
	for _, d := range docs {
		if names[d.T.Name] {
			return fmt.Errorf("duplicate name %s", d.T.Name)
		}
		names[d.T.Name] = true
		if d.T.Kind == "paystub" && len(d.T.Paystubs) == 0 {
			return fmt.Errorf("%s: no paystubs", d.T.Name)
		}
		if d.T.Kind == "w2" && d.T.W2 == nil {
			return fmt.Errorf("%s: no w2", d.T.Name)
		}
		if d.T.Honest != (d.T.Forgery == nil) {
			return fmt.Errorf("%s: honest flag and forgery disagree", d.T.Name)
		}
		if d.T.Kind == "w2" {
			if err := checkW2(d.T.Name, d.T.W2); err != nil {
				return err
			}
		}
		if !d.T.Honest {
			continue
		}
		for i, t := range d.T.Paystubs {
			if err := checkStub(d.T.Name, t); err != nil {
				return err
			}
			if i < len(d.src) && d.src[i] != nil {
				s := d.src[i]
				bySeries[sk{s.Job.Series, s.Pay.Year(), s.Idx}] = t
			}
		}
	}
	keys := make([]sk, 0, len(bySeries))
	for k := range bySeries {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].series != keys[j].series {
			return keys[i].series < keys[j].series
		}
		if keys[i].year != keys[j].year {
			return keys[i].year < keys[j].year
		}
		return keys[i].idx < keys[j].idx
	})
	for i := 1; i < len(keys); i++ {
		a, b := keys[i-1], keys[i]
		if a.series == b.series && a.year == b.year && a.idx+1 == b.idx {
			if err := checkSeries(b.series, bySeries[a], bySeries[b]); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkW2(name string, w *TW2) error {
	g := func(s *string) Cents {
		if s == nil {
			return 0
		}
		return parseC(*s)
	}
	b3, b4, b5, b6 := g(w.Box3), g(w.Box4), g(w.Box5), g(w.Box6)
	if b3 > ssBase2025 {
		return fmt.Errorf("%s: box 3 over the wage base", name)
	}
	if pct(b3+g(w.Box7), 620) != b4 {
		return fmt.Errorf("%s: box 4 is not 6.2%% of box 3", name)
	}
	if pct(b5, 145) != b6 {
		return fmt.Errorf("%s: box 6 is not 1.45%% of box 5", name)
	}
	var d Cents
	for _, c := range w.Box12 {
		if c.Code == "D" {
			d += parseC(c.Amount)
		}
	}
	if g(w.Box1) != b5-d {
		// box 1 = box 5 − deferrals (+ GTL is in both)
		return fmt.Errorf("%s: box 1 %s ≠ box 5 %s − D %s", name, *w.Box1, *w.Box5, d.plain())
	}
	return nil
}
