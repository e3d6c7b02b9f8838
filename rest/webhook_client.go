package rest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"
	"unicode/utf8"

	"payline/domain"
)

// WebhookClient posts webhook deliveries: 15-second timeout, no redirects
// followed, no proxy from the environment, and outside the sandbox a dial
// guard that refuses internal addresses after DNS resolution, so a host
// that resolves differently at delivery than at creation is still caught.
type WebhookClient struct {
	client *http.Client
}

// NewWebhookClient builds the client. caFile, when set, is a PEM bundle of
// extra CAs trusted alongside the system's (--webhook-ca-file).
func NewWebhookClient(mode domain.Mode, caFile string) (*WebhookClient, error) {
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("webhook CA file: %w", err)
		}
		if !roots.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("webhook CA file %s holds no PEM certificate", caFile)
		}
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	if mode != domain.ModeSandbox {
		dialer.Control = guardDial
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.Proxy = nil
	transport.DialContext = dialer.DialContext
	transport.TLSClientConfig.RootCAs = roots
	// Keep a connection per webhook worker (storage.QueueConfig's 100)
	// open to a busy receiver: with fewer, workers beyond the idle limit
	// closed theirs after each delivery and the next one paid a TLS
	// handshake (16% of the process's CPU in BenchmarkWebhookDelivery).
	// Resumed sessions make the handshakes that remain cheaper.
	transport.MaxIdleConns = 512
	transport.MaxIdleConnsPerHost = 128
	transport.TLSClientConfig.ClientSessionCache = tls.NewLRUClientSessionCache(256)
	transport.ResponseHeaderTimeout = domain.WebhookTimeout
	return &WebhookClient{client: &http.Client{
		Transport: transport,
		Timeout:   domain.WebhookTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is a final answer, not a hop
		},
	}}, nil
}

// errBlockedAddress is a dial refused by the guard.
var errBlockedAddress = errors.New("refused: the webhook host resolves to a loopback, private, link-local or metadata address")

// guardDial runs after DNS resolution, on the address actually dialed.
func guardDial(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || domain.BlockedIP(ip) {
		return errBlockedAddress
	}
	return nil
}

// Send implements domain.WebhookSender.
func (c *WebhookClient) Send(ctx context.Context, r domain.WebhookRequest) (domain.WebhookResponse, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return domain.WebhookResponse{}, err
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return domain.WebhookResponse{}, err
	}
	defer resp.Body.Close()
	// The excerpt the delivery log keeps; reading on (up to 64 KiB) lets
	// the connection be reused.
	// The status is the answer: a body cut off mid-read leaves a shorter
	// excerpt, and a failed drain only costs the connection's reuse.
	head, _ := io.ReadAll(io.LimitReader(resp.Body, domain.ResponseExcerptBytes+utf8.UTFMax))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	return domain.WebhookResponse{Status: resp.StatusCode, Excerpt: domain.ResponseExcerpt(head)}, nil
}
