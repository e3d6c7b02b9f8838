package rest

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"payline/domain"
	"payline/rest/wire"
)

// query reads and validates query parameters, collecting every problem so
// one 400 names all bad parameters. Unknown parameters are ignored, but a
// query string that does not parse is refused whole rather than read in
// part (a dropped ?link_token_id=%zz would widen the answer), and so is a
// value with a NUL or invalid UTF-8, and an id (?end_user_id=,
// ?tracking_id=) with a control or bidirectional formatting character.
type query struct {
	values   url.Values
	parseErr error
	p        domain.Problems
}

func newQuery(u *url.URL) *query {
	values, err := url.ParseQuery(u.RawQuery)
	q := &query{values: values}
	if err != nil {
		q.parseErr = domain.Errorf(domain.KindInvalid, domain.CodeInvalidQuery,
			"the query string does not parse (%v); percent-encode special characters in parameter values", err)
	}
	for name, vs := range values {
		for _, v := range append(vs, name) {
			if err := wire.CheckText(name, v); err != nil {
				q.parseErr = err
			}
		}
		if wire.IsIDName(name) {
			for _, v := range vs {
				if err := wire.CheckIDText(name, v); err != nil {
					q.parseErr = err
				}
			}
		}
	}
	return q
}

func (q *query) err() error {
	if q.parseErr != nil {
		return q.parseErr
	}
	return q.p.Err()
}

// str returns a parameter's value; present says whether it was given.
func (q *query) str(name string) (string, bool) {
	vs, ok := q.values[name]
	if !ok || len(vs) == 0 {
		return "", false
	}
	return vs[len(vs)-1], true
}

// list returns a repeatable parameter: name=a&name=b, also name=a,b and
// the name[]=a form some clients send.
func (q *query) list(name string) []string {
	var out []string
	for _, key := range []string{name, name + "[]"} {
		for _, v := range q.values[key] {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
	}
	return out
}

func (q *query) boolean(name string) *bool {
	v, ok := q.str(name)
	if !ok {
		return nil
	}
	switch strings.ToLower(v) {
	case "true":
		b := true
		return &b
	case "false":
		b := false
		return &b
	}
	q.p.Invalid(name, "must be true or false, got %q", v)
	return nil
}

// timestamp parses an RFC 3339 date-time (with offset), truncated to the
// microseconds every stored time has: PostgreSQL would round finer input
// and SQLite compare it as text, and both must answer alike.
func (q *query) timestamp(name string) *time.Time {
	v, ok := q.str(name)
	if !ok {
		return nil
	}
	t, err := domain.ParseTimestamp(v)
	if err != nil {
		q.p.Invalid(name, "must be an RFC 3339 date-time such as 2025-01-31T12:00:00+00:00, got %q", v)
		return nil
	}
	t = t.UTC().Truncate(time.Microsecond)
	return &t
}

// limit parses limit: 1 to 100, default 25.
func (q *query) limit() int {
	v, ok := q.str("limit")
	if !ok {
		return domain.DefaultPageLimit
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		q.p.Invalid("limit", "must be an integer from 1 to %d, got %q", domain.MaxPageLimit, v)
		return domain.DefaultPageLimit
	}
	if err := domain.CheckPageLimit("limit", n); err != nil { // the rule GraphQL's first meets too
		q.p.Invalid("limit", "must be from 1 to %d, got %d", domain.MaxPageLimit, n)
		return domain.DefaultPageLimit
	}
	return n
}

// page parses limit and cursor for the named list.
func (q *query) page(list string) domain.PageRequest {
	p := domain.PageRequest{Limit: q.limit()}
	if v, ok := q.str("cursor"); ok {
		c, err := domain.DecodeCursor(list, v)
		if err != nil {
			q.p.Invalid("cursor", "not a cursor issued by this list; pass meta.next_cursor from the previous page unchanged")
		}
		p.Cursor = c
	}
	return p
}

func (q *query) platformType(name string) domain.PlatformType {
	v, ok := q.str(name)
	if !ok {
		return ""
	}
	t, valid := domain.ParsePlatformType(v)
	if !valid {
		q.p.Invalid(name, "must be one of payroll, time_and_attendance, tax, merchant, got %q", v)
	}
	return t
}

func (q *query) jobTypes(name string) []domain.JobType {
	var out []domain.JobType
	for _, v := range q.list(name) {
		j, ok := domain.ParseJobType(v)
		if !ok {
			q.p.Invalid(name, "%q is not a job type; use one of %s", v, joinJobTypes())
			continue
		}
		out = append(out, j)
	}
	return out
}

func joinJobTypes() string {
	names := make([]string, len(domain.JobTypes))
	for i, j := range domain.JobTypes {
		names[i] = string(j)
	}
	return strings.Join(names, ", ")
}
