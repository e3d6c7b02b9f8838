package rest

// GraphQL over websockets: a socket bound to its credential, and the
// limits on sockets and subscriptions.

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/graph"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestWebsocketBoundToCredential: a socket lives only as long as what
// opened it works. Revoking the key closes its sockets at once with 4403,
// and so does ending a member's session (signing out, an administrator
// ending it), by notification; a key that expires has no notice and loses
// its sockets at the next check, which is also the backstop for a lost
// notice (this test checks every 50 ms; TestSessionEndsCloseSocketsAtOnce
// shows the close without it). An operation on a socket whose credential
// stopped working is refused.
func TestWebsocketBoundToCredential(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.wsRecheck = 50 * time.Millisecond })
		ctx := context.Background()

		t.Run("revoked", func(t *testing.T) {
			k, err := f.keys.CreateKey(ctx, "acme", domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			ws := f.dialGraphQL(t)
			ws.init(k.Secret)
			ws.send(map[string]any{"id": "1", "type": "subscribe", "payload": map[string]any{"query": `subscription { jobUpdated { id } }`}})
			ws.send(map[string]any{"id": "2", "type": "subscribe", "payload": map[string]any{"query": `{ __typename }`}})
			if m, err := ws.next(5 * time.Second); err != nil || m["id"] != "2" || m["type"] != "next" {
				t.Fatalf("a query before the revocation: %v %v", m, err)
			}
			if err := f.keys.RevokeKey(ctx, k.Key.ID); err != nil {
				t.Fatal(err)
			}
			if code := closeCode(ws); code != 4403 {
				t.Errorf("after the revocation the socket closed with %d, want 4403", code)
			}
		})

		t.Run("revoked in another process", func(t *testing.T) {
			// The revocation is written by another KeyService (the CLI, or
			// another instance) and heard here through Forget, as the
			// database's notification delivers it.
			k, err := f.keys.CreateKey(ctx, "acme", domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			ws := f.dialGraphQL(t)
			ws.init(k.Secret)
			ks := storage.NewKeyStore(db)
			elsewhere := domain.NewKeyService(ks, ks, f.clock)
			if err := elsewhere.RevokeKey(ctx, k.Key.ID); err != nil {
				t.Fatal(err)
			}
			f.keys.Forget(k.Key.ID)
			if code := closeCode(ws); code != 4403 {
				t.Errorf("closed with %d, want 4403", code)
			}
		})

		f.addMember("acme", "ada@acme.test", domain.RoleAdministrator)
		t.Run("expired", func(t *testing.T) {
			expires := f.clock.Now().Add(time.Hour)
			sess, err := f.members.Authenticate(ctx, f.adminToken("ada@acme.test"), domain.ModeSandbox)
			if err != nil {
				t.Fatal(err)
			}
			k, err := f.keys.CreateKeyAs(ctx, sess, &expires)
			if err != nil {
				t.Fatal(err)
			}
			ws := f.dialGraphQL(t)
			ws.init(k.Secret)
			f.clock.advance(2 * time.Hour)
			t.Cleanup(func() { f.clock.advance(-2 * time.Hour) })
			if code := closeCode(ws); code != 4403 {
				t.Errorf("after the key expired the socket closed with %d, want 4403", code)
			}
		})

		t.Run("signed out", func(t *testing.T) {
			cookie := f.dashboardCookie("ada@acme.test")
			token := strings.TrimPrefix(cookie, SessionCookie+"=")
			ws := f.dialGraphQLWith(t, http.Header{"Cookie": {cookie}})
			ws.send(map[string]any{"type": "connection_init"})
			if m, err := ws.next(5 * time.Second); err != nil || m["type"] != "connection_ack" {
				t.Fatalf("connection_init with the cookie: %v %v", m, err)
			}
			if err := f.members.SignOut(ctx, token); err != nil {
				t.Fatal(err)
			}
			if code := closeCode(ws); code != 4403 {
				t.Errorf("after the member signed out the socket closed with %d, want 4403", code)
			}
		})

		t.Run("sessions ended by an administrator", func(t *testing.T) {
			f.addMember("acme", "bob@acme.test", domain.RoleDeveloper)
			ws := f.dialGraphQLWith(t, http.Header{"Cookie": {f.dashboardCookie("bob@acme.test")}})
			ws.send(map[string]any{"type": "connection_init"})
			if m, err := ws.next(5 * time.Second); err != nil || m["type"] != "connection_ack" {
				t.Fatalf("connection_init with the cookie: %v %v", m, err)
			}
			members, err := f.members.Members(ctx, domain.Session{CustomerID: f.key.CustomerID})
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(members, func(m domain.Member) bool { return m.Email == "bob@acme.test" })
			res := f.request("DELETE", "/v1/admin/members/"+members[i].ID+"/sessions", nil, asMember(f.adminToken("ada@acme.test"))...)
			if res.status != 200 {
				t.Fatalf("end bob's sessions: %d %s", res.status, res.raw)
			}
			if code := closeCode(ws); code != 4403 {
				t.Errorf("after an administrator ended the member's sessions the socket closed with %d, want 4403", code)
			}
		})
	})
}

