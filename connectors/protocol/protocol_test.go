package protocol_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"payline/connectors/protocol"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/trust"
)

const secret = "a shared secret for tests"

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// served starts the sandbox connector behind the protocol and a client
// for it.
func served(t testing.TB, c domain.Connector) (*protocol.Client, *httptest.Server) {
	t.Helper()
	platforms, _ := sandbox.Directory(10)
	srv := httptest.NewServer(protocol.NewServer("sandbox", c, platforms, secret, domain.SystemClock{}, quiet()))
	t.Cleanup(srv.Close)
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return client, srv
}

func same(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s through the protocol differs:\n got %.300s\nwant %.300s", what, g, w)
	}
}

// TestSandboxThroughProtocol: every login outcome, match, job outcome and
// data product reads the same through the protocol as from the sandbox
// connector in process, the paystubs over several pages.
func TestSandboxThroughProtocol(t *testing.T) {
	direct := sandbox.Connector{PendingDelay: time.Hour, PendingPoll: time.Minute}
	client, _ := served(t, direct)
	ctx := context.Background()
	platforms, _ := sandbox.Directory(10)
	p := platforms[0]

	if caps, err := client.Capabilities(ctx); err != nil || caps.ProtocolVersion != protocol.Version || len(caps.Platforms) != len(platforms) {
		t.Fatalf("capabilities: %+v, %v", caps, err)
	}
	for _, cr := range []domain.Credentials{
		{Username: sandbox.UserGood, Password: sandbox.Password},
		{Username: sandbox.UserGood, Password: "wrong"},
		{Username: sandbox.UserLocked, Password: sandbox.Password},
		{Username: sandbox.UserMFA, Password: sandbox.Password},
		{Username: sandbox.UserMFA, Password: sandbox.Password, MFACode: "000000"},
		{Username: sandbox.UserMFA, Password: sandbox.Password, MFACode: sandbox.MFACode},
		{Username: sandbox.UserPending, Password: sandbox.Password},
	} {
		gotConn, gotErr := client.Login(ctx, p, cr)
		wantConn, wantErr := direct.Login(ctx, p, cr)
		if gotConn != wantConn || errString(gotErr) != errString(wantErr) {
			t.Errorf("login %s/%s/%s: %q %v, want %q %v", cr.Username, cr.Password, cr.MFACode, gotConn, gotErr, wantConn, wantErr)
		}
		var e *domain.Error
		if errors.As(wantErr, &e) && !errors.As(gotErr, &e) {
			t.Errorf("login %s: %T is not a *domain.Error", cr.Username, gotErr)
		}
	}

	m := domain.PlatformMatching{SocialSecurityLastFour: "4321", DateOfBirth: "1990-01-02", LastName: "Lovelace"}
	same(t, "match", client.Match(ctx, m, platforms), direct.Match(ctx, m, platforms))

	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, conn := range []string{"good", "error", "pending", "terminated", "no such scenario"} {
		a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000a1", CustomerID: "c1", EndUserID: "ada", PlatformID: p.ID,
			EmployerName: "Sycamore Publishing Inc", Connection: conn, CreatedAt: now.AddDate(0, 0, -3)}
		j := domain.Job{ID: "0195f0a0-0000-7000-8000-0000000000b1", Name: domain.JobPaystubs, CreatedAt: now.Add(-time.Minute)}
		got, gotErr := client.Run(ctx, j, a, j.CreatedAt, now)
		want, wantErr := direct.Run(ctx, j, a, j.CreatedAt, now)
		if gotErr != nil || wantErr != nil {
			t.Fatalf("run %s: %v / %v", conn, gotErr, wantErr)
		}
		same(t, "run "+conn, got, want)
		if conn != "good" && conn != "terminated" {
			continue
		}
		for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductAllocations,
			domain.ProductPaystubs, domain.ProductTaxForms, domain.ProductShifts} {
			r := domain.FetchRequest{Account: a, Product: product, Since: now.Add(-domain.PaystubHistory), Now: now}
			got, gotErr := client.Fetch(ctx, r)
			want, wantErr := direct.Fetch(ctx, r)
			if gotErr != nil || wantErr != nil {
				t.Fatalf("fetch %s: %v / %v", product, gotErr, wantErr)
			}
			same(t, conn+" "+product, got, want)
			if product == domain.ProductPaystubs && len(want.Paystubs) <= 100 && conn == "good" {
				t.Logf("only %d paystubs: paging is not exercised by this account", len(want.Paystubs))
			}
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestPagedProducts: a product longer than a page arrives whole, in order,
// through next_cursor.
func TestPagedProducts(t *testing.T) {
	stubs := make([]domain.Paystub, 250)
	for i := range stubs {
		stubs[i] = domain.Paystub{ID: strconv.Itoa(i), PayDate: "2026-01-01", GrossPayAmount: domain.USD(int64(i))}
	}
	var pages atomic.Int32
	client, _ := served(t, fixedFetch{stubs: stubs, pages: &pages})
	f, err := client.Fetch(context.Background(), domain.FetchRequest{Product: domain.ProductPaystubs})
	if err != nil || len(f.Paystubs) != 250 || f.Paystubs[249].ID != "249" || f.Paystubs[100].ID != "100" {
		t.Fatalf("%d paystubs, %v", len(f.Paystubs), err)
	}
	if n := pages.Load(); n != 3 {
		t.Errorf("%d page requests, want 3 of 100", n)
	}
}

type fixedFetch struct {
	sandbox.Connector
	stubs []domain.Paystub
	pages *atomic.Int32
}

func (f fixedFetch) Fetch(context.Context, domain.FetchRequest) (domain.Fetched, error) {
	f.pages.Add(1)
	return domain.Fetched{Paystubs: f.stubs}, nil
}

// TestSignatures: a request signed with another secret, with a stale or
// future timestamp, or unsigned, is refused with 401 INVALID_SIGNATURE,
// and the client says which setting is wrong.
func TestSignatures(t *testing.T) {
	_, srv := served(t, sandbox.Connector{})
	wrong, err := protocol.New(protocol.Config{URL: srv.URL, Secret: "not the secret"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wrong.Capabilities(context.Background()); err == nil || !strings.Contains(err.Error(), "PAYLINE_CONNECTOR_SECRET") {
		t.Errorf("a wrong secret: %v", err)
	}
	body := []byte(`{"platform": {"id": "x"}, "credentials": {"username": "user_good", "password": "pass_good"}}`)
	for name, ts := range map[string]int64{"stale": time.Now().Add(-6 * time.Minute).Unix(), "future": time.Now().Add(6 * time.Minute).Unix()} {
		req, _ := http.NewRequest("POST", srv.URL+protocol.PathLogin, strings.NewReader(string(body)))
		req.Header.Set(protocol.HeaderTimestamp, strconv.FormatInt(ts, 10))
		req.Header.Set(protocol.HeaderSignature, protocol.Sign(secret, "POST", protocol.PathLogin, ts, body))
		if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != 401 {
			t.Errorf("%s timestamp: %v %v", name, res.StatusCode, err)
		}
	}
	res, err := http.Post(srv.URL+protocol.PathLogin, "application/json", strings.NewReader(string(body)))
	if err != nil || res.StatusCode != 401 {
		t.Errorf("unsigned: %v %v", res.StatusCode, err)
	}
	var eb protocol.ErrorBody
	_ = json.NewDecoder(res.Body).Decode(&eb)
	if eb.Error.Code != "INVALID_SIGNATURE" {
		t.Errorf("unsigned: %+v", eb)
	}
}

// TestUnreachableConnector: a connector that is down or answers 5XX is
// UPSTREAM_UNAVAILABLE with a retry hint; after five failures in a row
// the circuit opens and calls fail without reaching it.
func TestUnreachableConnector(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Error(w, "overloaded", http.StatusBadGateway)
	}))
	defer srv.Close()
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret, Cooldown: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		_, err := client.Run(context.Background(), domain.Job{ID: "j"}, domain.Account{}, time.Now(), time.Now())
		var e *domain.Error
		if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable || e.RetryAfter <= 0 {
			t.Fatalf("call %d: %v, want UPSTREAM_UNAVAILABLE with a retry hint", i, err)
		}
	}
	if n := hits.Load(); n != 5 {
		t.Errorf("the connector was reached %d times, want 5 before the circuit opened", n)
	}
	srv.Close()
	down, _ := protocol.New(protocol.Config{URL: srv.URL, Secret: secret})
	_, err = down.Login(context.Background(), domain.Platform{}, domain.Credentials{})
	var e *domain.Error
	if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable {
		t.Errorf("a connector that is down: %v", err)
	}
}

