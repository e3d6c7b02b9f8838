// Package search is the directory's name search: an in-memory index of
// employers' and platforms' names (sorted names for exact and prefix
// matches, word suffixes for word prefixes, trigram postings for
// substrings) behind the domain's SearchIndex port. The domain says what
// a search must answer and which results a query admits
// (domain.SearchQuery.Admits); how names are found fast is this
// package's.
package search

import (
	"slices"
	"sort"
	"strings"
	"unicode"

	"payline/domain"
)

// Build is New as a domain.SearchIndexer, for DirectoryService.
func Build(employers []domain.Employer, platforms []domain.Platform) domain.SearchIndex {
	return New(employers, platforms)
}

// Index answers name searches over the directory from memory. Names
// are compared in two normal forms: compact (lower-case letters and digits
// only, so "AT&T", "at-t" and "ATT" agree) and spaced (the same with one
// space between words, for word-prefix matches).
//
// Entries are kept sorted by compact name, so the exact and prefix tiers are
// one binary search; the word-prefix tier is a binary search over every
// word-suffix of every name; the substring tier walks the posting list of
// the query's rarest trigram. A query therefore touches only candidates,
// not the whole directory.
//
// Memory is kept to what a query needs, as a directory of a million
// employers must fit well under 300 MB (docs/benchmarks.md): an entry
// refers to its employer or platform by index rather than copying its
// fields, a word suffix is an entry and an offset into that entry's name,
// and the trigram posting lists share one array.
type Index struct {
	employers []domain.Employer
	platforms []domain.Platform
	entries   []searchEntry
	suffixes  []wordSuffix
	trigrams  map[uint32][]int32
	postings  []int32 // every posting list, back to back
	ptypes    []domain.PlatformType
}

type searchEntry struct {
	compact string
	spaced  string
	// ref is the employer's index, or -1 minus the platform's.
	ref   int32
	ptype uint8 // index into Index.ptypes
}

// wordSuffix is entries[entry].spaced[off:], where a word starts.
type wordSuffix struct {
	entry int32
	off   uint32
}

func (idx *Index) suffixText(w wordSuffix) string { return idx.entries[w.entry].spaced[w.off:] }

// New indexes employers and platforms, keeping both slices (it
// returns pointers into them). ESPs are indexed once, as employers, since
// the employer row and the platform row are the same organisation.
func New(employers []domain.Employer, platforms []domain.Platform) *Index {
	idx := &Index{employers: employers, platforms: platforms}
	ptypeCode := map[domain.PlatformType]uint8{}
	code := func(t domain.PlatformType) uint8 {
		c, ok := ptypeCode[t]
		if !ok {
			c = uint8(len(idx.ptypes))
			ptypeCode[t] = c
			idx.ptypes = append(idx.ptypes, t)
		}
		return c
	}
	types := make(map[string]domain.PlatformType, len(platforms))
	for _, p := range platforms {
		types[p.ID] = p.Type
	}
	entries := make([]searchEntry, 0, len(employers)+len(platforms))
	for i := range employers {
		ptype, ok := types[employers[i].PlatformID]
		if !ok {
			ptype = domain.PlatformPayroll
		}
		entries = append(entries, newSearchEntry(employers[i].Name, int32(i), code(ptype)))
	}
	for i := range platforms {
		if !platforms[i].ESP {
			entries = append(entries, newSearchEntry(platforms[i].Name, -1-int32(i), code(platforms[i].Type)))
		}
	}
	idx.entries = entries
	sort.Slice(entries, func(i, j int) bool { return idx.less(&entries[i], &entries[j]) })

	// Trigram posting lists in two passes: count, then fill one array, so
	// no list carries append's spare capacity.
	counts := map[uint32]int32{}
	idx.eachTrigram(func(_ int32, g uint32) { counts[g]++ })
	idx.postings = make([]int32, 0, sum(counts))
	idx.trigrams = make(map[uint32][]int32, len(counts))
	for g, n := range counts {
		start := len(idx.postings)
		idx.postings = idx.postings[:start+int(n)]
		idx.trigrams[g] = idx.postings[start : start : start+int(n)]
	}
	idx.eachTrigram(func(i int32, g uint32) { idx.trigrams[g] = append(idx.trigrams[g], i) })

	words := 0
	for i := range entries {
		words += strings.Count(entries[i].spaced, " ")
	}
	idx.suffixes = make([]wordSuffix, 0, words)
	for i := range entries {
		sp := entries[i].spaced
		for k := 1; k < len(sp); k++ {
			if sp[k-1] == ' ' {
				idx.suffixes = append(idx.suffixes, wordSuffix{entry: int32(i), off: uint32(k)})
			}
		}
	}
	sort.Slice(idx.suffixes, func(i, j int) bool {
		a, b := idx.suffixes[i], idx.suffixes[j]
		if ta, tb := idx.suffixText(a), idx.suffixText(b); ta != tb {
			return ta < tb
		}
		return a.entry < b.entry
	})
	return idx
}

func sum(m map[uint32]int32) int {
	n := 0
	for _, v := range m {
		n += int(v)
	}
	return n
}

