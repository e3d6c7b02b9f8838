package graph

import (
	"time"

	"payline/domain"
	"payline/graph/model"
)

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// microseconds truncates a filter time as REST does, so both transports
// and both databases agree.
func microseconds(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC().Truncate(time.Microsecond)
	return &u
}

func pageInfo[T any](p domain.Page[T]) *model.PageInfo {
	info := &model.PageInfo{HasNextPage: p.Next != nil}
	if p.Next != nil {
		c := p.Next.Encode()
		info.EndCursor = &c
	}
	return info
}
