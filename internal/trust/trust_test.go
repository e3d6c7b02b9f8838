package trust

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTransport: no file trusts the system's CAs; a PEM bundle adds its
// certificates (a server with that certificate answers); a missing file or
// one without a certificate is refused, naming the flag.
func TestTransport(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }))
	defer srv.Close()
	if tr, err := Transport("", "--x-ca-file"); err != nil || (tr.TLSClientConfig != nil && tr.TLSClientConfig.RootCAs != nil) {
		t.Errorf("no file: %v, %v", tr, err)
	}
	dir := t.TempDir()
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := Transport(ca, "--x-ca-file")
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&http.Client{Transport: tr}).Get(srv.URL)
	if err != nil || res.StatusCode != 204 {
		t.Errorf("a server with the bundle's certificate: %v %v", res, err)
	}
	empty := filepath.Join(dir, "empty.pem")
	_ = os.WriteFile(empty, []byte("not a certificate"), 0o600)
	for file, want := range map[string]string{filepath.Join(dir, "missing.pem"): "--x-ca-file:", empty: "holds no PEM certificate"} {
		if _, err := Transport(file, "--x-ca-file"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", file, err, want)
		}
	}
}
