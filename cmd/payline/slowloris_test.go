package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
)

// TestSlowLorisBody: a client that sends its headers and then trickles the
// body a byte at a time is answered 408 REQUEST_TIMEOUT with the spec's
// body once the read timeout passes (here a second, before the minimum
// rate would cut it), and the connection is closed; other clients are
// served meanwhile.
func TestSlowLorisBody(t *testing.T) {
	var out bytes.Buffer
	m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + filepath.Join(t.TempDir(), "p.db"), Mode: domain.ModeSandbox,
		ReadTimeout: time.Second}, Stdout: &out, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	secret := secretLine.FindStringSubmatch(out.String())
	if secret == nil {
		t.Fatalf("no secret printed: %s", out.String())
	}

	conn, err := net.Dial("tcp", m.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	began := time.Now()
	if _, err := io.WriteString(conn, "POST /v1/link_tokens HTTP/1.1\r\nHost: payline\r\nx-api-secret: "+secret[1]+
		"\r\nService-Version: 2025-07-08\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"org_name\": \""); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // a byte every 100 ms, until the server hangs up
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte("a")); err != nil {
					return
				}
			}
		}
	}()

	// Served meanwhile.
	if status, body := apiGet(t, m.Addr(), secret[1], "/v1/platforms?limit=1"); status != 200 {
		t.Errorf("another client during the slow body: %d %v", status, body)
	}

	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to the slow body (%v after it began): %v", time.Since(began), err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct {
			Type, Code, Message string
			StatusCode          int `json:"status_code"`
		}
	}
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &body); err != nil || resp.StatusCode != 408 || body.Error.Code != domain.CodeRequestTimeout ||
		body.Error.StatusCode != 408 || !strings.Contains(body.Error.Message, "within 1s") || resp.Header.Get("x-service-request-id") == "" {
		t.Errorf("slow body: %d %s", resp.StatusCode, raw)
	}
	t.Logf("a body trickled at 10 bytes/s was refused after %v: %s", time.Since(began).Round(time.Millisecond), body.Error.Message)
	// The server hangs up: the next read ends.
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the connection stayed open after the refusal")
	}
}

// TestSlowBodiesLeaveTenantsServed is the attack of issue 34, bounded for
// CI: 530 connections from one address (127.0.0.2) each send POST
// /dashboard/session with Content-Length: 100000 and then one byte a
// second, connecting again whenever the server hangs up, for 12 seconds.
// Meanwhile a tenant at another address (127.0.0.1) calls GET
// /v1/accounts eight times a second, within its rate, and every call must
// answer 200; /readyz must stay ready, as the slow bodies hold no slot.
// It runs at serve's defaults (512 slots, 256 connections and 64
// unauthenticated requests per address, 1 KiB/s after the first second).
func TestSlowBodiesLeaveTenantsServed(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	const conns, attackFor = 530, 12 * time.Second
	attacker := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}}
	eachDatabase(t, func(t *testing.T, url string) {
		var out bytes.Buffer
		m := startMain(t, url, &out)
		defer m.Close(context.Background())
		secret := secretLine.FindStringSubmatch(out.String())
		if secret == nil {
			t.Fatalf("no secret printed: %s", out.String())
		}
		if c, err := attacker.Dial("tcp", m.Addr()); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("dial from 127.0.0.2 (the attacker's address): %v", err)
			}
			t.Skipf("this machine cannot dial from 127.0.0.2, the attacker's address: %v", err)
		} else {
			c.Close()
		}

		ctx, cancel := context.WithTimeout(context.Background(), attackFor)
		defer cancel()
		attack := slowAttack{allSent: make(chan struct{}), of: conns}
		var wg sync.WaitGroup
		for range conns {
			wg.Go(func() { attack.run(ctx, attacker, m.Addr()) })
		}
		// Measure once every slow client has sent its head.
		select {
		case <-attack.allSent:
		case <-ctx.Done():
			t.Fatalf("the slow clients did not all connect in %s (%s)", attackFor, attack.String())
		}
		measured := time.Now()

		client := &http.Client{Timeout: 10 * time.Second}
		var latencies []time.Duration
		failures := map[int]int{}
		readyFailures := map[int]int{}
		tick := time.NewTicker(125 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ctx.Err() == nil; i++ {
			select {
			case <-tick.C:
			case <-ctx.Done():
				continue
			}
			start := time.Now()
			status, body, _, err := apiDo(client, "GET", "http://"+m.Addr()+"/v1/accounts", secret[1], "", nil)
			if err != nil {
				status = -1
			}
			if status != 200 {
				failures[status]++
				t.Logf("tenant's call %d: %d %v %v", i, status, body, err)
				continue
			}
			latencies = append(latencies, time.Since(start))
			if i%8 == 0 {
				if resp, err := client.Get("http://" + m.Addr() + "/readyz"); err != nil {
					readyFailures[-1]++
				} else {
					resp.Body.Close()
					if resp.StatusCode != 200 {
						readyFailures[resp.StatusCode]++
					}
				}
			}
		}
		wg.Wait()
		if len(latencies) > 0 {
			slices.Sort(latencies)
			t.Logf("tenant's GET /v1/accounts over %s of attack: %d answered 200, p50 %s, p99 %s, max %s; failures %v; /readyz failures %v",
				time.Since(measured).Round(100*time.Millisecond), len(latencies), latencies[len(latencies)/2].Round(time.Microsecond),
				latencies[len(latencies)*99/100].Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond), failures, readyFailures)
		}
		t.Logf("attacker: %s", attack.String())
		if len(failures) > 0 || len(readyFailures) > 0 {
			t.Errorf("the tenant was refused while slow bodies trickled: %v; /readyz: %v", failures, readyFailures)
		}
		if len(latencies) < 40 {
			t.Errorf("only %d of the tenant's calls answered", len(latencies))
		}
		if attack.cut.Load() == 0 || attack.refusedConn.Load() == 0 || attack.fromAddress.Load() == 0 {
			t.Errorf("the attack did not meet each defence: %s", attack.String())
		}
	})
}

