package sandbox_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/domain/sandbox"
)

func TestDirectoryIsDeterministic(t *testing.T) {
	p1, e1 := sandbox.Directory(500)
	p2, e2 := sandbox.Directory(500)
	if diff := cmp.Diff(p1, p2); diff != "" {
		t.Errorf("platforms differ between runs:\n%s", diff)
	}
	if diff := cmp.Diff(e1, e2); diff != "" {
		t.Errorf("employers differ between runs:\n%s", diff)
	}
	// A bigger directory extends the smaller one: ids integrators stored
	// from a small seed stay valid.
	_, big := sandbox.Directory(1000)
	if diff := cmp.Diff(e1, big[:500]); diff != "" {
		t.Errorf("first 500 employers change with the directory size:\n%s", diff)
	}
}

func TestDirectoryShape(t *testing.T) {
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	if len(employers) < 5000 || len(platforms) < 60 {
		t.Fatalf("%d employers, %d platforms; want at least 5000 and 60", len(employers), len(platforms))
	}
	byID := map[string]domain.Platform{}
	types := map[domain.PlatformType]int{}
	categories := map[string]bool{}
	esps := 0
	for _, p := range platforms {
		if _, dup := byID[p.ID]; dup {
			t.Fatalf("duplicate platform id %s", p.ID)
		}
		byID[p.ID] = p
		types[p.Type]++
		if p.ESP {
			esps++
		}
		if p.Type == domain.PlatformMerchant {
			if p.MerchantCategory == "" || !slices.Contains(p.MerchantCategories, p.MerchantCategory) {
				t.Errorf("merchant %s: category %q not in %v", p.Name, p.MerchantCategory, p.MerchantCategories)
			}
			for i, c := range p.MerchantCategories {
				if slices.Contains(p.MerchantCategories[i+1:], c) {
					t.Errorf("merchant %s lists %s twice", p.Name, c)
				}
				categories[c] = true
			}
		}
		checkLimits(t, p.Name, p.SupportedJobs, p.SwitchLimits)
	}
	for _, ty := range domain.PlatformTypes {
		if types[ty] == 0 {
			t.Errorf("no %s platform", ty)
		}
	}
	if len(categories) != len(domain.MerchantCategories) {
		t.Errorf("merchants cover %d of %d categories", len(categories), len(domain.MerchantCategories))
	}
	if esps < 5 {
		t.Errorf("%d ESPs, want several", esps)
	}
	names, eins := map[string]bool{}, map[string]bool{}
	for _, e := range employers {
		if names[e.Name] || eins[e.EIN] {
			t.Fatalf("duplicate name %q or EIN %s", e.Name, e.EIN)
		}
		names[e.Name], eins[e.EIN] = true, true
		if !domain.ValidEIN(e.EIN) {
			t.Errorf("EIN %q is not 9 digits", e.EIN)
		}
		p, ok := byID[e.PlatformID]
		if !ok || p.Type != domain.PlatformPayroll {
			t.Fatalf("employer %s is served by %q, not a payroll platform", e.Name, e.PlatformID)
		}
		if !cmp.Equal(e.SupportedJobs, p.SupportedJobs) || !cmp.Equal(e.SwitchLimits, p.SwitchLimits) {
			t.Errorf("employer %s does not share its platform's capabilities", e.Name)
		}
		if p.ESP && p.ID != e.ID {
			t.Errorf("ESP %s has a different id from its employer", e.Name)
		}
	}
}

func checkLimits(t *testing.T, name string, jobs []domain.JobType, l domain.SwitchLimits) {
	t.Helper()
	switches := slices.Contains(jobs, domain.JobDirectDepositSwitch)
	if (l.AmountSupported || l.PercentageSupported) && !switches {
		t.Errorf("%s supports amounts or percentages without direct_deposit_switch", name)
	}
	if l.AmountSupported && (l.MinAmount == nil || l.MaxAmount == nil || *l.MinAmount <= 0 || *l.MinAmount >= *l.MaxAmount) {
		t.Errorf("%s: bad amount bounds", name)
	}
	if !l.AmountSupported && (l.MinAmount != nil || l.MaxAmount != nil || l.FractionalAmountSupported) {
		t.Errorf("%s: amount bounds without amount support", name)
	}
	if l.PercentageSupported && (l.MinPercentage < 1 || l.MaxPercentage > 100 || l.MinPercentage >= l.MaxPercentage) {
		t.Errorf("%s: bad percentage bounds %d..%d", name, l.MinPercentage, l.MaxPercentage)
	}
}

func TestLargeDirectoryHasUniqueNames(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 100k employers")
	}
	_, employers := sandbox.Directory(100_000)
	seen := make(map[string]bool, len(employers))
	for _, e := range employers {
		if seen[e.Name] || seen[e.EIN] {
			t.Fatalf("duplicate %q / %s", e.Name, e.EIN)
		}
		seen[e.Name], seen[e.EIN] = true, true
	}
}
