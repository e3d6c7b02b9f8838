package documents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"payline/domain"
)

// maxRenderDPI bounds the pictures RenderPage draws: a letter page at 200
// dpi is 1700 × 2200 pixels, sharp enough to check a figure by eye.
const maxRenderDPI = 200

// RenderPage implements domain.PageRenderer: page (from 1) of a PDF drawn
// by pdftoppm as a PNG at dpi (at most 200), under the reader's timeout
// and memory bound; a PNG or JPEG is its own single page, returned as it
// is. Errors: domain.ErrNoSuchPage, the context's, the program's.
func (r *Reader) RenderPage(ctx context.Context, contentType string, data []byte, page, dpi int) ([]byte, string, error) {
	if page < 1 {
		return nil, "", domain.ErrNoSuchPage
	}
	switch contentType {
	case "image/png", "image/jpeg":
		if page != 1 {
			return nil, "", domain.ErrNoSuchPage
		}
		return data, contentType, nil
	case "application/pdf":
	default:
		return nil, "", fmt.Errorf("documents: cannot draw a page of %s", contentType)
	}
	if r.pdftoppm == "" {
		return nil, "", fmt.Errorf("documents: poppler's pdftoppm is not installed")
	}
	dpi = min(max(dpi, 36), maxRenderDPI)
	dir, err := os.MkdirTemp("", "payline-page-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "file.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return nil, "", err
	}
	n := strconv.Itoa(page)
	out := filepath.Join(dir, "page")
	args := append([]string{"-f", n, "-l", n, "-r", strconv.Itoa(dpi), "-png", "-singlefile"}, pageCrop(dpi)...)
	if _, err := r.run(ctx, r.pdftoppm, append(args, in, out)...); err != nil {
		if strings.Contains(err.Error(), "Wrong page range") { // pdftoppm's word for a page past the last
			return nil, "", domain.ErrNoSuchPage
		}
		return nil, "", err
	}
	b, err := os.ReadFile(out + ".png")
	if os.IsNotExist(err) {
		return nil, "", domain.ErrNoSuchPage // pdftoppm draws nothing for a page past the last
	}
	return b, "image/png", err
}
