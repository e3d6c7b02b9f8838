package sandbox

import (
	"context"

	"payline/domain"
)

// NotifyDispute implements domain.FurnisherNotifier: the sandbox is the
// furnisher of its synthetic data and acknowledges every notice of the
// versions it knows at once, with a reference derived from the dispute,
// so a developer sees furnisher_notified_at set as a real source would.
func (Connector) NotifyDispute(_ context.Context, a domain.Account, n domain.DisputeNotice) (domain.DisputeAck, error) {
	if n.Version != domain.DisputeNoticeVersion {
		return domain.DisputeAck{}, &domain.NoDisputeChannelError{Route: "sandbox",
			Reason: "the sandbox takes dispute notices of version " + domain.DisputeNoticeVersion + ", not " + n.Version}
	}
	return domain.DisputeAck{Route: "sandbox", Reference: "sandbox-dispute-" + n.DisputeID}, nil
}

var _ domain.FurnisherNotifier = Connector{}
