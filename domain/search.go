package domain

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// ResponseType says whether a search result is an employer or a platform.
type ResponseType string

// The response types of the spec.
const (
	ResponseEmployer ResponseType = "employer"
	ResponsePlatform ResponseType = "platform"
)

// SearchQuery is a validated GET /search request.
type SearchQuery struct {
	Q               string
	SupportedJobs   []JobType      // every one must be supported
	ResponseTypes   []ResponseType // empty: both
	AmountSupported *bool
	PlatformType    PlatformType // empty: any
	Limit           int
}

// MaxSearchQuery bounds q; names are far shorter.
const MaxSearchQuery = 200

// check records what is wrong with the query's values in p. A q that was
// not sent at all is the transport's to report, as a missing field.
func (q SearchQuery) check(p *Problems) {
	switch {
	case q.Q == "":
		p.Invalid("q", "must be at least 1 character")
	case len(q.Q) > MaxSearchQuery:
		p.Invalid("q", "must be at most %d characters", MaxSearchQuery)
	}
	if q.Limit < 1 || q.Limit > MaxPageLimit {
		p.Invalid("limit", "must be an integer from 1 to %d, got %d", MaxPageLimit, q.Limit)
	}
}

// SearchResult is an employer or a platform. PlatformType is the type of
// the platform result, or of the platform an employer's staff log in to.
type SearchResult struct {
	ResponseType ResponseType
	Employer     *Employer
	Platform     *Platform
	PlatformType PlatformType
}

// SearchIndex answers name searches over the directory from memory. Names
// are compared in two normal forms: compact (lower-case letters and digits
// only, so "AT&T", "at-t" and "ATT" agree) and spaced (the same with one
// space between words, for word-prefix matches).
//
// Entries are kept sorted by compact name, so the exact and prefix tiers are
// one binary search; the word-prefix tier is a binary search over every
// word-suffix of every name; the substring tier walks the posting list of
// the query's rarest trigram. A query therefore touches only candidates,
// not the whole directory.
type SearchIndex struct {
	entries  []searchEntry
	suffixes []wordSuffix
	trigrams map[string][]int32
}

type searchEntry struct {
	compact  string
	spaced   string
	result   SearchResult
	jobs     []JobType
	amountOK bool
}

type wordSuffix struct {
	text  string
	entry int32
}

// NewSearchIndex indexes employers and platforms. ESPs are indexed once,
// as employers, since the employer row and the platform row are the same
// organisation.
func NewSearchIndex(employers []Employer, platforms []Platform) *SearchIndex {
	types := make(map[string]PlatformType, len(platforms))
	for _, p := range platforms {
		types[p.ID] = p.Type
	}
	entries := make([]searchEntry, 0, len(employers)+len(platforms))
	for i := range employers {
		e := &employers[i]
		ptype, ok := types[e.PlatformID]
		if !ok {
			ptype = PlatformPayroll
		}
		entries = append(entries, newSearchEntry(e.Name, SearchResult{
			ResponseType: ResponseEmployer, Employer: e, PlatformType: ptype,
		}, e.SupportedJobs, e.AmountSupported))
	}
	for i := range platforms {
		p := &platforms[i]
		if p.ESP {
			continue
		}
		entries = append(entries, newSearchEntry(p.Name, SearchResult{
			ResponseType: ResponsePlatform, Platform: p, PlatformType: p.Type,
		}, p.SupportedJobs, p.AmountSupported))
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].less(&entries[j]) })

	idx := &SearchIndex{entries: entries, trigrams: make(map[string][]int32)}
	for i := range entries {
		e := &entries[i]
		for k := 1; k < len(e.spaced); k++ {
			if e.spaced[k-1] == ' ' {
				idx.suffixes = append(idx.suffixes, wordSuffix{text: e.spaced[k:], entry: int32(i)})
			}
		}
		seen := map[string]bool{}
		for k := 0; k+3 <= len(e.compact); k++ {
			g := e.compact[k : k+3]
			if !seen[g] {
				seen[g] = true
				idx.trigrams[g] = append(idx.trigrams[g], int32(i))
			}
		}
	}
	sort.Slice(idx.suffixes, func(i, j int) bool {
		a, b := idx.suffixes[i], idx.suffixes[j]
		if a.text != b.text {
			return a.text < b.text
		}
		return a.entry < b.entry
	})
	return idx
}

