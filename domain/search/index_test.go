package search_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/domain/search"
)

func employer(name string, jobs ...domain.JobType) domain.Employer {
	return domain.Employer{ID: domain.NewID(), Name: name, PlatformID: "p", SupportedJobs: jobs}
}

func resultNames(rs []domain.SearchResult) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		if r.Employer != nil {
			out[i] = r.Employer.Name
		} else {
			out[i] = r.Platform.Name
		}
	}
	return out
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"AT&T":               "at t",
		"Macy's":             "macys",
		"  Wal--Mart  Inc. ": "wal mart inc",
		"Café Zoë":           "café zoë",
		"!!!":                "",
		"O’Malley":           "omalley",
	} {
		if got := search.Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSearchRanksTiers(t *testing.T) {
	idx := search.New([]domain.Employer{
		employer("Bank of Ohio"),
		employer("Bankside Grocers"),
		employer("First Bank"),
		employer("Riverbank Foods"),
		employer("BANK"),
		employer("Unrelated Co"),
	}, nil)
	got := resultNames(idx.Search(domain.SearchQuery{Q: "bank", Limit: 10}))
	want := []string{"BANK", "Bank of Ohio", "Bankside Grocers", "First Bank", "Riverbank Foods"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ranking (-want +got):\n%s", diff)
	}
	if got := resultNames(idx.Search(domain.SearchQuery{Q: "bank", Limit: 2})); len(got) != 2 || got[0] != "BANK" {
		t.Errorf("limit 2: %v", got)
	}
}

func TestSearchToleratesCaseAndPunctuation(t *testing.T) {
	idx := search.New([]domain.Employer{employer("AT&T Services"), employer("Macy's"), employer("Wal-Mart Stores")}, nil)
	for q, want := range map[string]string{
		"at&t": "AT&T Services", "ATT": "AT&T Services", "at t": "AT&T Services",
		"macys": "Macy's", "MACY'S": "Macy's",
		"walmart": "Wal-Mart Stores", "wal mart": "Wal-Mart Stores", "stores": "Wal-Mart Stores", "mart": "Wal-Mart Stores",
	} {
		got := resultNames(idx.Search(domain.SearchQuery{Q: q, Limit: 5}))
		if len(got) == 0 || got[0] != want {
			t.Errorf("q=%q: %v, want %s first", q, got, want)
		}
	}
}

func TestSearchFilters(t *testing.T) {
	yes, no := true, false
	payroll := domain.Platform{ID: "p", Name: "Acme Payroll", Type: domain.PlatformPayroll,
		SupportedJobs: []domain.JobType{domain.JobDirectDepositSwitch}, SwitchLimits: domain.SwitchLimits{AmountSupported: true}}
	merchant := domain.Platform{ID: "m", Name: "Acme Stream", Type: domain.PlatformMerchant, SupportedJobs: []domain.JobType{domain.JobBillSwitch}}
	esp := domain.Platform{ID: "esp", Name: "Acme Megastore", Type: domain.PlatformPayroll, ESP: true}
	emp := employer("Acme Foods", domain.JobDirectDepositSwitch, domain.JobPaystubs)
	idx := search.New([]domain.Employer{emp}, []domain.Platform{payroll, merchant, esp})
	for _, tc := range []struct {
		name string
		q    domain.SearchQuery
		want []string
	}{
		{"all", domain.SearchQuery{}, []string{"Acme Foods", "Acme Payroll", "Acme Stream"}},
		{"platforms", domain.SearchQuery{ResponseTypes: []domain.ResponseType{domain.ResponsePlatform}}, []string{"Acme Payroll", "Acme Stream"}},
		{"employers", domain.SearchQuery{ResponseTypes: []domain.ResponseType{domain.ResponseEmployer}}, []string{"Acme Foods"}},
		{"merchant type", domain.SearchQuery{PlatformType: domain.PlatformMerchant}, []string{"Acme Stream"}},
		{"payroll type takes employers of payroll platforms", domain.SearchQuery{PlatformType: domain.PlatformPayroll}, []string{"Acme Foods", "Acme Payroll"}},
		{"all jobs required", domain.SearchQuery{SupportedJobs: []domain.JobType{domain.JobDirectDepositSwitch, domain.JobPaystubs}}, []string{"Acme Foods"}},
		{"amount true", domain.SearchQuery{AmountSupported: &yes}, []string{"Acme Payroll"}},
		{"amount false", domain.SearchQuery{AmountSupported: &no}, []string{"Acme Foods", "Acme Stream"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Q, tc.q.Limit = "acme", 10
			if diff := cmp.Diff(tc.want, resultNames(idx.Search(tc.q))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSearchMatchesLinearScan compares the index against the obvious
// definition of the tiers on a generated directory, for many queries.
func TestSearchMatchesLinearScan(t *testing.T) {
	var employers []domain.Employer
	words := []string{"alpha", "beta", "gamma", "delta", "omega", "alphabet", "bet", "ma"}
	for i := 0; i < 400; i++ {
		name := fmt.Sprintf("%s %s%d", words[i%len(words)], words[(i/3)%len(words)], i%7)
		employers = append(employers, employer(name))
	}
	idx := search.New(employers, nil)
	for _, q := range []string{"a", "al", "alp", "bet", "ma", "gamma", "ta", "a1", "mega", "zz", "delta gam", "eta"} {
		got := resultNames(idx.Search(domain.SearchQuery{Q: q, Limit: 1000}))
		want := linearSearch(employers, q)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("q=%q (-linear +index):\n%s", q, diff)
		}
	}
}

func linearSearch(employers []domain.Employer, q string) []string {
	qs := search.Normalize(q)
	qc := strings.ReplaceAll(qs, " ", "")
	type hit struct {
		tier              int
		compact, name, id string
	}
	var hits []hit
	for _, e := range employers {
		s := search.Normalize(e.Name)
		c := strings.ReplaceAll(s, " ", "")
		tier := -1
		switch {
		case c == qc:
			tier = 0
		case strings.HasPrefix(c, qc):
			tier = 1
		case strings.Contains(" "+s, " "+qs):
			tier = 2
		case strings.Contains(c, qc):
			tier = 3
		}
		if tier >= 0 {
			hits = append(hits, hit{tier, c, e.Name, e.ID})
		}
	}
	less := func(a, b hit) bool {
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.compact != b.compact {
			return a.compact < b.compact
		}
		return a.id < b.id
	}
	for i := 1; i < len(hits); i++ {
		for j := i; j > 0 && less(hits[j], hits[j-1]); j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.name
	}
	return out
}

func FuzzSearch(f *testing.F) {
	idx := search.New([]domain.Employer{employer("AT&T"), employer("Café Zoë"), employer("Bank of Ohio")}, nil)
	for _, s := range []string{"a", "at&t", "", "\xff\xfe", "zoë", "   ", "bank of"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		rs := idx.Search(domain.SearchQuery{Q: q, Limit: 10})
		if len(rs) > 10 {
			t.Fatalf("%d results over the limit", len(rs))
		}
		seen := map[string]bool{}
		for _, r := range rs {
			if seen[r.Employer.ID] {
				t.Fatalf("duplicate result for %q", q)
			}
			seen[r.Employer.ID] = true
		}
	})
}
