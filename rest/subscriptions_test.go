package rest

import (
	"context"
	"errors"
	"runtime"
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

// wsClient speaks graphql-transport-ws to the fixture's /graphql.
type wsClient struct {
	t    *testing.T
	conn *websocket.Conn
}

func (f *fixture) dialGraphQL(t *testing.T) *wsClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(f.http.URL, "http")+"/graphql",
		&websocket.DialOptions{Subprotocols: []string{"graphql-transport-ws"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	return &wsClient{t: t, conn: conn}
}

func (c *wsClient) send(msg map[string]any) {
	c.t.Helper()
	if err := wsjson.Write(context.Background(), c.conn, msg); err != nil {
		c.t.Fatal(err)
	}
}

// next reads one message other than a ping, within the timeout.
func (c *wsClient) next(timeout time.Duration) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for {
		var m map[string]any
		if err := wsjson.Read(ctx, c.conn, &m); err != nil {
			return nil, err
		}
		if m["type"] == "ping" {
			c.send(map[string]any{"type": "pong"})
			continue
		}
		return m, nil
	}
}

func (c *wsClient) init(secret string) {
	c.t.Helper()
	c.send(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-secret": secret}})
	if m, err := c.next(5 * time.Second); err != nil || m["type"] != "connection_ack" {
		c.t.Fatalf("connection_init: %v %v", m, err)
	}
}

// subscriptionGoroutines counts goroutines serving subscriptions: their
// sockets, event feeds and watchers.
func subscriptionGoroutines() int {
	buf := make([]byte, 1<<22)
	n := runtime.Stack(buf, true)
	count := 0
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		for _, mark := range []string{"(*WatchService).WatchJobs", "(*WatchService).WatchAccounts", "graph.pointers",
			"(*Feed).Subscribe.func", "(*wsConnection)"} {
			if strings.Contains(g, mark) {
				count++
				break
			}
		}
	}
	return count
}

// TestSubscriptions: jobUpdated and accountUpdated arrive over
// graphql-transport-ws as their changes commit; a bad secret closes with
// 4403, a missing connection_init with 4408, and nothing a subscription
// started outlives its socket.
func TestSubscriptions(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.wsInitTimeout = 300 * time.Millisecond })

		ws := f.dialGraphQL(t)
		ws.init(f.secret)
		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "live", "required_jobs": ["identity", "paystubs"]}`)
		ws.send(map[string]any{"id": "jobs", "type": "subscribe", "payload": map[string]any{
			"query":     `subscription ($t: ID) { jobUpdated(linkTokenId: $t) { id name outcome timestamp account { id endUser { endUserId } } } }`,
			"variables": map[string]any{"t": tokenID}}})
		ws.send(map[string]any{"id": "accounts", "type": "subscribe", "payload": map[string]any{
			"query": `subscription { accountUpdated(endUserId: "live") { id connected } }`}})
		// The subscriptions are registered once the server has read them;
		// wait for that state rather than a while.
		waitFor(t, "both subscriptions to be registered", func() bool { return subscriptionGoroutines() >= 4 })
		acct := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, "")).data(t)["account_id"].(string)

		jobs, accounts := map[string]bool{}, 0
		deadline := time.Now().Add(20 * time.Second)
		for len(jobs) < 2 || accounts == 0 {
			m, err := ws.next(time.Until(deadline))
			if err != nil {
				t.Fatalf("waiting for updates (jobs %v, accounts %d): %v", jobs, accounts, err)
			}
			if m["type"] != "next" {
				t.Fatalf("message %v", m)
			}
			received := time.Now()
			switch m["id"] {
			case "jobs":
				j := at(m, "payload", "data", "jobUpdated")
				if at(j, "outcome") != "success" || at(j, "account", "id") != acct || at(j, "account", "endUser", "endUserId") != "live" {
					t.Errorf("jobUpdated %v", j)
				}
				committed, _ := time.Parse(time.RFC3339, at(j, "timestamp").(string))
				if lag := received.Sub(committed); lag > time.Second {
					t.Errorf("job %v reached the subscriber %s after its outcome", at(j, "name"), lag)
				}
				jobs[at(j, "id").(string)] = true
			case "accounts":
				if at(m, "payload", "data", "accountUpdated", "id") != acct {
					t.Errorf("accountUpdated %v", m)
				}
				accounts++
			}
		}
		for _, j := range f.get("/v1/jobs?link_token_id=" + tokenID).list(t) {
			if !jobs[j["id"].(string)] {
				t.Errorf("no jobUpdated for job %v", j["id"])
			}
		}
		ws.send(map[string]any{"id": "jobs", "type": "complete"})
		ws.conn.Close(websocket.StatusNormalClosure, "done")
		waitFor(t, "the subscriptions' goroutines to end with the socket", func() bool { return subscriptionGoroutines() == 0 })

		bad := f.dialGraphQL(t)
		bad.send(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-secret": "not-a-secret"}})
		if code := closeCode(bad); code != 4403 {
			t.Errorf("a bad secret closed with %d, want 4403", code)
		}
		silent := f.dialGraphQL(t)
		if code := closeCode(silent); code != 4408 {
			t.Errorf("no connection_init closed with %d, want 4408", code)
		}
		// Another customer's subscription hears nothing of this one's jobs.
		other, err := f.keys.CreateKey(context.Background(), "eavesdropper", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		spy := f.dialGraphQL(t)
		spy.init(other.Secret)
		spy.send(map[string]any{"id": "all", "type": "subscribe", "payload": map[string]any{"query": `subscription { jobUpdated { id endUser: account { endUser { endUserId } } } }`}})
		waitFor(t, "the other customer's subscription", func() bool { return subscriptionGoroutines() >= 2 })
		ws2 := f.dialGraphQL(t)
		ws2.init(f.secret)
		ws2.send(map[string]any{"id": "mine", "type": "subscribe", "payload": map[string]any{"query": `subscription { jobUpdated { id } }`}})
		waitFor(t, "this customer's subscription", func() bool { return subscriptionGoroutines() >= 4 })
		f.connectAs("live2", p, sandbox.UserGood, "identity")
		if m, err := ws2.next(10 * time.Second); err != nil || m["type"] != "next" {
			t.Fatalf("this customer's update: %v %v", m, err)
		}
		// Updates reach a subscriber in commit order, so if the other
		// customer had heard this one's job, it would come before its own.
		tokenID2, token2 := f.createToken(`{"org_name": "Spy", "end_user_id": "spy-user", "required_jobs": ["identity"]}`, "x-api-secret", other.Secret)
		f.post("/v1/sandbox/link_sessions", sessionBody(token2, p.ID, sandbox.UserGood, ""), "x-api-secret", other.Secret).data(t)
		f.waitJobs(tokenID2, 1, "x-api-secret", other.Secret)
		m, err := spy.next(10 * time.Second)
		if err != nil || at(m, "payload", "data", "jobUpdated", "endUser", "endUser", "endUserId") != "spy-user" {
			t.Errorf("the other customer's first update is %v (%v), want its own job", m, err)
		}
	})
}

// closeCode waits for the server to close the socket and returns its code.
func closeCode(c *wsClient) websocket.StatusCode {
	for {
		_, err := c.next(10 * time.Second)
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			return -1
		}
	}
}
