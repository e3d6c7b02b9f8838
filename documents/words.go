package documents

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// word is one word on a page with its box, in the page's units (points
// for a text layer, pixels for OCR), y growing down the page.
type word struct {
	text           string
	x0, y0, x1, y1 float64
	page           int
}

func (w word) height() float64 { return w.y1 - w.y0 }

// run runs a program with the reader's timeout and memory bound. The
// bound is the shell's `ulimit -v` (address space, in KiB) set just
// before the program replaces the shell: Go's os/exec sets no resource
// limits itself, and every Debian system has a POSIX sh.
func (r *Reader) run(ctx context.Context, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	shArgs := append([]string{"-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, r.memory>>10), name}, args...)
	cmd := exec.CommandContext(ctx, "sh", shArgs...)
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
// through poppler's pdftotext -bbox-layout.
func (r *Reader) textLayerWords(ctx context.Context, path string) ([]word, error) {
	out, err := r.run(ctx, r.pdftotext, "-bbox-layout", "-l", strconv.Itoa(r.maxPages), path, "-")
	if err != nil {
		return nil, err
	}
	return parseBBoxXHTML(out)
}

// parseBBoxXHTML reads pdftotext's -bbox-layout XHTML: <page> elements
// holding <word xMin yMin xMax yMax>text</word>.
func parseBBoxXHTML(b []byte) ([]word, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = false
	var words []word
	page := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return words, nil
		}
		if err != nil {
			return nil, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "page":
			page++
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
				return nil, err
			}
			if w.text = strings.TrimSpace(text); w.text != "" {
				words = append(words, w)
			}
		}
	}
}

// rasterize renders a scanned PDF's pages as 300 dpi PNGs in dir through
// poppler's pdftoppm and lists them in page order.
func (r *Reader) rasterize(ctx context.Context, path, dir string) ([]string, error) {
	if _, err := r.run(ctx, r.pdftoppm, "-r", "300", "-gray", "-png", "-l", strconv.Itoa(r.maxPages), path, filepath.Join(dir, "page")); err != nil {
		return nil, err
	}
	pages, err := filepath.Glob(filepath.Join(dir, "page*.png"))
	sort.Strings(pages) // pdftoppm pads page numbers to one width
	return pages, err
}

// ocrWords reads the words of one picture with tesseract, as TSV: one row
// per word with its box and confidence.
func (r *Reader) ocrWords(ctx context.Context, image string, page int) ([]word, error) {
	out, err := r.run(ctx, r.tesseract, image, "stdout", "--psm", "11", "tsv")
	if err != nil {
		return nil, err
	}
	return parseTesseractTSV(out, page), nil
}

// parseTesseractTSV reads tesseract's TSV output (level, page, block,
// paragraph, line, word, left, top, width, height, conf, text), keeping
// the recognized words.
func parseTesseractTSV(b []byte, page int) []word {
	var words []word
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[11])
		conf, _ := strconv.ParseFloat(f[10], 64)
		if text == "" || conf < 0 {
			continue
		}
		n := make([]float64, 4)
		for i := range n {
			n[i], _ = strconv.ParseFloat(f[6+i], 64)
		}
		words = append(words, word{text: text, x0: n[0], y0: n[1], x1: n[0] + n[2], y1: n[1] + n[3], page: page})
	}
	return words
}
