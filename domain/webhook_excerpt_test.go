package domain

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestResponseExcerpt: the delivery log keeps at most 512 bytes of a
// response, never splits a character, shows control bytes and invalid
// UTF-8 as U+FFFD (keeping newlines and tabs) and trims trailing space.
func TestResponseExcerpt(t *testing.T) {
	long := strings.Repeat("a", ResponseExcerptBytes-1) + "é" + "tail" // é straddles the cut
	cases := []struct{ in, want string }{
		{"", ""},
		{"ok\n", "ok"},
		{`{"error": "bad signature"}`, `{"error": "bad signature"}`},
		{"line one\n\tline two", "line one\n\tline two"},
		{"bell\x07 and nul\x00", "bell\uFFFD and nul\uFFFD"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{long, strings.Repeat("a", ResponseExcerptBytes-1)},
		{strings.Repeat("€", 200), strings.Repeat("€", ResponseExcerptBytes/3)},
	}
	for _, c := range cases {
		got := ResponseExcerpt([]byte(c.in))
		if got != c.want {
			t.Errorf("ResponseExcerpt(%.40q) = %.40q…, want %.40q…", c.in, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > ResponseExcerptBytes || !utf8.ValidString(got) {
			t.Errorf("ResponseExcerpt(%.40q): %d characters, valid %v", c.in, n, utf8.ValidString(got))
		}
	}
}
