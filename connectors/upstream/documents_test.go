package upstream

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDownload: a document's download link is fetched without the
// upstream secret, over https (plain http only when the upstream itself
// is plain http), as a PDF, PNG or JPEG of at most 20 MiB.
func TestDownload(t *testing.T) {
	pdf := []byte("%PDF-1.4 a W-2")
	var sawSecret bool
	mux := http.NewServeMux()
	mux.HandleFunc("/w2.pdf", func(w http.ResponseWriter, r *http.Request) {
		sawSecret = sawSecret || r.Header.Get("x-api-secret") != ""
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(pdf)
	})
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>"))
	})
	mux.HandleFunc("/huge.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(bytes.Repeat([]byte("x"), maxDocument+1))
	})
	mux.HandleFunc("/gone.pdf", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "expired", http.StatusForbidden) })
	tlsSrv := httptest.NewTLSServer(mux)
	defer tlsSrv.Close()
	plainSrv := httptest.NewServer(mux)
	defer plainSrv.Close()

	secure, err := New(Config{URL: tlsSrv.URL, Secret: "s3cret", HTTP: tlsSrv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	plain, err := New(Config{URL: plainSrv.URL, Secret: "s3cret", HTTP: plainSrv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	doc, err := secure.download(ctx, tlsSrv.URL+"/w2.pdf")
	if err != nil || doc.ContentType != "application/pdf" || !bytes.Equal(doc.Body, pdf) {
		t.Fatalf("download: %+v, %v", doc, err)
	}
	if _, err := plain.download(ctx, plainSrv.URL+"/w2.pdf"); err != nil {
		t.Errorf("plain http from a plain http upstream: %v", err)
	}
	if sawSecret {
		t.Error("a download carried the upstream secret")
	}
	for _, c := range []struct {
		client *Client
		link   string
		want   string
	}{
		{secure, plainSrv.URL + "/w2.pdf", "not an https URL"},
		{secure, "file:///etc/passwd", "not an https URL"},
		{secure, tlsSrv.URL + "/page.html", "not a PDF, PNG or JPEG"},
		{secure, tlsSrv.URL + "/huge.pdf", "larger than 20 MiB"},
		{secure, tlsSrv.URL + "/gone.pdf", "answered 403"},
	} {
		if _, err := c.client.download(ctx, c.link); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("download %s: %v; want %q", c.link, err, c.want)
		}
	}
}

// TestDownloadRedirects: a document link may redirect (a file store
// answering for it), but never from https down to plain http, and the
// plain address then receives nothing.
func TestDownloadRedirects(t *testing.T) {
	var reached atomic.Int32
	plainSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4 a W-2 in the clear"))
	}))
	defer plainSrv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/w2.pdf", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4 a W-2"))
	})
	mux.Handle("/moved.pdf", http.RedirectHandler("/w2.pdf", http.StatusFound))
	mux.Handle("/to-plain.pdf", http.RedirectHandler(plainSrv.URL+"/w2.pdf", http.StatusFound))
	tlsSrv := httptest.NewTLSServer(mux)
	defer tlsSrv.Close()
	secure, err := New(Config{URL: tlsSrv.URL, Secret: "s3cret", HTTP: tlsSrv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if doc, err := secure.download(ctx, tlsSrv.URL+"/moved.pdf"); err != nil || string(doc.Body) != "%PDF-1.4 a W-2" {
		t.Errorf("an https redirect: %q, %v", doc.Body, err)
	}
	if _, err := secure.download(ctx, tlsSrv.URL+"/to-plain.pdf"); err == nil || !strings.Contains(err.Error(), "not https") {
		t.Errorf("a redirect down to plain http: %v", err)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the plain http address received %d requests", n)
	}
}

// TestDownloadOrigins: a download_url, or a redirect from one, on an
// origin other than the upstream's and its configured document origins
// is refused before any connection is made (an upstream cannot aim the
// relay at an address only the relay can reach); a configured file
// store is fetched.
func TestDownloadOrigins(t *testing.T) {
	var reached atomic.Int32
	elsewhere := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write([]byte("%PDF-1.4 from elsewhere"))
	}))
	defer elsewhere.Close()
	mux := http.NewServeMux()
	mux.Handle("/away.pdf", http.RedirectHandler(elsewhere.URL+"/w2.pdf", http.StatusFound))
	upstreamSrv := httptest.NewTLSServer(mux)
	defer upstreamSrv.Close()
	// One client trusts both test certificates, so only the origin rule
	// can refuse.
	both := upstreamSrv.Client()
	both.Transport.(*http.Transport).TLSClientConfig.RootCAs.AddCert(elsewhere.Certificate())

	strict, err := New(Config{URL: upstreamSrv.URL, Secret: "s3cret", HTTP: both})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, link := range []string{elsewhere.URL + "/w2.pdf", upstreamSrv.URL + "/away.pdf",
		"https://169.254.169.254/latest/meta-data/", "https://localhost:1/w2.pdf"} {
		if _, err := strict.download(ctx, link); err == nil || !strings.Contains(err.Error(), "origin") {
			t.Errorf("download %s: %v; want refused for its origin", link, err)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Fatalf("another origin received %d requests", n)
	}

	store, err := New(Config{URL: upstreamSrv.URL, Secret: "s3cret", HTTP: both, DocumentOrigins: []string{elsewhere.URL}})
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{elsewhere.URL + "/w2.pdf", upstreamSrv.URL + "/away.pdf"} {
		if doc, err := store.download(ctx, link); err != nil || string(doc.Body) != "%PDF-1.4 from elsewhere" {
			t.Errorf("download %s from a configured file store: %q, %v", link, doc.Body, err)
		}
	}
	for _, bad := range []string{"http://files.example.com", "https://files.example.com/path", "files.example.com", "https://u:p@files.example.com"} {
		if _, err := New(Config{URL: upstreamSrv.URL, Secret: "s3cret", DocumentOrigins: []string{bad}}); err == nil {
			t.Errorf("document origin %q accepted", bad)
		}
	}
}
