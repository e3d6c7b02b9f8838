package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"payline/domain"
)

// TestReady: `payline ready`, the compose files' health check, exits 0
// for a server that is ready, found from PAYLINE_ADDR as serve reads it
// (0.0.0.0 asked on the loopback address), and fails, naming what it
// met, when nothing answers.
func TestReady(t *testing.T) {
	m := &Main{
		Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: "sqlite:" + filepath.Join(t.TempDir(), "payline.db"), Mode: domain.ModeSandbox},
		Stdout: io.Discard, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Getenv: env("PAYLINE_MASTER_KEY", testMasterKey),
	}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close(context.Background())
	_, port, _ := net.SplitHostPort(m.Addr())

	for name, c := range map[string]struct {
		args []string
		env  func(string) string
	}{
		"--url":                {[]string{"ready", "--url", "http://" + m.Addr() + "/readyz"}, env()},
		"PAYLINE_ADDR":         {[]string{"ready"}, env("PAYLINE_ADDR", m.Addr())},
		"PAYLINE_ADDR 0.0.0.0": {[]string{"ready"}, env("PAYLINE_ADDR", "0.0.0.0:"+port)},
	} {
		if err := run(context.Background(), c.args, io.Discard, io.Discard, c.env); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().String()
	l.Close()
	err = run(context.Background(), []string{"ready"}, io.Discard, io.Discard, env("PAYLINE_ADDR", closed))
	if err == nil || !strings.Contains(err.Error(), closed) {
		t.Errorf("ready with nothing listening: %v, want an error naming %s", err, closed)
	}
	if err := run(context.Background(), []string{"ready", m.Addr()}, io.Discard, io.Discard, env()); !errors.Is(err, errUsage) {
		t.Errorf("ready with an address but no --url: %v, want a usage error", err)
	}
	err = run(context.Background(), []string{"ready", "--url", "http://" + m.Addr() + "/no-such-page"}, io.Discard, io.Discard, env())
	if err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("ready on a page that answers 404: %v", err)
	}
}
