package documents

import (
	"path/filepath"
	"slices"
	"testing"

	"payline/domain"
)

// TestForgedCorpusSuspected: every forged file of the corpus, read by the
// reader and judged by the domain's checks as an upload is, is caught for
// the reason its truth names: suspected when that reason is evidence,
// needs_review when it is a doubt; the honest half of a pair
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
		// Evidence of tampering makes a forgery suspected; a forgery that
		// leaves only doubts (figures that do not add up, an editor's
		// trace, an odd EIN) goes to a person: never not_suspected.
		want := domain.FraudNeedsReview
		if domain.ReasonKind(f.truth.Fraud) == domain.ReasonEvidence {
			want = domain.FraudSuspected
		}
		if fraud.Status != want || !slices.Contains(codes, f.truth.Fraud) {
			t.Errorf("%s: fraud %s %v; want %s with %s", name, fraud.Status, fraud.Reasons, want, f.truth.Fraud)
			continue
		}
		kinds[f.truth.Fraud] = true
		t.Logf("%s: %s, %v", name, fraud.Status, fraud.Reasons)
	}
	if len(kinds) < 8 {
		t.Errorf("%d kinds of forgery caught, want every one of the eight", len(kinds))
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
