package rest

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
	"payline/storage"
	"payline/storage/storagetest"
)

// testPaystubPDF is a paystub as Payline renders it, for uploads.
func testPaystubPDF(t testing.TB) ([]byte, domain.Paystub) {
	t.Helper()
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000aa", CustomerID: "c", EndUserID: "u", EmployerName: "Sycamore Publishing Inc"}
	p := sandbox.NewPerson(a)
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	stubs := p.Paystubs(now.AddDate(0, -2, 0), now, now)
	stub := stubs[len(stubs)-1]
	pdf, err := reports.RenderPaystub(stub)
	if err != nil {
		t.Fatal(err)
	}
	return pdf, stub
}

func testPNG(t testing.TB) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type uploadFile struct {
	name string
	data []byte
}

// upload posts files to Link's upload endpoint as the modal does.
func (f *fixture) upload(token, docType string, files ...uploadFile) (int, map[string]any) {
	f.t.Helper()
	return f.uploadTo("uploads", token, docType, files...)
}

// uploadTo posts files to a Link API path (uploads, uploads/preview) as
// the modal does.
func (f *fixture) uploadTo(path, token, docType string, files ...uploadFile) (int, map[string]any) {
	f.t.Helper()
	req := f.uploadRequest(context.Background(), path, token, docType, files...)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, out
}

// inflatingPDF is a PDF of n streams that each inflate to size bytes of
// zeros from a few kilobytes.
func inflatingPDF(n, size int) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	_, _ = w.Write(make([]byte, size))
	_ = w.Close()
	pdf := bytes.NewBufferString("%PDF-1.4\n")
	for i := range n {
		fmt.Fprintf(pdf, "%d 0 obj << /Length %d /Filter /FlateDecode >>\nstream\n", i+1, z.Len())
		pdf.Write(z.Bytes())
		pdf.WriteString("\nendstream\nendobj\n")
	}
	return pdf.Bytes()
}

// TestDocumentUploads checks Link's uploads on both databases: a paystub
// PDF Payline rendered is read back, an image is kept as unparsable, both
// download through their signed links byte for byte, and a renamed
// executable, an oversized file, an eleventh file and a PDF whose streams
// inflate past domain.MaxUploadInflatedBytes are refused with nothing
// stored.
// TestUploadBodyReadOnlyForAToken: an upload with a token that does not
// open is refused before its body is read, so a stranger cannot make the
// server hold 100 MB uploads in memory; the body here never ends, and the
// answer still comes.
func TestUploadBodyReadOnlyForAToken(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		pr, pw := io.Pipe()
		defer pw.Close()
		go func() {
			_, _ = pw.Write([]byte("--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.pdf\"\r\n\r\n%PDF-"))
		}()
		req, _ := http.NewRequest("POST", f.http.URL+"/link/v1/api/uploads", pr)
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		req.Header.Set("Authorization", "Bearer lt_not-a-token")
		req.ContentLength = domain.MaxUploadRequestBytes
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		resp, err := http.DefaultClient.Do(req.WithContext(ctx))
		if err != nil {
			t.Fatalf("no answer while the body was still arriving: %v", err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(raw), domain.CodeLinkTokenInvalid) {
			t.Errorf("an upload with a bad token: %d %s; want 400 %s", resp.StatusCode, raw, domain.CodeLinkTokenInvalid)
		}
	})
}

