package protocol_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// withoutDisconnect serves a connector that cannot take a disconnect, as
// one older than the operation would.
type withoutDisconnect struct{ domain.Connector }

// TestDisconnectThroughProtocol: the sandbox served over the protocol
// answers a disconnect as it does in process; a connector without the
// operation answers it as unknown, which the client reports as no
// disconnect channel (the revocation records it) and not as a failure.
func TestDisconnectThroughProtocol(t *testing.T) {
	ctx := context.Background()
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000a2", CustomerID: "c1", EndUserID: "ada", PlatformID: "p1",
		EmployerName: "Sycamore Publishing Inc", Connection: "good", CreatedAt: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	direct := sandbox.Connector{}
	client, _ := served(t, direct)
	got, err := client.DisconnectSource(ctx, a)
	want, _ := direct.DisconnectSource(ctx, a)
	if err != nil || got != want {
		t.Errorf("through the protocol: %q, %v; in process %q", got, err, want)
	}
	older, _ := served(t, withoutDisconnect{direct})
	_, err = older.DisconnectSource(ctx, a)
	var none *domain.NoDisconnectChannelError
	if !errors.As(err, &none) || none.Reason == "" {
		t.Errorf("a connector without the disconnect: %v, want no channel with a reason", err)
	}
	if _, err := older.DisconnectSource(ctx, domain.Account{}); !errors.As(err, &none) {
		t.Errorf("an account without an id to an older connector: %v", err)
	}
}
