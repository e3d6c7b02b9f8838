// Package jsontest holds the round-trip check the decoders' fuzz targets
// share: a value decoded from network input encodes, and decodes again to
// the same value.
package jsontest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// RoundTrip decodes raw as a T; when it is one, the value must encode and
// decode again to an equal value (raw JSON compared by what it says,
// times as instants, unexported fields included). raw that is not a T is
// no failure: the decoder said so.
func RoundTrip[T any](t testing.TB, raw []byte) {
	t.Helper()
	var first T
	if json.Unmarshal(raw, &first) != nil {
		return
	}
	again, err := json.Marshal(first)
	if err != nil {
		t.Fatalf("%T decoded from %q does not encode: %v", first, raw, err)
	}
	var second T
	if err := json.Unmarshal(again, &second); err != nil {
		t.Fatalf("%T encoded as %s does not decode: %v", first, again, err)
	}
	if d := cmp.Diff(first, second, sameJSON, sameInstant, cmp.Exporter(func(reflect.Type) bool { return true })); d != "" {
		t.Fatalf("%T from %q changed when encoded as %s and decoded again (-first +again):\n%s", first, raw, again, d)
	}
}

var (
	// sameJSON compares raw JSON by what it says, not by its spacing or
	// escapes, which encoding changes.
	sameJSON = cmp.Comparer(func(a, b json.RawMessage) bool {
		var x, y any
		dx, dy := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
		dx.UseNumber()
		dy.UseNumber()
		if dx.Decode(&x) != nil || dy.Decode(&y) != nil {
			return bytes.Equal(a, b)
		}
		return cmp.Equal(x, y)
	})
	// sameInstant compares times as instants: a decoded offset is a new
	// location each time.
	sameInstant = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
)
