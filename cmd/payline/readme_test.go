package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// shBlock is a fenced sh block, possibly indented inside a list item.
var shBlock = regexp.MustCompile("(?ms)^( *)```sh\n(.*?)^ *```")

// readmeWalkthrough returns the README's sh blocks from "Try it" up to
// "Commands", as one script, in order.
func readmeWalkthrough(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start, end := strings.Index(readme, "\n## Try it\n"), strings.Index(readme, "\n## Commands\n")
	if start < 0 || end < start {
		t.Fatal(`README.md has no "Try it" ... "Commands" walkthrough`)
	}
	var script strings.Builder
	for _, m := range shBlock.FindAllStringSubmatch(readme[start:end], -1) {
		for _, line := range strings.SplitAfter(m[2], "\n") {
			script.WriteString(strings.TrimPrefix(line, m[1]))
		}
	}
	return script.String()
}

// curlCall is a curl command at the start of a line, after a pipe or
// inside $(...).
var curlCall = regexp.MustCompile(`(^|[|(]\s*|\s)curl `)

// TestREADMEWalkthrough runs the README's walkthrough as a new user would
// paste it, against a fresh sandbox server at the sandbox's real limit
// (10 requests a second): only the port and the printed secret are
// substituted. It runs from the checkout's root, as the README says, with
// no `payline` on the PATH, so the walkthrough builds the CLI from the
// checkout for its webhooks (a first-time user met `command not found`
// there), and its temporary directory under a TMPDIR of the test's own.
// Every curl fails the script on an HTTP error, except the one the README
// says answers 401. The walkthrough paces its calls, so no call meets a
// 429 (a first-time user once saw 429 bodies and a jq error in two
// blocks), and its webhook is a `payline webhooks listen` that answers
// every delivery, so nothing is left retrying. It uploads paystubs
// through Link's API and gets a VOIE built from them, and it leaves the
// checkout as it found it: `git status --porcelain` lists nothing new.
func TestREADMEWalkthrough(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	for _, tool := range []string{"bash", "curl", "jq", "git", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README walkthrough needs %s (.ci/run installs it): %v", tool, err)
		}
	}
	script := readmeWalkthrough(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	before := gitStatus(t, root)

	var out bytes.Buffer
	m := &Main{
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + filepath.Join(t.TempDir(), "payline.db"), Mode: domain.ModeSandbox},
		Stdout: &out, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	secret := secretLine.FindStringSubmatch(out.String())
	if secret == nil {
		t.Fatalf("no secret printed:\n%s", out.String())
	}

	var lines []string
	for _, line := range strings.Split(script, "\n") {
		// The 401 example fails on purpose; the pacing function's own curl
		// gets the options from each call that uses it.
		if !strings.Contains(line, "# 401") && !strings.Contains(line, "command curl") {
			line = curlCall.ReplaceAllString(line, "${1}curl --fail-with-body -sS ")
		}
		lines = append(lines, line)
	}
	script = strings.Join(lines, "\n")
	if !strings.Contains(script, "PASTE_THE_PRINTED_SECRET") || !strings.Contains(script, "127.0.0.1:8080") {
		t.Fatal("the walkthrough no longer has the secret placeholder or the default address to substitute")
	}
	script = strings.ReplaceAll(script, "PASTE_THE_PRINTED_SECRET", secret[1])
	script = strings.ReplaceAll(script, "127.0.0.1:8080", m.Addr())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	cmd := exec.CommandContext(ctx, "bash", "-c", "set -euo pipefail\n"+script)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "PATH="+withoutPayline(t))
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README walkthrough failed: %v\n--- script ---\n%s\n--- output ---\n%s", err, script, got)
	}
	if added := newLines(before, gitStatus(t, root)); len(added) > 0 {
		t.Errorf("the walkthrough left files in the checkout (git status --porcelain):\n%s", strings.Join(added, "\n"))
	}
	// $dir is the one directory mktemp made under TMPDIR; it holds the
	// CLI it built, the two VOIE PDFs and the webhooks' log.
	dirs, _ := filepath.Glob(filepath.Join(tmp, "tmp.*"))
	if len(dirs) != 1 {
		t.Fatalf("the walkthrough made %v under TMPDIR, want its one directory\n%s", dirs, got)
	}
	dir := dirs[0]
	if _, err := os.Stat(filepath.Join(dir, "payline")); err != nil {
		t.Errorf("the walkthrough did not build the CLI from the checkout into its directory: %v", err)
	}
	for _, name := range []string{"voie.pdf", "voie-uploads.pdf"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !bytes.HasPrefix(b, []byte("%PDF-")) {
			t.Errorf("%s is not the VOIE's PDF (%v)\n%s", name, err, got)
		}
	}
	for _, want := range []string{`HTTP/1.1 401`, "openapi: 3", `{"submitted":3}`, `"source": "documents"`, `"paystubs": 3`,
		`"employer_name": "Harrow Creek Logistics, Inc."`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("the output lacks %s: the 401 example, the OpenAPI document's head, the upload or the VOIE built from it:\n%s", want, got)
		}
	}
	if strings.Count(string(got), "\tnot_suspected") != 3 {
		t.Errorf("the uploaded paystubs are not listed as read and not suspected:\n%s", got)
	}
	if len(got) > 200<<10 {
		t.Errorf("the walkthrough printed %d KB: no schema dump", len(got)>>10)
	}
	for _, bad := range []string{"returned error: 429", `"code":"` + domain.CodeRateLimitExceeded + `"`, "jq: error"} {
		if strings.Contains(string(got), bad) {
			t.Errorf("the walkthrough printed %q: it went faster than the sandbox's 10 requests a second, or jq read an error body:\n%s", bad, got)
		}
	}
	log, err := os.ReadFile(filepath.Join(dir, "webhooks.log"))
	if err != nil || !strings.Contains(string(log), `"event":"webhook.test"`) {
		t.Errorf("payline webhooks listen did not print the test event (%v):\n%s", err, log)
	}
	if !strings.Contains(string(got), `"outcome":"delivered"`) {
		t.Errorf("the webhook's delivery log shows no delivered attempt:\n%s", got)
	}
}

// gitStatus is `git status --porcelain` of the checkout, a line a file.
func gitStatus(t *testing.T, root string) []string {
	t.Helper()
	cmd := exec.Command("git", "status", "--porcelain")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git status in %s: %v", root, err)
	}
	return strings.Split(strings.TrimRight(string(out), "\n"), "\n")
}

// newLines are the lines of after that before did not have: the files
// the walkthrough added or changed (other files of a working checkout,
// changed before it ran, are not its doing).
func newLines(before, after []string) []string {
	var added []string
	for _, line := range after {
		if line != "" && !slices.Contains(before, line) {
			added = append(added, line)
		}
	}
	return added
}

// withoutPayline is the PATH without the directories that hold a
// `payline`, so that the walkthrough takes the path of a user who has not
// installed one and builds it from the checkout.
func withoutPayline(t *testing.T) string {
	t.Helper()
	var dirs []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "payline")); err == nil {
			t.Logf("the walkthrough runs without %s on its PATH: it holds a payline", dir)
			continue
		}
		dirs = append(dirs, dir)
	}
	return strings.Join(dirs, string(os.PathListSeparator))
}
