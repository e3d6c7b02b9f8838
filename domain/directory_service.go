package domain

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// DirectoryService is the use-case layer over the employer and platform
// directory: lookups go to the store, name search to an in-memory index
// that is rebuilt when the directory's revision changes.
type DirectoryService struct {
	store DirectoryStore
	// fallback answers lookups the directory cannot: a relayed mode's
	// upstreams (whose employers carry no EIN, and whose directory may be
	// syncing still); NoRelay otherwise.
	fallback DirectoryFallback
	// indexer builds the search index (domain/search's Build).
	indexer SearchIndexer

	reload   sync.Mutex // one rebuild at a time
	snapshot atomic.Pointer[searchSnapshot]
}

type searchSnapshot struct {
	revision int64
	index    SearchIndex
}

// NewDirectoryService builds the service; the search index is loaded on
// first use or by RefreshSearchIndex. fallback answers the lookups the
// directory cannot (domain.NoRelay: none); indexer builds the search index
// (search.Build).
func NewDirectoryService(store DirectoryStore, fallback DirectoryFallback, indexer SearchIndexer) *DirectoryService {
	return &DirectoryService{store: store, fallback: fallback, indexer: indexer}
}

// ListEmployers pages the employers, ordered by name.
func (s *DirectoryService) ListEmployers(ctx context.Context, f EmployerFilter, p PageRequest) (Page[Employer], error) {
	return s.store.ListEmployers(ctx, f, p)
}

// Employer returns one employer. Errors: INVALID_FIELDS for a malformed
// id, EMPLOYER_NOT_FOUND for an unknown one.
func (s *DirectoryService) Employer(ctx context.Context, id string) (Employer, error) {
	if err := CheckID("employer_id", id); err != nil {
		return Employer{}, err
	}
	e, err := s.store.Employer(ctx, id)
	if errors.Is(err, ErrNoRows) {
		// Not synced yet: the upstream's copy, kept in the directory so the
		// next read of it costs no request.
		if e, err = s.fallback.Employer(ctx, id); err == nil {
			err = s.Put(ctx, nil, []Employer{e})
		}
	}
	if errors.Is(err, ErrNoRows) {
		return Employer{}, Errorf(KindNotFound, CodeEmployerNotFound, "no employer with id %s", id)
	}
	return e, err
}

// EmployerByEIN looks an employer up by EIN, in a relayed mode at the
// upstream when the directory does not know it. Errors: INVALID_FIELDS unless
// ein is exactly nine digits, EMPLOYER_NOT_FOUND when none has it.
func (s *DirectoryService) EmployerByEIN(ctx context.Context, ein string) (Employer, error) {
	if ein == "" {
		return Employer{}, Errorf(KindInvalid, CodeMissingFields, "missing required fields: ein")
	}
	if !ValidEIN(ein) {
		return Employer{}, Errorf(KindInvalid, CodeInvalidFields, "ein: must be exactly 9 digits with no dash, got %q", ein)
	}
	e, err := s.store.EmployerByEIN(ctx, ein)
	if errors.Is(err, ErrNoRows) {
		e, err = s.fallback.EmployerByEIN(ctx, ein)
	}
	if errors.Is(err, ErrNoRows) {
		return Employer{}, Errorf(KindNotFound, CodeEmployerNotFound, "no employer with ein %s", ein)
	}
	return e, err
}

// ListPlatforms pages the platforms, ordered by name.
func (s *DirectoryService) ListPlatforms(ctx context.Context, f PlatformFilter, p PageRequest) (Page[Platform], error) {
	return s.store.ListPlatforms(ctx, f, p)
}

// Platform returns one platform. Errors: INVALID_FIELDS for a malformed
// id, PLATFORM_NOT_FOUND for an unknown one.
func (s *DirectoryService) Platform(ctx context.Context, id string) (Platform, error) {
	if err := CheckID("platform_id", id); err != nil {
		return Platform{}, err
	}
	p, err := s.store.Platform(ctx, id)
	if errors.Is(err, ErrNoRows) {
		// Not synced yet (an account made during the first sync): the
		// upstream's copy, kept so the next read costs no request.
		if p, err = s.fallback.Platform(ctx, id); err == nil {
			err = s.Put(ctx, []Platform{p}, nil)
		}
	}
	if errors.Is(err, ErrNoRows) {
		return Platform{}, Errorf(KindNotFound, CodePlatformNotFound, "no platform with id %s", id)
	}
	return p, err
}

// PlatformsByID returns the platforms with the given ids in key order,
// for batch loaders. An unknown id gets PLATFORM_NOT_FOUND in its slot.
func (s *DirectoryService) PlatformsByID(ctx context.Context, ids []string) ([]Platform, []error) {
	found, err := s.store.PlatformsByID(ctx, ids)
	if err != nil {
		return failAll[Platform](len(ids), err)
	}
	return inOrder(ids, found, func(p Platform) string { return p.ID }, func(id string) error {
		return Errorf(KindNotFound, CodePlatformNotFound, "no platform with id %s", id)
	})
}