// slowRun never answers before its deadline.
type slowRun struct {
	sandbox.Connector
	canceled chan struct{}
}

func (s slowRun) Run(ctx context.Context, _ domain.Job, _ domain.Account, _, _ time.Time) (domain.JobResult, error) {
	<-ctx.Done()
	close(s.canceled)
	return domain.JobResult{}, ctx.Err()
}

// TestDeadlines: a request carries its deadline, the connector's work is
// canceled when it passes, and the client reports the connector as
// unavailable rather than hanging.
func TestDeadlines(t *testing.T) {
	slow := slowRun{canceled: make(chan struct{})}
	platforms, _ := sandbox.Directory(10)
	srv := httptest.NewServer(protocol.NewServer("slow", slow, platforms, secret, domain.SystemClock{}, quiet()))
	defer srv.Close()
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Run(context.Background(), domain.Job{ID: "j"}, domain.Account{}, time.Now(), time.Now())
	var e *domain.Error
	if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable {
		t.Errorf("a run past its deadline: %v", err)
	}
	select {
	case <-slow.canceled:
	case <-time.After(10 * time.Second):
		t.Error("the connector's work was not canceled at the deadline")
	}
}

// TestCredentialsStayOffTheWire: a plain-http connector URL is refused
// unless it is on this machine.
func TestCredentialsStayOffTheWire(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://connector.example":  true,
		"http://127.0.0.1:9000":      true,
		"http://[::1]:9000":          true,
		"http://localhost:9000":      true,
		"http://connector.example":   false,
		"http://10.0.0.5:9000":       false,
		"ftp://connector.example":    false,
		"connector.example:9000/api": false,
	} {
		_, err := protocol.New(protocol.Config{URL: url, Secret: secret})
		if (err == nil) != ok {
			t.Errorf("%s: %v", url, err)
		}
	}
	if _, err := protocol.New(protocol.Config{URL: "https://connector.example"}); err == nil || !strings.Contains(err.Error(), "PAYLINE_CONNECTOR_SECRET") {
		t.Errorf("no secret: %v", err)
	}
}

