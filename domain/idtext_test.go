package domain

import (
	"errors"
	"strings"
	"testing"
)

// TestCheckIDText: every control character (C0, DEL, C1) and every
// bidirectional formatting character is refused, naming the field and
// the character by code point; other text, in any script, is an id.
func TestCheckIDText(t *testing.T) {
	var refused []rune
	for r := rune(0); r < 0x20; r++ {
		refused = append(refused, r)
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		refused = append(refused, r)
	}
	refused = append(refused, 0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069)
	for _, r := range refused {
		err := CheckIDText("end_user_id", "user"+string(r)+"1")
		var de *Error
		if !errors.As(err, &de) || de.Code != CodeInvalidFields || len(de.Fields) != 1 || de.Fields[0] != "end_user_id" {
			t.Errorf("U+%04X: %v, want INVALID_FIELDS naming end_user_id", r, err)
			continue
		}
		if strings.ContainsRune(de.Message, r) || !strings.Contains(de.Message, "at byte 4") {
			t.Errorf("U+%04X: message %q should name the character by code point and place", r, de.Message)
		}
	}
	for _, s := range []string{"", "user-1", "ada@example.com", "José Müller", "مستخدم-١", "用户 7", "crew 🚀 1",
		"a\u200Db" /* zero-width joiner: emoji sequences */, "\u00a0nbsp", "a\u2065b" /* unassigned, next to the isolates */} {
		if err := CheckIDText("end_user_id", s); err != nil {
			t.Errorf("%q refused: %v", s, err)
		}
	}
}

// TestCleanText: text shown as it came loses control and bidirectional
// formatting characters and invalid UTF-8; spaces collapse; any script
// stays.
func TestCleanText(t *testing.T) {
	for in, want := range map[string]string{
		"paystub.pdf":                "paystub.pdf",
		"invoice\u202Efdp.exe":       "invoicefdp.exe",
		"a\r\nb\tc":                  "a b c",
		"  lead   and trail  ":       "lead and trail",
		"\u2066x\u2069\u200E\u061Cy": "xy",
		"bad\xffutf8\x00\x7f\u0085":  "badutf8",
		"Café Müller 薪资":             "Café Müller 薪资",
		"\r\n":                       "",
	} {
		if got := CleanText(in); got != want {
			t.Errorf("CleanText(%q) = %q, want %q", in, got, want)
		}
	}
}
