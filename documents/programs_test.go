package documents

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// onePagePDF is a PDF of one page of mediaBox (in points) whose content
// draws content and whose resources hold extra objects (a picture).
func onePagePDF(mediaBox string, content string, extra ...string) []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [" + mediaBox + "] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	objs = append(objs, extra...)
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj %s endobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&b, "trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// fakeProgram writes an executable shell script named name into dir.
func fakeProgram(t *testing.T, dir, name, script string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// eventually waits until cond holds, polling: a child process's state
// can only be seen by looking.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20 s", what)
		}
		time.Sleep(10 * time.Millisecond) // polling /proc or a file; nothing signals it
	}
}

// gone reports whether process pid has ended: no /proc entry, or a
// zombie waiting for a parent (a container's init may never reap it).
func gone(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] == 'Z'
}

func readPID(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("%s: %q", path, b)
	}
	return pid
}

// TestProgramsStopWhenCallerLeaves starts a read of a document whose
// program never ends (a pdftotext that starts a child and waits on it),
// cancels the read as a client that leaves does, and sees the read
// answer the context's error and the program and its child gone: the
// program runs in a process group of its own, killed whole.
func TestProgramsStopWhenCallerLeaves(t *testing.T) {
	dir := t.TempDir()
	fakeProgram(t, dir, "pdftotext", fmt.Sprintf("sleep 600 &\necho $! > %[1]s/child.tmp && mv %[1]s/child.tmp %[1]s/child\necho $$ > %[1]s/pid.tmp && mv %[1]s/pid.tmp %[1]s/pid\nwait\n", dir))
	fakeProgram(t, dir, "pdftoppm", "exit 1\n")
	r := NewReader(WithPoppler(dir), WithTesseract(filepath.Join(dir, "no-tesseract")))
	pdf := onePagePDF("0 0 612 792", "BT /F1 12 Tf 72 700 Td (Gross Pay 1,234.00) Tj ET")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := r.ParseUpload(ctx, domain.DocumentPaystub, "application/pdf", pdf)
		done <- err
	}()
	eventually(t, "the program started", func() bool {
		_, err1 := os.Stat(filepath.Join(dir, "pid"))
		_, err2 := os.Stat(filepath.Join(dir, "child"))
		return err1 == nil && err2 == nil
	})
	pid, child := readPID(t, filepath.Join(dir, "pid")), readPID(t, filepath.Join(dir, "child"))
	if gone(pid) || gone(child) {
		t.Fatalf("the program (%d) or its child (%d) ended before the caller left", pid, child)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a read whose caller left: %v, want context.Canceled", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the read did not end when its caller left")
	}
	eventually(t, "the program ended", func() bool { return gone(pid) })
	eventually(t, "the program's child ended", func() bool { return gone(child) })
}

// TestLimitsBeforePrograms: a PDF declaring a picture larger than
// maxPDFImagePixels is refused before any program runs; a page declared
// 200 × 200 inches is drawn only to the largest page's pixels, within
// the memory bound, where poppler alone would try to allocate the whole
// page (3.6 billion pixels at 300 dpi).
func TestLimitsBeforePrograms(t *testing.T) {
	t.Run("picture pixels", func(t *testing.T) {
		dir := t.TempDir()
		marker := filepath.Join(dir, "ran")
		fakeProgram(t, dir, "pdftotext", "touch "+marker+"\nexit 1\n")
		fakeProgram(t, dir, "pdftoppm", "touch "+marker+"\nexit 1\n")
		r := NewReader(WithPoppler(dir))
		pdf := onePagePDF("0 0 612 792", "BT /F1 12 Tf 72 700 Td (Gross Pay 1,234.00) Tj ET",
			"<< /Type /XObject /Subtype /Image /Width 20000 /Height 20000 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Length 1 >>\nstream\n0\nendstream")
		got, err := r.Read(context.Background(), domain.DocumentPaystub, "application/pdf", pdf)
		if err != nil || got.Refusal != domain.RefusalUnreadable || len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0].Message, "million pixels") {
			t.Fatalf("a PDF with a 400-megapixel picture: %+v, %v", got, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatal("a program ran for a PDF refused by its declared picture size")
		}
	})
	t.Run("page size", func(t *testing.T) {
		if _, err := exec.LookPath("pdftoppm"); err != nil {
			t.Skip("pdftoppm is not installed")
		}
		r := NewReader(WithMemoryLimit(512 << 20))
		pdf := onePagePDF("0 0 14400 14400", "BT /F1 24 Tf 72 14300 Td (Gross Pay 1,234.00) Tj ET")
		b, _, err := r.RenderPage(context.Background(), "application/pdf", pdf, 1, maxRenderDPI)
		if err != nil {
			t.Fatalf("drawing a 200-inch page: %v", err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Width > maxPageWidthInches*maxRenderDPI || cfg.Height > maxPageHeightInches*maxRenderDPI {
			t.Fatalf("a 200-inch page drawn %d × %d pixels, past the largest page at %d dpi", cfg.Width, cfg.Height, maxRenderDPI)
		}
	})
}
