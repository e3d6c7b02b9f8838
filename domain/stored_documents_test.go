package domain_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"payline/domain"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// fill sets every field of v to a non-zero value, pointers and slices
// included, so marshalling shows every key.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Struct:
		if v.Type().String() == "time.Time" {
			return
		}
		if v.Type().String() == "domain.Timestamp" {
			return // a time: no keys of its own
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.String:
		v.SetString("x")
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Bool:
		v.SetBool(true)
	}
}

func keys(prefix string, v any, out *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			*out = append(*out, prefix+k)
			keys(prefix+k+".", val, out)
		}
	case []any:
		for _, val := range x {
			keys(prefix+"[].", val, out)
		}
	}
}

// TestStoredDocumentShapes: data products are stored as the JSON of these
// types (the API's shape of the latest version, read back by the same
// types). A renamed or removed JSON name would silently change what stored
// rows mean, so the shapes are pinned here: changing one needs a migration
// of the stored bodies and `go test ./domain -run StoredDocument -update`.
func TestStoredDocumentShapes(t *testing.T) {
	var b strings.Builder
	for _, v := range []any{&domain.Identity{}, &domain.Employment{}, &domain.Income{}, &domain.DepositAllocation{},
		&domain.Paystub{}, &domain.W2{}, &domain.Shift{}, &domain.Payout{}, &domain.VerificationReport{}} {
		fill(reflect.ValueOf(v).Elem())
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var generic any
		_ = json.Unmarshal(raw, &generic)
		var ks []string
		keys("", generic, &ks)
		slices.Sort(ks)
		fmt.Fprintf(&b, "%T: %s\n", v, strings.Join(slices.Compact(ks), " "))
	}
	const golden = "testdata/stored_documents.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("the stored JSON of a data product changed; migrate the stored bodies first.\ngot:\n%s\nwant:\n%s", got, want)
	}
}
