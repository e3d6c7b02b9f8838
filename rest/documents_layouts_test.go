package rest

import (
	"cmp"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// layoutFiles are issue 40's end-to-end upload: paystubs of three layouts
// made by three means (fpdf, Chromium, LibreOffice), a phone picture
// (read by OCR) and a forged stub, from the corpus (testdata/documents),
// each of another employer, with the truth the corpus keeps beside each.
var layoutFiles = []string{"dev/fpdf-classic-01.pdf", "dev/html-cards-01.pdf", "dev/writer-advice-02.pdf", "dev/scan-classic-01.png", "forged/arithmetic.pdf"}

// corpusTruth is what testdata/documents says a file prints.
type corpusTruth struct {
	Employer string `json:"employer"`
	PayDate  string `json:"pay_date"`
	Gross    int64  `json:"gross"`
	Net      int64  `json:"net"`
	GrossYTD int64  `json:"gross_ytd"`
	NetYTD   int64  `json:"net_ytd"`
	Fraud    string `json:"fraud"`
}

// TestDocumentsOfManyLayouts, on both databases: an end user uploads the
// layoutFiles through Link; each file's figures are in parsed_data to the
// cent; the forged one is not counted (needs_review or suspected) with
// the reason its truth names (a sum that does not add up is a doubt, not
// evidence), no honest one is suspected; and the VOIE is built from the
// documents that count, each an employment sourced from its document,
// every other left out with its status as the reason and raised as a
// point to review naming it.
func TestDocumentsOfManyLayouts(t *testing.T) {
	for _, tool := range []string{"pdftotext", "tesseract"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; CI installs poppler-utils and tesseract-ocr (.ci/run)", tool)
			}
			t.Skipf("%s is not installed: uploads of other layouts are not read", tool)
		}
	}
	var files []uploadFile
	truths := map[string]corpusTruth{}
	for _, name := range layoutFiles {
		path := filepath.Join("..", "testdata", "documents", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path[:len(path)-len(filepath.Ext(path))] + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var truth corpusTruth
		if err := json.Unmarshal(raw, &truth); err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(name)
		truths[base] = truth
		files = append(files, uploadFile{base, data})
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "layouts", "required_jobs": ["paystubs"]}`)
		if status, out := f.upload(token, "paystub", files...); status != 200 || out["submitted"] != float64(len(files)) {
			t.Fatalf("upload: %d %v", status, out)
		}
		var valid []string
		forged, leftOut := "", map[string]string{} // left out: id to status
		for _, d := range f.get("/v1/end_users/layouts/documents").list(t) {
			name := d["file_name"].(string)
			truth := truths[name]
			pd, _ := d["parsed_data"].(map[string]any)
			for field, want := range map[string]any{"employer_name": truth.Employer, "pay_date": truth.PayDate,
				"gross_pay_amount": float64(truth.Gross), "net_pay_amount": float64(truth.Net),
				"gross_pay_ytd": float64(truth.GrossYTD), "net_pay_ytd": float64(truth.NetYTD)} {
				if pd[field] != want {
					t.Errorf("%s: parsed_data.%s = %v, want %v", name, field, pd[field], want)
				}
			}
			fraud := d["fraud"].(map[string]any)
			var codes []string
			reasons, _ := fraud["reasons"].([]any)
			for _, r := range reasons {
				codes = append(codes, r.(map[string]any)["code"].(string))
			}
			switch {
			case truth.Fraud == "" && fraud["status"] == domain.FraudSuspected:
				t.Errorf("%s: an honest stub is suspected: %v", name, fraud)
			case truth.Fraud != "" && (fraud["status"] == domain.FraudNotSuspected || !slices.Contains(codes, truth.Fraud)):
				t.Errorf("%s: fraud %v, want it not counted, with %s", name, fraud, truth.Fraud)
			case truth.Fraud != "":
				forged = d["id"].(string)
			}
			if fraud["status"] == domain.FraudNotSuspected {
				valid = append(valid, d["id"].(string))
			} else {
				leftOut[d["id"].(string)] = cmp.Or(map[any]string{domain.FraudUnavailable: domain.ExcludedUnread}[fraud["status"]], fraud["status"].(string))
			}
		}
		if forged == "" || leftOut[forged] == "" {
			t.Fatalf("the forged stub %q is not left out (%v)", forged, leftOut)
		}

		voie := f.get("/v1/end_users/layouts/verification_reports/voie").data(t)
		var used []string
		for _, e := range voie["employments"].([]any) {
			src := e.(map[string]any)["source"].(map[string]any)
			if src["type"] != "documents" {
				t.Errorf("an employment sourced from %v, want documents", src["type"])
			}
			for _, id := range src["document_ids"].([]any) {
				used = append(used, id.(string))
			}
		}
		slices.Sort(used)
		slices.Sort(valid)
		if !slices.Equal(used, valid) {
			t.Errorf("the VOIE reads documents %v, want the valid ones %v", used, valid)
		}
		excluded := map[string]string{}
		for _, x := range voie["excluded_documents"].([]any) {
			x := x.(map[string]any)
			excluded[x["document_id"].(string)] = x["reason"].(string)
		}
		if !maps.Equal(excluded, leftOut) {
			t.Errorf("excluded_documents %v, want those not counted, by their status: %v", excluded, leftOut)
		}
		raised := map[string]bool{}
		for _, fl := range voie["flags"].([]any) {
			fl := fl.(map[string]any)
			if ids, _ := fl["document_ids"].([]any); fl["code"] == domain.FlagDocumentSetAside && len(ids) == 1 {
				raised[ids[0].(string)] = true
				if msg := fl["message"].(string); !strings.Contains(msg, "set aside: ") || strings.Contains(strings.ToLower(msg), "suspect") {
					t.Errorf("a point to review of an upload set aside: %s", msg)
				}
			}
		}
		for id := range leftOut {
			if !raised[id] {
				t.Errorf("document %s is left out but raised as no point to review: %v", id, voie["flags"])
			}
		}
	})
}
