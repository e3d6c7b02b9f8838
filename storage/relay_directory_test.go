package storage_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/storage"
	"payline/storage/storagetest"
)

// directoryUpstream is an upstream whose directory a test edits: it
// answers the directory half of domain.Upstream and records what it was
// asked. The rest of the port is never called here (a nil embedded
// interface would panic if it were).
type directoryUpstream struct {
	domain.Upstream

	mu        sync.Mutex
	platforms []domain.Platform
	employers []domain.Employer // no EIN or platform, as the vendor's
	eins      map[string]string // EIN → employer id, for lookups
	since     []time.Time       // each pass's updatedAfter
	cursors   []string          // every page's cursor, in order
	lookups   int               // EIN lookups
	byID      int               // employer reads by id
	searches  int               // searches
	// pageHook, when set, sees each page's cursor before it is read.
	pageHook func(cursor string)
}

func (u *directoryUpstream) Platforms(context.Context) ([]domain.Platform, error) {
	return u.platforms, nil
}

// directoryPage is how many employers a page of directoryUpstream holds.
const directoryPage = 7

func (u *directoryUpstream) EmployersPage(ctx context.Context, after time.Time, cursor string) ([]domain.Employer, string, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.pageHook != nil {
		u.pageHook(cursor)
	}
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	if cursor == "" {
		u.since = append(u.since, after)
	}
	u.cursors = append(u.cursors, cursor)
	var match []domain.Employer
	for _, e := range u.employers {
		if after.IsZero() || e.LastUpdated.After(after) {
			match = append(match, e)
		}
	}
	from := 0
	if cursor != "" {
		from, _ = strconv.Atoi(cursor)
	}
	to := min(from+directoryPage, len(match))
	next := ""
	if to < len(match) {
		next = strconv.Itoa(to)
	}
	return match[from:to], next, nil
}

func (u *directoryUpstream) Platform(_ context.Context, id string) (domain.Platform, error) {
	for _, p := range u.platforms {
		if p.ID == id {
			return p, nil
		}
	}
	return domain.Platform{}, fmt.Errorf("GET /v1/platforms/%s: %w", id, domain.ErrNoRows)
}

func (u *directoryUpstream) Search(_ context.Context, q domain.SearchQuery) ([]domain.SearchResult, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.searches++
	var out []domain.SearchResult
	for _, e := range u.employers {
		if strings.Contains(strings.ToLower(e.Name), strings.ToLower(q.Q)) && len(out) < q.Limit {
			out = append(out, domain.SearchResult{ResponseType: domain.ResponseEmployer, Employer: &e})
		}
	}
	return out, nil
}

func (u *directoryUpstream) Employer(_ context.Context, id string) (domain.Employer, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.byID++
	for _, e := range u.employers {
		if e.ID == id {
			return e, nil
		}
	}
	return domain.Employer{}, fmt.Errorf("GET /v1/employers/%s: %w", id, domain.ErrNoRows)
}

func (u *directoryUpstream) EmployerByEIN(_ context.Context, ein string) (domain.Employer, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.lookups++
	for _, e := range u.employers {
		if u.eins[ein] == e.ID {
			e.EIN = ein
			return e, nil
		}
	}
	return domain.Employer{}, fmt.Errorf("GET /v1/employers/lookup: %w", domain.ErrNoRows)
}

