package documents

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
)

// word is one word on a page with its box, in the page's units (points
// for a text layer, pixels for OCR), y growing down the page.
type word struct {
	text           string
	x0, y0, x1, y1 float64
	page           int
	// conf is how surely the word was read, from 0 to 1: 1 for a text
	// layer's, tesseract's confidence for OCR's.
	conf float64
}

func (w word) height() float64 { return w.y1 - w.y0 }

// run runs a program with the reader's bounds: its address space
// (r.memory), its CPU time and wall time (r.timeout, and the caller's
// context), and the files it writes (maxProgramFile). The resource
// bounds are the shell's `ulimit` set just before the program replaces
// the shell: Go's os/exec sets no resource limits itself, and every
// Debian system has a POSIX sh. The program runs in a process group of
// its own, killed whole when the context ends (the caller left, or the
// timeout passed), so nothing it started outlives the read.
func (r *Reader) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	limits := fmt.Sprintf(`ulimit -v %d && ulimit -t %d && ulimit -f %d && exec "$0" "$@"`,
		r.memory>>10, int64(math.Ceil(r.timeout.Seconds())), maxProgramFile/512)
	cmd := exec.CommandContext(ctx, "sh", append([]string{"-c", limits, name}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	// Output waits for the program's pipes to close; a child that kept
	// them open past the kill would hold the read.
	cmd.WaitDelay = time.Second
	// One thread: tesseract's OpenMP would otherwise take every core of
	// a shared machine for a page it reads as fast alone.
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Base(name), ctx.Err())
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", filepath.Base(name), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// textLayerWords extracts the words of a PDF's text layer, with boxes,
// and its pages' sizes, through poppler's pdftotext -bbox-layout.
func (r *Reader) textLayerWords(ctx context.Context, path string) ([]word, map[int][2]float64, error) {
	out, err := r.run(ctx, r.pdftotext, "-bbox-layout", "-l", strconv.Itoa(r.maxPages), path, "-")
	if err != nil {
		return nil, nil, err
	}
	return parseBBoxXHTML(out)
}

// parseBBoxXHTML reads pdftotext's -bbox-layout XHTML: <page width
// height> elements holding <word xMin yMin xMax yMax>text</word>.
func parseBBoxXHTML(b []byte) ([]word, map[int][2]float64, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false
	var words []word
	sizes := map[int][2]float64{}
	page := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return words, sizes, nil
		}
		if err != nil {
			return nil, nil, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "page":
			page++
			var size [2]float64
			for _, a := range se.Attr {
				v, _ := strconv.ParseFloat(a.Value, 64)
				switch a.Name.Local {
				case "width":
					size[0] = v
				case "height":
					size[1] = v
				}
			}
			sizes[page] = size
		case "word":
			w := word{page: page}
			for _, a := range se.Attr {
				v, _ := strconv.ParseFloat(a.Value, 64)
				switch a.Name.Local {
				case "xMin":
					w.x0 = v
				case "yMin":
					w.y0 = v
				case "xMax":
					w.x1 = v
				case "yMax":
					w.y1 = v
				}
			}
			var text string
			if err := dec.DecodeElement(&text, &se); err != nil {
				return nil, nil, err
			}
			w.conf = 1
			words = append(words, splitGlued(strings.TrimSpace(text), w)...)
		}
	}
}

// errNoPages is rasterize's answer when pdftoppm exits without drawing a
// page (out of memory on a huge page, it may still exit 0).
var errNoPages = errors.New("pdftoppm drew no page")

// rasterize renders a scanned PDF's pages as 300 dpi grey PNGs in dir
// through poppler's pdftoppm and lists them in page order. A program
// that fails, or draws nothing, is an error, never an empty read.
func (r *Reader) rasterize(ctx context.Context, path, dir string) ([]string, error) {
	args := append([]string{"-r", "300", "-gray", "-png", "-l", strconv.Itoa(r.maxPages)}, pageCrop(300)...)
	if _, err := r.run(ctx, r.pdftoppm, append(args, path, filepath.Join(dir, "page"))...); err != nil {
		return nil, err
	}
	pages, err := filepath.Glob(filepath.Join(dir, "page*.png"))
	if err != nil {
		return nil, err
	}
	sort.Strings(pages) // pdftoppm pads page numbers to one width
	var out []string
	for _, p := range pages {
		if st, err := os.Stat(p); err == nil && st.Size() > 0 {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, errNoPages
	}
	return out, nil
}

// parseTesseractTSV reads tesseract's TSV output (level, page, block,
// paragraph, line, word, left, top, width, height, conf, text), keeping
// the recognized words, and the page's size (its level 1 row).
func parseTesseractTSV(b []byte, page int) ([]word, [2]float64) {
	var words []word
	var size [2]float64
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) >= 10 && f[0] == "1" {
			size[0], _ = strconv.ParseFloat(f[8], 64)
			size[1], _ = strconv.ParseFloat(f[9], 64)
		}
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		// A table's rule read as "|", a smudge as "_", glued to a word; a
		// speck before a figure ("“$3,154.07", "~$1,095.00").
		text := cleanOCRWord(strings.Trim(strings.TrimSpace(f[11]), "|_"))
		conf, _ := strconv.ParseFloat(f[10], 64)
		if text == "" || conf < 0 || ocrNoise(text, conf/100) {
			continue
		}
		n := make([]float64, 4)
		for i := range n {
			n[i], _ = strconv.ParseFloat(f[6+i], 64)
		}
		w := word{text: text, x0: n[0], y0: n[1], x1: n[0] + n[2], y1: n[1] + n[3], page: page, conf: min(1, conf/100)}
		words = append(words, splitGlued(text, w)...)
	}
	return words, size
}