func newSearchEntry(name string, r SearchResult, jobs []JobType, amountOK bool) searchEntry {
	spaced := NormalizeSearchText(name)
	return searchEntry{
		compact:  strings.ReplaceAll(spaced, " ", ""),
		spaced:   spaced,
		result:   r,
		jobs:     jobs,
		amountOK: amountOK,
	}
}

func (e *searchEntry) id() string {
	if e.result.Employer != nil {
		return e.result.Employer.ID
	}
	return e.result.Platform.ID
}

func (e *searchEntry) less(o *searchEntry) bool {
	if e.compact != o.compact {
		return e.compact < o.compact
	}
	return e.id() < o.id()
}

// NormalizeSearchText lower-cases s, keeps letters and digits, drops
// apostrophes (so "Macy's" reads as "macys") and turns every other run of
// punctuation or space into one space.
func NormalizeSearchText(s string) string {
	var b strings.Builder
	pendingSpace := false
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if pendingSpace && b.Len() > 0 {
				b.WriteByte(' ')
			}
			pendingSpace = false
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
		default:
			pendingSpace = true
		}
	}
	return b.String()
}

// Len is the number of indexed entries.
func (idx *SearchIndex) Len() int { return len(idx.entries) }

// Search returns at most q.Limit results, best tier first and by name
// within a tier. A query with no letters or digits matches nothing.
func (idx *SearchIndex) Search(q SearchQuery) []SearchResult {
	spaced := NormalizeSearchText(q.Q)
	compact := strings.ReplaceAll(spaced, " ", "")
	if compact == "" || q.Limit <= 0 {
		return []SearchResult{}
	}
	var picked []int32
	taken := map[int32]bool{}
	take := func(i int32) bool {
		if !taken[i] && idx.entries[i].matches(&q) {
			taken[i] = true
			picked = append(picked, i)
		}
		return len(picked) >= q.Limit
	}

	// Exact and prefix: a contiguous run of the sorted entries; equal names
	// sort before longer ones, so the exact tier comes out first.
	start := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].compact >= compact })
	for i := start; i < len(idx.entries) && strings.HasPrefix(idx.entries[i].compact, compact); i++ {
		if take(int32(i)) {
			return idx.results(picked)
		}
	}

	// Word prefix: candidates come in suffix order, so gather them all and
	// order them by name before filling the page.
	var words []int32
	start = sort.Search(len(idx.suffixes), func(i int) bool { return idx.suffixes[i].text >= spaced })
	for i := start; i < len(idx.suffixes) && strings.HasPrefix(idx.suffixes[i].text, spaced); i++ {
		words = append(words, idx.suffixes[i].entry)
	}
	slices.Sort(words)
	for _, i := range words {
		if take(i) {
			return idx.results(picked)
		}
	}

	// Substring, in name order.
	for _, i := range idx.substringCandidates(compact) {
		if strings.Contains(idx.entries[i].compact, compact) && take(i) {
			break
		}
	}
	return idx.results(picked)
}

// substringCandidates is the posting list of the query's rarest trigram,
// or every entry for queries too short to have one.
func (idx *SearchIndex) substringCandidates(compact string) []int32 {
	if len(compact) < 3 {
		all := make([]int32, len(idx.entries))
		for i := range all {
			all[i] = int32(i)
		}
		return all
	}
	var best []int32
	for k := 0; k+3 <= len(compact); k++ {
		list, ok := idx.trigrams[compact[k:k+3]]
		if !ok {
			return nil
		}
		if best == nil || len(list) < len(best) {
			best = list
		}
	}
	return best
}

func (e *searchEntry) matches(q *SearchQuery) bool {
	if len(q.ResponseTypes) > 0 && !slices.Contains(q.ResponseTypes, e.result.ResponseType) {
		return false
	}
	if q.PlatformType != "" && e.result.PlatformType != q.PlatformType {
		return false
	}
	if q.AmountSupported != nil && *q.AmountSupported != e.amountOK {
		return false
	}
	return Supports(e.jobs, q.SupportedJobs)
}

func (idx *SearchIndex) results(picked []int32) []SearchResult {
	out := make([]SearchResult, len(picked))
	for k, i := range picked {
		out[k] = idx.entries[i].result
	}
	return out
}
