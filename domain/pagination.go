package domain

import (
	"context"
	"encoding/base64"
	"encoding/json"
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
type PageRequest struct {
	Limit  int
	Cursor *Cursor
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
// page. Cursors holds each item's own cursor (resuming after it), for
// transports that hand one out per item, as GraphQL's edges do.
type Page[T any] struct {
	Items   []T
	Next    *Cursor
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
