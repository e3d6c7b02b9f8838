package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/coder/websocket/wsjson"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// startInstances runs n instances on one PostgreSQL database; configure,
// if given, adjusts each one's configuration.
func startInstances(t *testing.T, n int, configure ...func(*ServeConfig)) (url string, ms []*Main) {
	t.Helper()
	return startInstancesOn(t, storage.Postgres, n, configure...)
}

// startInstancesOn runs n instances on one database of the dialect (one
// SQLite file, as servers beside each other on one host would share it).
func startInstancesOn(t *testing.T, d storage.Dialect, n int, configure ...func(*ServeConfig)) (url string, ms []*Main) {
	t.Helper()
	url = storagetest.NewURL(t, d, storagetest.Empty)
	for range n {
		m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox},
			Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
		for _, c := range configure {
			c(&m.Config)
		}
		if err := m.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { m.Close(context.Background()) })
		ms = append(ms, m)
	}
	return url, ms
}

// TestKeyRevocationReachesEveryInstance: a key revoked with `payline keys
// revoke` is refused by every instance although each had just
// authenticated it and remembers that for an hour: only the revocation's
// notification can make them refuse it, so the test waits for the refusal
// rather than timing it. On SQLite the instances share one file and the
// notice is a row each reads.
func TestKeyRevocationReachesEveryInstance(t *testing.T) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) { testKeyRevocationReachesEveryInstance(t, d) })
	}
}

func testKeyRevocationReachesEveryInstance(t *testing.T, d storage.Dialect) {
	url, ms := startInstancesOn(t, d, 3, func(c *ServeConfig) { c.AuthCacheTTL = time.Hour })
	getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
	var out bytes.Buffer
	if err := run(context.Background(), []string{"keys", "create", "--customer", "globex", "--mode", "sandbox", "--json", "--database-url", url},
		&out, io.Discard, getenv); err != nil {
		t.Fatal(err)
	}
	var created struct {
		KeyID  string `json:"key_id"`
		Secret string `json:"secret"`
	}
	if err := json.Unmarshal(out.Bytes(), &created); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, m := range ms { // each instance now remembers the key as good
		if status, _ := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1"); status != 200 {
			t.Fatalf("before revocation: %d", status)
		}
	}
	if err := run(context.Background(), []string{"keys", "revoke", created.KeyID, "--database-url", url}, io.Discard, io.Discard, getenv); err != nil {
		t.Fatal(err)
	}
	revoked := time.Now()
	for i, m := range ms {
		waitUntil(t, fmt.Sprintf("instance %d to refuse the revoked key", i), func() bool {
			status, body := apiGet(t, m.Addr(), created.Secret, "/v1/platforms?limit=1")
			if status == 401 {
				if code := body["error"].(map[string]any)["code"]; code != domain.CodeRevokedAPISecret {
					t.Errorf("instance %d: %v", i, body)
				}
			}
			return status == 401
		})
	}
	t.Logf("every instance refused the key %v after the revocation", time.Since(revoked).Round(time.Millisecond))
}

// TestDirectoryChangeReachesEveryInstance: a directory seeded through one
// process is searchable on every instance. PostgreSQL instances do not
// poll for directory changes (only SQLite's do), so the change can only
// arrive by notification; the test waits for it rather than timing it.
func TestDirectoryChangeReachesEveryInstance(t *testing.T) {
	url, ms := startInstances(t, 2)
	platforms, employers := sandbox.Directory(sandbox.DefaultEmployerCount)
	renamed := employers[0]
	renamed.Name = "Zanzibar Quokka Holdings"
	db, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := storage.NewDirectoryStore(db).UpsertDirectory(context.Background(), platforms[:0], []domain.Employer{renamed}); err != nil {
		t.Fatal(err)
	}
	changed := time.Now()
	for i, m := range ms {
		waitUntil(t, fmt.Sprintf("instance %d to find the renamed employer", i), func() bool { return found(t, m, "zanzibar quokka") })
	}
	t.Logf("every instance found the renamed employer %v after the change", time.Since(changed).Round(time.Millisecond))
}

