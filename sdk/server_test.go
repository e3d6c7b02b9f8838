package sdk_test

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// sandbox is a Payline server, built from cmd/payline and started with
// `serve` in sandbox mode on its own SQLite database, as an integrator
// runs it. The libraries' walkthroughs (Go, TypeScript, Python) and the
// React test share it; TestMain stops it.
type sandbox struct {
	URL    string // http://127.0.0.1:port
	Secret string // the sandbox API key's secret serve printed
	// CertFile and KeyFile are a certificate for 127.0.0.1 that the
	// server trusts for webhook deliveries (--webhook-ca-file), so a
	// walkthrough can receive a webhook over TLS.
	CertFile, KeyFile string

	cmd  *exec.Cmd
	logs *lockedBuffer
}

var (
	sandboxOnce sync.Once
	sandboxSrv  *sandbox
	sandboxErr  string
	sandboxDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if sandboxSrv != nil {
		_ = sandboxSrv.cmd.Process.Kill()
		_ = sandboxSrv.cmd.Wait()
	}
	if sandboxDir != "" {
		os.RemoveAll(sandboxDir)
	}
	os.Exit(code)
}

var (
	secretLine    = regexp.MustCompile(`(?m)^    ([0-9a-f]{64})$`)
	listeningLine = regexp.MustCompile(`payline listening.*?addr[=":]+([0-9.]+:[0-9]+)`)
)

// sandboxServer returns the shared server, starting it on first use.
func sandboxServer(t *testing.T) *sandbox {
	t.Helper()
	sandboxOnce.Do(func() { sandboxSrv, sandboxErr = startSandbox() })
	if sandboxErr != "" {
		t.Fatal(sandboxErr)
	}
	return sandboxSrv
}

func startSandbox() (*sandbox, string) {
	dir, err := os.MkdirTemp("", "payline-sdk-")
	if err != nil {
		return nil, err.Error()
	}
	sandboxDir = dir
	bin := filepath.Join(dir, "payline")
	if out, err := exec.Command("go", "build", "-o", bin, "payline/cmd/payline").CombinedOutput(); err != nil {
		return nil, "building cmd/payline: " + err.Error() + "\n" + string(out)
	}
	s := &sandbox{CertFile: filepath.Join(dir, "cert.pem"), KeyFile: filepath.Join(dir, "key.pem"), logs: &lockedBuffer{}}
	if err := writeCert(s.CertFile, s.KeyFile); err != nil {
		return nil, err.Error()
	}
	s.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--database-url", "sqlite:"+filepath.Join(dir, "payline.db"),
		"--webhook-ca-file", s.CertFile)
	s.cmd.Env = append(os.Environ(), "PAYLINE_MASTER_KEY="+strings.Repeat("cd", 32))
	stdout, _ := s.cmd.StdoutPipe()
	stderr, _ := s.cmd.StderrPipe()
	if err := s.cmd.Start(); err != nil {
		return nil, err.Error()
	}
	secret, addr := make(chan string, 1), make(chan string, 1)
	go scan(stdout, s.logs, secretLine, secret)
	go scan(stderr, s.logs, listeningLine, addr)
	timeout := time.After(2 * time.Minute)
	for s.URL == "" || s.Secret == "" {
		select {
		case v := <-secret:
			s.Secret = v
		case v := <-addr:
			s.URL = "http://" + v
		case <-timeout:
			_ = s.cmd.Process.Kill()
			return nil, "the sandbox server did not start within 2 minutes:\n" + s.logs.String()
		}
	}
	return s, ""
}

// scan copies r into logs and sends the first submatch of re.
func scan(r io.Reader, logs *lockedBuffer, re *regexp.Regexp, found chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	sent := false
	for sc.Scan() {
		line := sc.Text()
		logs.WriteString(line + "\n")
		if m := re.FindStringSubmatch(line); m != nil && !sent {
			found <- m[1]
			sent = true
		}
	}
}

// env is the environment a walkthrough in another language runs with.
func (s *sandbox) env() []string {
	return append(os.Environ(), "PAYLINE_URL="+s.URL, "PAYLINE_SECRET="+s.Secret,
		"PAYLINE_TLS_CERT="+s.CertFile, "PAYLINE_TLS_KEY="+s.KeyFile)
}

// writeCert writes a self-signed certificate for 127.0.0.1.
func writeCert(certFile, keyFile string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "payline sdk test receiver"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, IsCA: true, BasicConstraintsValid: true,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
}

type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) WriteString(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// npmInstalled runs npm ci in dir unless probe (a path under
// node_modules) is there already. npm is required: missing, the test
// fails.
func npmInstalled(t *testing.T, dir, probe string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", probe)); err == nil {
		return
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatalf("this test needs npm to install %s's locked packages: %v", dir, err)
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}
