package domain_test

import (
	"context"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
)

// mapFallback answers lookups from its maps, as a relayed mode's
// upstreams answer for a directory not synced yet.
type mapFallback struct {
	domain.NoRelay
	employers map[string]domain.Employer // by id and by EIN
	search    []domain.SearchResult
}

func (f mapFallback) Employer(_ context.Context, id string) (domain.Employer, error) {
	if e, ok := f.employers[id]; ok {
		return e, nil
	}
	return domain.Employer{}, domain.ErrNoRows
}

func (f mapFallback) EmployerByEIN(ctx context.Context, ein string) (domain.Employer, error) {
	return f.Employer(ctx, ein)
}

func (f mapFallback) Search(context.Context, domain.SearchQuery) ([]domain.SearchResult, error) {
	return f.search, nil
}

func TestDirectoryLookups(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	ctx := context.Background()
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	employers, err := dir.ListEmployers(ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 3})
	if err != nil || len(employers.Items) != 3 || employers.Next == nil {
		t.Fatalf("ListEmployers: %d, %v", len(employers.Items), err)
	}
	platforms, err := dir.ListPlatforms(ctx, domain.PlatformFilter{}, domain.PageRequest{Limit: 3})
	if err != nil || len(platforms.Items) != 3 {
		t.Fatalf("ListPlatforms: %d, %v", len(platforms.Items), err)
	}
	e, p := employers.Items[0], platforms.Items[0]
	var withEIN domain.Employer
	for _, x := range employers.Items {
		if x.EIN != "" {
			withEIN = x
		}
	}
	unknown := domain.NewID()
	tests := []struct {
		name string
		call func() (string, error) // the name found
		want string
		code string
	}{
		{"Employer", func() (string, error) { x, err := dir.Employer(ctx, e.ID); return x.Name, err }, e.Name, ""},
		{"Employer malformed", func() (string, error) { x, err := dir.Employer(ctx, "x"); return x.Name, err }, "", domain.CodeInvalidFields},
		{"Employer unknown", func() (string, error) { x, err := dir.Employer(ctx, unknown); return x.Name, err }, "", domain.CodeEmployerNotFound},
		{"EmployerByEIN", func() (string, error) { x, err := dir.EmployerByEIN(ctx, withEIN.EIN); return x.Name, err }, withEIN.Name, ""},
		{"EmployerByEIN empty", func() (string, error) { x, err := dir.EmployerByEIN(ctx, ""); return x.Name, err }, "", domain.CodeMissingFields},
		{"EmployerByEIN with a dash", func() (string, error) { x, err := dir.EmployerByEIN(ctx, "12-3456789"); return x.Name, err }, "", domain.CodeInvalidFields},
		{"EmployerByEIN unknown", func() (string, error) { x, err := dir.EmployerByEIN(ctx, "000000001"); return x.Name, err }, "", domain.CodeEmployerNotFound},
		{"Platform", func() (string, error) { x, err := dir.Platform(ctx, p.ID); return x.Name, err }, p.Name, ""},
		{"Platform malformed", func() (string, error) { x, err := dir.Platform(ctx, "x"); return x.Name, err }, "", domain.CodeInvalidFields},
		{"Platform unknown", func() (string, error) { x, err := dir.Platform(ctx, unknown); return x.Name, err }, "", domain.CodePlatformNotFound},
	}
	if withEIN.ID == "" {
		t.Fatal("no employer of the first page has an EIN")
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call()
			wantCode(t, err, tc.code)
			if got != tc.want {
				t.Errorf("found %q, want %q", got, tc.want)
			}
		})
	}
	ps, errs := dir.PlatformsByID(ctx, []string{unknown, p.ID})
	if ps[1].ID != p.ID || errs[1] != nil {
		t.Errorf("PlatformsByID slot 1: %v", errs[1])
	}
	wantCode(t, errs[0], domain.CodePlatformNotFound)
	es, errs := dir.EmployersByID(ctx, []string{e.ID, unknown})
	if es[0].ID != e.ID || errs[0] != nil {
		t.Errorf("EmployersByID slot 0: %v", errs[0])
	}
	wantCode(t, errs[1], domain.CodeEmployerNotFound)
}