// EmployersByID returns the employers with the given ids in key order,
// for batch reads. An unknown id gets EMPLOYER_NOT_FOUND in its slot.
func (s *DirectoryService) EmployersByID(ctx context.Context, ids []string) ([]Employer, []error) {
	found, err := s.store.EmployersByID(ctx, ids)
	if err != nil {
		return failAll[Employer](len(ids), err)
	}
	return inOrder(ids, found, func(e Employer) string { return e.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeEmployerNotFound, "no employer with id %s", id)
	})
}

// Search finds employers and platforms by name. Errors: INVALID_FIELDS
// for an empty or too long q or a limit outside 1..100, the same rules for
// REST, GraphQL and Link.
func (s *DirectoryService) Search(ctx context.Context, q SearchQuery) ([]SearchResult, error) {
	var problems Problems
	q.check(&problems)
	if err := problems.Err(); err != nil {
		return nil, err
	}
	snap := s.snapshot.Load()
	if snap == nil {
		if err := s.RefreshSearchIndex(ctx); err != nil {
			return nil, err
		}
		snap = s.snapshot.Load()
	}
	res := snap.index.Search(q)
	if len(res) >= q.Limit {
		return res, nil
	}
	// Fewer than asked for: while a relayed directory's first sync is
	// under way the upstream may know more. Its employers are kept, so
	// the next lookup of one costs no request; a fallback that fails
	// leaves the directory's own answer.
	more, err := s.fallback.Search(ctx, q)
	if err != nil || len(more) == 0 {
		return res, nil
	}
	var found []Employer
	for _, r := range more {
		if r.Employer != nil {
			found = append(found, *r.Employer)
		}
	}
	_ = s.Put(ctx, nil, found) // a cache: the sync writes them anyway
	return mergeResults(res, more, q.Limit), nil
}

// mergeResults appends to res the results of more it lacks (by kind and
// id), up to limit.
func mergeResults(res, more []SearchResult, limit int) []SearchResult {
	seen := map[string]bool{}
	key := func(r SearchResult) string {
		if r.Employer != nil {
			return "e" + r.Employer.ID
		}
		if r.Platform != nil {
			return "p" + r.Platform.ID
		}
		return ""
	}
	for _, r := range res {
		seen[key(r)] = true
	}
	for _, r := range more {
		if len(res) >= limit {
			break
		}
		if k := key(r); k != "" && !seen[k] {
			seen[k] = true
			res = append(res, r)
		}
	}
	return res
}

// RefreshSearchIndex rebuilds the index if the directory changed since it
// was built. The server calls it periodically, so a `directory seed` run by
// another process shows up in search without a restart.
func (s *DirectoryService) RefreshSearchIndex(ctx context.Context) error {
	s.reload.Lock()
	defer s.reload.Unlock()
	rev, err := s.store.Revision(ctx)
	if err != nil {
		return fmt.Errorf("read directory revision: %w", err)
	}
	if cur := s.snapshot.Load(); cur != nil && cur.revision == rev {
		return nil
	}
	employers, platforms, err := s.store.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("load directory for search: %w", err)
	}
	s.snapshot.Store(&searchSnapshot{revision: rev, index: s.indexer(employers, platforms)})
	return nil
}

// LearnEmployerPlatform records the platform an employer's staff log in
// to, learnt from an account connected at that employer, where the
// directory does not say (a relayed upstream's employers carry no
// platform): the employer's platform then answers as the sandbox's does.
// An employer that names a platform already keeps it.
func (s *DirectoryService) LearnEmployerPlatform(ctx context.Context, employerID, platformID string) error {
	if employerID == "" || platformID == "" {
		return nil
	}
	e, err := s.store.Employer(ctx, employerID)
	if errors.Is(err, ErrNoRows) || (err == nil && e.PlatformID != "") {
		return nil
	}
	if err != nil {
		return err
	}
	e.PlatformID = platformID
	return s.Put(ctx, nil, []Employer{e})
}

// Put writes platforms and employers (new ones added, known ones
// updated) without rebuilding the search index: a sync that writes page
// after page rebuilds it now and then with RefreshSearchIndex.
func (s *DirectoryService) Put(ctx context.Context, platforms []Platform, employers []Employer) error {
	if len(platforms) == 0 && len(employers) == 0 {
		return nil
	}
	if err := s.store.UpsertDirectory(ctx, platforms, employers); err != nil {
		return fmt.Errorf("write directory: %w", err)
	}
	return nil
}

// Seed writes a directory (the sandbox one, in practice) and rebuilds the
// search index.
func (s *DirectoryService) Seed(ctx context.Context, platforms []Platform, employers []Employer) error {
	if err := s.store.UpsertDirectory(ctx, platforms, employers); err != nil {
		return fmt.Errorf("seed directory: %w", err)
	}
	return s.RefreshSearchIndex(ctx)
}
