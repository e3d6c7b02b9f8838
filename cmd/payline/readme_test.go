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
// paste it, against a fresh sandbox server: only the port and the printed
// secret are substituted. Every curl fails the script on an HTTP error,
// except the one the README says answers 401. The server allows 4
// requests a second instead of the sandbox's 10, so the walkthrough
// certainly meets 429s and must ride them out: a retried curl prints the
// 429's body before the answer, which once broke a value read with jq.
func TestREADMEWalkthrough(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the README walkthrough needs %s (apt-get install %s): %v", tool, tool, err)
		}
	}
	script := readmeWalkthrough(t)

	var out bytes.Buffer
	m := &Main{
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + filepath.Join(t.TempDir(), "payline.db"), Mode: domain.ModeSandbox,
			RateLimit: 4},
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
		if !strings.Contains(line, "# 401") {
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
	if !strings.Contains(string(got), "returned error: 429") {
		t.Errorf("no call met a 429 at 4 requests a second, so retries went untested:\n%s", got)
	}
}