// smallDirectory is a directory of a few names, so an index build costs
// nothing (the sandbox's 5,000 employers take a second under -race).
func smallDirectory(t *testing.T) *domain.DirectoryService {
	t.Helper()
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	p := domain.Platform{ID: domain.NewID(), Name: "Summit Payroll", Type: domain.PlatformPayroll,
		SupportedJobs: []domain.JobType{domain.JobIdentity}, LastUpdated: start}
	var employers []domain.Employer
	for _, name := range []string{"Summit Foods", "Harbor Freight Lines", "Cedar Clinics"} {
		employers = append(employers, domain.Employer{ID: domain.NewID(), Name: name, PlatformID: p.ID, LastUpdated: start})
	}
	if err := dir.Seed(context.Background(), []domain.Platform{p}, employers); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDirectorySearch(t *testing.T) {
	ctx := context.Background()
	dir := smallDirectory(t)
	tests := []struct {
		name string
		q    domain.SearchQuery
		code string
	}{
		{"a name", domain.SearchQuery{Q: "summit", Limit: 10}, ""},
		{"empty", domain.SearchQuery{Q: "", Limit: 10}, domain.CodeInvalidFields},
		{"too long", domain.SearchQuery{Q: strings.Repeat("a", domain.MaxSearchQuery+1), Limit: 10}, domain.CodeInvalidFields},
		{"limit 0", domain.SearchQuery{Q: "summit", Limit: 0}, domain.CodeInvalidFields},
		{"limit 101", domain.SearchQuery{Q: "summit", Limit: 101}, domain.CodeInvalidFields},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := dir.Search(ctx, tc.q)
			wantCode(t, err, tc.code)
			if err == nil && len(res) == 0 {
				t.Error("nothing found for summit")
			}
			if err == nil && len(res) != 2 {
				t.Errorf("%d results for summit, want the employer and the platform", len(res))
			}
		})
	}

	// A seed shows up in search without a restart.
	novel := domain.Employer{ID: domain.NewID(), Name: "Zyxwvut Quarries", LastUpdated: start}
	if err := dir.Seed(ctx, nil, []domain.Employer{novel}); err != nil {
		t.Fatal(err)
	}
	res, err := dir.Search(ctx, domain.SearchQuery{Q: "zyxwvut", Limit: 5})
	if err != nil || len(res) != 1 || res[0].Employer == nil || res[0].Employer.ID != novel.ID {
		t.Fatalf("after Seed: %+v, %v", res, err)
	}
	// Put writes without rebuilding; RefreshSearchIndex picks it up.
	later := domain.Employer{ID: domain.NewID(), Name: "Zyxwvut Mining", LastUpdated: start}
	if err := dir.Put(ctx, nil, []domain.Employer{later}); err != nil {
		t.Fatal(err)
	}
	if err := dir.RefreshSearchIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if res, err := dir.Search(ctx, domain.SearchQuery{Q: "zyxwvut", Limit: 5}); err != nil || len(res) != 2 {
		t.Errorf("after Put and a refresh: %d results, %v", len(res), err)
	}
	if err := dir.Put(ctx, nil, nil); err != nil {
		t.Errorf("an empty Put: %v", err)
	}
}

func TestDirectoryFallback(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
	ctx := context.Background()
	far := domain.Employer{ID: domain.NewID(), Name: "Qwertyuiop Upstream Co", LastUpdated: start}
	byEIN := domain.Employer{ID: domain.NewID(), Name: "Asdfghjkl Upstream Co", EIN: "987654321", LastUpdated: start}
	fb := mapFallback{employers: map[string]domain.Employer{far.ID: far, byEIN.EIN: byEIN},
		search: []domain.SearchResult{{ResponseType: domain.ResponseEmployer, Employer: &far}}}
	dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), fb, search.Build)
	got, err := dir.Employer(ctx, far.ID)
	if err != nil || got.Name != far.Name {
		t.Fatalf("Employer through the fallback: %v", err)
	}
	// It is kept: a directory without the fallback now has it.
	plain := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build)
	if _, err := plain.Employer(ctx, far.ID); err != nil {
		t.Errorf("the fallback's employer was not kept: %v", err)
	}
	if got, err := dir.EmployerByEIN(ctx, byEIN.EIN); err != nil || got.ID != byEIN.ID {
		t.Errorf("EmployerByEIN through the fallback: %v", err)
	}
	res, err := dir.Search(ctx, domain.SearchQuery{Q: "qwertyuiop", Limit: 5})
	if err != nil || len(res) != 1 || res[0].Employer.ID != far.ID {
		t.Errorf("Search with the fallback: %+v, %v", res, err)
	}
}