// splitGlued splits a word a PDF printer or OCR glued to its neighbour
// where a label meets its value ("NETPAY:1,628.54", "Date:01/15/2026",
// "Gross$2,000.00"): the parts keep their share of the word's box. A
// word of letters only is left whole (names such as "McDonald").
func splitGlued(text string, w word) []word {
	if text == "" {
		return nil
	}
	cut := -1
	for i := 1; i < len(text); i++ {
		prev, c := text[i-1], text[i]
		letter := prev >= 'A' && prev <= 'Z' || prev >= 'a' && prev <= 'z'
		if (letter || prev == ':') && (c >= '0' && c <= '9' || c == '$') && i >= 2 {
			// "401k", "W2", "Q3": digits inside a code are no value.
			if prev != ':' && !(c == '$') && !gluedValue(text[i:]) {
				continue
			}
			cut = i
			break
		}
	}
	if cut < 0 {
		w.text = text
		return []word{w}
	}
	frac := float64(cut) / float64(len(text))
	a, b := w, w
	a.text, b.text = text[:cut], text[cut:]
	a.x1 = w.x0 + (w.x1-w.x0)*frac
	b.x0 = a.x1
	return append([]word{a}, splitGlued(b.text, b)...)
}

// gluedValue says whether what follows a label's letters is a value: a
// figure or a date, not the digits of a code.
func gluedValue(s string) bool {
	if _, ok := parseNumber(s); ok {
		return strings.ContainsAny(s, ".,")
	}
	_, ok := parseDate(s)
	return ok
}

// ocrNoise says whether an OCR word is a speck or a rule read as text:
// no letter or digit (but the signs figures are written with), or a
// short word read with almost no confidence.
func ocrNoise(text string, conf float64) bool {
	switch text {
	case "$", "-", "(", ")", "*", "$-", "($", "&", "#", "%", "/", "@":
		return false
	}
	if !strings.ContainsFunc(text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return true
	}
	return conf < 0.3 && len([]rune(text)) <= 3
}

// cleanOCRWord drops the marks OCR reads before a figure from a speck or
// a rule (quotes, a tilde, a caret) and the stray full stop after one
// ("76,956.80."); other words are as read.
func cleanOCRWord(w string) string {
	t := strings.TrimLeft(w, "“”\"'‘’`~^«»")
	if t != w && t != "" && (t[0] == '$' || t[0] >= '0' && t[0] <= '9') {
		w = t
	}
	if strings.HasSuffix(w, ".") {
		if _, ok := parseNumber(strings.TrimSuffix(w, ".")); ok && strings.Count(w, ".") == 2 {
			w = strings.TrimSuffix(w, ".")
		}
	}
	return w
}

// Bounds on what the programs are given and may make, set before any of
// them runs.
const (
	// maxPageWidthInches and maxPageHeightInches are the largest page
	// drawn: a tabloid sheet (17 × 22 in, two letter pages side by side).
	// A page
	// declared larger (PDF allows 200 × 200 in) is drawn from its top left
	// corner to that size only (pageCrop), so its pixels stay within
	// maxOCRPixels at 300 dpi and poppler never allocates the whole page.
	maxPageWidthInches, maxPageHeightInches = 17, 22
	// maxPDFImagePixels bounds a picture inside a PDF, as its dictionary
	// declares it: poppler decodes a picture whole to draw its page, and a
	// 1200 dpi scan of a letter page is 135 million pixels.
	maxPDFImagePixels = 150_000_000
	// maxProgramFile bounds each file a program writes (a drawn page is a
	// few megabytes).
	maxProgramFile = 256 << 20
)

// pageCrop is pdftoppm's arguments that draw at most the largest page
// at dpi: -W and -H crop what is drawn, so a huge page costs no more
// memory than a tabloid one.
func pageCrop(dpi int) []string {
	return []string{"-W", strconv.Itoa(maxPageWidthInches * dpi), "-H", strconv.Itoa(maxPageHeightInches * dpi)}
}
