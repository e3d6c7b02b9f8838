package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"payline/connectors/protocol"
	"payline/domain"
)

// disputes checks the dispute notice for a connector whose capabilities
// list its version: a notice about a good login's account is
// acknowledged with a reference, and a notice of a version it does not
// list is refused with a 4XX, not acknowledged. A connector that lists
// none is skipped: Payline records that its route takes no notices.
func (k *platformKit) disputes(ctx context.Context, good string) {
	const s, unknown = "dispute notice", "dispute notice: unknown version"
	at := k.at.as(k.users.Good)
	if !slices.Contains(k.caps.DisputeNoticeVersions, domain.DisputeNoticeVersion) {
		k.skip(s, k.at, fmt.Sprintf("its capabilities list no dispute notice of version %s", domain.DisputeNoticeVersion))
		k.skip(unknown, k.at, "it takes no dispute notices")
		return
	}
	if good == "" {
		k.skip(s, at, "the good user did not log in")
		k.skip(unknown, at, "the good user did not log in")
		return
	}
	now := time.Now().UTC()
	req := protocol.DisputeRequest{NoticeVersion: domain.DisputeNoticeVersion, DisputeID: domain.NewID(), Account: k.account(good),
		Item: protocol.DisputeItem{Type: domain.DisputedPaystub, ID: domain.NewID(), Field: "net_pay_amount"},
		Note: "conformance: the net pay is disputed", ReceivedAt: now, RespondBy: now.AddDate(0, 0, domain.DisputeDays)}
	a := k.signed(ctx, http.MethodPost, protocol.PathDispute, req)
	var out protocol.DisputeResponse
	switch {
	case a.err != nil || a.status != http.StatusOK:
		k.fail(s, at, "want 200 acknowledging the notice, got %s", a)
	case json.Unmarshal(a.body, &out) != nil || !out.Acknowledged || out.Reference == "":
		k.fail(s, at, "want {acknowledged: true, reference}, got %s", a.body)
	default:
		k.pass(s, at, "acknowledged, reference "+out.Reference)
	}
	req.NoticeVersion = "1999-01-01"
	a = k.signed(ctx, http.MethodPost, protocol.PathDispute, req)
	if a.err != nil || a.status < 400 || a.status >= 500 {
		k.fail(unknown, at, "want a 4XX for a notice version it does not list, got %s", a)
		return
	}
	k.pass(unknown, at, fmt.Sprintf("%d", a.status))
}
