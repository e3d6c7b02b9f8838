package qr

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// zbarimg decodes a picture's QR code with Debian's zbar-tools, an
// implementation that shares nothing with the encoder.
func zbarimg(t *testing.T, path string) string {
	t.Helper()
	bin, err := exec.LookPath("/usr/bin/zbarimg")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("zbarimg (zbar-tools) is missing: %v", err)
		}
		t.Skip("zbarimg (zbar-tools) is not installed")
	}
	out, err := exec.Command(bin, "--quiet", "--raw", path).Output() // stdout only: zbar may grumble about D-Bus on stderr
	if err != nil {
		t.Fatalf("zbarimg %s: %v", path, err)
	}
	return strings.TrimSpace(string(out))
}

func TestPNGDecodesBack(t *testing.T) {
	const url = "https://payline.example/o/lo_0193b2c4e5f6-Abc123_xyz"
	png, err := PNG(url, 256)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("not a PNG: % x", png[:8])
	}
	path := filepath.Join(t.TempDir(), "code.png")
	if err := os.WriteFile(path, png, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := zbarimg(t, path); got != url {
		t.Fatalf("decoded %q, want %q", got, url)
	}
}

// TestSVGDecodesBack rasterises the SVG with ImageMagick (Debian's) and
// decodes it, so the hand-drawn modules are checked by a reader.
func TestSVGDecodesBack(t *testing.T) {
	const url = "https://payline.example/o/lo_0193b2c4e5f6-Abc123_xyz"
	svg, err := SVG(url, 300)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(svg, []byte("<svg")) {
		t.Fatalf("not an SVG: %.40s", svg)
	}
	convert, err := exec.LookPath("/usr/bin/convert") // Debian's ImageMagick
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("convert (imagemagick) is missing: %v", err)
		}
		t.Skip("imagemagick is not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "code.svg"), filepath.Join(dir, "code.png")
	if err := os.WriteFile(in, svg, 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(convert, "-density", "144", in, out).CombinedOutput(); err != nil {
		t.Fatalf("convert: %v: %s", err, b)
	}
	if got := zbarimg(t, out); got != url {
		t.Fatalf("decoded %q, want %q", got, url)
	}
}

func TestRefusesWhatIsNoShortLink(t *testing.T) {
	if _, err := PNG("", 256); err == nil {
		t.Fatal("an empty code was drawn")
	}
	if _, err := SVG(strings.Repeat("x", MaxContent+1), 256); err == nil {
		t.Fatal("a code longer than a short link was drawn")
	}
}
