package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestGeneratedCodeIsCurrent fails when sdk/python/payline/_api.py is not
// what docs/openapi.yaml generates: run `go run ./sdk/python/gen`.
func TestGeneratedCodeIsCurrent(t *testing.T) {
	want, err := generate(filepath.Join("..", "..", "..", "docs", "openapi.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("..", "payline", "_api.py"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("sdk/python/payline/_api.py is not what docs/openapi.yaml generates: run `go run ./sdk/python/gen` and commit it")
	}
}

// TestGeneratedCodeImports: the generated module imports, and its
// TypedDicts resolve (every name they refer to exists).
func TestGeneratedCodeImports(t *testing.T) {
	script := `import typing, payline._api as a
n = 0
for name in dir(a):
    v = getattr(a, name)
    if isinstance(v, type) and issubclass(v, dict) and v is not dict:
        typing.get_type_hints(v); n += 1
for name in dir(a.Operations):
    if not name.startswith("_"):
        typing.get_type_hints(getattr(a.Operations, name)); n += 1
assert n > 100, n
`
	cmd := exec.Command("python3", "-c", script)
	cmd.Dir = filepath.Join("..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
