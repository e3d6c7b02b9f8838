package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// run feeds events, as go test -json writes them, to a summary and
// returns what it printed and whether it passed.
func run(t *testing.T, events ...event) (string, bool) {
	t.Helper()
	var in strings.Builder
	for _, e := range events {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(append(b, '\n'))
	}
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader(in.String())); err != nil {
		t.Fatal(err)
	}
	s.report()
	return out.String(), s.ok()
}

// passing is a test that passed, with a subtest per database.
func passing(pkg, test string) []event {
	return []event{
		{Action: "run", Package: pkg, Test: test},
		{Action: "output", Package: pkg, Test: test + "/sqlite", Output: "=== RUN   " + test + "/sqlite\n"},
		{Action: "pass", Package: pkg, Test: test + "/sqlite"},
		{Action: "output", Package: pkg, Test: test + "/postgres", Output: "=== RUN   " + test + "/postgres\n"},
		{Action: "pass", Package: pkg, Test: test + "/postgres"},
		{Action: "pass", Package: pkg, Test: test},
	}
}

// skipped is a test that said why it skipped.
func skipped(pkg, test, why string) []event {
	return []event{
		{Action: "run", Package: pkg, Test: test},
		{Action: "output", Package: pkg, Test: test, Output: "=== RUN   " + test + "\n"},
		{Action: "output", Package: pkg, Test: test, Output: "    x_test.go:12: " + why + "\n"},
		{Action: "output", Package: pkg, Test: test, Output: "--- SKIP: " + test + " (0.00s)\n"},
		{Action: "skip", Package: pkg, Test: test},
	}
}

func TestSummary(t *testing.T) {
	const pg = "*** SKIPPING PostgreSQL: set PAYLINE_TEST_DATABASE_URL=postgres://... to run it ***"
	for _, tc := range []struct {
		name   string
		events [][]event
		ok     bool
		want   []string
		not    []string
	}{
		{
			name: "everything ran",
			events: [][]event{passing("payline/rest", "TestA"), passing("payline/storage", "TestB"),
				{{Action: "output", Package: "payline/rest", Output: "ok  \tpayline/rest\t1.2s\n"}, {Action: "pass", Package: "payline/rest"}}},
			ok: true,
			want: []string{"ok  \tpayline/rest\t1.2s", "SQLite half                 ran: 2 tests passed", "PostgreSQL half             ran: 2 tests passed",
				"browser (Chromium)          ran: no test skipped for want of it", "OCR (tesseract)             ran: no test skipped for want of it",
				"PASS: 6 passed, 0 failed, 0 skipped"},
			not: []string{"SKIPPED", "also skipped"},
		},
		{
			name: "no PostgreSQL, no Chromium",
			events: [][]event{
				{{Action: "pass", Package: "payline/rest", Test: "TestA/sqlite"}},
				skipped("payline/rest", "TestA/postgres", pg), skipped("payline/storage", "TestB/postgres", pg),
				skipped("payline/rest", "TestBrowserLink", "*** SKIPPING browser test: /usr/bin/chromium not installed (apt-get install chromium) ***"),
				skipped("payline/documents", "TestDebug", "PAYLINE_DOC_DEBUG names no file"),
			},
			ok: true,
			want: []string{"SQLite half                 ran: 1 test passed",
				"PostgreSQL half             SKIPPED: SKIPPING PostgreSQL: set PAYLINE_TEST_DATABASE_URL=postgres://... to run it (2 tests)",
				"browser (Chromium)          SKIPPED: SKIPPING browser test: /usr/bin/chromium not installed (apt-get install chromium) (1 test)",
				"also skipped                PAYLINE_DOC_DEBUG names no file (1 test)", "PASS: 1 passed, 0 failed, 4 skipped"},
		},
		{
			name: "a failure prints its output and fails",
			events: [][]event{passing("payline/reports", "TestA"), {
				{Action: "output", Package: "payline/reports", Test: "TestPictures", Output: "=== RUN   TestPictures\n"},
				{Action: "output", Package: "payline/reports", Test: "TestPictures", Output: "    reports_test.go:330: voie-page-1.png: 705 pixels changed\n"},
				{Action: "output", Package: "payline/reports", Test: "TestPictures", Output: "--- FAIL: TestPictures (0.81s)\n"},
				{Action: "fail", Package: "payline/reports", Test: "TestPictures"},
				{Action: "output", Package: "payline/reports", Output: "FAIL\tpayline/reports\t6.9s\n"},
				{Action: "fail", Package: "payline/reports"},
			}},
			want: []string{"voie-page-1.png: 705 pixels changed", "--- FAIL: TestPictures", "FAIL\tpayline/reports\t6.9s",
				"FAIL: 3 passed, 1 failed, 0 skipped; failed: payline/reports"},
		},
		{
			name: "a build failure fails",
			events: [][]event{passing("payline/rest", "TestA"), {
				{Action: "build-output", ImportPath: "payline/reports [payline/reports.test]", Output: "reports/pdf.go:12:2: undefined: x\n"},
				{Action: "build-fail", ImportPath: "payline/reports [payline/reports.test]"},
			}},
			want: []string{"reports/pdf.go:12:2: undefined: x", "FAIL: 3 passed, 0 failed, 0 skipped; failed: payline/reports [payline/reports.test]"},
		},
		{
			name: "a test that never ended (a panic) prints its output and fails",
			events: [][]event{passing("payline/rest", "TestA"), {
				{Action: "output", Package: "payline/rest", Test: "TestHang", Output: "=== RUN   TestHang\n"},
				{Action: "output", Package: "payline/rest", Test: "TestHang", Output: "panic: test timed out after 10m0s\n"},
			}},
			want: []string{"--- payline/rest TestHang did not end:", "panic: test timed out after 10m0s", "FAIL: 3 passed, 1 failed"},
		},
		{
			name:   "nothing ran",
			events: [][]event{skipped("payline/x", "TestA", "no reason")},
			want:   []string{"FAIL: 0 passed, 0 failed, 1 skipped"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var events []event
			for _, e := range tc.events {
				events = append(events, e...)
			}
			out, ok := run(t, events...)
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the summary lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("the summary says %q:\n%s", n, out)
				}
			}
		})
	}
}

// TestNotJSON: a line that is no event (a go command's own message) is
// printed as it came.
func TestNotJSON(t *testing.T) {
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader("go: downloading example.com/x v1.0.0\n")); err != nil {
		t.Fatal(err)
	}
	if out.String() != "go: downloading example.com/x v1.0.0\n" {
		t.Errorf("printed %q", out.String())
	}
}