// TestWebsocketLimits: operations on a socket count against the tenant's
// rate as HTTP requests do, and subscriptions are capped per socket and
// per credential, sockets per credential; what is refused says why.
func TestWebsocketLimits(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		frozen := fixedClock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.RateLimit = 5; s.rest.RateLimitClock = frozen })
		ws := f.dialGraphQL(t)
		ws.init(f.secret)
		refused := 0
		for i := range 20 {
			ws.send(map[string]any{"id": fmt.Sprint(i), "type": "subscribe", "payload": map[string]any{"query": `{ __typename }`}})
		}
		for answered := 0; answered < 20; {
			m, err := ws.next(5 * time.Second)
			if err != nil {
				t.Fatalf("after %d answers: %v", answered, err)
			}
			if m["type"] == "complete" {
				continue
			}
			answered++
			if strings.Contains(fmt.Sprint(m), domain.CodeRateLimitExceeded) {
				refused++
			}
		}
		// The rate is 5 a second with a burst of 5 and the clock stands
		// still; init's authentication took none.
		if refused != 15 {
			t.Errorf("%d of 20 queries on one socket refused, want 15 (rate 5/s, clock frozen)", refused)
		}
	})
}

// TestSubscriptionLimits: subscriptions are capped per socket and per
// credential, and sockets per credential; what is refused says why, and a
// completed subscription gives its place back.
func TestSubscriptionLimits(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		subscribe := func(ws *wsClient, id string) {
			ws.send(map[string]any{"id": id, "type": "subscribe", "payload": map[string]any{"query": `subscription { jobUpdated { id } }`}})
		}
		// refused reads the one answer a socket gets, which must be a
		// refusal for too many subscriptions (subscriptions start in
		// goroutines of their own, so any of them may be the one), and
		// returns the refused id: a live subscription says nothing until a
		// job changes, so nothing else may arrive.
		refused := func(ws *wsClient) string {
			t.Helper()
			m, err := ws.next(10 * time.Second)
			if err != nil || !strings.Contains(fmt.Sprint(m), domain.CodeTooManySubscriptions) {
				t.Fatalf("want a subscription refused with %s, got %v %v", domain.CodeTooManySubscriptions, m, err)
			}
			return m["id"].(string)
		}
		base := goroutinesIn("(*WatchService).WatchJobs.func1")
		ws := f.dialGraphQL(t)
		ws.init(f.secret)
		for i := range graph.MaxSubscriptionsPerSocket + 1 {
			subscribe(ws, fmt.Sprint(i))
		}
		first := refused(ws)
		// Across sockets: the credential's cap.
		sockets := []*wsClient{ws}
		for n := graph.MaxSubscriptionsPerSocket; n < graph.MaxSubscriptionsPerCredential; {
			s := f.dialGraphQL(t)
			s.init(f.secret)
			sockets = append(sockets, s)
			for i := 0; i < graph.MaxSubscriptionsPerSocket && n < graph.MaxSubscriptionsPerCredential; i++ {
				subscribe(s, fmt.Sprint(i))
				n++
			}
		}
		waitFor(t, "every subscription to run", func() bool {
			return goroutinesIn("(*WatchService).WatchJobs.func1")-base >= graph.MaxSubscriptionsPerCredential
		})
		last := f.dialGraphQL(t)
		last.init(f.secret)
		subscribe(last, "over")
		refused(last)
		// Completing one gives its place back: a new subscription on the
		// last socket is refused until then, and then runs (says nothing).
		messages := make(chan map[string]any, 16)
		go func() {
			for {
				m, err := last.next(time.Minute)
				if err != nil {
					close(messages)
					return
				}
				if m["type"] != "complete" { // what follows a refusal
					messages <- m
				}
			}
		}()
		done := "0"
		if first == done {
			done = "1"
		}
		ws.send(map[string]any{"id": done, "type": "complete"})
		running := func() int { return goroutinesIn("(*WatchService).WatchJobs.func1") - base }
		waitFor(t, "the completed subscription to stop", func() bool { return running() < graph.MaxSubscriptionsPerCredential })
		// Each try is answered by a refusal, or runs: a watcher starts and
		// the credential is at its cap again.
		accepted := false
		for try := 0; !accepted && try < 100; try++ {
			id := fmt.Sprint("again-", try)
			subscribe(last, id)
			waitFor(t, "subscription "+id+" to be refused or run", func() bool {
				select {
				case m, ok := <-messages:
					if !ok || m["id"] != id || !strings.Contains(fmt.Sprint(m), domain.CodeTooManySubscriptions) {
						t.Fatalf("a subscription after one completed: %v", m)
					}
					return true
				default:
				}
				accepted = running() >= graph.MaxSubscriptionsPerCredential
				return accepted
			})
		}
		if !accepted {
			t.Fatal("a completed subscription never gave its place back")
		}
		// Sockets per credential (the last socket is one of them).
		sockets = append(sockets, last)
		for len(sockets) < graph.MaxSocketsPerCredential {
			s := f.dialGraphQL(t)
			s.init(f.secret)
			sockets = append(sockets, s)
		}
		over := f.dialGraphQL(t)
		over.send(map[string]any{"type": "connection_init", "payload": map[string]any{"x-api-secret": f.secret}})
		if code := closeCode(over); code != 4429 {
			t.Errorf("socket %d of one key closed with %d, want 4429", graph.MaxSocketsPerCredential+1, code)
		}
	})
}

// goroutinesIn counts the goroutines whose stack holds a function.
func goroutinesIn(function string) int {
	buf := make([]byte, 1<<24)
	n := runtime.Stack(buf, true)
	return strings.Count(string(buf[:n]), function+"(")
}
