package rest

import (
	"net"
	"sync"
	"sync/atomic"
)

// LimitConnsPerAddress wraps ln so that one peer address (an IPv6 /64
// counts as one, as addressKey says) holds at most max connections open
// at once; a connection over that is closed as soon as it is accepted,
// before a byte of it is read or a TLS handshake begins. max zero or
// less leaves ln as it is.
//
// It counts the TCP peer, the only address known before a request is
// read. Behind a proxy every connection comes from the proxy, so serve
// does not use it with --trust-proxy: the proxy caps its clients'
// connections, and the per-address request cap (MaxConcurrentPerAddress)
// counts the forwarded address instead.
func LimitConnsPerAddress(ln net.Listener, max int) *ConnLimitListener {
	return &ConnLimitListener{Listener: ln, max: max, open: map[string]int{}}
}

// ConnLimitListener is a listener that caps each peer address's open
// connections (LimitConnsPerAddress).
type ConnLimitListener struct {
	net.Listener
	max     int
	refused atomic.Int64

	mu   sync.Mutex
	open map[string]int
}

// Accept returns the next connection whose peer is under its cap,
// closing those over it on the way.
func (l *ConnLimitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil || l.max <= 0 {
			return c, err
		}
		key := peerKey(c.RemoteAddr())
		if l.hold(key) {
			return &limitedConn{Conn: c, release: func() { l.free(key) }}, nil
		}
		l.refused.Add(1)
		_ = c.Close() // refused: whether the close went cleanly changes nothing for anyone
	}
}

// Refused is how many connections were closed for being over their
// peer's cap.
func (l *ConnLimitListener) Refused() int64 { return l.refused.Load() }

func (l *ConnLimitListener) hold(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key] >= l.max {
		return false
	}
	l.open[key]++
	return true
}

func (l *ConnLimitListener) free(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// peerKey is the per-address key of a connection's remote address.
func peerKey(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return addressKey(tcp.IP.String())
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return addressKey(host)
}

// limitedConn gives its peer's place back when it is closed, once
// however often Close is called (net/http and TLS may both close it).
type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// CloseWrite half-closes the connection when the one beneath can. net/http
// half-closes before it hangs up on a request it refuses while reading it
// (its own 431 for a request line and headers over MaxHeaderBytes), so the
// client reads the answer before the close; without it the close came
// while the client was still sending, and the client saw a reset instead.
func (c *limitedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
