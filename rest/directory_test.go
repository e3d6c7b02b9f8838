package rest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	directorysearch "payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestListEmployersPaginates walks every employer through the API with
// next_cursor and checks each appears exactly once, in name order.
func TestListEmployersPaginates(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		first := f.get("/v1/employers")
		if n := len(first.list(t)); n != domain.DefaultPageLimit {
			t.Fatalf("default page has %d employers, want %d", n, domain.DefaultPageLimit)
		}
		seen := map[string]bool{}
		path := "/v1/employers?limit=100"
		prev := ""
		for pages := 0; ; pages++ {
			if pages > 60 {
				t.Fatal("pagination did not end")
			}
			res := f.get(path)
			items := res.list(t)
			meta := res.meta(t)
			if meta["count"] != float64(len(items)) {
				t.Fatalf("meta.count %v for %d items", meta["count"], len(items))
			}
			for _, e := range items {
				id := e["id"].(string)
				if seen[id] {
					t.Fatalf("employer %s on two pages", id)
				}
				seen[id] = true
				name := e["name"].(string)
				if name < prev {
					t.Fatalf("%q listed after %q", name, prev)
				}
				prev = name
			}
			next, _ := meta["next_cursor"].(string)
			if next == "" {
				if meta["next_cursor"] != nil {
					t.Fatalf("last page next_cursor %v, want null", meta["next_cursor"])
				}
				break
			}
			path = "/v1/employers?limit=100&cursor=" + url.QueryEscape(next)
		}
		if len(seen) != sandbox.DefaultEmployerCount {
			t.Fatalf("walked %d employers, want %d", len(seen), sandbox.DefaultEmployerCount)
		}
	})
}

func TestEmployerLookups(t *testing.T) {
	_, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	want := employers[42]
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		got := f.get("/v1/employers/" + want.ID).data(t)
		if got["name"] != want.Name || got["id"] != want.ID {
			t.Errorf("GET employer: %v, want %s", got, want.Name)
		}
		if _, leaked := got["ein"]; leaked {
			t.Error("employer response exposes the EIN, which the spec's Employer does not have")
		}
		byEIN := f.get("/v1/employers/lookup?ein=" + want.EIN).data(t)
		if byEIN["id"] != want.ID {
			t.Errorf("lookup by EIN %s: %v", want.EIN, byEIN["id"])
		}
		for _, tc := range []struct {
			name, path string
			status     int
			typ, code  string
		}{
			{"ein missing", "/v1/employers/lookup", 400, typeInvalid, domain.CodeMissingFields},
			{"ein 8 digits", "/v1/employers/lookup?ein=12345678", 400, typeInvalid, domain.CodeInvalidFields},
			{"ein 10 digits", "/v1/employers/lookup?ein=1234567890", 400, typeInvalid, domain.CodeInvalidFields},
			{"ein with dash", "/v1/employers/lookup?ein=12-3456789", 400, typeInvalid, domain.CodeInvalidFields},
			{"ein letters", "/v1/employers/lookup?ein=12345678a", 400, typeInvalid, domain.CodeInvalidFields},
			{"ein unknown", "/v1/employers/lookup?ein=000000001", 404, typeNotFound, domain.CodeEmployerNotFound},
			{"employer bad uuid", "/v1/employers/not-a-uuid", 400, typeInvalid, domain.CodeInvalidFields},
			{"employer unknown", "/v1/employers/" + domain.NewID(), 404, typeNotFound, domain.CodeEmployerNotFound},
			{"platform bad uuid", "/v1/platforms/12345", 400, typeInvalid, domain.CodeInvalidFields},
			{"platform unknown", "/v1/platforms/" + domain.NewID(), 404, typeNotFound, domain.CodePlatformNotFound},
			{"platform type", "/v1/platforms?type=bank", 400, typeInvalid, domain.CodeInvalidFields},
			{"include_esps", "/v1/platforms?include_esps=maybe", 400, typeInvalid, domain.CodeInvalidFields},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f.get(tc.path).wantError(t, tc.status, tc.typ, tc.code)
			})
		}
	})
}