// slowAttack counts what the server did to the slow clients.
type slowAttack struct {
	of      int64         // slow clients
	allSent chan struct{} // closed once of request heads are sent

	requests    atomic.Int64 // request heads sent
	cut         atomic.Int64 // 408 REQUEST_TIMEOUT: the body was too slow
	fromAddress atomic.Int64 // 429 TOO_MANY_CONCURRENT_FROM_ADDRESS
	refusedConn atomic.Int64 // closed with no answer: over the address's connections
	other       sync.Map     // any other answer, by status and code
}

func (a *slowAttack) String() string {
	var other []string
	a.other.Range(func(k, v any) bool {
		other = append(other, fmt.Sprintf("%v: %d", k, v.(*atomic.Int64).Load()))
		return true
	})
	return fmt.Sprintf("%d requests sent, %d cut with 408, %d refused with 429 for the address, %d connections closed unanswered, other %v",
		a.requests.Load(), a.cut.Load(), a.fromAddress.Load(), a.refusedConn.Load(), other)
}

// run is one slow client until ctx ends: connect, send the head, trickle
// a byte a second until the server answers or hangs up, and again. A
// connection closed unanswered is tried again a second later, as a
// patient attacker would, which keeps the test's own CPU use low.
func (a *slowAttack) run(ctx context.Context, d *net.Dialer, addr string) {
	for ctx.Err() == nil {
		status, code, err := a.once(ctx, d, addr)
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			a.refusedConn.Add(1)
			select { // the patient attacker's pause, not a wait for the server
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
		case status == 408 && code == domain.CodeRequestTimeout:
			a.cut.Add(1)
		case status == 429 && code == domain.CodeTooManyFromAddress:
			a.fromAddress.Add(1)
		default:
			n, _ := a.other.LoadOrStore(fmt.Sprint(status, " ", code), new(atomic.Int64))
			n.(*atomic.Int64).Add(1)
		}
	}
}

func (a *slowAttack) once(ctx context.Context, d *net.Dialer, addr string) (status int, code string, err error) {
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return 0, "", err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	if _, err := io.WriteString(conn, "POST /dashboard/session HTTP/1.1\r\nHost: payline\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"); err != nil {
		return 0, "", err
	}
	if a.requests.Add(1) == a.of {
		close(a.allSent)
	}
	done := make(chan struct{})
	defer close(done)
	go func() { // a byte a second until the answer
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte("a")); err != nil {
					return
				}
			}
		}
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	var body struct{ Error struct{ Code string } }
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body.Error.Code, nil
}

// TestSlowBodyOverTLS: in production over TLS a trickled body is cut the
// same way on HTTP/2 (the stream ends; the connection's other streams go
// on) and on HTTP/1.1 (the connection is closed).
func TestSlowBodyOverTLS(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	certFile, keyFile, pool := selfSigned(t)
	eachDatabase(t, func(t *testing.T, url string) {
		m, err := startServe(t, ServeConfig{DatabaseURL: url, Mode: domain.ModeProduction, TLSCert: certFile, TLSKey: keyFile}, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		for _, proto := range []string{"HTTP/2.0", "HTTP/1.1"} {
			t.Run(proto, func(t *testing.T) {
				transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: proto == "HTTP/2.0"}
				if proto == "HTTP/1.1" {
					transport.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
				}
				defer transport.CloseIdleConnections()
				body, trickle := io.Pipe()
				defer trickle.Close()
				go func() { // a byte every 200 ms until the request ends
					for {
						if _, err := trickle.Write([]byte("a")); err != nil {
							return
						}
						time.Sleep(200 * time.Millisecond) // the slow client's pace: what the test is about
					}
				}()
				req, _ := http.NewRequest("POST", "https://"+m.Addr()+"/dashboard/session", body)
				req.ContentLength = 100_000
				req.Header.Set("Content-Type", "application/json")
				began := time.Now()
				resp, err := (&http.Client{Transport: transport, Timeout: 20 * time.Second}).Do(req)
				if err != nil {
					t.Fatalf("no answer to the slow body: %v", err)
				}
				defer resp.Body.Close()
				var answer struct{ Error struct{ Code string } }
				_ = json.NewDecoder(resp.Body).Decode(&answer)
				if resp.Proto != proto || resp.StatusCode != 408 || answer.Error.Code != domain.CodeRequestTimeout {
					t.Errorf("%s %d %s", resp.Proto, resp.StatusCode, answer.Error.Code)
				}
				t.Logf("%s: cut after %v", resp.Proto, time.Since(began).Round(time.Millisecond))
			})
		}
	})
}
