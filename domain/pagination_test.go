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
