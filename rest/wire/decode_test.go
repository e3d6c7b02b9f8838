package wire_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"payline/domain"
	"payline/rest/wire"
)

// probe has the kinds of fields request bodies have.
type probe struct {
	Name   string       `json:"name"`
	Count  int          `json:"count"`
	On     *bool        `json:"on"`
	Amount *wire.Number `json:"amount"`
	Tags   []string     `json:"tags"`
	Nested *struct {
		Value *wire.Number `json:"value"`
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	} `json:"nested"`
}

// strings of v, recursively, to check what a decoded body holds.
func stringsOf(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		*out = append(*out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stringsOf(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			stringsOf(v.Field(i), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			stringsOf(v.Index(i), out)
		}
	}
}

// FuzzDecode: whatever the body, Decode never panics and either refuses
// it with a 400 domain error or yields fields that are valid UTF-8 without
// NUL, and numbers kept as JSON number literals.
func FuzzDecode(f *testing.F) {
	for _, seed := range []string{
		`{"name":"x","count":2,"on":true,"amount":19.99,"tags":["a"],"nested":{"value":1,"items":[{"id":"i"}]}}`,
		`{"name":"a\u0000b"}`, "{\"name\":\"\xff\"}", `{"NAME":"x"}`, `{"name":"x","name":"y"}`, `null`, `[]`, `{"amount":"19.99"}`,
		`{"amount":1e2}`, `{"count":1.5}`, `{"nested":{"value":{}}}`, `{} {}`, ``, `{"unknown":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var p probe
		err := wire.DecodeBytes(body, &p)
		if err != nil {
			var de *domain.Error
			if !errors.As(err, &de) || de.Kind != domain.KindInvalid || de.Message == "" {
				t.Fatalf("%q: %v is not a 400 domain error", body, err)
			}
			return
		}
		var all []string
		stringsOf(reflect.ValueOf(p), &all)
		for _, s := range all {
			if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
				t.Fatalf("%q: accepted %q", body, s)
			}
		}
		for _, n := range []*wire.Number{p.Amount} {
			if n != nil && (len(*n) == 0 || strings.ContainsAny(string(*n), `"{[tfn`)) {
				t.Fatalf("%q: amount %q is not a number literal", body, *n)
			}
		}
	})
}

func TestFieldNames(t *testing.T) {
	var p probe
	err := wire.DecodeBytes([]byte(`{"nested":{"items":[{"id":"ok"},{"id":"a\u0000"}]}}`), &p)
	if err == nil || !strings.Contains(err.Error(), "nested.items[1].id") {
		t.Errorf("error %v does not name nested.items[1].id", err)
	}
	err = wire.DecodeBytes([]byte(`{"nested":{"value":"19.99"}}`), &p)
	if err == nil || !strings.Contains(err.Error(), "nested.value: must be a JSON number") {
		t.Errorf("error %v does not name nested.value as a number", err)
	}
}
