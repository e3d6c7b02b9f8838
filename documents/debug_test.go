package documents

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"payline/domain"
)

// TestDebugRead prints how the reader lays out and reads one file, for a
// person tuning it: PAYLINE_DOC_DEBUG=path/to/file go test ./documents
// -run TestDebugRead -v. Without the variable it is skipped.
func TestDebugRead(t *testing.T) {
	path := os.Getenv("PAYLINE_DOC_DEBUG")
	if path == "" {
		t.Skip("PAYLINE_DOC_DEBUG names no file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ct := http.DetectContentType(data)
	ct, _, _ = strings.Cut(ct, ";")
	r := NewReader()
	docType := domain.DocumentPaystub
	if strings.Contains(strings.ToLower(path), "w2") {
		docType = domain.DocumentW2
	}
	if os.Getenv("PAYLINE_DOC_TYPE") != "" {
		docType = os.Getenv("PAYLINE_DOC_TYPE")
	}
	dir := t.TempDir()
	var src source
	if ct == "application/pdf" {
		src, _, _, _, err = r.readPDF(context.Background(), dir, docType, data)
	} else {
		var words []word
		var size [2]float64
		words, size, err = r.ocrPicture(context.Background(), dir, data, 1, docType)
		src = source{doc: buildLayout(words, ocrGap), ocr: true}
		src.doc.sizes = map[int][2]float64{1: size}
	}
	if err != nil {
		t.Fatal(err)
	}
	in := &interpreter{doc: src.doc, ocr: src.ocr}
	for li, l := range src.doc.lines {
		var cells []string
		for _, p := range l.phrases {
			lab := ""
			if p.label != fieldNone {
				lab = fmt.Sprintf("<%d>", p.label)
			}
			cells = append(cells, fmt.Sprintf("%s%s@%.0f", lab, p.text, p.x0))
		}
		t.Logf("%3d p%d y%.0f | %s", li, l.page, l.y0, strings.Join(cells, " | "))
	}
	for _, tb := range in.tables() {
		t.Logf("table header=%d kind=%d x=[%.0f,%.0f) cols=%v", tb.header, tb.kind, tb.x0, tb.x1, tb.cols)
		for _, r := range tb.rows {
			show := func(f *figure) string {
				if f == nil {
					return "-"
				}
				return f.text
			}
			t.Logf("   row %d kind=%d %q total=%v label=%d cur=%s ytd=%s hours=%s rate=%s", r.line, r.kind, r.name, r.total, r.label, show(r.cur), show(r.ytd), show(r.hours), show(r.rate))
		}
	}
	rs := in.labelReadings(in.tables())
	for _, c := range rs.money {
		t.Logf("money field=%d ytd=%v %d w=%.2f line=%d", c.field, c.ytd, c.cents, c.weight, c.at.line)
	}
	for _, d := range rs.dates {
		t.Logf("date field=%d %v w=%.2f", d.field, d.dates, d.weight)
	}
	for _, x := range rs.texts {
		t.Logf("text field=%d %q w=%.2f", x.field, x.text, x.weight)
	}
	got, err := r.ParseUpload(context.Background(), docType, ct, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range got {
		t.Logf("read: %s", mustJSON(g.Data))
		t.Logf("doubts: %+v refusal=%q warnings=%d mismatches=%+v", g.Doubts, g.Refusal, len(g.Warnings), g.File.Mismatches)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
