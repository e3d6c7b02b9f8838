package smtp_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/notify/smtp"
)

// python is Debian's interpreter, which has python3-aiosmtpd.
const python = "/usr/bin/python3"

// smtpServer is aiosmtpd (testdata/smtpd.py) running for one test.
type smtpServer struct {
	port int
	dir  string
}

// startSMTP runs a real SMTP server. Outside CI a machine without
// python3-aiosmtpd skips; under CI=true it fails.
func startSMTP(t *testing.T, extra ...string) smtpServer {
	t.Helper()
	if err := exec.Command(python, "-c", "import aiosmtpd").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s cannot import aiosmtpd (apt-get install python3-aiosmtpd): %v", python, err)
		}
		t.Skipf("SKIPPING: %s cannot import aiosmtpd (apt-get install python3-aiosmtpd): %v", python, err)
	}
	dir := t.TempDir()
	args := append([]string{"testdata/smtpd.py", "--dir", dir, "--user", "payline", "--password", "right horse battery"}, extra...)
	cmd := exec.Command(python, args...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- line
		_, _ = io.Copy(io.Discard, out)
	}()
	select {
	case line := <-ready:
		var port int
		if _, err := fmt.Sscanf(line, "READY %d", &port); err != nil {
			t.Fatalf("smtpd.py said %q, not READY <port>", line)
		}
		return smtpServer{port: port, dir: dir}
	case <-time.After(30 * time.Second):
		t.Fatal("smtpd.py did not start within 30 s")
	}
	return smtpServer{}
}

// received reads the n-th message the server took: its envelope and
// its parsed bytes.
func (s smtpServer) received(t *testing.T, n int) (envelope map[string]any, msg *mail.Message) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(s.dir, fmt.Sprint(n)+".eml"))
	if err != nil {
		t.Fatalf("the server holds no message %d: %v", n, err)
	}
	env, err := os.ReadFile(filepath.Join(s.dir, fmt.Sprint(n)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(env, &envelope); err != nil {
		t.Fatal(err)
	}
	msg, err = mail.ReadMessage(strings.NewReader(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return envelope, msg
}

// count is how many messages the server took.
func (s smtpServer) count(t *testing.T) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(s.dir, "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func order() domain.OutboundMessage {
	return domain.OutboundMessage{
		Channel: domain.ChannelEmail, To: "jordan@example.com", FromName: "Acme Lending",
		Subject:    "Acme Lending asks you to connect your payroll",
		Text:       "Hello Jordan,\n\nAcme Lending asks you to connect your payroll account.\n\nOpen https://payline.example/l/AbC123 to start.",
		CustomerID: "c1", Mode: domain.ModeSandbox, Ref: "lo_1",
	}
}

func sender(t *testing.T, rawURL string, pool *x509.CertPool) *smtp.Sender {
	t.Helper()
	s, err := smtp.New(smtp.Config{URL: rawURL, From: "links@payline.example", RootCAs: pool})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parts reads a multipart/alternative body into its parts by type.
func parts(t *testing.T, msg *mail.Message) map[string]string {
	t.Helper()
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q, want multipart/alternative", msg.Header.Get("Content-Type"))
	}
	out := map[string]string{}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextPart()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(p) // quoted-printable is decoded by NextPart
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		out[ct] = string(b)
	}
}

func TestSMTPDeliversBothBodies(t *testing.T) {
	srv := startSMTP(t)
	s := sender(t, fmt.Sprintf("smtp://payline:%s@127.0.0.1:%d", url.PathEscape("right horse battery"), srv.port), nil)
	sent, err := s.Send(context.Background(), order())
	if err != nil {
		t.Fatalf("Send: %v", err)
	}
	if sent.ProviderID == "" || sent.SentAt.IsZero() {
		t.Errorf("sent = %+v, want a message id and a time", sent)
	}
	env, msg := srv.received(t, 1)
	if got := fmt.Sprint(env["rcpt_tos"]); got != "[jordan@example.com]" {
		t.Errorf("envelope recipients %s", got)
	}
	if env["mail_from"] != "links@payline.example" {
		t.Errorf("envelope sender %v", env["mail_from"])
	}
	from, err := mail.ParseAddress(msg.Header.Get("From"))
	if err != nil || from.Name != "Acme Lending" || from.Address != "links@payline.example" {
		t.Errorf("From %q, want \"Acme Lending\" <links@payline.example>", msg.Header.Get("From"))
	}
	if msg.Header.Get("To") != "<jordan@example.com>" && msg.Header.Get("To") != "jordan@example.com" {
		t.Errorf("To %q", msg.Header.Get("To"))
	}
	subject, _ := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
	if subject != order().Subject {
		t.Errorf("Subject %q", subject)
	}
	if id := msg.Header.Get("Message-Id"); !strings.HasSuffix(id, "@payline.example>") || !strings.Contains(id, strings.Trim(sent.ProviderID, "<>")) {
		t.Errorf("Message-ID %q, Send said %q", id, sent.ProviderID)
	}
	if msg.Header.Get("Date") == "" {
		t.Error("no Date header")
	}
	got := parts(t, msg)
	if !strings.Contains(got["text/plain"], "Open https://payline.example/l/AbC123 to start.") {
		t.Errorf("text part:\n%s", got["text/plain"])
	}
	html := got["text/html"]
	for _, want := range []string{"Acme Lending", `<a href="https://payline.example/l/AbC123"`, "Hello Jordan,"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, html)
		}
	}
	for _, never := range []string{"<img", "url(", "<link", "<script"} {
		if strings.Contains(strings.ToLower(html), never) {
			t.Errorf("HTML part loads remote content (%s):\n%s", never, html)
		}
	}
}

