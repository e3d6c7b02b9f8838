package graph

import (
	"context"
	"fmt"
	"golang.org/x/time/rate"
	"io"
	"net/http"
	"net/http/httptest"
	"payline/domain"
	"payline/internal/testwait"
	"strings"
	"testing"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
)

// TestSlowSubscriberIsClosed: a client that stops reading fills its TCP
// window; the next write gives up after the write timeout and the socket
// closes, instead of holding the writer (and everything queued behind
// it) for as long as the client likes. gqlgen's own adapter writes with
// no deadline.
func TestSlowSubscriberIsClosed(t *testing.T) {
	failed := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := websocketImpl{writeTimeout: 200 * time.Millisecond}.Accept(w, r, transport.WebsocketAcceptOptions{})
		if err != nil {
			failed <- err
			return
		}
		payload := map[string]string{"pad": strings.Repeat("x", 64<<10)}
		for {
			if err := conn.WriteJSON(payload); err != nil {
				failed <- err
				return
			}
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseNow()
	// The client reads nothing.
	select {
	case err := <-failed:
		if err == nil {
			t.Fatal("the write ended without an error")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the server kept writing to a client that reads nothing")
	}
}

// TestSocketMessagesArePaced: a credential's sockets read their next
// message only as fast as the pace allows, so a client writing faster
// waits on its own TCP window. Here the pace is three messages and then
// one an hour: the fourth stays unread (its reservation waits) until the
// socket ends, which frees the reader at once.
func TestSocketMessagesArePaced(t *testing.T) {
	reg := newSockets(nil, time.Hour)
	reg.pace, reg.burst = rate.Every(time.Hour), 3
	read := make(chan string, 10)
	var sock *socket
	opened := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := &socket{}
		ctx := context.WithValue(r.Context(), socketCtxKey{}, s)
		conn, err := websocketImpl{writeTimeout: time.Second}.Accept(w, r.WithContext(ctx), transport.WebsocketAcceptOptions{})
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		if _, err := reg.open(ctx, s, domain.Credential{Holder: "key:k1"}); err != nil {
			t.Error(err)
			return
		}
		sock = s
		close(opened)
		for {
			_, msg, err := conn.NextReader()
			if err != nil {
				close(read)
				return
			}
			b, _ := io.ReadAll(msg)
			read <- string(b)
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer client.CloseNow()
	<-opened
	for i := range 5 {
		if err := client.Write(ctx, websocket.MessageText, []byte(fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		if got := <-read; got != fmt.Sprint(i) {
			t.Fatalf("message %d read as %q", i, got)
		}
	}
	// The reader now waits for a token an hour away.
	testwait.Eventually(t, 30*time.Second, func() bool { return sock.pace.Tokens() <= -0.5 }, "the fourth message was never paced")
	sock.end(closeForbidden, "test over")
	for got := range read {
		t.Errorf("read %q after the pace ran out", got)
	}
}
