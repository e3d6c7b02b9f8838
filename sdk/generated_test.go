package sdk_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"payline.dev/client"
)

// clientAPI is the generated package, in the client's module.
var clientAPI = filepath.Join("..", "client", "api")

// TestGeneratedCodeIsCurrent regenerates client/api from
// docs/openapi.yaml with the oapi-codegen this module pins (the directive
// in generate.go) and fails when the committed api.gen.go differs: a
// change to the API document needs `go generate ./sdk`.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	dir := t.TempDir()
	cfg, err := os.ReadFile(filepath.Join(clientAPI, "oapi-codegen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	overlay, _ := filepath.Abs(filepath.Join(clientAPI, "overlay.yaml"))
	out := filepath.Join(dir, "api.gen.go")
	cfg = bytes.Replace(cfg, []byte("output: "+filepath.Join(clientAPI, "api.gen.go")), []byte("output: "+out), 1)
	cfg = bytes.Replace(cfg, []byte("path: "+filepath.Join(clientAPI, "overlay.yaml")), []byte("path: "+overlay), 1)
	if err := os.WriteFile(filepath.Join(dir, "cfg.yaml"), cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "tool", "oapi-codegen", "-config", filepath.Join(dir, "cfg.yaml"), filepath.Join("..", "docs", "openapi.yaml"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("oapi-codegen: %v\n%s", err, b)
	}
	want, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(clientAPI, "api.gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("client/api/api.gen.go is not what docs/openapi.yaml generates: run `go generate ./sdk` and commit it")
	}
}

// TestEveryOperation: every operation of docs/openapi.yaml is a method
// of Client, and every list that takes a cursor has an iterator.
func TestEveryOperation(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromFile(filepath.Join("..", "docs", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeFor[*client.Client]()
	iterators := map[string]string{"ListEarningsStreamPayouts": "Payouts"}
	n := 0
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			n++
			name := strings.ToUpper(op.OperationID[:1]) + op.OperationID[1:]
			if _, ok := typ.MethodByName(name + "WithResponse"); !ok {
				t.Errorf("%s %s (%s) has no method %sWithResponse", method, path, op.OperationID, name)
			}
			params := append(openapi3.Parameters{}, item.Parameters...)
			params = append(params, op.Parameters...)
			for _, p := range params {
				if p.Value.Name != "cursor" {
					continue
				}
				it, ok := iterators[name]
				if !ok {
					it = strings.TrimPrefix(name, "List")
				}
				if _, ok := typ.MethodByName(it); !ok {
					t.Errorf("%s %s pages with a cursor but Client has no iterator %s", method, path, it)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d operations read from docs/openapi.yaml", n)
	}
}
