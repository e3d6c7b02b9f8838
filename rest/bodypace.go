package rest

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"payline/domain"
)

// MinBodyRate is the slowest a request body may arrive, on average, once
// BodyGrace has passed since it was first read: a body slower than this
// is cut with 408 REQUEST_TIMEOUT. The slowest mobile link sends many
// times faster; a client that trickles its body to hold a connection
// (slow loris) is cut about a second after its headers.
const MinBodyRate = 1 << 10 // bytes per second

// BodyGrace is how long a body may take to start arriving, as a client
// that sent Expect: 100-continue waits for the answer before it sends.
const BodyGrace = time.Second

// pacedBody is a request body that must keep pace: at every moment t
// since its first read began, it must have delivered
// (t - BodyGrace) × MinBodyRate bytes, and all of it within ceiling. The
// connection's read deadline (http.ResponseController) carries the rule:
// it is moved to when the bytes read so far stop being enough, so a read
// that stalls ends there, with no timer or goroutine of its own.
//
// The deadline is cleared once the body has ended: net/http then reads
// the connection in the background to notice a client that leaves, and a
// deadline passing there would cancel the request while its handler is
// still working.
type pacedBody struct {
	src     io.ReadCloser
	rc      *http.ResponseController
	header  http.Header   // the response's, for Connection: close
	http1   bool          // a cut closes an HTTP/1 connection; HTTP/2 resets only the stream
	ceiling time.Duration // the whole body's bound; zero: none

	start    time.Time // the first read; zero before it
	read     int64
	deadline time.Time // the one set last
	ended    bool      // EOF or an error: the deadline is no longer moved
	err      error     // the cut, returned by every later read
}

func newPacedBody(w http.ResponseWriter, r *http.Request, ceiling time.Duration) *pacedBody {
	return &pacedBody{src: r.Body, rc: http.NewResponseController(w), header: w.Header(), http1: r.ProtoMajor < 2, ceiling: ceiling}
}

func (b *pacedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	b.pace()
	n, err := b.src.Read(p)
	b.read += int64(n)
	var netErr net.Error
	switch {
	case err == nil:
	case errors.Is(err, io.EOF):
		b.end()
	case errors.As(err, &netErr) && netErr.Timeout():
		err = b.cut(err)
	default:
		b.ended = true
	}
	return n, err
}

func (b *pacedBody) Close() error { return b.src.Close() }

// pace moves the read deadline to when the bytes read so far stop
// keeping pace, or to the ceiling if that comes first.
func (b *pacedBody) pace() {
	if b.ended {
		return
	}
	if b.start.IsZero() {
		b.start = time.Now()
	}
	due := b.start.Add(BodyGrace + time.Duration(b.read)*time.Second/MinBodyRate)
	if b.ceiling > 0 && due.After(b.start.Add(b.ceiling)) {
		due = b.start.Add(b.ceiling)
	}
	if due.Equal(b.deadline) {
		return
	}
	if err := b.rc.SetReadDeadline(due); err != nil {
		// Not a connection of net/http's (a test's recorder): the
		// server's own ReadTimeout is the only bound.
		b.ended = true
		return
	}
	b.deadline = due
}

// end clears the deadline of a body read to its end.
func (b *pacedBody) end() {
	if !b.ended && !b.deadline.IsZero() {
		// Fails only on a connection already closing, which needs no
		// deadline cleared.
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	b.ended = true
}

// cut refuses a body that lost pace (or ran into the server's own read
// timeout) for good, and closes an HTTP/1 connection after the answer:
// what is left of the body on the wire must not be read as another
// request. (On HTTP/2, Connection: close would end the client's other
// streams too.)
func (b *pacedBody) cut(cause error) error {
	b.ended = true
	if b.http1 {
		b.header.Set("Connection", "close")
	}
	msg := fmt.Sprintf("the request body arrived slower than %d KiB/s (%d bytes in %s); send the whole body at once, right after the headers",
		MinBodyRate>>10, b.read, time.Since(b.start).Round(time.Millisecond))
	if b.ceiling > 0 && b.deadline.Equal(b.start.Add(b.ceiling)) {
		msg = fmt.Sprintf("the request body did not arrive within %s; send it at once, right after the headers", b.ceiling)
	}
	b.err = &domain.Error{Kind: domain.KindTimeout, Code: domain.CodeRequestTimeout, Message: msg, Err: cause}
	return b.err
}

// settle runs when the handler is done: net/http then reads what the
// handler left of the body (up to 256 KiB) before it can answer on a
// kept-alive connection, and that read keeps the same pace, so a client
// that trickles a body its request never needed is cut as quickly.
func (b *pacedBody) settle() { b.pace() }
