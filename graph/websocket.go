package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/coder/websocket"
)

// WriteTimeout bounds one message written to a websocket. A subscriber
// that stops reading fills its TCP window; the write then times out and
// the socket closes, instead of holding its goroutines and the events
// queued behind them for as long as the client likes.
const WriteTimeout = 10 * time.Second

// websocketImpl accepts GraphQL websockets on coder/websocket (gqlgen's
// own adapter writes without a deadline) and closes a socket whose
// connection_init never came with 4408, as graphql-transport-ws says,
// where gqlgen uses 1002. The accepted connection is handed to the
// socket the handler put in the request's context, so the socket can be
// closed from outside when its credential stops working.
type websocketImpl struct {
	writeTimeout time.Duration
}

func (i websocketImpl) Accept(w http.ResponseWriter, r *http.Request, o transport.WebsocketAcceptOptions) (transport.WebsocketConn, error) {
	for k, vs := range o.ResponseHeader {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: slices.Clone(o.Subprotocols)})
	if err != nil {
		return nil, err
	}
	c := &wsConn{conn: conn, writeTimeout: i.writeTimeout}
	if s, ok := socketFrom(r.Context()); ok {
		s.attach(c)
	}
	return c, nil
}

// wsConn is one accepted websocket.
type wsConn struct {
	conn         *websocket.Conn
	writeTimeout time.Duration
	sock         *socket // set by attach, before the first read

	mu       sync.Mutex
	deadline *time.Timer
	closing  bool
}

var _ interface {
	transport.WebsocketConn
	transport.WebsocketReadLimiter
	transport.WebsocketReadDeadliner
} = (*wsConn)(nil)

func (c *wsConn) NextReader() (int, io.Reader, error) {
	if c.sock != nil && !c.sock.paced() {
		return 0, nil, transport.ErrWebsocketClosed
	}
	typ, data, err := c.conn.Read(context.Background())
	if err != nil {
		switch websocket.CloseStatus(err) {
		case websocket.StatusNormalClosure, websocket.StatusNoStatusRcvd:
			return int(typ), nil, transport.ErrWebsocketClosed
		}
		return int(typ), nil, err
	}
	return int(typ), bytes.NewReader(data), nil
}

func (c *wsConn) WriteJSON(v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.writeTimeout)
	defer cancel()
	return c.conn.Write(ctx, websocket.MessageText, data)
}

// WriteClose starts the close handshake once; later calls (gqlgen closes
// again on its way out) do nothing, so the first reason is the one sent.
// The handshake waits for the peer, so it runs in the background.
func (c *wsConn) WriteClose(code int, message string) error {
	if code == transport.WebsocketCloseProtocolError && strings.Contains(message, "initialisation timeout") {
		code, message = 4408, "Connection initialisation timeout"
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return nil
	}
	c.closing = true
	c.stopDeadline()
	// The close handshake's error says only that the peer did not answer
	// it; the connection is closed either way, and nobody waits here.
	go func() { _ = c.conn.Close(websocket.StatusCode(code), message) }()
	return nil
}

func (c *wsConn) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopDeadline()
	if c.closing {
		return nil // the handshake closes the connection when it ends
	}
	return c.conn.CloseNow()
}

func (c *wsConn) Subprotocol() string { return c.conn.Subprotocol() }

func (c *wsConn) SetReadLimit(limit int64) { c.conn.SetReadLimit(limit) }

func (c *wsConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopDeadline()
	if !t.IsZero() {
		// A deadline passed: the connection is dropped, and an error
		// closing it has no one to go to.
		c.deadline = time.AfterFunc(time.Until(t), func() { _ = c.conn.CloseNow() })
	}
	return nil
}

func (c *wsConn) stopDeadline() {
	if c.deadline != nil {
		c.deadline.Stop()
		c.deadline = nil
	}
}
