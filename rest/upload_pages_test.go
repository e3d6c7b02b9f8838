package rest

import (
	"bytes"
	"encoding/json"
	"image"
	"image/jpeg"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// wildStub is a photographed paystub of the document corpus and the
// employer and net pay printed on it.
func wildStub(t testing.TB, name string) (photo []byte, employer string, netPay float64) {
	t.Helper()
	photo, err := os.ReadFile("../testdata/documents/wild/" + name + ".jpg")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../testdata/documents/wild/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var truth struct {
		Paystubs []struct {
			EmployerName string      `json:"employer_name"`
			NetPay       json.Number `json:"net_pay"`
		} `json:"paystubs"`
	}
	if err := json.Unmarshal(raw, &truth); err != nil || len(truth.Paystubs) == 0 {
		t.Fatalf("%s.json: %v", name, err)
	}
	net, err := truth.Paystubs[0].NetPay.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return photo, truth.Paystubs[0].EmployerName, math.Round(net * 100) // in cents, as the API answers
}

// halves cuts a picture into its top and bottom halves, as two pages.
func halves(t testing.TB, photo []byte) (top, bottom []byte) {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(photo))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	mid := b.Min.Y + b.Dy()/2
	enc := func(r image.Rectangle) []byte {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img.(interface {
			SubImage(image.Rectangle) image.Image
		}).SubImage(r), &jpeg.Options{Quality: 92}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	return enc(image.Rect(b.Min.X, b.Min.Y, b.Max.X, mid)), enc(image.Rect(b.Min.X, mid, b.Max.X, b.Max.Y))
}

// blurred is the picture out of focus: a box blur of radius 8 pixels,
// twice, across and down.
func blurred(t testing.TB, photo []byte) []byte {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(photo))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	grey := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, bl, _ := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
			grey[y*w+x] = (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl)) / 257
		}
	}
	const radius = 8
	pass := func(src []float64, stride, step, n, lines int) []float64 {
		out := make([]float64, len(src))
		for l := 0; l < lines; l++ {
			for i := 0; i < n; i++ {
				var sum float64
				var c int
				for k := max(0, i-radius); k <= min(n-1, i+radius); k++ {
					sum += src[l*stride+k*step]
					c++
				}
				out[l*stride+i*step] = sum / float64(c)
			}
		}
		return out
	}
	for range 2 {
		grey = pass(grey, w, 1, w, h) // across
		grey = pass(grey, 1, w, h, w) // down
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for i, v := range grey {
		out.Pix[i] = uint8(v)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type formPart struct {
	field, name string
	data        []byte
}

// postParts posts multipart parts to a Link API path as the modal does.
func (f *fixture) postParts(path, token string, parts ...formPart) (int, map[string]any) {
	f.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for _, p := range parts {
		if p.name == "" {
			_ = w.WriteField(p.field, string(p.data))
			continue
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", `form-data; name="`+p.field+`"; filename="`+p.name+`"`)
		h.Set("Content-Type", "application/octet-stream")
		pw, _ := w.CreatePart(h)
		_, _ = pw.Write(p.data)
	}
	_ = w.Close()
	req, _ := http.NewRequest("POST", f.http.URL+"/link/v1/api/"+path, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// TestUploadPagesOneDocument: a paystub photographed as two pages (the
// top and bottom halves of a photo of the corpus) is sent as a file and
// its further page, previewed and stored as one document, read with the
// employer and net pay printed on it; a blurred picture is asked again in
// the preview, measured on the server as the modal measures it;
// a PDF with further pages is refused, on both databases.
func TestUploadPagesOneDocument(t *testing.T) {
	photo, employer, net := wildStub(t, "dev-adp-05")
	top, bottom := halves(t, photo)
	blur := blurred(t, photo)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "pages-user", "required_jobs": ["paystubs"]}`)
		doc := []formPart{{"document_type", "", []byte("paystub")}, {"files", "page-1.jpg", top}, {"pages", "page-2.jpg", bottom}}

		status, res := f.postParts("uploads/preview", token, doc...)
		files, _ := res["files"].([]any)
		if status != 200 || len(files) != 1 {
			t.Fatalf("preview of two pages: %d %v", status, res)
		}
		pv := files[0].(map[string]any)
		if pv["read"] != true || pv["employer_name"] != employer {
			t.Errorf("the two pages previewed as %v; want %s read", pv, employer)
		}

		status, res = f.postParts("uploads/preview", token, formPart{"document_type", "", []byte("paystub")}, formPart{"files", "shaky.jpg", blur})
		files, _ = res["files"].([]any)
		if status != 200 || len(files) != 1 || !strings.Contains(files[0].(map[string]any)["note"].(string), "This picture is blurred") {
			t.Errorf("a blurred picture's preview: %d %v", status, res)
		}

		pdf, _ := testPaystubPDF(t)
		if status, res := f.postParts("uploads", token, formPart{"document_type", "", []byte("paystub")}, formPart{"files", "a.pdf", pdf},
			formPart{"pages", "b.jpg", bottom}); status != 400 || linkErrorCode(res) != domain.CodeInvalidFields {
			t.Errorf("a PDF with a further page: %d %v", status, res)
		}

		status, res = f.postParts("uploads", token, doc...)
		if status != 200 || res["submitted"] != float64(1) {
			t.Fatalf("upload of two pages: %d %v", status, res)
		}
		docs := f.get("/v1/end_users/pages-user/documents").list(t)
		if len(docs) != 1 {
			t.Fatalf("%d documents stored, want one of two pages", len(docs))
		}
		pd, _ := docs[0]["parsed_data"].(map[string]any)
		if pd["employer_name"] != employer || pd["net_pay_amount"] != net {
			t.Errorf("the document of two pages was read as %v; want %s, net pay %v", pd, employer, net)
		}
	})
}
