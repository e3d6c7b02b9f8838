package main

import (
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// summary tallies a go test -json run.
type summary struct {
	out                     io.Writer
	passed, failed, skipped int // tests and subtests
	failedPackages          []string
	// dialects counts the passed tests of each database half: the
	// subtests storagetest.Dialects names sqlite and postgres.
	dialects map[string]int
	// skips counts the skipped tests by reason, in order of first sight.
	skips   map[string]int
	reasons []string
	// pending is each running test's output, kept until it ends.
	pending map[string][]string
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, dialects: map[string]int{}, skips: map[string]int{}, pending: map[string][]string{}}
}

// add takes one event.
func (s *summary) add(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "build-output":
		fmt.Fprint(s.out, e.Output)
	case "build-fail":
		s.failedPackages = append(s.failedPackages, e.ImportPath)
	case "output":
		if e.Test == "" {
			s.packageOutput(e.Output)
			return
		}
		s.pending[key] = append(s.pending[key], e.Output)
	case "pass", "fail", "skip":
		if e.Test == "" {
			if e.Action == "fail" {
				s.failedPackages = append(s.failedPackages, e.Package)
			}
			return
		}
		s.end(e, s.pending[key])
		delete(s.pending, key)
	}
}

// packageOutput prints a package's own lines (ok, FAIL, a panic, what
// TestMain printed) as go test does, but for the lines only -v shows.
func (s *summary) packageOutput(line string) {
	if line != "PASS\n" && line != "testing: warning: no tests to run\n" {
		fmt.Fprint(s.out, line)
	}
}

// end counts a test that ended, printing a failed test's output.
func (s *summary) end(e event, output []string) {
	switch e.Action {
	case "pass":
		s.passed++
		if i := strings.LastIndexByte(e.Test, '/'); i >= 0 && (e.Test[i+1:] == "sqlite" || e.Test[i+1:] == "postgres") {
			s.dialects[e.Test[i+1:]]++
		}
	case "fail":
		s.failed++
		for _, line := range output {
			fmt.Fprint(s.out, line)
		}
	case "skip":
		s.skipped++
		reason := skipReason(output)
		if _, seen := s.skips[reason]; !seen {
			s.reasons = append(s.reasons, reason)
		}
		s.skips[reason]++
	}
}

// location is the file:line a test's log line starts with.
var location = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

// skipReason is what a skipped test said: its output but go test's own
// lines (=== RUN, --- SKIP, ...) and the file and line of each message.
func skipReason(output []string) string {
	var said []string
	for _, line := range output {
		line = strings.TrimSpace(location.ReplaceAllString(line, ""))
		if line == "" || strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- ") {
			continue
		}
		said = append(said, strings.Trim(strings.TrimSpace(strings.Trim(line, "*")), "*"))
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " ")
}

// needs are the prerequisites a test may be skipped for want of, and the
// words its reason would name them by.
var needs = []struct {
	name  string
	words []string
}{
	{"PostgreSQL half", []string{"PostgreSQL", "PAYLINE_TEST_DATABASE_URL"}},
	{"browser (Chromium)", []string{"chromium", "Chromium", "browser"}},
	{"OCR (tesseract)", []string{"tesseract", "OCR"}},
	{"PDF tools (poppler, qpdf)", []string{"poppler", "pdftotext", "pdftoppm", "pdffonts", "pdfinfo", "qpdf"}},
	{"Redis", []string{"Redis"}},
}

// need is the prerequisite a skip reason names, or "".
func need(reason string) string {
	for _, n := range needs {
		if slices.ContainsFunc(n.words, func(w string) bool { return strings.Contains(reason, w) }) {
			return n.name
		}
	}
	return ""
}

// report prints the output of tests that never ended (a test binary that
// panicked or timed out), then what ran and what did not, and the totals.
func (s *summary) report() {
	for _, key := range slices.Sorted(maps.Keys(s.pending)) {
		s.failed++
		fmt.Fprintf(s.out, "--- %s did not end:\n", key)
		for _, line := range s.pending[key] {
			fmt.Fprint(s.out, line)
		}
	}
	fmt.Fprintln(s.out, "\n=== what ran ===")
	line := func(name, what string) { fmt.Fprintf(s.out, "%-27s %s\n", name, what) }
	skippedFor := map[string][]string{}
	var other []string
	for _, r := range s.reasons {
		said := fmt.Sprintf("%s (%s)", r, plural(s.skips[r], "test"))
		if n := need(r); n != "" {
			skippedFor[n] = append(skippedFor[n], said)
		} else {
			other = append(other, said)
		}
	}
	ran := func(name string, passed int) string {
		what := "ran: no test skipped for want of it"
		if passed >= 0 {
			what = fmt.Sprintf("ran: %s passed", plural(passed, "test"))
		}
		if reasons := skippedFor[name]; len(reasons) > 0 {
			what = "SKIPPED: " + strings.Join(reasons, "; ")
			if passed > 0 {
				what = fmt.Sprintf("partly SKIPPED (%s passed): %s", plural(passed, "test"), strings.Join(reasons, "; "))
			}
		}
		return what
	}
	line("SQLite half", ran("SQLite half", s.dialects["sqlite"]))
	for _, n := range needs {
		passed := -1 // tests of the others are not named by what they need
		if n.name == "PostgreSQL half" {
			passed = s.dialects["postgres"]
		}
		line(n.name, ran(n.name, passed))
	}
	for _, o := range other {
		line("also skipped", o)
	}
	result := "PASS"
	if !s.ok() {
		result = "FAIL"
	}
	fmt.Fprintf(s.out, "%s: %d passed, %d failed, %d skipped", result, s.passed, s.failed, s.skipped)
	if len(s.failedPackages) > 0 {
		fmt.Fprintf(s.out, "; failed: %s", strings.Join(s.failedPackages, ", "))
	}
	fmt.Fprintln(s.out)
}

// ok reports whether nothing failed and something ran.
func (s *summary) ok() bool {
	return s.failed == 0 && len(s.failedPackages) == 0 && s.passed > 0
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
