package client_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// serverModules are modules of Payline's server that an integrator's build
// must not meet: the client is a module of its own so that it pulls in none.
var serverModules = []string{"modernc.org/sqlite", "github.com/riverqueue/", "github.com/jackc/pgx",
	"github.com/99designs/gqlgen", "codeberg.org/go-pdf/fpdf"}

// TestREADMEProgram follows client/README.md as an integrator with a
// checkout of Payline would: the Install section's block from a checkout
// runs line by line in an empty directory (with this checkout's path for
// /path/to/payline), the Go block under "The README's walkthrough, in
// Go", a whole program with every helper it uses defined, saved where the
// block says, up to the lines that run it against a server (sdk's
// TestREADMEInstall runs those, against a sandbox server); the program
// is then compiled and vetted in the module made, which depends on
// nothing of the server's.
func TestREADMEProgram(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var fromCheckout string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section(t, readme, "Install"), -1) {
		if strings.Contains(m[1], "/path/to/payline") {
			fromCheckout = m[1]
		}
	}
	save := regexp.MustCompile(`(?m)^#.*\bbelow as ([\w.]+).*$`)
	if fromCheckout == "" || !save.MatchString(fromCheckout) {
		t.Fatal("client/README.md's Install section has no sh block from a checkout with a line to save the program below")
	}
	block := regexp.MustCompile("(?s)```go\n(.*?)```").FindStringSubmatch(section(t, readme, "The README's walkthrough, in Go"))
	if block == nil || !strings.HasPrefix(block[1], "package main\n") {
		t.Fatal("the walkthrough's Go block is missing or is not a program (package main)")
	}

	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(t.TempDir(), "main.go")
	if err := os.WriteFile(program, []byte(block[1]), 0o600); err != nil {
		t.Fatal(err)
	}
	// The lines before the program runs against a server, then where the
	// module is.
	script, _, _ := strings.Cut(fromCheckout, "\nexport PAYLINE_API_SECRET=")
	script = save.ReplaceAllString(script, "$0\ncp \"$$README_PROGRAM\" ${1}")
	script = strings.ReplaceAll(script, "/path/to/payline", checkout) + "\necho \"module: $PWD\"\n"
	sh := exec.Command("bash", "-euo", "pipefail", "-c", script)
	sh.Dir = t.TempDir()
	sh.Env = append(os.Environ(), "GOWORK=off", "README_PROGRAM="+program)
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("the Install section's commands from a checkout failed: %v\n%s\n%s", err, script, out)
	}
	at := strings.LastIndex(string(out), "module: ")
	if at < 0 {
		t.Fatalf("the script did not say where the module is:\n%s", out)
	}
	dir := strings.TrimSpace(string(out)[at+len("module: "):])
	if out, err := goCmd(dir, "vet", ".").CombinedOutput(); err != nil {
		t.Errorf("client/README.md's program does not compile or vet:\n%s", out)
	}
	noServerModules(t, "the integrator's module", dir)
}

// TestNoServerDependencies: the client's own module graph (go list -m
// all in client/) holds none of the server's modules.
func TestNoServerDependencies(t *testing.T) {
	noServerModules(t, "client/go.mod", ".")
}

func noServerModules(t *testing.T, what, dir string) {
	t.Helper()
	out := goIn(t, dir, "list", "-m", "all")
	for _, mod := range strings.Fields(out) {
		for _, server := range serverModules {
			if strings.HasPrefix(mod, server) {
				t.Errorf("%s depends on %s, a module of Payline's server", what, mod)
			}
		}
	}
}

// section returns the text of the README's "## name" section.
func section(t *testing.T, readme, name string) string {
	t.Helper()
	at := strings.Index(readme, "\n## "+name+"\n")
	if at < 0 {
		t.Fatalf("client/README.md has no %q section", name)
	}
	rest := readme[at+len(name)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// goCmd is the go command in dir, outside any workspace the caller has.
func goCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	return cmd
}

func goIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := goCmd(dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}
