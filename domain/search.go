package domain

import "slices"

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

// SearchIndex answers name searches over a snapshot of the directory
// from memory (domain/search implements it). Search returns at most
// q.Limit results, best first; Len is the number of entries indexed.
type SearchIndex interface {
	Search(q SearchQuery) []SearchResult
	Len() int
}

// SearchIndexer builds a SearchIndex over a snapshot of the directory;
// the index may keep both slices.
type SearchIndexer func(employers []Employer, platforms []Platform) SearchIndex

// Admits reports whether a result of type rtype, whose platform is of
// type ptype, supporting jobs and (amountOK) amount allocations, passes
// the query's filters: the rule every search index applies.
func (q *SearchQuery) Admits(rtype ResponseType, ptype PlatformType, jobs []JobType, amountOK bool) bool {
	if len(q.ResponseTypes) > 0 && !slices.Contains(q.ResponseTypes, rtype) {
		return false
	}
	if q.PlatformType != "" && ptype != q.PlatformType {
		return false
	}
	if q.AmountSupported != nil && *q.AmountSupported != amountOK {
		return false
	}
	return Supports(jobs, q.SupportedJobs)
}
