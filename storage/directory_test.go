package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestDirectoryRoundTrips(t *testing.T) {
	platforms, employers := sandbox.Directory(300)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := storage.NewDirectoryStore(db)
		if err := s.UpsertDirectory(ctx, platforms, employers); err != nil {
			t.Fatal(err)
		}
		rev1, _ := s.Revision(ctx)
		// Upserting again changes nothing but the revision.
		if err := s.UpsertDirectory(ctx, platforms, employers); err != nil {
			t.Fatal(err)
		}
		if rev2, _ := s.Revision(ctx); rev2 != rev1+1 {
			t.Errorf("revision %d after second upsert, want %d", rev2, rev1+1)
		}
		for _, want := range []domain.Employer{employers[0], employers[249]} { // 249 is an ESP
			got, err := s.Employer(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("employer %s (-want +got):\n%s", want.ID, diff)
			}
			byEIN, err := s.EmployerByEIN(ctx, want.EIN)
			if err != nil || byEIN.ID != want.ID {
				t.Errorf("by EIN %s: %v, %v", want.EIN, byEIN.ID, err)
			}
		}
		for _, want := range platforms {
			got, err := s.Platform(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if want.MerchantCategories == nil {
				want.MerchantCategories = []string{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("platform %s (-want +got):\n%s", want.Name, diff)
			}
		}
		if _, err := s.Employer(ctx, domain.NewID()); !errors.Is(err, domain.ErrNoRows) {
			t.Errorf("unknown employer: %v", err)
		}
		gotE, gotP, err := s.Snapshot(ctx)
		if err != nil || len(gotE) != len(employers) || len(gotP) != len(platforms) {
			t.Errorf("snapshot: %d employers, %d platforms, %v", len(gotE), len(gotP), err)
		}
	})
}

// TestEmployerPagesCoverEveryRowOnce walks the list with small pages and a
// last_updated filter and checks nothing is skipped or repeated.
func TestEmployerPagesCoverEveryRowOnce(t *testing.T) {
	platforms, employers := sandbox.Directory(230)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := storage.NewDirectoryStore(db)
		if err := s.UpsertDirectory(ctx, platforms, employers); err != nil {
			t.Fatal(err)
		}
		cut := employers[100].LastUpdated
		want := map[string]bool{}
		for _, e := range employers {
			if e.LastUpdated.After(cut) {
				want[e.ID] = true
			}
		}
		seen := map[string]bool{}
		var cursor *domain.Cursor
		prev := ""
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatal("pagination does not end")
			}
			page, err := s.ListEmployers(ctx, domain.EmployerFilter{UpdatedAfter: &cut}, domain.PageRequest{Limit: 7, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range page.Items {
				if seen[e.ID] {
					t.Fatalf("employer %s on two pages", e.ID)
				}
				seen[e.ID] = true
				if e.Name < prev {
					t.Fatalf("names out of order: %q after %q", e.Name, prev)
				}
				prev = e.Name
			}
			if page.Next == nil {
				break
			}
			cursor = page.Next
		}
		if len(seen) != len(want) {
			t.Fatalf("saw %d employers, want %d", len(seen), len(want))
		}
		for id := range want {
			if !seen[id] {
				t.Fatalf("employer %s missing", id)
			}
		}
	})
}

func TestPlatformFilters(t *testing.T) {
	platforms, employers := sandbox.Directory(1000)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := storage.NewDirectoryStore(db)
		if err := s.UpsertDirectory(ctx, platforms, employers); err != nil {
			t.Fatal(err)
		}
		count := func(f domain.PlatformFilter) (n int, esps int) {
			page, err := s.ListPlatforms(ctx, f, domain.PageRequest{Limit: 1000})
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range page.Items {
				if f.Type != "" && p.Type != f.Type {
					t.Errorf("type filter %s returned %s", f.Type, p.Type)
				}
				if p.ESP {
					esps++
				}
			}
			return len(page.Items), esps
		}
		all, esps := count(domain.PlatformFilter{IncludeESPs: true})
		if all != len(platforms) || esps != 4 {
			t.Errorf("with ESPs: %d platforms (%d ESPs), want %d (4)", all, esps, len(platforms))
		}
		if n, e := count(domain.PlatformFilter{}); n != all-esps || e != 0 {
			t.Errorf("without ESPs: %d (%d ESPs), want %d (0)", n, e, all-esps)
		}
		if n, _ := count(domain.PlatformFilter{Type: domain.PlatformTax}); n != 6 {
			t.Errorf("tax platforms: %d, want 6", n)
		}
		future := time.Now().Add(time.Hour)
		if n, _ := count(domain.PlatformFilter{UpdatedAfter: &future}); n != 0 {
			t.Errorf("updated after now: %d, want 0", n)
		}
	})
}

// TestEmployerPagesReadBackward walks the same filtered list backward
// from its end, seven at a time by each page's Prev, and requires the
// rows of the forward walk in the same order: a backward page is in the
// list's order, and Prev is nil only on the first page.
func TestEmployerPagesReadBackward(t *testing.T) {
	platforms, employers := sandbox.Directory(230)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		s := storage.NewDirectoryStore(db)
		if err := s.UpsertDirectory(ctx, platforms, employers); err != nil {
			t.Fatal(err)
		}
		f := domain.EmployerFilter{UpdatedAfter: &employers[100].LastUpdated}
		walk := func(backward bool) []string {
			var ids []string
			p := domain.PageRequest{Limit: 7, Backward: backward}
			for pages := 0; ; pages++ {
				if pages > 100 {
					t.Fatal("pagination does not end")
				}
				page, err := s.ListEmployers(ctx, f, p)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, e := range page.Items {
					got = append(got, e.ID)
				}
				if backward {
					if page.Next != nil {
						t.Fatal("a backward page set Next")
					}
					ids, p.Cursor = append(got, ids...), page.Prev
				} else {
					ids, p.Cursor = append(ids, got...), page.Next
				}
				if p.Cursor == nil {
					return ids
				}
			}
		}
		forward, backward := walk(false), walk(true)
		if len(forward) < 100 {
			t.Fatalf("%d employers after the cut, want more than 100 for the walk to cross pages", len(forward))
		}
		if diff := cmp.Diff(forward, backward); diff != "" {
			t.Errorf("the backward walk differs from the forward one (-forward +backward):\n%s", diff)
		}
	})
}
