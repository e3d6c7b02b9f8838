package trust

import (
	"strings"
	"testing"
)

// TestBaseURL: a far side that receives credentials is https, or http on
// this machine only; anything else is refused in one line naming the
// flag and saying what to fix.
func TestBaseURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://far.example":      "",
		"https://10.0.0.5:9000":    "",
		"http://127.0.0.1:9000":    "",
		"http://127.3.4.5":         "",
		"http://[::1]:9000":        "",
		"http://localhost:9000":    "",
		"http://far.example":       "must be https unless it is on this machine",
		"http://10.0.0.5:9000":     "must be https unless it is on this machine",
		"http://[fe80::1]:9000":    "must be https unless it is on this machine",
		"http://localhost.example": "must be https unless it is on this machine",
		"ftp://far.example":        "must be an https URL",
		"far.example:9000/api":     "must be an https URL",
		"https://":                 "must be an https URL",
	} {
		u, err := BaseURL(raw, "--far-url", "the secret travels to it")
		switch {
		case want == "" && (err != nil || u.String() != raw):
			t.Errorf("%s: %v, %v", raw, u, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "--far-url ") ||
			strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: %v; want one line naming --far-url with %q", raw, err, want)
		}
	}
}