func TestListPlatforms(t *testing.T) {
	platforms, _ := sandbox.Directory(sandbox.DefaultEmployerCount)
	var esps, merchants int
	for _, p := range platforms {
		if p.ESP {
			esps++
		}
		if p.Type == domain.PlatformMerchant {
			merchants++
		}
	}
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		all := f.get("/v1/platforms?limit=100&include_esps=true").list(t)
		plain := f.get("/v1/platforms?limit=100").list(t)
		if len(all) != len(platforms) || len(plain) != len(platforms)-esps {
			t.Errorf("%d platforms with ESPs and %d without; want %d and %d", len(all), len(plain), len(platforms), len(platforms)-esps)
		}
		got := f.get("/v1/platforms?limit=100&type=merchant").list(t)
		if len(got) != merchants {
			t.Errorf("%d merchants, want %d", len(got), merchants)
		}
		for _, p := range got {
			if p["type"] != "merchant" || p["merchant_category"] == nil || len(p["merchant_categories"].([]any)) == 0 {
				t.Errorf("merchant platform without its category: %v", p)
			}
		}
		one := f.get("/v1/platforms/" + platforms[0].ID).data(t)
		if one["name"] != platforms[0].Name || one["type"] != "payroll" {
			t.Errorf("GET platform: %v", one)
		}
		after := platforms[len(platforms)-1].LastUpdated.Add(-1).Format("2006-01-02T15:04:05.999999999Z07:00")
		recent := f.get("/v1/platforms?include_esps=true&last_updated=" + url.QueryEscape(after)).list(t)
		if len(recent) != 1 || recent[0]["id"] != platforms[len(platforms)-1].ID {
			t.Errorf("last_updated filter returned %d platforms", len(recent))
		}
	})
}

func names(results []map[string]any) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r["name"].(string)
	}
	return out
}

func TestSearch(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		search := func(q string) []map[string]any {
			t.Helper()
			res := f.get("/v1/search?" + q)
			if res.status != 200 {
				t.Fatalf("search %s: %d %s", q, res.status, res.raw)
			}
			if res.meta(t)["count"] != float64(len(res.list(t))) {
				t.Fatalf("meta.count does not match data")
			}
			return res.list(t)
		}
		// The curl of the README.
		if got := search("q=a"); len(got) != domain.DefaultPageLimit {
			t.Errorf("q=a returned %d results, want a full page", len(got))
		}
		// Case and punctuation do not matter: "summit payroll" finds the
		// platform "Summit Payroll" first, as an exact match.
		got := search("q=" + url.QueryEscape("SUMMIT-payroll!"))
		if len(got) == 0 || got[0]["name"] != "Summit Payroll" || got[0]["response_type"] != "platform" || got[0]["platform_type"] != "payroll" {
			t.Fatalf("SUMMIT-payroll!: %v", names(got))
		}
		// Exact, then prefix, then later-word prefix, then substring.
		got = search("q=stream&limit=100")
		tier := func(name string) int {
			n := directorysearch.Normalize(name)
			c := strings.ReplaceAll(n, " ", "")
			switch {
			case c == "stream":
				return 0
			case strings.HasPrefix(c, "stream"):
				return 1
			case strings.Contains(" "+n, " stream"):
				return 2
			case strings.Contains(c, "stream"):
				return 3
			}
			t.Fatalf("%q does not match stream", name)
			return 0
		}
		last := 0
		for _, r := range got {
			if tr := tier(r["name"].(string)); tr < last {
				t.Fatalf("tiers out of order: %v", names(got))
			} else {
				last = tr
			}
		}
		if len(got) == 0 {
			t.Fatal("no result for stream")
		}
		// Filters.
		for _, r := range search("q=a&response_types=platform&limit=100") {
			if r["response_type"] != "platform" {
				t.Errorf("response_types=platform returned %v", r["response_type"])
			}
		}
		for _, r := range search("q=e&platform_type=merchant&limit=100") {
			if r["platform_type"] != "merchant" {
				t.Errorf("platform_type=merchant returned %v", r)
			}
		}
		for _, r := range search("q=e&supported_jobs=direct_deposit_switch&supported_jobs=tax_forms&limit=100") {
			jobs := fmt.Sprint(r["supported_jobs"])
			if !strings.Contains(jobs, "direct_deposit_switch") || !strings.Contains(jobs, "tax_forms") {
				t.Errorf("supported_jobs filter returned %s with %s", r["name"], jobs)
			}
		}
		yes, no := search("q=co&amount_supported=true&limit=100"), search("q=co&amount_supported=false&limit=100")
		for _, r := range yes {
			if r["amount_supported"] != true {
				t.Errorf("amount_supported=true returned %v", r["name"])
			}
		}
		for _, r := range no {
			if r["amount_supported"] != false {
				t.Errorf("amount_supported=false returned %v", r["name"])
			}
		}
		if len(yes) == 0 || len(no) == 0 {
			t.Errorf("amount filters: %d true, %d false", len(yes), len(no))
		}
		if got := search("q=" + url.QueryEscape("!!!")); len(got) != 0 {
			t.Errorf("a query without letters matched %d", len(got))
		}
		if got := search("q=zzzzqqqq"); len(got) != 0 {
			t.Errorf("nonsense matched %v", names(got))
		}

		for _, tc := range []struct{ name, query, code string }{
			{"q missing", "", domain.CodeMissingFields},
			{"q empty", "q=", domain.CodeInvalidFields},
			{"q too long", "q=" + strings.Repeat("a", 201), domain.CodeInvalidFields},
			{"job type", "q=a&supported_jobs=teleport", domain.CodeInvalidFields},
			{"response type", "q=a&response_types=bank", domain.CodeInvalidFields},
			{"amount_supported", "q=a&amount_supported=yes", domain.CodeInvalidFields},
			{"platform_type", "q=a&platform_type=bank", domain.CodeInvalidFields},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f.get("/v1/search?"+tc.query).wantError(t, 400, typeInvalid, tc.code)
			})
		}
	})
}

