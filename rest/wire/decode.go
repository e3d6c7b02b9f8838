package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"payline/domain"
)

// Decode reads a request body into dst, strictly: an application/json
// content type, exactly one JSON object, member names matched exactly
// (case-sensitively) against dst's fields, no unknown or repeated names,
// valid UTF-8 and no NUL characters in strings, and values of the field's
// type. Each failure is a 400 that names the field and what to fix.
//
// It uses the JSON v2 prototype (github.com/go-json-experiment/json),
// whose defaults are exactly these rules; encoding/json v1 matches names
// case-insensitively and replaces invalid UTF-8 silently.
func Decode(r *http.Request, dst any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return domain.Errorf(domain.KindInvalid, domain.CodeUnsupportedMediaType,
			"send the request body as JSON with the header Content-Type: application/json")
	}
	body, err := io.ReadAll(r.Body)
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "the request body is larger than %d bytes", maxErr.Limit)
	}
	var refusal *domain.Error // the body's own reader refused it (too slow)
	if errors.As(err, &refusal) {
		return refusal
	}
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON,
			"the request body did not arrive in time; send the whole body at once, right after the headers")
	}
	if err != nil {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body could not be read; send it again")
	}
	return DecodeBytes(body, dst)
}

// DecodeBytes applies Decode's rules to a body already read.
func DecodeBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body is empty; send a JSON object")
	}
	if err := scan(body); err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst, json.RejectUnknownMembers(true)); err != nil {
		return unmarshalError(err)
	}
	return nil
}

// scan checks the body's syntax token by token: one JSON object, valid
// UTF-8, no repeated names, and no NUL in any string (PostgreSQL cannot
// store one, so it must be refused here rather than fail in the driver),
// and an id's characters in a member named like an id (IsIDName).
func scan(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	for first := true; ; first = false {
		tok, err := dec.ReadToken()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return syntaxError(err)
		}
		if first && tok.Kind() != '{' {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body must be a JSON object, not %s", kindName(tok.Kind()))
		}
		if !first && dec.StackDepth() == 0 && tok.Kind() != '}' {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body must hold exactly one JSON object")
		}
		if tok.Kind() == '"' && strings.IndexByte(tok.String(), 0) >= 0 {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: must not contain NUL (\\u0000) characters",
				FieldName(dec.StackPointer()))
		}
		if tok.Kind() == '"' && isMemberValue(dec) && IsIDName(dec.StackPointer().LastToken()) {
			if err := domain.CheckIDText(FieldName(dec.StackPointer()), tok.String()); err != nil {
				return err
			}
		}
	}
}

// isMemberValue reports whether the token just read is an object member's
// value, not its name: an object's names and values alternate, so after
// a value the object has read an even number of tokens.
func isMemberValue(dec *jsontext.Decoder) bool {
	kind, n := dec.StackIndex(dec.StackDepth())
	return kind == '{' && n%2 == 0
}

func syntaxError(err error) error {
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body is not valid JSON: %v", err)
	}
	field := FieldName(se.JSONPointer)
	switch {
	case errors.Is(se.Err, jsontext.ErrDuplicateName):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: appears more than once; send each field once", field)
	case strings.Contains(se.Err.Error(), "UTF-8"):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: must be valid UTF-8 text", field)
	}
	return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body is not valid JSON: %v at byte %d", se.Err, se.ByteOffset)
}

func unmarshalError(err error) error {
	var se *json.SemanticError
	if !errors.As(err, &se) {
		var syn *jsontext.SyntacticError
		if errors.As(err, &syn) {
			return syntaxError(err)
		}
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body could not be read: %v", err)
	}
	field := FieldName(se.JSONPointer)
	var fieldErr fieldError
	switch {
	case errors.Is(se.Err, json.ErrUnknownName):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
			"%s is not a field of this request (names are case-sensitive; see docs/openapi.yaml)", field)
	case errors.As(se.Err, &fieldErr):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: %s", field, fieldErr)
	case se.GoType != nil && se.JSONKind != 0:
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: expected %s, got %s", field, goKindName(se.GoType.Kind().String()), kindName(se.JSONKind))
	}
	return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: %v", field, se.Err)
}

// CheckText refuses a path or query value that no database column could
// hold: invalid UTF-8 (%ff, overlong %c0%ae) or a NUL (%00). JSON bodies
// get the same rules from Decode.
func CheckText(field, v string) error {
	if !utf8.ValidString(v) || strings.IndexByte(v, 0) >= 0 {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
			"%s: must be valid UTF-8 text without NUL characters", printable(field))
	}
	return nil
}

// CheckIDText applies CheckText and then domain.CheckIDText's rule for an
// id's characters (no control or bidirectional formatting characters) to
// a value taken as an id: a path value, a query parameter or a body
// member named like one (IsIDName).
func CheckIDText(field, v string) error {
	if err := CheckText(field, v); err != nil {
		return err
	}
	return domain.CheckIDText(printable(field), v)
}

// IsIDName reports whether a query parameter or body member holds an id
// (or a tracking id): the API names every one id or *_id.
func IsIDName(name string) bool {
	return name == "id" || strings.HasSuffix(name, "_id")
}

// FieldName turns a JSON pointer into the field path callers read in
// messages: /allocation/targets/0/type is allocation.targets[0].type.
func FieldName(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(printable(tok))
	}
	if b.Len() == 0 {
		return "the request body"
	}
	return b.String()
}

// printable makes a caller's field name safe to echo in a message.
func printable(s string) string {
	return strings.ToValidUTF8(strings.ReplaceAll(s, "\x00", `\u0000`), "\uFFFD")
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a JSON string"
	case '0':
		return "a JSON number"
	case 't', 'f':
		return "a JSON boolean"
	case 'n':
		return "null"
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	}
	return "JSON " + k.String()
}

func goKindName(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map", "ptr":
		return "an object"
	}
	return "a number"
}

// fieldError is what a field's own decoder reports; Decode prefixes the
// field name.
type fieldError string

func (e fieldError) Error() string { return string(e) }

// Number is a JSON number kept as its literal, so amounts and percentages
// are parsed from the digits the caller wrote (domain.ParseDollars) and
// never pass through float64. A string such as "19.99" is refused.
type Number domain.Number

// UnmarshalJSON keeps the literal of a JSON number.
func (n *Number) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return fieldError(fmt.Sprintf("must be a JSON number such as 19.99, not %s", kindName(jsontext.Value(b).Kind())))
	}
	*n = Number(b)
	return nil
}

// Domain returns the literal for the domain, nil when absent.
func (n *Number) Domain() *domain.Number { return (*domain.Number)(n) }
