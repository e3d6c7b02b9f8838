package sdk_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// readmeInstall is a client library's README as TestREADMEInstall
// follows it: the Install section's block from a checkout, and the
// walkthrough it has the reader save.
type readmeInstall struct {
	name    string // the subtest's
	readme  string // the README, from sdk/
	dir     string // the library's folder, from sdk/: following the README must leave it as it was
	section string // the walkthrough's section; "" for none (React's snippet is a fragment)
	lang    string // its fence's language
	tools   []string
	// before makes what the README starts from, where that is not an
	// empty directory; after checks the result, where the block runs no
	// walkthrough. Both run in the block's shell.
	before, after string
}

var readmeInstalls = []readmeInstall{
	{name: "go", readme: filepath.Join("..", "client", "README.md"), dir: filepath.Join("..", "client"),
		section: "The README's walkthrough, in Go", lang: "go", tools: []string{"go"}},
	{name: "typescript", readme: filepath.Join("typescript", "README.md"), dir: "typescript",
		section: "The README's walkthrough, in TypeScript", lang: "ts", tools: []string{"node", "npm"}},
	{name: "python", readme: filepath.Join("python", "README.md"), dir: "python",
		section: "The README's walkthrough, in Python", lang: "python", tools: []string{"python3"}},
	// "Your React project": a new one with React 19 (the wrapper's own,
	// so npm's cache has it). The package must then import, with React
	// resolved from the project.
	{name: "react", readme: filepath.Join("react", "README.md"), dir: "react", tools: []string{"node", "npm"},
		before: "(mkdir your-react-app && cd your-react-app && npm init -y >/dev/null && npm install react@19 react-dom@19)\n",
		after: "node --input-type=module -e \"const m = await import('@payline/link-react'); " +
			"if (typeof m.usePaylineLink !== 'function' || typeof m.PaylineLink !== 'function') throw new Error('no hook or button: ' + Object.keys(m)); " +
			"console.log('imported @payline/link-react')\"\n"},
}

var (
	shFence = regexp.MustCompile("(?s)```sh\n(.*?)```")
	// saveLine is the Install block's line that has the reader save the
	// walkthrough below it, naming the file.
	saveLine = regexp.MustCompile(`(?m)^#.*\bbelow as ([\w.]+).*$`)
)

// TestREADMEInstall follows the Install section of each client library's
// README (Go, TypeScript, Python, React) as a person would, in the order
// written: its block for a checkout of Payline runs line by line in one
// bash shell in an empty directory, with only this checkout put for
// /path/to/payline and the sandbox server's secret for
// PASTE_THE_PRINTED_SECRET; where a comment says to save the walkthrough
// below as a file, the README's walkthrough (with the sandbox server's
// address for 127.0.0.1:8080) is saved there; the block's last lines run
// it, and it must print the typed 404 it ends with. The React wrapper's
// block runs in a new React project and the package must then import
// there (its README's snippet is a fragment). Issue 51 found each
// of them broken when followed so: the Go requirement tidied away before
// any import, top-level await in a CommonJS npm project, a Python build
// needing setuptools and wheel from an index and writing build/ and
// *.egg-info into the checkout. No Python index is reached (PIP_NO_INDEX:
// CI reaches none); Go modules and npm packages come from their caches,
// else their proxy and registry. The Python block runs with the python3 on
// the PATH and, when that is another (pyenv's), with Debian's
// /usr/bin/python3 too. Each library's folder in the checkout is left as
// it was (git status --porcelain --ignored). A missing tool fails the
// test: CI installs them all.
func TestREADMEInstall(t *testing.T) {
	srv := sandboxServer(t)
	checkout, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		lib       readmeInstall
		name, bin string // bin: a directory put first on the PATH
	}
	var runs []run
	for _, lib := range readmeInstalls {
		runs = append(runs, run{lib: lib, name: lib.name})
	}
	if debian := debianPython(t); debian != "" {
		runs = append(runs, run{lib: readmeInstalls[2], name: "python-debian", bin: debian})
	}

	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			t.Parallel() // mostly waiting on the network, compilers and the server: side by side
			for _, tool := range r.lib.tools {
				if _, err := exec.LookPath(tool); err != nil {
					t.Fatalf("following %s needs %s: %v", r.lib.readme, tool, err)
				}
			}
			block, snippet := readInstall(t, r.lib)
			snippetFile := filepath.Join(t.TempDir(), "walkthrough")
			if err := os.WriteFile(snippetFile, []byte(strings.ReplaceAll(snippet, "http://127.0.0.1:8080", srv.URL)), 0o600); err != nil {
				t.Fatal(err)
			}
			script := saveLine.ReplaceAllString(block, "$0\ncp \"$$README_WALKTHROUGH\" ${1}")
			script = strings.ReplaceAll(script, "/path/to/payline", checkout)
			script = strings.ReplaceAll(script, "PASTE_THE_PRINTED_SECRET", srv.Secret)
			script = r.lib.before + script + r.lib.after

			folder := filepath.Join(checkout, "sdk", r.lib.dir)
			before := folderStatus(t, checkout, folder)
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", script)
			cmd.Dir = t.TempDir()
			path := os.Getenv("PATH")
			if r.bin != "" {
				path = r.bin + string(os.PathListSeparator) + path
			}
			cmd.Env = append(os.Environ(), "PATH="+path, "README_WALKTHROUGH="+snippetFile,
				"GOWORK=off", "PIP_NO_INDEX=1", "PIP_DISABLE_PIP_VERSION_CHECK=1",
				// npm takes what its cache has without asking the registry
				// again: faster, and offline once a run has filled it.
				"npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false", "npm_config_prefer_offline=true")
			start := time.Now()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("following %s's Install section failed: %v\n--- script ---\n%s\n--- output ---\n%s", r.lib.readme, err, script, out)
			}
			t.Logf("%s: installed and ran the walkthrough in %s", r.lib.readme, time.Since(start).Round(100*time.Millisecond))
			if r.lib.section != "" && !strings.Contains(string(out), "404 ") {
				t.Errorf("the walkthrough did not print the typed 404 it ends with:\n%s", out)
			}
			if r.lib.section == "" && !strings.Contains(string(out), "imported @payline/link-react") {
				t.Errorf("the package did not import in the project:\n%s", out)
			}
			if after := folderStatus(t, checkout, folder); !slices.Equal(before, after) {
				t.Errorf("following the Install section changed %s in the checkout: git status --porcelain --ignored was\n%s\nand is\n%s",
					folder, strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
		})
	}
}

