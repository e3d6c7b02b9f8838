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
// substituted, and `payline` is this test binary acting as the CLI. Every
// curl fails the script on an HTTP error, except the one the README says
// answers 401. The walkthrough paces its calls, so no call meets a 429
// (a first-time user once saw 429 bodies and a jq error in two blocks),
// and its webhook is a `payline webhooks listen` that answers every
// delivery, so nothing is left retrying.
func TestREADMEWalkthrough(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README walkthrough needs %s (apt-get install %s): %v", tool, tool, err)
		}
	}
	script := readmeWalkthrough(t)

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
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, "bash", "-c", "set -euo pipefail\n"+script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+paylineOnPath(t)+string(os.PathListSeparator)+os.Getenv("PATH"))
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the README walkthrough failed: %v\n--- script ---\n%s\n--- output ---\n%s", err, script, got)
	}
	// The last download is the VOIE PDF.
	pdfs, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(pdfs) != 1 {
		t.Fatalf("the walkthrough downloaded %v, want the VOIE PDF\n%s", pdfs, got)
	}
	if b, _ := os.ReadFile(pdfs[0]); !bytes.HasPrefix(b, []byte("%PDF-")) {
		t.Errorf("%s is not a PDF", pdfs[0])
	}
	if !strings.Contains(string(got), `HTTP/1.1 401`) || !strings.Contains(string(got), "openapi: 3") {
		t.Errorf("the 401 example or the OpenAPI document is missing from the output:\n%s", got)
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

// paylineOnPath returns a directory holding a `payline` that runs this
// test binary as the CLI (TestMain's runMainEnv), for the walkthrough's
// `payline webhooks listen`.
func paylineOnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "#!/bin/sh\n" + runMainEnv + "=1 exec '" + strings.ReplaceAll(exe, "'", `'\''`) + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "payline"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
