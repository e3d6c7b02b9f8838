package sdk_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestREADMETypeScript type-checks sdk/typescript/README.md's walkthrough
// with the package's own TypeScript, strict, as an ES module importing
// @payline/sdk (resolved to the package in this checkout). Node's
// process.env is declared beside it, since the package does not depend on
// Node's types.
func TestREADMETypeScript(t *testing.T) {
	dir, err := filepath.Abs("typescript")
	if err != nil {
		t.Fatal(err)
	}
	npmInstalled(t, dir, filepath.Join("typescript", "package.json"))
	b, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	at := strings.Index(readme, "\n## The README's walkthrough, in TypeScript\n")
	if at < 0 {
		t.Fatal(`sdk/typescript/README.md has no "The README's walkthrough, in TypeScript" section`)
	}
	block := regexp.MustCompile("(?s)```ts\n(.*?)```").FindStringSubmatch(readme[at:])
	if block == nil {
		t.Fatal("the walkthrough has no ts block")
	}
	tmp := t.TempDir()
	config := `{"compilerOptions": {"strict": true, "noEmit": true, "target": "es2022", "module": "nodenext",
		"moduleResolution": "nodenext", "lib": ["es2022", "dom"], "types": [],
		"paths": {"@payline/sdk": [` + strconv.Quote(filepath.Join(dir, "index.d.ts")) + `]}},
		"files": ["walkthrough.mts", "node.d.ts"]}`
	for name, content := range map[string]string{
		"tsconfig.json":   config,
		"walkthrough.mts": block[1],
		"node.d.ts":       "declare const process: { env: Record<string, string | undefined> };\n",
	} {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tsc := exec.Command(filepath.Join(dir, "node_modules", ".bin", "tsc"), "-p", filepath.Join(tmp, "tsconfig.json"))
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Errorf("sdk/typescript/README.md's walkthrough does not type-check:\n%s", out)
	}
}

// TestREADMEPython runs sdk/python/README.md's walkthrough as written
// against the sandbox server, with the library from this checkout on
// PYTHONPATH and the secret in PAYLINE_API_SECRET: only the server's
// address is substituted.
func TestREADMEPython(t *testing.T) {
	srv := sandboxServer(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("the Python walkthrough needs python3: %v", err)
	}
	lib, err := filepath.Abs("python")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(lib, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	at := strings.Index(readme, "\n## The README's walkthrough, in Python\n")
	if at < 0 {
		t.Fatal(`sdk/python/README.md has no "The README's walkthrough, in Python" section`)
	}
	block := regexp.MustCompile("(?s)```python\n(.*?)```").FindStringSubmatch(readme[at:])
	if block == nil || !strings.Contains(block[1], "http://127.0.0.1:8080") {
		t.Fatal("the walkthrough has no python block, or no server address to substitute")
	}
	file := filepath.Join(t.TempDir(), "walkthrough.py")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(block[1], "http://127.0.0.1:8080", srv.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "python3", file)
	cmd.Env = append(os.Environ(), "PYTHONPATH="+lib, "PYTHONDONTWRITEBYTECODE=1", "PAYLINE_API_SECRET="+srv.Secret)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sdk/python/README.md's walkthrough failed: %v\n%s", err, out)
	}
	// It prints the paystubs, then the unknown account's 404.
	if !strings.Contains(string(out), "404 ") {
		t.Errorf("the walkthrough did not print the typed 404:\n%s", out)
	}
}