// readInstall returns the README's Install block for a checkout (the sh
// block naming /path/to/payline, with a line to save the walkthrough and
// the secret to paste) and its walkthrough, which must name the server's
// address to substitute; for a library without one (lib.section ""),
// the block alone.
func readInstall(t *testing.T, lib readmeInstall) (block, snippet string) {
	t.Helper()
	b, err := os.ReadFile(lib.readme)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	var blocks []string
	for _, m := range shFence.FindAllStringSubmatch(section(t, lib.readme, readme, "Install"), -1) {
		if strings.Contains(m[1], "/path/to/payline") {
			blocks = append(blocks, m[1])
		}
	}
	if len(blocks) != 1 {
		t.Fatalf("%s's Install section has %d sh blocks naming /path/to/payline, want the one to follow", lib.readme, len(blocks))
	}
	if lib.section == "" {
		return blocks[0], ""
	}
	if !saveLine.MatchString(blocks[0]) || !strings.Contains(blocks[0], "PASTE_THE_PRINTED_SECRET") {
		t.Fatalf("%s's Install block has no line saying to save the walkthrough below as a file, or no secret to paste:\n%s", lib.readme, blocks[0])
	}
	m := regexp.MustCompile("(?s)```" + lib.lang + "\n(.*?)```").FindStringSubmatch(section(t, lib.readme, readme, lib.section))
	if m == nil || !strings.Contains(m[1], "http://127.0.0.1:8080") {
		t.Fatalf("%s's %q has no %s block, or no server address to substitute", lib.readme, lib.section, lib.lang)
	}
	return blocks[0], m[1]
}

// section returns the text of a README's "## name" section.
func section(t *testing.T, file, readme, name string) string {
	t.Helper()
	at := strings.Index(readme, "\n## "+name+"\n")
	if at < 0 {
		t.Fatalf("%s has no %q section", file, name)
	}
	rest := readme[at+len(name)+5:]
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

// folderStatus is git status --porcelain --ignored of a folder of the
// checkout, a line a file, without the __pycache__ directories Python
// writes wherever it imports from (ignored; the library's own tests
// write them there).
func folderStatus(t *testing.T, checkout, folder string) []string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain", "--ignored", "--", folder)
	cmd.Dir = checkout
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git status in %s: %v", checkout, err)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if line != "" && !strings.Contains(line, "__pycache__/") {
			lines = append(lines, line)
		}
	}
	return lines
}

// debianPython returns a directory whose python3 is Debian's
// /usr/bin/python3, when the python3 on the PATH is another one (pyenv's),
// so that the Python README is followed with both; "" when there is no
// other.
func debianPython(t *testing.T) string {
	t.Helper()
	const debian = "/usr/bin/python3"
	if _, err := os.Stat(debian); err != nil {
		return ""
	}
	real := func(python string) string {
		out, err := exec.Command(python, "-c", "import os, sys; print(os.path.realpath(sys.executable))").Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	onPath := ""
	if python, err := exec.LookPath("python3"); err == nil {
		onPath = real(python)
	}
	if onPath == "" || onPath == real(debian) {
		return ""
	}
	dir := t.TempDir()
	if err := os.Symlink(debian, filepath.Join(dir, "python3")); err != nil {
		t.Fatal(err)
	}
	return dir
}
