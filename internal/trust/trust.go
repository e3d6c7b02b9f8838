// Package trust is how connectors and the upstream relay reach their far
// side: the HTTP transport (the system's CAs, plus a PEM bundle for a
// private CA), the URL rule for a far side that receives credentials
// (https, or http to loopback only), and a client that follows no
// redirect with them.
package trust

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"os"
)

// Transport is http.DefaultTransport's settings trusting the system's CAs
// and, when caFile is set, the certificates in it as well (TLS 1.2 at
// least). flag names the setting in errors, such as --upstream-ca-file.
func Transport(caFile, flag string) (*http.Transport, error) {
	transport := http.DefaultTransport.(*http.Transport).Clone()
	if caFile == "" {
		return transport, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s %s holds no PEM certificate", flag, caFile)
	}
	transport.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return transport, nil
}
