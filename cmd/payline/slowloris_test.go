package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// TestSlowLorisBody: a client that sends its headers and then trickles the
// body a byte at a time is answered 400 with the spec's body once the read
// timeout passes, and the connection is closed; other clients are served
// meanwhile.
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
	if err := json.Unmarshal(raw, &body); err != nil || resp.StatusCode != 400 || body.Error.Code != domain.CodeInvalidJSON ||
		body.Error.StatusCode != 400 || !strings.Contains(body.Error.Message, "in time") || resp.Header.Get("x-service-request-id") == "" {
		t.Errorf("slow body: %d %s", resp.StatusCode, raw)
	}
	t.Logf("a body trickled at 10 bytes/s was refused after %v: %s", time.Since(began).Round(time.Millisecond), body.Error.Message)
	// The server hangs up: the next read ends.
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Error("the connection stayed open after the refusal")
	}
}
