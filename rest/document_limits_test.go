package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"payline/documents"
	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// uploadRequest is a Link upload or preview request as the modal sends it.
func (f *fixture) uploadRequest(ctx context.Context, path, token, docType string, files ...uploadFile) *http.Request {
	f.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("document_type", docType)
	for _, file := range files {
		part, _ := w.CreateFormFile("files", file.name)
		_, _ = part.Write(file.data)
	}
	_ = w.Close()
	req, _ := http.NewRequestWithContext(ctx, "POST", f.http.URL+"/link/v1/api/"+path, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	return req
}

// linkErrorOf is a Link answer's status, Retry-After and error.
func linkErrorOf(t *testing.T, resp *http.Response) (int, string, map[string]any) {
	t.Helper()
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		Error map[string]any `json:"error"`
	}
	_ = json.Unmarshal(raw, &out)
	return resp.StatusCode, resp.Header.Get("Retry-After"), out.Error
}

// TestDocumentSlotsShared: while one tenant holds its share of the
// document slots, its next preview waits in the queue and, past the
// deadline, is refused with 503 DOCUMENTS_BUSY, Retry-After and Link's
// error (type SERVICE_UNAVAILABLE); another tenant's preview is admitted
// at once and read. Both databases.
func TestDocumentSlotsShared(t *testing.T) {
	img := testPNG(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		admission := domain.NewDocumentAdmission(domain.DocumentAdmissionConfig{Slots: 2, Wait: 300 * time.Millisecond}, nil)
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.limitUploads = func(l *domain.LinkService) { l.WithUploadLimits(admission, nil, nil) }
		})
		acme := domain.Scope{CustomerID: f.key.CustomerID, Mode: f.key.Mode}
		hold, err := admission.Admit(context.Background(), domain.DocumentWork{Tenant: acme, Token: "another of acme's tokens"})
		if err != nil {
			t.Fatal(err)
		}
		defer hold()
		_, acmeToken := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "flooder", "required_jobs": ["paystubs"]}`)
		resp, err := http.DefaultClient.Do(f.uploadRequest(context.Background(), "uploads/preview", acmeToken, "paystub", uploadFile{"a.png", img}))
		if err != nil {
			t.Fatal(err)
		}
		status, retry, e := linkErrorOf(t, resp)
		if status != 503 || retry == "" || e["code"] != domain.CodeDocumentsBusy || e["type"] != "SERVICE_UNAVAILABLE" {
			t.Errorf("a preview past its tenant's share and the deadline: %d Retry-After %q %v", status, retry, e)
		}

		globex, err := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		_, globexToken := f.createToken(`{"org_name": "Globex", "end_user_id": "bystander", "required_jobs": ["paystubs"]}`, "x-api-secret", globex.Secret)
		status, out := f.uploadTo("uploads/preview", globexToken, "paystub", uploadFile{"a.png", img})
		if files, _ := out["files"].([]any); status != 200 || len(files) != 1 {
			t.Errorf("another tenant's preview while acme holds its share: %d %v", status, out)
		}
	})
}

// TestPreviewRatePerToken: a link token previews domain.PreviewRate.Burst
// times in a row, then gets 429 RATE_LIMIT_EXCEEDED with Retry-After,
// before its body is read; another token is not limited by it, and the
// previews are counted in the metrics, limited or not.
func TestPreviewRatePerToken(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		reg := prometheus.NewRegistry()
		metrics := NewDocumentMetrics(reg, nil)
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.limitUploads = func(l *domain.LinkService) {
				l.WithUploadLimits(domain.NewDocumentAdmission(domain.DocumentAdmissionConfig{}, metrics), NewPreviewRate(nil, nil), metrics)
			}
		})
		_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "previewer", "required_jobs": ["paystubs"]}`)
		empty := uploadFile{"empty.pdf", nil} // refused as empty once admitted: no program runs
		for i := range domain.PreviewRate.Burst {
			if status, out := f.uploadTo("uploads/preview", token, "paystub", empty); status != 400 {
				t.Fatalf("preview %d of %d: %d %v", i+1, domain.PreviewRate.Burst, status, out)
			}
		}
		resp, err := http.DefaultClient.Do(f.uploadRequest(context.Background(), "uploads/preview", token, "paystub", empty))
		if err != nil {
			t.Fatal(err)
		}
		status, retry, e := linkErrorOf(t, resp)
		if status != 429 || retry == "" || e["code"] != domain.CodeRateLimitExceeded {
			t.Errorf("preview %d: %d Retry-After %q %v, want 429 %s", domain.PreviewRate.Burst+1, status, retry, e, domain.CodeRateLimitExceeded)
		}
		_, other := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "previewer-2", "required_jobs": ["paystubs"]}`)
		if status, out := f.uploadTo("uploads/preview", other, "paystub", empty); status != 400 {
			t.Errorf("another token's preview: %d %v", status, out)
		}
		if got := counterValue(metrics.previews.WithLabelValues("limited")); got != 1 {
			t.Errorf("limited previews counted %v, want 1", got)
		}
		if got := counterValue(metrics.previews.WithLabelValues("allowed")); got != float64(domain.PreviewRate.Burst+1) {
			t.Errorf("allowed previews counted %v, want %d", got, domain.PreviewRate.Burst+1)
		}
		if got := counterValue(metrics.work.WithLabelValues(domain.DocumentAdmitted, "")); got != float64(domain.PreviewRate.Burst+1) {
			t.Errorf("admitted document work counted %v, want %d", got, domain.PreviewRate.Burst+1)
		}
	})
}

// TestClientLeftDuringRead: a client that leaves while its preview is
// being read stops the read (its program is killed) and is logged at
// INFO as a client that left, never as an ERROR; the document slot is
// given back.
func TestClientLeftDuringRead(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	script := "#!/bin/sh\ntouch " + started + "\nexec sleep 600\n"
	if err := os.WriteFile(filepath.Join(dir, "tesseract"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	img := testPNG(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		_ = os.Remove(started)
		logs := &syncBuffer{}
		admission := domain.NewDocumentAdmission(domain.DocumentAdmissionConfig{}, nil)
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.logs = logs
			s.limitUploads = func(l *domain.LinkService) {
				l.WithUploadParser(documents.NewReader(documents.WithTesseract(filepath.Join(dir, "tesseract")))).WithUploadLimits(admission, nil, nil)
			}
		})
		_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "leaver", "required_jobs": ["paystubs"]}`)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			resp, err := http.DefaultClient.Do(f.uploadRequest(ctx, "uploads/preview", token, "paystub", uploadFile{"a.png", img}))
			if err == nil {
				resp.Body.Close()
			}
			done <- err
		}()
		testwait.Every(10*time.Millisecond).Until(t, 20*time.Second, func() error {
			if _, err := os.Stat(started); err != nil {
				return fmt.Errorf("OCR has not started: %v", err)
			}
			return nil
		})
		cancel()
		<-done
		testwait.Every(10*time.Millisecond).Until(t, 20*time.Second, func() error {
			if !strings.Contains(logs.String(), "client left before the answer") {
				return fmt.Errorf("no line for the client that left in %q", logs.String())
			}
			if running, _ := admission.Load(); running != 0 {
				return fmt.Errorf("%d document slots still held", running)
			}
			return nil
		})
		if strings.Contains(logs.String(), "level=ERROR") {
			t.Errorf("a client that left was logged as an error:\n%s", logs.String())
		}
	})
}

// counterValue is a counter's value now.
func counterValue(c prometheus.Counter) float64 {
	var m dto.Metric
	_ = c.Write(&m)
	return m.GetCounter().GetValue()
}
