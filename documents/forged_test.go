package documents

import (
	"path/filepath"
	"slices"
	"testing"

	"payline/domain"
)

// TestForgedCorpusSuspected: every forged file of the corpus, read by the
// reader and judged by the domain's forgery checks as an upload is, is
// suspected with the reason its truth names; the honest half of a pair
// (stored first, as a user's earlier upload) is not. The checks run
// without a directory (an unknown employer alone is no reason): the
// corpus's unknown employer prints an EIN the IRS never issues.
func TestForgedCorpusSuspected(t *testing.T) {
	r := NewReader()
	files := loadCorpus(t, "forged")
	byName := map[string]corpusFile{}
	for _, f := range files {
		byName[filepath.Base(f.path)] = f
	}
	kinds := map[string]bool{}
	for _, f := range files {
		if f.truth.Fraud == "" {
			continue // the honest half of a pair: judged with its forged half below
		}
		name := filepath.Base(f.path)
		got := readCorpusFile(t, r, f)
		reasons := domain.CheckDocument(got.Data, got.File, domain.EmployerFacts{})
		if f.truth.Pair != "" {
			pair, ok := byName[f.truth.Pair]
			if !ok {
				t.Fatalf("%s: its pair %s is not in the corpus", name, f.truth.Pair)
			}
			honest := readCorpusFile(t, r, pair)
			if own := domain.CheckDocument(honest.Data, honest.File, domain.EmployerFacts{}); len(own) > 0 {
				t.Errorf("%s, the honest half of %s, is suspected alone: %v", f.truth.Pair, name, own)
			}
			series := domain.CheckSeries([]domain.SeriesStub{
				{DocumentID: f.truth.Pair, Stub: *honest.Data.Paystub},
				{DocumentID: name, New: true, Stub: *got.Data.Paystub},
			})
			reasons = append(reasons, series[name]...)
		}
		fraud := domain.FraudOf(got.Data.Read(), reasons)
		codes := make([]string, len(fraud.Reasons))
		for i, rs := range fraud.Reasons {
			codes[i] = rs.Code
		}
		if fraud.Status != domain.FraudSuspected || !slices.Contains(codes, f.truth.Fraud) {
			t.Errorf("%s: fraud %s %v; want suspected with %s", name, fraud.Status, fraud.Reasons, f.truth.Fraud)
			continue
		}
		kinds[f.truth.Fraud] = true
		t.Logf("%s: suspected, %v", name, fraud.Reasons)
	}
	if len(kinds) < 5 {
		t.Errorf("%d kinds of forgery caught, want every one of at least five", len(kinds))
	}
}

// TestHonestCorpusNotSuspected: no stub of the dev and held-out parts,
// each checked alone, is suspected: the checks do not cry wolf on the
// layouts the reader reads.
func TestHonestCorpusNotSuspected(t *testing.T) {
	r := NewReader()
	for _, part := range []string{"dev", "heldout"} {
		for _, f := range loadCorpus(t, part) {
			if f.picture() {
				requireOCR(t, r)
			}
			got := readCorpusFile(t, r, f)
			if reasons := domain.CheckDocument(got.Data, got.File, domain.EmployerFacts{}); len(reasons) > 0 {
				t.Errorf("%s/%s: suspected %v", part, filepath.Base(f.path), reasons)
			}
		}
	}
}
