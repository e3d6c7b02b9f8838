package domain_test

import (
	"context"
	"strconv"
	"testing"

	"payline/domain"
)

func TestCursorRoundTrip(t *testing.T) {
	c := domain.Cursor{List: "employers", Key: "Acme \"Co\" ✓", ID: domain.NewID()}
	got, err := domain.DecodeCursor("employers", c.Encode())
	if err != nil || *got != c {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if _, err := domain.DecodeCursor("platforms", c.Encode()); !domain.IsKind(err, domain.KindInvalid) {
		t.Errorf("cursor of another list: %v", err)
	}
	if got, err := domain.DecodeCursor("employers", ""); got != nil || err != nil {
		t.Errorf("empty cursor: %v, %v", got, err)
	}
}

func TestPageOf(t *testing.T) {
	key := func(n int) (string, string) { return "k", string(rune('a' + n)) }
	p := domain.PageOf("l", []int{0, 1, 2}, 2, key)
	if len(p.Items) != 2 || p.Next == nil || p.Next.ID != "b" {
		t.Errorf("over the limit: %+v", p)
	}
	p = domain.PageOf("l", []int{0, 1}, 2, key)
	if len(p.Items) != 2 || p.Next != nil {
		t.Errorf("exactly the limit: %+v", p)
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add((domain.Cursor{List: "employers", Key: "a", ID: "b"}).Encode())
	f.Add("")
	f.Add("!!!")
	f.Add("eyJsIjoiZW1wbG95ZXJzIn0")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := domain.DecodeCursor("employers", s)
		if err != nil {
			if !domain.IsKind(err, domain.KindInvalid) {
				t.Fatalf("non-validation error %v", err)
			}
			return
		}
		if c != nil && (c.List != "employers" || c.ID == "") {
			t.Fatalf("accepted %+v", c)
		}
	})
}

func TestProblemsNameEveryField(t *testing.T) {
	var p domain.Problems
	if p.Err() != nil {
		t.Fatal("no problems should be no error")
	}
	p.Invalid("limit", "must be 1 to 100")
	p.Invalid("cursor", "bad")
	e := domain.AsError(p.Err())
	if e.Code != domain.CodeInvalidFields || e.Message != "limit: must be 1 to 100; cursor: bad" {
		t.Errorf("invalid only: %s %q", e.Code, e.Message)
	}
	p.Missing("q")
	e = domain.AsError(p.Err())
	if e.Code != domain.CodeMissingFields || e.Message != "missing required fields: q; limit: must be 1 to 100; cursor: bad" {
		t.Errorf("with missing: %s %q", e.Code, e.Message)
	}
}

// TestReadAllPagesToTheEnd: 250 rows come back whole, in order, through
// three pages, where one page once stopped internal reads at 100.
func TestReadAllPagesToTheEnd(t *testing.T) {
	rows := make([]int, 250)
	for i := range rows {
		rows[i] = i
	}
	pages := 0
	got, err := domain.ReadAll(t.Context(), func(_ context.Context, p domain.PageRequest) (domain.Page[int], error) {
		pages++
		start := 0
		if p.Cursor != nil {
			start, _ = strconv.Atoi(p.Cursor.ID)
			start++
		}
		end := min(start+p.Limit+1, len(rows))
		return domain.PageOf("n", rows[start:end], p.Limit, func(n int) (string, string) { return "", strconv.Itoa(n) }), nil
	})
	if err != nil || len(got) != 250 || got[249] != 249 || pages != 3 {
		t.Fatalf("read %d rows in %d pages (%v); want 250 in 3", len(got), pages, err)
	}
	for i, n := range got {
		if n != i {
			t.Fatalf("row %d is %d", i, n)
		}
	}
}

// TestConnectionArgs: one size and a cursor going its way; 25 forward
// without either size; anything mixed is refused.
func TestConnectionArgs(t *testing.T) {
	c := domain.Cursor{List: "employers", Key: "Acme", ID: domain.NewID()}.Encode()
	n := func(v int) *int { return &v }
	cases := []struct {
		name     string
		args     domain.ConnectionArgs
		limit    int
		backward bool
		cursor   bool
		invalid  bool
	}{
		{name: "neither size", limit: 25},
		{name: "first and after", args: domain.ConnectionArgs{First: n(10), After: &c}, limit: 10, cursor: true},
		{name: "last", args: domain.ConnectionArgs{Last: n(3)}, limit: 3, backward: true},
		{name: "last and before", args: domain.ConnectionArgs{Last: n(3), Before: &c}, limit: 3, backward: true, cursor: true},
		{name: "before alone", args: domain.ConnectionArgs{Before: &c}, limit: 25, backward: true, cursor: true},
		{name: "first and last", args: domain.ConnectionArgs{First: n(1), Last: n(1)}, invalid: true},
		{name: "after and before", args: domain.ConnectionArgs{After: &c, Before: &c}, invalid: true},
		{name: "first and before", args: domain.ConnectionArgs{First: n(1), Before: &c}, invalid: true},
		{name: "last and after", args: domain.ConnectionArgs{Last: n(1), After: &c}, invalid: true},
		{name: "last 0", args: domain.ConnectionArgs{Last: n(0)}, invalid: true},
		{name: "first 101", args: domain.ConnectionArgs{First: n(101)}, invalid: true},
		{name: "another list's cursor", args: domain.ConnectionArgs{Last: n(1), Before: &c}, invalid: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			list := "employers"
			if tc.name == "another list's cursor" {
				list = "platforms"
			}
			p, err := tc.args.PageRequest(list)
			if tc.invalid {
				if !domain.IsKind(err, domain.KindInvalid) {
					t.Fatalf("got %+v, %v; want INVALID_FIELDS", p, err)
				}
				return
			}
			if err != nil || p.Limit != tc.limit || p.Backward != tc.backward || (p.Cursor != nil) != tc.cursor {
				t.Errorf("got %+v, %v; want limit %d, backward %v, cursor %v", p, err, tc.limit, tc.backward, tc.cursor)
			}
		})
	}
}

// TestPageBackwardOf: rows read in reverse come back in the list's order,
// with Prev naming the first when more rows come before.
func TestPageBackwardOf(t *testing.T) {
	key := func(s string) (string, string) { return s, s }
	p := domain.PageBackwardOf("l", []string{"e", "d", "c"}, 2, key)
	if len(p.Items) != 2 || p.Items[0] != "d" || p.Items[1] != "e" || p.Prev == nil || p.Prev.ID != "d" || p.Next != nil {
		t.Errorf("a page with more before it: %+v", p)
	}
	if p := domain.PageBackwardOf("l", []string{"b", "a"}, 2, key); p.Prev != nil || p.Items[0] != "a" {
		t.Errorf("the first page: %+v", p)
	}
}