func TestSMTPWrongPasswordRefused(t *testing.T) {
	srv := startSMTP(t)
	s := sender(t, fmt.Sprintf("smtp://payline:wrong@127.0.0.1:%d", srv.port), nil)
	_, err := s.Send(context.Background(), order())
	if !errors.Is(err, domain.ErrDeliveryRefused) {
		t.Fatalf("err = %v, want ErrDeliveryRefused", err)
	}
	if !strings.Contains(err.Error(), "the SMTP server refused the login: 535") {
		t.Errorf("err = %q, want the server's 535 reason", err)
	}
	if srv.count(t) != 0 {
		t.Error("a message arrived without a login")
	}
}

func TestSMTPRecipientRefusedWithoutNamingThem(t *testing.T) {
	srv := startSMTP(t)
	s := sender(t, fmt.Sprintf("smtp://payline:%s@127.0.0.1:%d", url.PathEscape("right horse battery"), srv.port), nil)
	m := order()
	m.To = "refuse-me@example.com"
	_, err := s.Send(context.Background(), m)
	if !errors.Is(err, domain.ErrDeliveryRefused) {
		t.Fatalf("err = %v, want ErrDeliveryRefused", err)
	}
	if !strings.Contains(err.Error(), "550") || strings.Contains(err.Error(), "refuse-me@example.com") {
		t.Errorf("err = %q, want the 550 reason with the address masked", err)
	}
}

func TestSMTPServerDownIsRetryable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	s := sender(t, "smtp://payline:x@"+addr, nil)
	_, err = s.Send(context.Background(), order())
	if err == nil || errors.Is(err, domain.ErrDeliveryRefused) {
		t.Fatalf("err = %v, want an error worth retrying", err)
	}
	var op *net.OpError
	if !errors.As(err, &op) {
		t.Errorf("err = %v, want the connection's error", err)
	}
	if strings.Contains(err.Error(), "jordan") {
		t.Errorf("err names the recipient: %v", err)
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key to dir and
// returns the pool that trusts it.
func selfSigned(t *testing.T, dir string) (cert, key string, pool *x509.CertPool) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "payline test smtp"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	parsed, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(parsed)
	return cert, key, pool
}

func TestSMTPOverTLS(t *testing.T) {
	cert, key, pool := selfSigned(t, t.TempDir())
	for _, tc := range []struct {
		name, scheme string
		extra        []string
	}{
		{"STARTTLS", "smtp", nil},
		{"implicit TLS", "smtps", []string{"--implicit-tls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startSMTP(t, append([]string{"--cert", cert, "--key", key}, tc.extra...)...)
			u := fmt.Sprintf("%s://payline:%s@127.0.0.1:%d", tc.scheme, url.PathEscape("right horse battery"), srv.port)
			if _, err := sender(t, u, pool).Send(context.Background(), order()); err != nil {
				t.Fatalf("Send: %v", err)
			}
			env, _ := srv.received(t, 1)
			if env["tls"] != true {
				t.Errorf("the server took the message without TLS: %v", env)
			}
			// A certificate the sender does not trust is refused, not retried.
			_, err := sender(t, u, nil).Send(context.Background(), order())
			if !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "certificate") {
				t.Errorf("untrusted certificate: err = %v, want a refusal naming the certificate", err)
			}
		})
	}
}

func TestSMTPRefusesRemoteContent(t *testing.T) {
	s := sender(t, "smtp://payline:x@127.0.0.1:1", nil)
	m := order()
	m.HTML = `<p>Hi</p><img src="https://tracker.example/p.gif" width="1" height="1">`
	_, err := s.Send(context.Background(), m)
	if !errors.Is(err, domain.ErrDeliveryRefused) || !strings.Contains(err.Error(), "img") {
		t.Fatalf("err = %v, want a refusal naming the image", err)
	}
}

func TestSMTPConfig(t *testing.T) {
	for _, tc := range []struct{ url, from, want string }{
		{"smtp://u:p@mail.example", "", "--smtp-from is required"},
		{"http://mail.example", "a@b.example", "scheme"},
		{"smtp://u:p@mail.example:99999", "a@b.example", "is not a port"},
		{"smtp://u:p@mail.example?auth=xoauth", "a@b.example", "auth="},
		{"smtp:///", "a@b.example", "no host"},
		{"smtp://u:p@mail.example", "not an address", "not an e-mail address"},
	} {
		_, err := smtp.New(smtp.Config{URL: tc.url, From: tc.from})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%q, %q) = %v, want %q", tc.url, tc.from, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), ":p@") {
			t.Errorf("the error repeats the password: %v", err)
		}
	}
}