func servedB(b *testing.B, c domain.Connector) *protocol.Client {
	client, _ := served(b, c)
	return client
}

// TestLoginNeverRedirected: an https connector that answers a login with
// a redirect to plain http gets no password sent there: the login fails
// as the connector being unavailable, saying redirects are not followed.
func TestLoginNeverRedirected(t *testing.T) {
	var reached atomic.Int32
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		body, _ := io.ReadAll(r.Body)
		leaked.Store(string(body))
		_, _ = io.WriteString(w, `{"connection": "stolen"}`)
	}))
	defer other.Close()
	platforms, _ := sandbox.Directory(10)
	server := protocol.NewServer("sandbox", sandbox.Connector{}, platforms, secret, domain.SystemClock{}, quiet())
	connector := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == protocol.PathLogin {
			http.Redirect(w, r, other.URL+protocol.PathLogin, http.StatusTemporaryRedirect)
			return
		}
		server.ServeHTTP(w, r)
	}))
	defer connector.Close()
	client, err := protocol.New(protocol.Config{URL: connector.URL, Secret: secret, HTTP: connector.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.Capabilities(context.Background()); err != nil {
		t.Fatalf("capabilities (not redirected): %v", err)
	}
	conn, err := client.Login(context.Background(), platforms[0], domain.Credentials{Username: "user_good", Password: "pass_good"})
	var e *domain.Error
	if !errors.As(err, &e) || e.Code != domain.CodeUpstreamUnavailable || !errors.Is(err, trust.ErrRedirect) ||
		!strings.Contains(err.Error(), "redirect to "+other.URL) {
		t.Errorf("a login redirected to plain http: %q, %v; want UPSTREAM_UNAVAILABLE naming the redirect", conn, err)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the redirect's address received %d requests (%v)", n, leaked.Load())
	}
}