// TestRelaySyncsDirectory: a relayed mode's directory is its upstream's.
// The first sync reads every employer, later ones only those updated
// since the newest synced (less a second's overlap); employers without an
// EIN or platform are stored, an EIN already known here survives a sync,
// search finds an upstream employer under its upstream id, and an EIN the
// directory lacks is looked up at the upstream.
func TestRelaySyncsDirectory(t *testing.T) {
	platforms, seeded := sandbox.Directory(20)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		bare := func(e domain.Employer) domain.Employer { e.EIN, e.PlatformID = "", ""; return e }
		up := &directoryUpstream{platforms: platforms, eins: map[string]string{}}
		for _, e := range seeded {
			up.employers = append(up.employers, bare(e))
			up.eins[e.EIN] = e.ID
		}
		dir := domain.NewDirectoryService(storage.NewDirectoryStore(db), up, search.Build)
		// One employer is known here already, with its EIN and platform.
		known := seeded[0]
		if err := dir.Seed(ctx, platforms, []domain.Employer{known}); err != nil {
			t.Fatal(err)
		}
		relay := domain.NewRelayService(storage.NewTransactor(db, nil), "upstream", up, dir, domain.SystemClock{}, nil)

		// An employer not synced yet is read from the upstream, once.
		early := seeded[9]
		if got, err := dir.Employer(ctx, early.ID); err != nil || got.Name != early.Name || up.byID != 1 {
			t.Fatalf("employer before the sync: %+v, %v, %d upstream reads; want it from the upstream", got, err, up.byID)
		}
		if _, err := dir.Employer(ctx, early.ID); err != nil || up.byID != 1 {
			t.Fatalf("employer read again: %v, %d upstream reads; want it kept here", err, up.byID)
		}

		// A search before the sync finds the upstream's employer, which is
		// then kept here.
		late := seeded[len(seeded)-1]
		if res, err := dir.Search(ctx, domain.SearchQuery{Q: late.Name, Limit: 5}); err != nil || len(res) == 0 ||
			res[0].Employer == nil || res[0].Employer.ID != late.ID || up.searches != 1 {
			t.Fatalf("search for %q before the sync: %+v, %v, %d upstream searches; want the upstream's employer", late.Name, res, err, up.searches)
		}
		if _, err := storage.NewDirectoryStore(db).Employer(ctx, late.ID); err != nil {
			t.Errorf("the employer a search found at the upstream is not kept: %v", err)
		}

		// The first pass is cut short after its second page (the process
		// stopping); the next call resumes at the third page.
		passCtx, stop := context.WithCancel(ctx)
		up.pageHook = func(cursor string) {
			if cursor == strconv.Itoa(2*directoryPage) {
				stop()
			}
		}
		st, err := relay.SyncDirectory(passCtx)
		if err == nil && !st.Running || st.Read != 2*directoryPage {
			t.Fatalf("interrupted sync: %+v, %v; want it running with two pages read", st, err)
		}
		up.pageHook = nil
		if st, err := relay.DirectoryStatus(ctx); err != nil || !st.Running || st.Cursor != strconv.Itoa(2*directoryPage) {
			t.Fatalf("stored sync: %+v, %v; want the third page's cursor", st, err)
		}
		if st, err = relay.SyncDirectory(ctx); err != nil || st.Running || st.Read != len(seeded) || st.Expected != len(seeded) {
			t.Fatalf("resumed sync: %+v, %v; want it complete with %d employers", st, err, len(seeded))
		}
		if want := []string{"", "7", "14"}; !slices.Equal(up.cursors, want) {
			t.Errorf("pages read: %q; want %q (each once: the resumed pass starts at the interrupted page)", up.cursors, want)
		}
		page, err := dir.ListEmployers(ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 100})
		if err != nil || len(page.Items) != len(seeded) {
			t.Fatalf("employers after sync: %d, %v; want %d", len(page.Items), err, len(seeded))
		}
		got, err := dir.Employer(ctx, known.ID)
		if err != nil || got.EIN != known.EIN || got.PlatformID != known.PlatformID {
			t.Errorf("known employer after sync: ein %q platform %q, %v; want its own kept", got.EIN, got.PlatformID, err)
		}
		other := seeded[5]
		if got, err := dir.Employer(ctx, other.ID); err != nil || got.EIN != "" || got.PlatformID != "" || got.Name != other.Name {
			t.Errorf("upstream employer: %+v, %v; want it without EIN or platform", got, err)
		}

		// The upstream renames one employer and adds another: the next pass
		// asks only for what changed since the newest it has.
		newest := time.Time{}
		for _, e := range seeded {
			if e.LastUpdated.After(newest) {
				newest = e.LastUpdated
			}
		}
		up.mu.Lock()
		up.employers[5].Name, up.employers[5].LastUpdated = "Quillfeather Instruments", newest.Add(time.Hour)
		added := bare(seeded[0])
		added.ID, added.Name, added.LastUpdated = "7d0f6a0e-6a4e-4d53-9a52-3b3f0c1d2e4f", "Wrenfield Cooperage", newest.Add(2*time.Hour)
		up.employers = append(up.employers, added)
		up.mu.Unlock()
		if st, err := relay.SyncDirectory(ctx); err != nil || st.Read != 3 || st.Expected != len(seeded) {
			t.Fatalf("second pass: %+v, %v; want the 2 changed and the newest before them (the overlap)", st, err)
		}
		if len(up.since) != 2 || !up.since[0].IsZero() || !up.since[1].Equal(newest.Add(-time.Second)) {
			t.Errorf("passes asked for employers updated after %v; want zero, then %v", up.since, newest.Add(-time.Second))
		}
		for _, q := range []string{"Quillfeather", "Wrenfield"} {
			res, err := dir.Search(ctx, domain.SearchQuery{Q: q, Limit: 10})
			if err != nil || len(res) != 1 || res[0].Employer == nil {
				t.Fatalf("search %q: %+v, %v", q, res, err)
			}
		}
		if st, err := relay.SyncDirectory(ctx); err != nil || st.Read != 1 || !up.since[2].Equal(newest.Add(2*time.Hour-time.Second)) {
			t.Errorf("third pass: %+v since %v, %v; want only the newest again (the overlap)", st, up.since[2], err)
		}

		// EIN lookups: the directory's own first, then the upstream's.
		if e, err := dir.EmployerByEIN(ctx, known.EIN); err != nil || e.ID != known.ID || up.lookups != 0 {
			t.Errorf("local EIN: %s, %v, %d upstream lookups; want %s from here", e.ID, err, up.lookups, known.ID)
		}
		if e, err := dir.EmployerByEIN(ctx, other.EIN); err != nil || e.ID != other.ID || up.lookups != 1 {
			t.Errorf("upstream EIN: %s, %v, %d lookups; want %s from the upstream", e.ID, err, up.lookups, other.ID)
		}
		var de *domain.Error
		if _, err := dir.EmployerByEIN(ctx, "999999999"); !errors.As(err, &de) || de.Code != domain.CodeEmployerNotFound {
			t.Errorf("unknown EIN: %v; want EMPLOYER_NOT_FOUND", err)
		}
	})
}

