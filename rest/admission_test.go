package rest

import (
	"bufio"
	"encoding/json"
	"fmt"
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

// held is how many places holder has taken.
func (f *inFlight) held(holder string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n[holder]
}

// trickler is a slow client: it sends a request's head, then its body
// chunk bytes at a time, every so often, until the server answers or the
// test stops it.
type trickler struct {
	conn  net.Conn
	br    *bufio.Reader
	began time.Time
	stop  chan struct{}
	done  chan struct{}
}

func startTrickle(t *testing.T, addr, head string, chunk int, every time.Duration) *trickler {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	tr := &trickler{conn: conn, began: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(tr.done)
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-tr.stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(strings.Repeat("a", chunk))); err != nil {
					return
				}
			}
		}
	}()
	t.Cleanup(tr.close)
	return tr
}

func (tr *trickler) close() {
	select {
	case <-tr.stop:
	default:
		close(tr.stop)
	}
	tr.conn.Close()
	<-tr.done
}

// answer reads the server's answer and its error code in whichever shape
// (REST's and Link's error.code, GraphQL's errors[0].extensions.code).
func (tr *trickler) answer(t *testing.T) (status int, code, message string) {
	t.Helper()
	_ = tr.conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	tr.br = bufio.NewReader(tr.conn)
	br := tr.br
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer %v after the request began: %v", time.Since(tr.began), err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var body struct {
		Error struct {
			Code, Message string
			StatusCode    int `json:"status_code"`
		}
		Errors []struct {
			Message    string
			Extensions struct{ Code string }
		}
	}
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("%d %s: %v", resp.StatusCode, raw, err)
	}
	code, message = body.Error.Code, body.Error.Message
	if len(body.Errors) > 0 {
		code, message = body.Errors[0].Extensions.Code, body.Errors[0].Message
	}
	return resp.StatusCode, code, message
}

// hungUp reports whether the server closed the connection after its
// answer (a kept-alive one stays open until the read deadline).
func (tr *trickler) hungUp() bool {
	_ = tr.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := tr.br.ReadByte()
	return err != nil && !isTimeout(err)
}

const signInHead = "POST /dashboard/session HTTP/1.1\r\nHost: payline\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n"

