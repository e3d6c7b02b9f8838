package rest

import (
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestBrowserPictureMeasureAgrees: the modal's measure of a picture
// (pictures.js, on a canvas) and the server's (domain.MeasurePicture)
// give the same verdict, sharp, too dark or blurred, on photos of the
// document corpus as taken, in a dim room and out of focus, so a picture
// the modal let through is not asked again by the server, nor the other
// way round. The numbers of both are logged (go test -v) for docs/link.md.
func TestBrowserPictureMeasureAgrees(t *testing.T) {
	names := []string{"dev-adp-05", "dev-gusto-04", "dev-paychex-04", "dev-workday-04", "dev-w2-irs-04", "dev-letter-verification-02"}
	type picture struct {
		name string
		data []byte
	}
	var pictures []picture
	for _, n := range names {
		photo, err := os.ReadFile("../testdata/documents/wild/" + n + ".jpg")
		if err != nil {
			t.Fatal(err)
		}
		pictures = append(pictures, picture{n, photo}, picture{n + " dim", dimmed(t, photo)}, picture{n + " blurred", blurred(t, photo)})
	}
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db)
	ctx := newBrowser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(f.http.URL+"/link/v1/modal")); err != nil {
		t.Fatal(err)
	}
	for _, p := range pictures {
		js := fmt.Sprintf(`(async () => {
			const bytes = Uint8Array.from(atob(%q), c => c.charCodeAt(0));
			const q = await PaylinePictures.measure(new File([bytes], 'p.jpg', {type: 'image/jpeg'}));
			return [q.brightness, q.sharpness, q.tooDark ? 1 : 0, q.blurred ? 1 : 0].join(' ');
		})()`, base64.StdEncoding.EncodeToString(p.data))
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		var bb, bs float64
		var dark, blur int
		if _, err := fmt.Sscan(got, &bb, &bs, &dark, &blur); err != nil {
			t.Fatalf("%s: the modal measured %q", p.name, got)
		}
		q, ok := domain.MeasurePicture(p.data)
		if !ok {
			t.Fatalf("%s: the server could not measure it", p.name)
		}
		t.Logf("%-32s modal: brightness %5.1f sharpness %7.1f | server: brightness %5.1f sharpness %7.1f", p.name, bb, bs, q.Brightness, q.Sharpness)
		if (dark == 1) != q.TooDark() || (blur == 1) != q.Blurred() {
			t.Errorf("%s: the modal says dark %v blurred %v, the server dark %v blurred %v", p.name, dark == 1, blur == 1, q.TooDark(), q.Blurred())
		}
		wantDark, wantBlur := strings.HasSuffix(p.name, " dim"), strings.HasSuffix(p.name, " blurred")
		if q.TooDark() != wantDark || q.Blurred() != wantBlur {
			t.Errorf("%s: measured dark %v blurred %v", p.name, q.TooDark(), q.Blurred())
		}
	}
}