// slowDirectoryStore holds the first page of employers written until
// release closes (or a deadline passes), as storing does on a busy
// machine.
type slowDirectoryStore struct {
	domain.DirectoryStore
	release <-chan struct{}
	held    sync.Once
	waited  bool // the deadline passed before release
}

func (s *slowDirectoryStore) UpsertDirectory(ctx context.Context, platforms []domain.Platform, employers []domain.Employer) error {
	if len(employers) > 0 {
		s.held.Do(func() {
			select {
			case <-s.release:
			case <-time.After(10 * time.Second):
				s.waited = true
			}
		})
	}
	return s.DirectoryStore.UpsertDirectory(ctx, platforms, employers)
}

// TestRelayReadsAheadOfStoring: a directory pass reads the upstream's next
// pages while it stores the one in hand, so a slow store does not hold
// the upstream's requests back; every page is still stored, in order,
// once.
func TestRelayReadsAheadOfStoring(t *testing.T) {
	platforms, seeded := sandbox.Directory(5 * directoryPage)
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		ctx := context.Background()
		up := &directoryUpstream{platforms: platforms, employers: seeded, eins: map[string]string{}}
		third := make(chan struct{})
		var once sync.Once
		up.pageHook = func(cursor string) {
			if cursor == strconv.Itoa(2*directoryPage) {
				once.Do(func() { close(third) })
			}
		}
		store := &slowDirectoryStore{DirectoryStore: storage.NewDirectoryStore(db), release: third}
		dir := domain.NewDirectoryService(store, up, search.Build)
		relay := domain.NewRelayService(storage.NewTransactor(db, nil), "upstream", up, dir, domain.SystemClock{}, nil)
		st, err := relay.SyncDirectory(ctx)
		if err != nil || st.Running || st.Read != len(seeded) {
			t.Fatalf("sync: %+v, %v; want it complete with %d employers", st, err, len(seeded))
		}
		if store.waited {
			t.Error("the third page was not asked for while the first was being stored: the pass does not read ahead")
		}
		if want := []string{"", "7", "14", "21", "28"}; !slices.Equal(up.cursors, want) {
			t.Errorf("pages read: %q; want %q, each once", up.cursors, want)
		}
		page, err := dir.ListEmployers(ctx, domain.EmployerFilter{}, domain.PageRequest{Limit: 100})
		if err != nil || len(page.Items) != len(seeded) {
			t.Errorf("employers after the sync: %d, %v; want %d", len(page.Items), err, len(seeded))
		}
	})
}
