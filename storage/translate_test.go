package storage

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/lib/pq"

	"payline/domain"
)

// TestTranslateDecidesUnreachable: storage alone decides which driver
// errors mean the database is away (domain.Unreachable trusts its mark),
// and a statement the database refused is not one of them.
func TestTranslateDecidesUnreachable(t *testing.T) {
	away := []error{
		&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED},
		driver.ErrBadConn,
		io.ErrUnexpectedEOF,
		&pq.Error{Code: "57P01"}, // admin shutdown
		&pq.Error{Code: "08006"}, // connection failure
	}
	for _, err := range away {
		if got := translate(err); !domain.Unreachable(got) || !errors.Is(got, err) {
			t.Errorf("%v: translated to %v", err, got)
		}
	}
	for _, err := range []error{&pq.Error{Code: "42601"}, errors.New("syntax")} {
		if domain.Unreachable(translate(err)) {
			t.Errorf("%v reads as the database unreachable", err)
		}
	}
}