// found searches through m's directory service directly (the index the
// REST search uses).
func found(t *testing.T, m *Main, q string) bool {
	t.Helper()
	res, err := m.directory.Search(context.Background(), domain.SearchQuery{Q: q, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Employer != nil && strings.Contains(strings.ToLower(r.Employer.Name), q) {
			return true
		}
	}
	return false
}

// TestMemberSessionEndsReachEveryInstance: a member's GraphQL websockets
// close at once on every instance on one database, PostgreSQL or one
// SQLite file, when the member signs out on another instance, and when
// `payline members remove` (another process) removes the member. The
// instances check a socket's credential again only every hour here, so
// only the end's notice can close the sockets (PostgreSQL's NOTIFY,
// SQLite's notice row); the test waits for the closes rather than timing
// them.
func TestMemberSessionEndsReachEveryInstance(t *testing.T) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) { testMemberSessionEndsReachEveryInstance(t, d) })
	}
}

func testMemberSessionEndsReachEveryInstance(t *testing.T, d storage.Dialect) {
	url, ms := startInstancesOn(t, d, 2, func(c *ServeConfig) { c.SocketRecheck = time.Hour })
	ctx := context.Background()
	getenv := env("PAYLINE_MASTER_KEY", testMasterKey)
	const password = "correct horse battery staple"
	add := func(t *testing.T, email string) {
		t.Helper()
		e := environment{getenv: getenv, stdout: io.Discard, stderr: io.Discard, stdin: strings.NewReader(password + "\n")}
		if err := e.members(ctx, []string{"add", "--customer", "globex", "--email", email, "--role", "developer",
			"--password-stdin", "--database-url", url}); err != nil {
			t.Fatal(err)
		}
	}
	// cookie signs email in to m's dashboard.
	cookie := func(t *testing.T, m *Main, email string) string {
		t.Helper()
		body := fmt.Sprintf(`{"email": %q, "password": %q}`, email, password)
		status, _, header, err := apiDo(nil, "POST", "http://"+m.Addr()+"/dashboard/session", "", body, nil)
		if err != nil || status != 200 {
			t.Fatalf("sign in %s: %d %v", email, status, err)
		}
		c, _, _ := strings.Cut(header.Get("Set-Cookie"), ";")
		return c
	}
	// live opens a GraphQL websocket on m with the dashboard's cookie.
	live := func(t *testing.T, m *Main, cookie string) *websocket.Conn {
		t.Helper()
		dial, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		conn, _, err := websocket.Dial(dial, "ws://"+m.Addr()+"/graphql",
			&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: http.Header{"Cookie": {cookie}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.CloseNow() })
		var ack map[string]any
		if err := wsjson.Write(dial, conn, map[string]any{"type": "connection_init"}); err != nil {
			t.Fatal(err)
		}
		if err := wsjson.Read(dial, conn, &ack); err != nil || ack["type"] != "connection_ack" {
			t.Fatalf("connection_init with the cookie: %v %v", ack, err)
		}
		return conn
	}
	// closed waits for the socket to close and checks it closed with 4403.
	closed := func(t *testing.T, conn *websocket.Conn, what string) {
		t.Helper()
		wait, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		for {
			_, _, err := conn.Read(wait)
			if err == nil {
				continue // a keep-alive ping
			}
			if code := websocket.CloseStatus(err); code != 4403 {
				t.Errorf("%s: the socket ended with %v (close code %d), want 4403 at once", what, err, code)
			}
			return
		}
	}

	t.Run("signed out on the other instance", func(t *testing.T) {
		add(t, "ana@globex.test")
		c := cookie(t, ms[0], "ana@globex.test")
		ws := live(t, ms[1], c)
		status, _, _, err := apiDo(nil, "DELETE", "http://"+ms[0].Addr()+"/dashboard/session", "", "", http.Header{"Cookie": {c}})
		if err != nil || status != http.StatusNoContent {
			t.Fatalf("sign out: %d %v", status, err)
		}
		closed(t, ws, "signed out on instance 0, the socket on instance 1")
	})
	t.Run("removed by the command line", func(t *testing.T) {
		add(t, "max@globex.test")
		c := cookie(t, ms[0], "max@globex.test")
		sockets := []*websocket.Conn{live(t, ms[0], c), live(t, ms[1], c)}
		if err := run(ctx, []string{"members", "remove", "--customer", "globex", "--email", "max@globex.test", "--database-url", url},
			io.Discard, io.Discard, getenv); err != nil {
			t.Fatal(err)
		}
		for i, ws := range sockets {
			closed(t, ws, fmt.Sprintf("removed by the command line, the socket on instance %d", i))
		}
	})
}
