package rest

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestInstanceLimits: headers or a URL over the API's limit (431, 414)
// and requests beyond
// the instance's concurrency cap get the spec's error body (net/http's own
// answers are plain text), and the instance serves again once a slot
// frees.
func TestInstanceLimits(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db, func(s *fixtureSetup) { s.rest.MaxConcurrent = 1 })

	f.skipSpec = true // 414 and 431 come before any route's documented answers
	res := f.get("/v1/accounts", "X-Padding", strings.Repeat("p", MaxHeaderBytes))
	if res.status != 431 || res.errorCode() != domain.CodeHeadersTooLarge || !strings.Contains(res.errorMessage(), "64 KiB") {
		t.Errorf("oversized headers: %d %s", res.status, res.raw)
	}
	res = f.get("/v1/accounts?pad=" + strings.Repeat("p", MaxURLBytes))
	if res.status != 414 || res.errorCode() != domain.CodeURITooLong || !strings.Contains(res.errorMessage(), "64 KiB") {
		t.Errorf("an oversized URL: %d %s", res.status, res.raw)
	}
	f.skipSpec = false

	// The one slot is taken (as by a request still being served): the next
	// request is refused at once, and served again once the slot frees.
	f.server.slots <- struct{}{}
	busy := f.get("/v1/accounts")
	<-f.server.slots
	if busy.status != 429 || busy.errorCode() != domain.CodeServerBusy || busy.header.Get("Retry-After") != "1" {
		t.Errorf("busy: %d %s (Retry-After %q)", busy.status, busy.raw, busy.header.Get("Retry-After"))
	}
	if res := f.get("/v1/accounts"); res.status != 200 {
		t.Errorf("after the slot freed: %d %s", res.status, res.raw)
	}
	// A request releases its slot when it ends, however it ends.
	for range 3 {
		f.get("/v1/accounts/not-a-uuid")
	}
	if n := len(f.server.slots); n != 0 {
		t.Errorf("%d slots still held after the requests ended", n)
	}
}

// TestOversizedRequestsAnswered repeats finding 8 of issue 46's probe
// against the server as serve runs it (net/http's 1 MiB limit, each peer's
// connections capped by LimitConnsPerAddress), on both databases: a 1 MB
// URL gets 414 URI_TOO_LONG and 1 MB of headers 431 HEADERS_TOO_LARGE in
// the spec's error body, and a request line and headers over net/http's
// own limit get its plain 431, read by the client before the connection
// closes rather than a reset.
func TestOversizedRequestsAnswered(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: f.server, MaxHeaderBytes: 1 << 20, ReadHeaderTimeout: 10 * time.Second}
		go func() { _ = srv.Serve(LimitConnsPerAddress(ln, DefaultMaxConnsPerAddress)) }()
		t.Cleanup(func() { _ = srv.Close() })

		megabyte := strings.Repeat("a", 1_000_000)
		for _, c := range []struct {
			name, head string
			status     int
			code       string
		}{
			{"a 1 MB URL", "GET /v1/accounts?pad=" + megabyte + " HTTP/1.1\r\n", 414, domain.CodeURITooLong},
			{"1 MB of headers", "GET /v1/accounts HTTP/1.1\r\nX-Padding: " + megabyte + "\r\n", 431, domain.CodeHeadersTooLarge},
			{"2 MB of headers", "GET /v1/accounts HTTP/1.1\r\nX-Padding: " + megabyte + megabyte + "\r\n", 431, ""},
			{"a 2 MB URL", "GET /v1/accounts?pad=" + megabyte + megabyte + " HTTP/1.1\r\n", 431, ""},
		} {
			t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
				status, body := sendRaw(t, ln.Addr().String(), c.head+"Host: payline\r\nx-api-secret: "+f.secret+"\r\nConnection: close\r\n\r\n")
				if status != c.status {
					t.Fatalf("%s: %d %.200s, want %d", c.name, status, body, c.status)
				}
				if c.code == "" { // net/http's own answer: plain text
					return
				}
				var e struct {
					Error struct {
						Type, Code, Message string
						StatusCode          int `json:"status_code"`
					}
				}
				if err := json.Unmarshal(body, &e); err != nil || e.Error.Code != c.code || e.Error.StatusCode != c.status || e.Error.Type == "" || e.Error.Message == "" {
					t.Errorf("%s: %d %.300s, want the spec's error body with %s", c.name, status, body, c.code)
				}
			})
		}
	})
}

// sendRaw writes request on a new connection, while reading the answer
// as a client that sends and reads at once does, and returns the answer's
// status and body. A reset before the answer fails the test.
func sendRaw(t *testing.T, addr, request string) (int, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	go func() { _, _ = io.WriteString(conn, request) }() // refused early, the rest of it may never be taken
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer, the connection ended with: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, body
}
