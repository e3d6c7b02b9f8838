package main

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// TestOversizedOverTLS repeats finding 8 of issue 46's probe as production
// serves it, over TLS, on HTTP/2 and HTTP/1.1: a 1 MB URL gets 414
// URI_TOO_LONG and 1 MB of headers 431 HEADERS_TOO_LARGE in the spec's
// error body, an answer the client reads, never a reset (the probe's
// run got a reset; rest's TestOversizedRequestsAnswered holds it without
// TLS).
func TestOversizedOverTLS(t *testing.T) {
	t.Parallel() // it mostly waits on the processes it starts
	certFile, keyFile, pool := selfSigned(t)
	eachDatabase(t, func(t *testing.T, url string) {
		m, err := startServe(t, ServeConfig{DatabaseURL: url, Mode: domain.ModeProduction, TLSCert: certFile, TLSKey: keyFile}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		megabyte := strings.Repeat("a", 1_000_000)
		for _, proto := range []string{"HTTP/2.0", "HTTP/1.1"} {
			for _, c := range []struct {
				name   string
				path   string
				header string
				status int
				code   string
			}{
				{"a 1 MB URL", "/v1/accounts?pad=" + megabyte, "", 414, domain.CodeURITooLong},
				{"1 MB of headers", "/v1/accounts", megabyte, 431, domain.CodeHeadersTooLarge},
			} {
				t.Run(proto+"/"+strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
					transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: proto == "HTTP/2.0"}
					if proto == "HTTP/1.1" {
						transport.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
					}
					defer transport.CloseIdleConnections()
					req, _ := http.NewRequest("GET", "https://"+m.Addr()+c.path, nil)
					req.Header.Set("x-api-secret", "sk_test_not_a_key")
					if c.header != "" {
						req.Header.Set("X-Padding", c.header)
					}
					resp, err := (&http.Client{Transport: transport, Timeout: 20 * time.Second}).Do(req)
					if err != nil {
						t.Fatalf("no answer: %v", err)
					}
					defer resp.Body.Close()
					var e struct {
						Error struct {
							Type, Code, Message string
							StatusCode          int `json:"status_code"`
						}
					}
					if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || resp.Proto != proto || resp.StatusCode != c.status ||
						e.Error.Code != c.code || e.Error.StatusCode != c.status || e.Error.Message == "" {
						t.Errorf("%s %d %+v (%v); want %d %s in the spec's body", resp.Proto, resp.StatusCode, e.Error, err, c.status, c.code)
					}
				})
			}
		}
	})
}