// TestSlowBodyCut: a body that arrives slower than MinBodyRate once
// BodyGrace has passed is cut with 408 REQUEST_TIMEOUT in the route's own
// error shape, and the connection is closed, whether a credential came
// with it or not; a small body sent in pieces, but at pace, is read.
func TestSlowBodyCut(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		addr := f.http.Listener.Addr().String()
		api := "x-api-secret: " + f.secret + "\r\nService-Version: " + domain.LatestVersion + "\r\nContent-Type: application/json\r\nContent-Length: 400\r\n"
		// Link's API reads a body only for a token that opens (a bad one is
		// refused before its body: TestUploadBodyReadOnlyForAToken).
		_, linkToken := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "trickler", "required_jobs": ["paystubs"]}`)
		for _, c := range []struct{ name, head string }{
			{"an API call", "POST /v1/link_tokens HTTP/1.1\r\nHost: payline\r\n" + api},
			{"GraphQL", "POST /graphql HTTP/1.1\r\nHost: payline\r\n" + api},
			{"signing in", signInHead},
			{"the admin API's sign-in", "POST /v1/admin/token HTTP/1.1\r\nHost: payline\r\nService-Version: " + domain.LatestVersion +
				"\r\nContent-Type: application/json\r\nContent-Length: 400\r\n"},
			{"Link's API", "POST /link/v1/api/login HTTP/1.1\r\nHost: payline\r\nAuthorization: Bearer " + linkToken + "\r\nContent-Type: application/json\r\nContent-Length: 400\r\n"},
		} {
			t.Run(c.name, func(t *testing.T) {
				tr := startTrickle(t, addr, c.head+"\r\n{", 1, 100*time.Millisecond) // 10 bytes/s
				status, code, message := tr.answer(t)
				took := time.Since(tr.began)
				closed := tr.hungUp()
				if status != 408 || code != domain.CodeRequestTimeout || !strings.Contains(message, "1 KiB/s") || !closed {
					t.Errorf("%d %s %q (connection closed: %v)", status, code, message, closed)
				}
				if took < BodyGrace || took > BodyGrace+3*time.Second {
					t.Errorf("cut after %v; want just over %v", took, BodyGrace)
				}
			})
		}

		t.Run("at pace", func(t *testing.T) {
			body := `{"org_name": "Acme Bank", "end_user_id": "paced", "required_jobs": ["employment"]}`
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /v1/link_tokens HTTP/1.1\r\nHost: payline\r\n%s\r\n", strings.Replace(api, "Content-Length: 400", "Content-Length: "+fmt.Sprint(len(body)), 1))
			third := len(body) / 3
			for i, piece := range []string{body[:third], body[third : 2*third], body[2*third:]} {
				if i > 0 {
					time.Sleep(400 * time.Millisecond) // the client's own pace: the test is that it is enough
				}
				if _, err := io.WriteString(conn, piece); err != nil {
					t.Fatal(err)
				}
			}
			tr := &trickler{conn: conn, began: time.Now()}
			if status, code, message := tr.answer(t); status != 200 {
				t.Errorf("a body in three pieces over 0.8 s: %d %s %s", status, code, message)
			}
		})
	})
}

// TestSlotsAfterTheDoor: clients that send no credential and keep a body
// coming take places of their address, never the instance's slots, so an
// authenticated caller is served however many of them there are, and
// /readyz stays ready; one address holds at most MaxConcurrentPerAddress
// places (an authenticated request, too, passes the door first).
func TestSlotsAfterTheDoor(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.MaxConcurrent = 2; s.rest.MaxConcurrentPerAddress = 4 })
		addr := f.http.Listener.Addr().String()
		// Above the floor (2 KiB/s for 100 KB: fifty seconds), so only
		// the test ends them.
		hold := func() *trickler { return startTrickle(t, addr, signInHead+"\r\n", 2048, 500*time.Millisecond) }
		var holders []*trickler
		for range 3 {
			holders = append(holders, hold())
		}
		waitFor(t, "three sign-ins reading their bodies", func() bool { return f.server.perAddress.held("127.0.0.1") == 3 })
		for range 3 { // more than the instance's two slots, one after another
			if res := f.get("/v1/accounts"); res.status != 200 {
				t.Fatalf("an authenticated call beside three slow sign-ins: %d %s", res.status, res.raw)
			}
		}
		if n := len(f.server.slots); n != 0 {
			t.Errorf("slow sign-ins hold %d slots", n)
		}
		if res := f.get("/readyz"); res.status != 200 {
			t.Errorf("/readyz beside slow sign-ins: %d %s", res.status, res.raw)
		}

		holders = append(holders, hold())
		waitFor(t, "the address's fourth place taken", func() bool { return f.server.perAddress.held("127.0.0.1") == 4 })
		for _, path := range []string{"/healthz", "/v1/accounts"} {
			res := f.get(path)
			if res.status != 429 || res.errorCode() != domain.CodeTooManyFromAddress || res.header.Get("Retry-After") != "1" {
				t.Errorf("%s with the address's places taken: %d %s", path, res.status, res.raw)
			}
		}
		for _, h := range holders {
			h.close()
		}
		waitFor(t, "the places given back", func() bool { return f.server.perAddress.held("127.0.0.1") == 0 })
		if res := f.get("/v1/accounts"); res.status != 200 {
			t.Errorf("after the slow clients left: %d %s", res.status, res.raw)
		}
		if n := len(f.server.slots); n != 0 {
			t.Errorf("%d slots still held after the requests ended", n)
		}
	})
}

// TestDoorCountsForwardedAddress: behind a trusted proxy the per-address
// cap counts the address the proxy forwarded, an IPv6 /64 as one.
func TestDoorCountsForwardedAddress(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.TrustProxy = true; s.rest.MaxConcurrentPerAddress = 1 })
		addr := f.http.Listener.Addr().String()
		for _, c := range []struct{ holder, same, other, key string }{
			{"203.0.113.7", "203.0.113.7", "203.0.113.8", "203.0.113.7"},
			{"2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:3::1", "2001:db8:1:2::/64"},
		} {
			forwarded := func(a string) string { return "X-Forwarded-For: " + a + "\r\nX-Forwarded-Proto: https\r\n" }
			h := startTrickle(t, addr, signInHead+forwarded(c.holder)+"\r\n", 2048, 500*time.Millisecond)
			waitFor(t, c.holder+"'s sign-in at the door", func() bool { return f.server.perAddress.held(c.key) == 1 })
			get := func(from string) result {
				return f.get("/healthz", "X-Forwarded-For", from, "X-Forwarded-Proto", "https")
			}
			if res := get(c.same); res.status != 429 || res.errorCode() != domain.CodeTooManyFromAddress {
				t.Errorf("from %s beside %s: %d %s", c.same, c.holder, res.status, res.raw)
			}
			if res := get(c.other); res.status != 200 {
				t.Errorf("from %s beside %s: %d %s", c.other, c.holder, res.status, res.raw)
			}
			h.close()
			waitFor(t, c.holder+"'s place given back", func() bool { return f.server.perAddress.held(c.key) == 0 })
		}
	})
}

// TestConnsPerAddress: a peer holds at most its cap of open connections;
// one more is closed on accept, and closing one makes room again.
func TestConnsPerAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := LimitConnsPerAddress(ln, 2)
	defer lim.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := lim.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial()
	dial()
	first, second := <-accepted, <-accepted
	defer second.Close()
	over := dial()
	_ = over.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := over.Read(make([]byte, 1)); err == nil || isTimeout(err) {
		t.Fatalf("a third connection from one address: read %v, want it closed", err)
	}
	if n := lim.Refused(); n != 1 {
		t.Errorf("Refused() = %d, want 1", n)
	}
	first.Close()
	dial()
	select {
	case c := <-accepted:
		c.Close()
	case <-time.After(10 * time.Second):
		t.Fatal("no connection accepted after one closed")
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

func TestAddressKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"}, // IPv4 on a dual-stack socket
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::", "2001:db8:1:2::/64"},
		{"local", "local"},
	} {
		if got := addressKey(c.in); got != c.want {
			t.Errorf("addressKey(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
