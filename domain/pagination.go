package domain

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"
)

// Page size bounds of the spec: limit is 1 to 100, default 25.
const (
	DefaultPageLimit = 25
	MaxPageLimit     = 100
)

// Cursor is a keyset position: the sort key and id of the last row of the
// previous page, plus the collection it belongs to so a cursor of one list
// is refused by another. Callers see it only as an opaque string.
type Cursor struct {
	List string `json:"l"`
	Key  string `json:"k"`
	ID   string `json:"i"`
}

// Encode returns the opaque form handed to callers (base64url of JSON).
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c) // a struct of strings always marshals
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a cursor issued for the named list. Anything else is
// an INVALID_FIELDS error that tells the caller to use next_cursor as given.
func DecodeCursor(list, s string) (*Cursor, error) {
	if s == "" {
		return nil, nil
	}
	bad := Errorf(KindInvalid, CodeInvalidFields,
		"cursor: not a cursor issued by this list; pass meta.next_cursor from the previous page unchanged")
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var c Cursor
	if err := json.Unmarshal(raw, &c); err != nil || c.List != list || c.ID == "" || !storable(c.Key) || !storable(c.ID) {
		return nil, bad // a forged key must not reach the database
	}
	return &c, nil
}

// storable reports whether s is text every database column can hold:
// valid UTF-8 without NUL characters.
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// PageRequest is a validated page size and optional starting cursor.
// Backward reads the Limit items just before Cursor (or the list's last
// Limit items without one), as GraphQL's last and before do; the page's
// items are still in the list's order.
type PageRequest struct {
	Limit    int
	Cursor   *Cursor
	Backward bool
}

// ConnectionArgs are a Relay connection's paging arguments, nil when not
// given: first and after read forward, last and before backward.
type ConnectionArgs struct {
	First, Last   *int
	After, Before *string
}

// PageRequest validates the arguments for the named list: one of first
// and last (1 to MaxPageLimit; DefaultPageLimit forward when neither is
// given), and a cursor that goes the same way (after with first, before
// with last). A connection reads in one direction, so mixing them is
// refused rather than guessed at.
func (a ConnectionArgs) PageRequest(list string) (PageRequest, error) {
	after, before := a.After != nil && *a.After != "", a.Before != nil && *a.Before != ""
	switch {
	case a.First != nil && a.Last != nil:
		return PageRequest{}, Errorf(KindInvalid, CodeInvalidFields,
			"first and last: give one of them, first (with after) to read forward or last (with before) to read backward")
	case after && before:
		return PageRequest{}, Errorf(KindInvalid, CodeInvalidFields,
			"after and before: give one of them, after (with first) to read forward or before (with last) to read backward")
	case a.First != nil && before:
		return PageRequest{}, Errorf(KindInvalid, CodeInvalidFields, "before reads backward: use it with last, not first")
	case a.Last != nil && after:
		return PageRequest{}, Errorf(KindInvalid, CodeInvalidFields, "after reads forward: use it with first, not last")
	}
	if a.Last != nil || before {
		limit := DefaultPageLimit
		if a.Last != nil {
			limit = *a.Last
		}
		if err := CheckPageLimit("last", limit); err != nil {
			return PageRequest{}, err
		}
		var cursor string
		if before {
			cursor = *a.Before
		}
		c, err := DecodeCursor(list, cursor)
		if err != nil {
			return PageRequest{}, err
		}
		return PageRequest{Limit: limit, Cursor: c, Backward: true}, nil
	}
	limit := DefaultPageLimit
	if a.First != nil {
		limit = *a.First
	}
	if err := CheckPageLimit("first", limit); err != nil {
		return PageRequest{}, err
	}
	var cursor string
	if after {
		cursor = *a.After
	}
	c, err := DecodeCursor(list, cursor)
	if err != nil {
		return PageRequest{}, err
	}
	return PageRequest{Limit: limit, Cursor: c}, nil
}

// NewPageRequest validates a page size (1 to 100) and an optional cursor
// of the named list, for transports that take them one at a time.
func NewPageRequest(list string, limit int, cursor string) (PageRequest, error) {
	if err := CheckPageLimit("page size", limit); err != nil {
		return PageRequest{}, err
	}
	c, err := DecodeCursor(list, cursor)
	if err != nil {
		return PageRequest{}, err
	}
	return PageRequest{Limit: limit, Cursor: c}, nil
}

// CheckPageLimit is the one page-size rule, for REST's limit and
// GraphQL's first alike: 1 to MaxPageLimit. field names the parameter.
func CheckPageLimit(field string, n int) error {
	if n < 1 || n > MaxPageLimit {
		return Errorf(KindInvalid, CodeInvalidFields, "%s must be from 1 to %d, got %d", field, MaxPageLimit, n)
	}
	return nil
}

// Page is one page of a keyset-paginated list. Next is nil on the last
// page. Cursors holds each item's own cursor (resuming after it, or
// before it backward), for transports that hand one out per item, as
// GraphQL's edges do. A page read backward sets Prev, the cursor of its
// first item, when more items come before it, and never Next.
type Page[T any] struct {
	Items   []T
	Next    *Cursor
	Prev    *Cursor
	Cursors []Cursor
}

// PageOf trims rows fetched with limit+1 to the page and sets the cursor
// from the last kept row when more rows exist.
func PageOf[T any](list string, rows []T, limit int, key func(T) (sortKey, id string)) Page[T] {
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	p := Page[T]{Items: rows, Cursors: make([]Cursor, len(rows))}
	for i, r := range rows {
		k, id := key(r)
		p.Cursors[i] = Cursor{List: list, Key: k, ID: id}
	}
	if more {
		p.Next = &p.Cursors[len(rows)-1]
	}
	return p
}

// PageBackwardOf is PageOf for rows read backward (from the end of the
// list, or from a before cursor towards its start) with limit+1: it trims
// them to the page, puts them back in the list's order, and sets Prev
// when more rows come before the page.
func PageBackwardOf[T any](list string, rows []T, limit int, key func(T) (sortKey, id string)) Page[T] {
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	slices.Reverse(rows)
	p := PageOf(list, rows, limit, key)
	if more {
		p.Prev = &p.Cursors[0]
	}
	return p
}

// ReadAll pages through a list to its end, MaxPageLimit at a time: the
// internal reads that need every row (an account's switches, the
// directory's platforms) use it, so none stops silently at one page.
func ReadAll[T any](ctx context.Context, read func(ctx context.Context, p PageRequest) (Page[T], error)) ([]T, error) {
	var all []T
	p := PageRequest{Limit: MaxPageLimit}
	for {
		page, err := read(ctx, p)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.Next == nil {
			return all, nil
		}
		p.Cursor = page.Next
	}
}