func TestDocumentUploads(t *testing.T) {
	pdf, stub := testPaystubPDF(t)
	img := testPNG(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "uploader", "required_jobs": ["paystubs"]}`)
		errCode := func(out map[string]any) string {
			e, _ := out["error"].(map[string]any)
			return fmt.Sprint(e["code"], " ", e["message"])
		}
		exe := append([]byte("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff"), bytes.Repeat([]byte{0}, 600)...)
		huge := append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte{' '}, domain.MaxUploadBytes)...)
		eleven := make([]uploadFile, 11)
		for i := range eleven {
			eleven[i] = uploadFile{fmt.Sprintf("p%d.png", i), img}
		}
		for _, c := range []struct {
			name  string
			files []uploadFile
			want  string
		}{
			{"a renamed executable", []uploadFile{{"paystub.pdf", pdf}, {"paystub2.pdf", exe}}, "is not a PDF, PNG or JPEG"},
			{"an oversized file", []uploadFile{{"big.pdf", huge}}, "files must be at most 10 MB"},
			{"eleven files", eleven, "at most 10 files"},
			{"no files", nil, "missing required fields: files"},
			{"a PDF that inflates past the bound", []uploadFile{{"paystub.pdf", pdf}, {"bomb.pdf", inflatingPDF(3, 8<<20)}},
				domain.CodeUploadTooLargeInflated + " files[1] (bomb.pdf)"},
		} {
			status, out := f.upload(token, "paystub", c.files...)
			if status != 400 || !strings.Contains(errCode(out), c.want) {
				t.Errorf("%s: %d %v, want 400 saying %q", c.name, status, out, c.want)
			}
		}
		if status, out := f.upload(token, "selfie", uploadFile{"a.png", img}); status != 400 || !strings.Contains(errCode(out), "document_type") {
			t.Errorf("document_type selfie: %d %v", status, out)
		}
		if docs := f.get("/v1/end_users/uploader/documents").raw; !strings.Contains(string(docs), `"data":[]`) && f.get("/v1/end_users/uploader/documents").status != 404 {
			t.Fatalf("refused uploads stored documents: %s", docs)
		}

		status, out := f.upload(token, "paystub", uploadFile{"march.pdf", pdf}, uploadFile{"photo.png", img})
		if status != 200 || out["submitted"] != float64(2) {
			t.Fatalf("upload: %d %v", status, out)
		}
		docs := f.get("/v1/end_users/uploader/documents").list(t)
		if len(docs) != 2 {
			t.Fatalf("%d documents", len(docs))
		}
		byType := map[string]map[string]any{}
		for _, d := range docs {
			link := d["document"].(map[string]any)["download_url"].(string)
			res, err := http.Get(link)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			byType[res.Header.Get("Content-Type")] = d
			if !bytes.Equal(body, pdf) && !bytes.Equal(body, img) {
				t.Errorf("document %v downloads %d other bytes", d["id"], len(body))
			}
		}
		parsed := byType["application/pdf"]
		pd, _ := parsed["parsed_data"].(map[string]any)
		if parsed["document_type"] != "paystub" || pd["employer_name"] != stub.EmployerName || pd["pay_date"] != stub.PayDate.String() ||
			pd["gross_pay_amount"] != float64(stub.GrossPayAmount.Amount) || pd["net_pay_amount"] != float64(stub.NetPayAmount.Amount) ||
			!onlyEmployeeNameMissing(parsed["warnings"]) || parsed["fraud"].(map[string]any)["status"] != "not_suspected" {
			t.Errorf("the uploaded paystub PDF: %v", parsed)
		}
		image := byType["image/png"]
		w, _ := image["warnings"].([]any)
		if image["parsed_data"] != nil || len(w) != 1 || w[0].(map[string]any)["status"] != "unparsable" || image["fraud"].(map[string]any)["status"] != "unavailable" {
			t.Errorf("the uploaded image: %v", image)
		}
		if status, out := f.upload(token, "paystub", uploadFile{"again.png", img}); status != 400 || !strings.Contains(errCode(out), domain.CodeLinkTokenUsed) {
			t.Errorf("a second upload on one token: %d %v", status, out)
		}
		if n := f.countEvents("documents.added"); n != 2 {
			t.Errorf("%d documents.added events, want 2", n)
		}
	})
}

// onlyEmployeeNameMissing: a document's warnings name the employee's name
// alone, which Payline's own paystub layout does not print.
func onlyEmployeeNameMissing(warnings any) bool {
	w, _ := warnings.([]any)
	return len(w) == 1 && w[0].(map[string]any)["field"] == "employee_name" && w[0].(map[string]any)["status"] == "unparsable"
}