// TestSearchSeesReseededDirectory checks the index follows the directory.
func TestSearchSeesReseededDirectory(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	if got := f.get("/v1/search?q=Quokka").list(t); len(got) != 0 {
		t.Fatalf("Quokka before seeding: %v", names(got))
	}
	platforms, employers := sandbox.Directory(1)
	employers[0].Name = "Quokka Quarries"
	store := storage.NewDirectoryStore(db)
	if err := store.UpsertDirectory(context.Background(), platforms, employers); err != nil {
		t.Fatal(err)
	}
	if err := f.server.directory.RefreshSearchIndex(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.get("/v1/search?q=Quokka").list(t); len(got) != 1 || got[0]["name"] != "Quokka Quarries" {
		t.Fatalf("after seeding: %v", names(got))
	}
}

// TestVersionTransforms runs a change table through the real pipeline: a
// request pinned before a change gets the old shape, newer ones do not.
func TestVersionTransforms(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	f.skipSpec = true // the changes below invent old shapes
	saved := domain.VersionChanges
	t.Cleanup(func() { domain.VersionChanges = saved })
	domain.VersionChanges = []domain.VersionChange{
		{Version: "2023-07-18", Resource: resPlatform, Summary: "display_name added",
			Down: func(o map[string]any) { delete(o, "display_name") }},
		{Version: "2023-11-22", Resource: resPlatform, Summary: "name was title",
			Down: func(o map[string]any) { o["title"] = o["name"]; delete(o, "name") }},
	}
	for _, tc := range []struct {
		version         string
		wantName        bool
		wantTitle       bool
		wantDisplayName bool
	}{
		{"2025-07-08", true, false, true},
		{"2023-11-22", true, false, true},
		{"2023-07-18", false, true, true},
		{"2023-04-18", false, true, false},
	} {
		req := f.http.URL + "/v1/platforms?limit=2"
		res := f.get(strings.TrimPrefix(req, f.http.URL), "Service-Version", tc.version)
		for _, p := range res.list(t) {
			_, name := p["name"]
			_, title := p["title"]
			_, display := p["display_name"]
			if name != tc.wantName || title != tc.wantTitle || display != tc.wantDisplayName {
				t.Errorf("version %s: name %v title %v display_name %v", tc.version, name, title, display)
			}
		}
	}
}
