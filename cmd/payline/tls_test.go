package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log/slog"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "payline test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

func startServe(t *testing.T, cfg ServeConfig, stdout io.Writer) (*Main, error) {
	t.Helper()
	cfg.Addr = "127.0.0.1:0"
	if cfg.DatabaseURL == "" {
		cfg.DatabaseURL = "sqlite:" + filepath.Join(t.TempDir(), "p.db")
	}
	m := &Main{Config: cfg, Stdout: stdout, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
	err := m.Start(context.Background())
	if err == nil {
		t.Cleanup(func() { m.Close(context.Background()) })
	}
	return m, err
}

// TestHTTPS: --tls-cert/--tls-key serve HTTPS (and nothing in plain
// text); outside the sandbox plain HTTP is refused at start unless
// --trust-proxy says a TLS proxy is in front, and then only requests the
// proxy received over HTTPS are served.
func TestHTTPS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)

	t.Run("sandbox over TLS", func(t *testing.T) {
		var out bytes.Buffer
		m, err := startServe(t, ServeConfig{Mode: domain.ModeSandbox, TLSCert: certFile, TLSKey: keyFile}, &out)
		if err != nil {
			t.Fatal(err)
		}
		secret := secretLine.FindStringSubmatch(out.String())
		if secret == nil {
			t.Fatalf("no secret printed: %s", out.String())
		}
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
		var state *tls.ConnectionState
		client.Transport.(*http.Transport).TLSClientConfig.VerifyConnection = func(cs tls.ConnectionState) error {
			state = &cs
			return nil
		}
		status, _, _, err := apiDo(client, "GET", "https://"+m.Addr()+"/v1/platforms?limit=1", secret[1], "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if status != 200 || state == nil || state.Version < tls.VersionTLS12 {
			t.Errorf("over HTTPS: %d, TLS %v", status, state)
		}
		if !strings.HasPrefix(m.Config.PublicURL, "https://") {
			t.Errorf("public URL %s", m.Config.PublicURL)
		}
		// Plain HTTP to the TLS port gets no API answer.
		if resp, err := http.Get("http://" + m.Addr() + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				t.Error("plain HTTP was served on the TLS port")
			}
		}
	})

	t.Run("refusals at start", func(t *testing.T) {
		for _, c := range []struct {
			cfg  ServeConfig
			want []string
		}{
			{ServeConfig{Mode: domain.ModeProduction}, []string{"HTTPS", "--tls-cert", "--tls-key", "--trust-proxy"}},
			{ServeConfig{Mode: domain.ModeDevelopment}, []string{"HTTPS", "--trust-proxy"}},
			{ServeConfig{Mode: domain.ModeSandbox, TLSCert: certFile}, []string{"--tls-cert and --tls-key go together"}},
			{ServeConfig{Mode: domain.ModeSandbox, TLSCert: certFile, TLSKey: certFile}, []string{"load --tls-cert"}},
		} {
			var out bytes.Buffer
			_, err := startServe(t, c.cfg, &out)
			if err == nil {
				t.Errorf("%+v started", c.cfg)
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%+v: %v (want %q)", c.cfg, err, w)
				}
			}
			if out.Len() != 0 {
				t.Errorf("%+v printed %q before refusing", c.cfg, out.String())
			}
		}
	})

	t.Run("behind a trusted proxy", func(t *testing.T) {
		url := "sqlite:" + filepath.Join(t.TempDir(), "p.db")
		var keyOut bytes.Buffer
		if err := run(context.Background(), []string{"keys", "create", "--customer", "acme", "--mode", "development", "--json", "--database-url", url},
			&keyOut, io.Discard, env("PAYLINE_MASTER_KEY", testMasterKey)); err != nil {
			t.Fatal(err)
		}
		var key struct{ Secret string }
		if err := json.Unmarshal(keyOut.Bytes(), &key); err != nil {
			t.Fatal(err)
		}
		m, err := startServe(t, ServeConfig{Mode: domain.ModeDevelopment, TrustProxy: true, DatabaseURL: url}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		call := func(proto string) (int, map[string]any) {
			extra := http.Header{}
			if proto != "" {
				extra.Set("X-Forwarded-Proto", proto)
			}
			status, body, _, err := apiDo(nil, "GET", "http://"+m.Addr()+"/v1/platforms?limit=1", key.Secret, "", extra)
			if err != nil {
				t.Fatal(err)
			}
			return status, body
		}
		if status, body := call("https"); status != 200 {
			t.Errorf("X-Forwarded-Proto https: %d %v", status, body)
		}
		for _, proto := range []string{"http", ""} {
			status, body := call(proto)
			e, _ := body["error"].(map[string]any)
			if status != 400 || e == nil || e["code"] != domain.CodeHTTPSRequired || e["status_code"] != float64(400) || e["message"] == "" {
				t.Errorf("X-Forwarded-Proto %q: %d %v", proto, status, body)
			}
		}
		resp, err := http.Get("http://" + m.Addr() + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("/readyz for the load balancer: %d", resp.StatusCode)
		}
	})
}
