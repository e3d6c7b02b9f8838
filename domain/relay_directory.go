package domain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// DirectorySync is where the sync of an upstream's directory stands,
// stored after every page so a restart resumes at the page it stopped at
// instead of reading everything again.
type DirectorySync struct {
	// Running is true while a pass is under way: Cursor is its next page
	// ("" for the first), Since its last_updated floor (zero: every
	// employer), PlatformsDone whether its platforms are stored.
	Running       bool
	Cursor        string
	Since         time.Time
	PlatformsDone bool
	// Read counts the employers the pass has stored; Newest is the newest
	// last_updated among them.
	Read   int
	Newest time.Time
	// Through is the newest last_updated of the last complete pass, where
	// the next pass starts reading (less employerSyncOverlap); Expected is
	// how many employers the last complete full pass read, the estimate
	// of a full pass; CompletedAt when the last pass completed (zero:
	// none has).
	Through     time.Time
	Expected    int
	CompletedAt time.Time
}

// Status says where the sync stands in words for /readyz and the
// dashboard: "syncing 4,200 of ~20,000 employers".
func (d DirectorySync) Status() string {
	switch {
	case d.Running && d.Expected > 0 && d.Since.IsZero():
		return fmt.Sprintf("syncing %s of ~%s employers", thousands(d.Read), thousands(d.Expected))
	case d.Running && !d.CompletedAt.IsZero():
		return fmt.Sprintf("synced; reading the employers updated since %s (%s so far)", d.Since.Format(time.RFC3339), thousands(d.Read))
	case d.Running:
		return fmt.Sprintf("syncing: %s employers so far", thousands(d.Read))
	case d.CompletedAt.IsZero():
		return "not synced yet"
	}
	return fmt.Sprintf("synced at %s", d.CompletedAt.Format(time.RFC3339))
}

// thousands writes n with comma separators.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// employerSyncOverlap is how far before the newest employer already
// synced the next sync starts reading, so an employer updated within the
// same second is not missed (writing one twice changes nothing).
const employerSyncOverlap = time.Second

// searchRefreshEvery is how often a sync under way rebuilds the search
// index, so employers become searchable as they arrive without a
// rebuild per page; searchRefreshShare bounds the share of the pass the
// rebuilds take (a rebuild that took d waits searchRefreshShare × d
// before the next), as a rebuild grows with the directory and slows on a
// busy machine.
const (
	searchRefreshEvery = 2 * time.Second
	searchRefreshShare = 5
)

// pagesAhead is how many pages the reading of a pass may run ahead of
// their storing: two seconds at the default pace, so a search index
// rebuild between two pages does not hold the upstream's requests back.
const pagesAhead = 16

// DirectoryStatus is where the directory sync stands.
func (s *RelayService) DirectoryStatus(ctx context.Context) (DirectorySync, error) {
	return s.tx.Upstream().DirectorySync(ctx, s.name)
}

