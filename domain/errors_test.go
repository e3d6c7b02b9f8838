package domain

import (
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"
)

// TestOutboundNetworkErrorsAreNotTheDatabase: only an error storage
// marked with ErrUnavailable reads as the database being away. A
// connection refused by a webhook receiver or an upstream, unmarked, is
// an internal error (logged, never shown), and one the caller wraps with
// UpstreamUnavailable carries its own code and retry hint.
func TestOutboundNetworkErrorsAreNotTheDatabase(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	if e := AsError(refused); e.Kind != KindInternal || e.Code != CodeUnknown {
		t.Errorf("a bare outbound network error reads as %v %s: %s", e.Kind, e.Code, e.Message)
	}
	if Unreachable(refused) {
		t.Error("a bare outbound network error reads as the database unreachable")
	}
	up := UpstreamUnavailable("the payroll upstream", 5*time.Second, refused)
	e := AsError(fmt.Errorf("relay: %w", up))
	if e.Kind != KindUnavailable || e.Code != CodeUpstreamUnavailable || e.RetryAfter != 5*time.Second || !errors.Is(e, syscall.ECONNREFUSED) {
		t.Errorf("upstream failure reads as %v %s retry %s", e.Kind, e.Code, e.RetryAfter)
	}
	if Unreachable(up) {
		t.Error("an upstream failure reads as the database unreachable")
	}
	db := AsError(fmt.Errorf("%w: %w", ErrUnavailable, refused))
	if db.Kind != KindUnavailable || db.Code != CodeServiceUnavailable || db.RetryAfter <= 0 {
		t.Errorf("the database away reads as %v %s", db.Kind, db.Code)
	}
	if LinkErrorType(CodeUpstreamUnavailable) != "SERVICE_UNAVAILABLE" {
		t.Errorf("Link shows an upstream outage as %s", LinkErrorType(CodeUpstreamUnavailable))
	}
}
