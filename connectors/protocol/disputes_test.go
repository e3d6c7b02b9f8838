package protocol_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// withoutDisputes serves a connector that has no dispute channel, as an
// older connector would.
type withoutDisputes struct{ domain.Connector }

// TestDisputeNoticeThroughProtocol: the sandbox served over the protocol
// lists the notice's version and acknowledges a notice as it does in
// process; a connector without the notice lists no version and is
// recorded as having no channel, without being asked; a notice of a
// version the connector does not take is refused, not acknowledged.
func TestDisputeNoticeThroughProtocol(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000a1", CustomerID: "c1", EndUserID: "ada", PlatformID: "p1",
		EmployerName: "Sycamore Publishing Inc", Connection: "good", CreatedAt: now.AddDate(0, 0, -3)}
	n := domain.DisputeNotice{Version: domain.DisputeNoticeVersion, DisputeID: "0195f0a0-0000-7000-8000-0000000000d1", AccountID: a.ID,
		Item: domain.DisputeItem{Type: domain.DisputedPaystub, ID: "0195f0a0-0000-7000-8000-0000000000e1", Field: "net_pay_amount"},
		Note: "wrong net pay", ReceivedAt: now, RespondBy: now.AddDate(0, 0, 30)}

	direct := sandbox.Connector{}
	client, _ := served(t, direct)
	caps, err := client.Capabilities(ctx)
	if err != nil || len(caps.DisputeNoticeVersions) != 1 || caps.DisputeNoticeVersions[0] != domain.DisputeNoticeVersion {
		t.Fatalf("capabilities: %+v, %v", caps.DisputeNoticeVersions, err)
	}
	got, err := client.NotifyDispute(ctx, a, n)
	want, _ := direct.NotifyDispute(ctx, a, n)
	if err != nil || got.Reference != want.Reference || got.Route != caps.Name {
		t.Errorf("through the protocol: %+v, %v; in process %+v", got, err, want)
	}

	old := n
	old.Version = "1999-01-01"
	_, err = client.NotifyDispute(ctx, a, old)
	var none *domain.NoDisputeChannelError
	if !errors.As(err, &none) {
		t.Errorf("a version the connector does not list: %v, want no channel", err)
	}

	older, _ := served(t, withoutDisputes{direct})
	_, err = older.NotifyDispute(ctx, a, n)
	if !errors.As(err, &none) || none.Reason == "" {
		t.Errorf("a connector without the notice: %v, want no channel with a reason", err)
	}
}
