package domain

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckIDText is the one rule for the characters of an id a caller
// chooses or sends (an end_user_id, any id in a path, a query or a body)
// and of a tracking id: no control character (C0, DEL, C1), which can
// end a log line or a header and start another, and no bidirectional
// formatting character (U+061C, U+200E, U+200F, U+202A to U+202E, U+2066
// to U+2069), which makes an id display as something it is not on a
// report, in the dashboard or in a terminal. Transports apply it before
// anything is looked up; the domain's own checks of end_user_id and
// tracking_id apply it too. Errors: INVALID_FIELDS naming the field.
func CheckIDText(field, s string) error {
	if problem := idTextProblem(s); problem != "" {
		var p Problems
		p.Invalid(field, "%s", problem)
		return p.Err()
	}
	return nil
}

// idTextProblem says what is wrong with s as an id's text, "" if nothing
// is: the first refused character, by code point and byte offset (the
// character itself would do in a message what it does in the id).
func idTextProblem(s string) string {
	i := strings.IndexFunc(s, refusedInID)
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return fmt.Sprintf("must not contain control or bidirectional formatting characters (U+%04X at byte %d)", r, i)
}

// refusedInID reports whether r may not appear in an id. unicode.IsControl
// is exactly C0, DEL and C1 (category Cc).
func refusedInID(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r == '\u061C', r == '\u200E', r == '\u200F':
		return true
	case r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069':
		return true
	}
	return false
}