// eachTrigram calls fn once for each distinct trigram of each entry's
// compact name, entries in order.
func (idx *Index) eachTrigram(fn func(entry int32, g uint32)) {
	var seen []uint32
	for i := range idx.entries {
		c := idx.entries[i].compact
		seen = seen[:0]
		for k := 0; k+3 <= len(c); k++ {
			g := trigram(c[k : k+3])
			if !slices.Contains(seen, g) {
				seen = append(seen, g)
				fn(int32(i), g)
			}
		}
	}
}

func trigram(s string) uint32 { return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) }

func newSearchEntry(name string, ref int32, ptype uint8) searchEntry {
	spaced := Normalize(name)
	return searchEntry{compact: strings.ReplaceAll(spaced, " ", ""), spaced: spaced, ref: ref, ptype: ptype}
}

func (idx *Index) id(e *searchEntry) string {
	if e.ref >= 0 {
		return idx.employers[e.ref].ID
	}
	return idx.platforms[-1-e.ref].ID
}

func (idx *Index) less(a, b *searchEntry) bool {
	if a.compact != b.compact {
		return a.compact < b.compact
	}
	return idx.id(a) < idx.id(b)
}

// result is the entry's employer or platform as a search result.
func (idx *Index) result(e *searchEntry) domain.SearchResult {
	if e.ref >= 0 {
		return domain.SearchResult{ResponseType: domain.ResponseEmployer, Employer: &idx.employers[e.ref], PlatformType: idx.ptypes[e.ptype]}
	}
	return domain.SearchResult{ResponseType: domain.ResponsePlatform, Platform: &idx.platforms[-1-e.ref], PlatformType: idx.ptypes[e.ptype]}
}

// Normalize lower-cases s, keeps letters and digits, drops
// apostrophes (so "Macy's" reads as "macys") and turns every other run of
// punctuation or space into one space.
func Normalize(s string) string {
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
func (idx *Index) Len() int { return len(idx.entries) }

// Search returns at most q.Limit results, best tier first and by name
// within a tier. A query with no letters or digits matches nothing.
func (idx *Index) Search(q domain.SearchQuery) []domain.SearchResult {
	spaced := Normalize(q.Q)
	compact := strings.ReplaceAll(spaced, " ", "")
	if compact == "" || q.Limit <= 0 {
		return []domain.SearchResult{}
	}
	var picked []int32
	taken := map[int32]bool{}
	eligible := func(i int32) bool { return !taken[i] && idx.matches(&idx.entries[i], &q) }
	take := func(i int32) bool {
		if eligible(i) {
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

	// Word prefix: candidates come in suffix order; the page needs only the
	// first few in name (entry) order, so keep the smallest eligible ones
	// in a bounded max-heap instead of sorting them all (a common word
	// matches a hundred thousand names at a million employers).
	need := q.Limit - len(picked)
	best := make([]int32, 0, need)
	start = sort.Search(len(idx.suffixes), func(i int) bool { return idx.suffixText(idx.suffixes[i]) >= spaced })
	for i := start; i < len(idx.suffixes); i++ {
		text := idx.suffixText(idx.suffixes[i])
		if !strings.HasPrefix(text, spaced) {
			break
		}
		e := idx.suffixes[i].entry
		if len(best) == need && e >= best[0] {
			// Suffixes with the same text are in entry order: the rest of
			// this text's run cannot make the page either.
			rest := idx.suffixes[i+1:]
			i += sort.Search(len(rest), func(k int) bool { return idx.suffixText(rest[k]) != text })
			continue
		}
		if !eligible(e) || slices.Contains(best, e) {
			continue
		}
		if len(best) < need {
			heapPush(&best, e)
		} else {
			best[0] = e
			heapDown(best, 0)
		}
	}
	slices.Sort(best)
	for _, i := range best {
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

// heapPush and heapDown keep h a max-heap of entry indexes.
func heapPush(h *[]int32, v int32) {
	*h = append(*h, v)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] >= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func heapDown(h []int32, i int) {
	for {
		l, big := 2*i+1, i
		if l < len(h) && h[l] > h[big] {
			big = l
		}
		if r := l + 1; r < len(h) && h[r] > h[big] {
			big = r
		}
		if big == i {
			return
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
}

// substringCandidates is the posting list of the query's rarest trigram,
// or every entry for queries too short to have one.
func (idx *Index) substringCandidates(compact string) []int32 {
	if len(compact) < 3 {
		all := make([]int32, len(idx.entries))
		for i := range all {
			all[i] = int32(i)
		}
		return all
	}
	var best []int32
	for k := 0; k+3 <= len(compact); k++ {
		list, ok := idx.trigrams[trigram(compact[k:k+3])]
		if !ok {
			return nil
		}
		if best == nil || len(list) < len(best) {
			best = list
		}
	}
	return best
}

func (idx *Index) matches(e *searchEntry, q *domain.SearchQuery) bool {
	if e.ref >= 0 {
		emp := &idx.employers[e.ref]
		return q.Admits(domain.ResponseEmployer, idx.ptypes[e.ptype], emp.SupportedJobs, emp.AmountSupported)
	}
	p := &idx.platforms[-1-e.ref]
	return q.Admits(domain.ResponsePlatform, idx.ptypes[e.ptype], p.SupportedJobs, p.AmountSupported)
}

func (idx *Index) results(picked []int32) []domain.SearchResult {
	out := make([]domain.SearchResult, len(picked))
	for k, i := range picked {
		out[k] = idx.result(&idx.entries[i])
	}
	return out
}