// SyncDirectory runs the directory sync until its pass is complete or ctx
// ends, whichever is first, and returns where it stands (Running: more to
// do). A pass stores the upstream's platforms (every type, ESPs
// included), then each page of employers as it arrives, with where the
// pass stands, so memory does not grow with the directory and a restart
// resumes it. The first pass reads every employer; later ones those the
// upstream updated since the last. A directory row the upstream no longer
// lists stays (accounts may name it); an employer keeps an EIN or
// platform already known here when the upstream's copy has none. The
// upstream's calls go at PriorityDirectory, after everything else.
func (s *RelayService) SyncDirectory(ctx context.Context) (DirectorySync, error) {
	s.syncing.Lock()
	defer s.syncing.Unlock()
	ctx = WithUpstreamPriority(ctx, PriorityDirectory)
	st, err := s.tx.Upstream().DirectorySync(ctx, s.name)
	if err != nil {
		return st, err
	}
	if !st.Running {
		st = DirectorySync{Running: true, Through: st.Through, Expected: st.Expected, CompletedAt: st.CompletedAt, Newest: st.Through}
		if !st.Through.IsZero() {
			st.Since = st.Through.Add(-employerSyncOverlap)
		}
		if err := s.tx.Upstream().PutDirectorySync(ctx, s.name, st); err != nil {
			return st, err
		}
	}
	if !st.PlatformsDone {
		ps, err := s.upstream.Platforms(ctx)
		if err != nil {
			return st, fmt.Errorf("read the upstream's platforms: %w", err)
		}
		if err := s.directory.Put(ctx, ps, nil); err != nil {
			return st, err
		}
		st.PlatformsDone = true
		if err := s.tx.Upstream().PutDirectorySync(ctx, s.name, st); err != nil {
			return st, err
		}
	}
	refreshed, refreshEvery := s.clock.Now(), searchRefreshEvery
	defer func() {
		// What this call stored becomes searchable whatever stopped it;
		// should the rebuild fail, the server's periodic refresh retries.
		if err := s.directory.RefreshSearchIndex(context.WithoutCancel(ctx)); err != nil {
			s.log.WarnContext(ctx, "search index not rebuilt after a directory sync", slog.Any("error", err))
		}
	}()
	// The next pages are read while this one is stored, so the pass goes
	// at the upstream's pace, not at that pace plus the time each page
	// takes to store (on a busy machine, storing a page or rebuilding the
	// search index can take longer than the wait between two requests).
	pages := make(chan directoryPage, pagesAhead)
	done := make(chan struct{})
	defer close(done)
	go s.readDirectoryPages(ctx, st.Since, st.Cursor, pages, done)
	for page := range pages {
		if page.restart {
			// The upstream no longer takes the stored cursor (it expired,
			// or the upstream changed): the pass is read again from its start.
			st.Cursor, st.Read, st.Newest = "", 0, st.Through
			continue
		}
		if page.err != nil {
			return st, fmt.Errorf("read the upstream's employers: %w", page.err)
		}
		// A page in hand is stored even if ctx ended meanwhile: the next
		// call resumes after it instead of reading it again.
		store := context.WithoutCancel(ctx)
		if err := s.directory.Put(store, nil, page.employers); err != nil {
			return st, err
		}
		st.Read += len(page.employers)
		for _, e := range page.employers {
			if e.LastUpdated.After(st.Newest) {
				st.Newest = e.LastUpdated
			}
		}
		st.Cursor = page.next
		if page.next == "" {
			if st.Since.IsZero() {
				st.Expected = st.Read
			}
			st.Running, st.Through, st.CompletedAt = false, st.Newest, s.clock.Now()
		}
		if err := s.tx.Upstream().PutDirectorySync(store, s.name, st); err != nil {
			return st, err
		}
		if !st.Running {
			return st, nil
		}
		// Once ctx ends, the pages already read are stored, then the
		// reader stops and closes pages.
		if now := s.clock.Now(); ctx.Err() == nil && now.Sub(refreshed) >= refreshEvery {
			if err := s.directory.RefreshSearchIndex(ctx); err != nil {
				return st, err
			}
			refreshed = s.clock.Now()
			refreshEvery = max(searchRefreshEvery, searchRefreshShare*refreshed.Sub(now))
		}
	}
	return st, nil
}

// directoryPage is one page of a directory pass as readDirectoryPages
// hands it on: its employers and the next page's cursor ("" for the
// last), or restart (the stored cursor was refused: the pass starts
// again), or the error that ended the reading.
type directoryPage struct {
	employers []Employer
	next      string
	restart   bool
	err       error
}

// readDirectoryPages reads the pass's pages from cursor on, in order, into
// pages (up to its capacity ahead of the one being stored), until the last page, an
// error, ctx's end or done's closing; it closes pages when it stops.
func (s *RelayService) readDirectoryPages(ctx context.Context, since time.Time, cursor string, pages chan<- directoryPage, done <-chan struct{}) {
	defer close(pages)
	send := func(p directoryPage) bool {
		select {
		case pages <- p:
			return true
		case <-done:
			return false
		}
	}
	for ctx.Err() == nil {
		es, next, err := s.upstream.EmployersPage(ctx, since, cursor)
		var de *Error
		if cursor != "" && errors.As(err, &de) && de.Kind == KindInvalid {
			cursor = ""
			if !send(directoryPage{restart: true}) {
				return
			}
			continue
		}
		if err != nil {
			if ctx.Err() == nil { // ctx's end is no error: the pass stops where it stands
				send(directoryPage{err: err})
			}
			return
		}
		if !send(directoryPage{employers: es, next: next}) || next == "" {
			return
		}
		cursor = next
	}
}
