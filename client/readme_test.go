package client_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestREADMEProgram compiles and vets client/README.md's walkthrough as
// an integrator would paste it: the Go block under "The README's
// walkthrough, in Go" is a whole program, with every helper it uses
// defined.
func TestREADMEProgram(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	at := strings.Index(readme, "\n## The README's walkthrough, in Go\n")
	if at < 0 {
		t.Fatal(`client/README.md has no "The README's walkthrough, in Go" section`)
	}
	block := regexp.MustCompile("(?s)```go\n(.*?)```").FindStringSubmatch(readme[at:])
	if block == nil || !strings.HasPrefix(block[1], "package main\n") {
		t.Fatal("the walkthrough's Go block is missing or is not a program (package main)")
	}
	file := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(file, []byte(block[1]), 0o600); err != nil {
		t.Fatal(err)
	}
	// Built from this module's directory, the program's imports resolve
	// as they do for an integrator whose module requires payline.
	if out, err := exec.Command("go", "vet", file).CombinedOutput(); err != nil {
		t.Errorf("client/README.md's program does not compile or vet:\n%s", out)
	}
}
