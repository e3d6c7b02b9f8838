// Command testsummary reads `go test -json` on its standard input, prints
// what go test prints without -json (each package's result, and the output
// of every test that failed or of a build that did), and ends by saying
// what ran: the SQLite and PostgreSQL halves (how many tests of each
// passed), whether the tests that need a browser, OCR, the PDF tools or
// Redis ran or were skipped and why, and every other reason a test was
// skipped. It exits 1 when anything failed. test.sh, the README's test
// command, runs it (issue 51: go test prints nothing of a passing
// package, so a skipped half went unnoticed).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

func main() {
	s := newSummary(os.Stdout)
	if err := s.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	s.report()
	if !s.ok() {
		os.Exit(1)
	}
}

// event is one line of go test -json (cmd/test2json's TestEvent, and the
// go command's build events).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // build-output and build-fail
}

// read feeds every event of r to the summary; a line that is not an
// event (a go command's own message) is printed as it is.
func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			fmt.Fprintln(s.out, sc.Text())
			continue
		}
		s.add(e)
	}
	return sc.Err()
}
