package rest

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"payline/domain"
)

// writeJSON encodes v with the status. Encoding a value this package
// built cannot fail in a way the caller could act on, so a failure is
// only visible as a truncated body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// decodeJSON reads a request body into dst. It requires an
// application/json content type, one JSON object, no unknown fields, and
// no trailing data; each failure is a 400 that says what to fix.
func decodeJSON(r *http.Request, dst any) error {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return domain.Errorf(domain.KindInvalid, domain.CodeUnsupportedMediaType,
			"send the request body as JSON with the header Content-Type: application/json")
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body must hold exactly one JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var maxErr *http.MaxBytesError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &maxErr):
		return domain.Errorf(domain.KindInvalid, domain.CodeRequestTooLarge, "the request body is larger than %d bytes", maxErr.Limit)
	case errors.Is(err, io.EOF):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body is empty; send a JSON object")
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body is not valid JSON: %v", err)
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body must be a JSON object")
		}
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s: expected %s, got JSON %s", field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "%s is not a field of this request", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the request body could not be read: %v", err)
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return "a number"
}
