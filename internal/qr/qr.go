// Package qr draws QR codes of short URLs for printing and for scanning off
// a screen: a PNG and an SVG of the same symbol, error correction level M
// (15% of the symbol may be lost, a fold or a smudge on a printed letter)
// or better. It wraps github.com/skip2/go-qrcode, which encodes; the SVG
// is drawn here from the symbol's modules, since that library writes PNG
// only.
package qr

import (
	"fmt"
	"strings"

	qrcode "github.com/skip2/go-qrcode"
)

// Level is the error correction level every code here carries: M.
const Level = qrcode.Medium

// MaxContent bounds what a code may hold: a short link, not a document.
const MaxContent = 512

// PNG draws content as a square PNG size pixels wide (quiet zone
// included). size below the symbol's module count is raised to it.
func PNG(content string, size int) ([]byte, error) {
	q, err := encode(content)
	if err != nil {
		return nil, err
	}
	return q.PNG(size)
}

// SVG draws content as an SVG whose modules are size/modules wide, one
// path of black squares on white, with the quiet zone the standard asks
// (four modules), scalable without blur when printed.
func SVG(content string, size int) ([]byte, error) {
	q, err := encode(content)
	if err != nil {
		return nil, err
	}
	bits := q.Bitmap() // quiet zone included
	n := len(bits)
	var path strings.Builder
	for y, row := range bits {
		for x := 0; x < len(row); {
			if !row[x] {
				x++
				continue
			}
			start := x
			for x < len(row) && row[x] {
				x++
			}
			fmt.Fprintf(&path, "M%d %dh%dv1h-%dz", start, y, x-start, x-start)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" shape-rendering="crispEdges">`, size, size, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff" stroke="none"/><path fill="#000" stroke="none" d="%s"/></svg>`, n, n, path.String())
	return []byte(b.String()), nil
}

func encode(content string) (*qrcode.QRCode, error) {
	if content == "" {
		return nil, fmt.Errorf("qr: nothing to encode")
	}
	if len(content) > MaxContent {
		return nil, fmt.Errorf("qr: %d bytes is more than the %d a printed code should hold", len(content), MaxContent)
	}
	return qrcode.New(content, Level)
}
