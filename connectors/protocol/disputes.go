package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"payline/domain"
)

// PathDispute is the dispute notice: Payline tells the connector, as the
// furnisher's route, that a person disputes an item it furnished.
const PathDispute = "/connector/v1/disputes/notify"

// DisputeNoticeVersions are the notice versions this package speaks, for
// capabilities' dispute_notice_versions. A notice names its version; a
// connector that lists none takes no notices.
var DisputeNoticeVersions = []string{domain.DisputeNoticeVersion}

// DisputeItem is the disputed item: a paystub (id, field), an employment
// (the account) or a report's field.
type DisputeItem struct {
	Type       string `json:"type"`
	ID         string `json:"id,omitempty"`
	Field      string `json:"field,omitempty"`
	ReportType string `json:"report_type,omitempty"`
}

// DisputeRequest is POST /connector/v1/disputes/notify, version
// 2026-11-28: the dispute, the account it is about (as a run's), what is
// disputed and the person's words, when Payline received it and when the
// reinvestigation is due. The connector answers once it has passed the
// notice on to the source (or recorded it to be): the answer is the
// acknowledgement Payline records as furnisher_notified_at.
type DisputeRequest struct {
	NoticeVersion string      `json:"notice_version"`
	DisputeID     string      `json:"dispute_id"`
	Account       Account     `json:"account"`
	Item          DisputeItem `json:"item"`
	Note          string      `json:"note"`
	ReceivedAt    time.Time   `json:"received_at"`
	RespondBy     time.Time   `json:"respond_by"`
}

// DisputeResponse acknowledges a notice with the source's own reference.
type DisputeResponse struct {
	Acknowledged bool   `json:"acknowledged"`
	Reference    string `json:"reference"`
}

// NotifyDispute implements domain.FurnisherNotifier over the protocol: a
// connector whose capabilities list no version of the notice, or that
// answers the operation as unknown (an older connector), has no dispute
// channel and is not asked again; any other failure is tried again.
func (c *Client) NotifyDispute(ctx context.Context, a domain.Account, n domain.DisputeNotice) (domain.DisputeAck, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return domain.DisputeAck{}, err
	}
	if !slices.Contains(caps.DisputeNoticeVersions, n.Version) {
		return domain.DisputeAck{}, &domain.NoDisputeChannelError{Route: caps.Name,
			Reason: fmt.Sprintf("connector %q does not take dispute notices of version %s (it lists %v)", caps.Name, n.Version, caps.DisputeNoticeVersions)}
	}
	var out DisputeResponse
	err = c.call(ctx, http.MethodPost, PathDispute, DisputeRequest{NoticeVersion: n.Version, DisputeID: n.DisputeID, Account: accountOf(a),
		Item: DisputeItem{Type: n.Item.Type, ID: n.Item.ID, Field: n.Item.Field, ReportType: n.Item.ReportType}, Note: n.Note,
		ReceivedAt: n.ReceivedAt.UTC(), RespondBy: n.RespondBy.UTC()}, &out)
	var r *refused
	if errors.As(err, &r) && r.Code == "OPERATION_NOT_FOUND" {
		return domain.DisputeAck{}, &domain.NoDisputeChannelError{Route: caps.Name,
			Reason: fmt.Sprintf("connector %q answered the dispute notice as an unknown operation", caps.Name)}
	}
	if err != nil {
		return domain.DisputeAck{}, err
	}
	if !out.Acknowledged || out.Reference == "" {
		return domain.DisputeAck{}, fmt.Errorf("connector %q answered dispute %s without acknowledging it with a reference", caps.Name, n.DisputeID)
	}
	return domain.DisputeAck{Route: caps.Name, Reference: out.Reference}, nil
}

// dispute serves the notice for a connector that is a
// domain.FurnisherNotifier.
func (s *Server) dispute(ctx context.Context, body []byte) (any, error) {
	fn, ok := s.connector.(domain.FurnisherNotifier)
	if !ok {
		return nil, errNoOperation
	}
	var req DisputeRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the dispute notice is not JSON of the protocol's shape: %v", err)
	}
	if !slices.Contains(DisputeNoticeVersions, req.NoticeVersion) {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "notice_version %q is not one of %v", req.NoticeVersion, DisputeNoticeVersions)
	}
	if req.DisputeID == "" || req.Account.ID == "" || req.Item.Type == "" {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeMissingFields, "a dispute notice names its dispute_id, account and item")
	}
	ack, err := fn.NotifyDispute(ctx, domain.Account{ID: req.Account.ID, CustomerID: req.Account.CustomerID, EndUserID: req.Account.EndUserID,
		PlatformID: req.Account.PlatformID, EmployerName: req.Account.EmployerName, Connection: req.Account.Connection, CreatedAt: req.Account.CreatedAt},
		domain.DisputeNotice{Version: req.NoticeVersion, DisputeID: req.DisputeID, AccountID: req.Account.ID,
			Item: domain.DisputeItem{Type: req.Item.Type, ID: req.Item.ID, Field: req.Item.Field, ReportType: req.Item.ReportType},
			Note: req.Note, ReceivedAt: req.ReceivedAt, RespondBy: req.RespondBy})
	if err != nil {
		return nil, err
	}
	return DisputeResponse{Acknowledged: true, Reference: ack.Reference}, nil
}

// errNoOperation answers an operation the served connector does not have
// as the protocol answers an unknown path.
var errNoOperation = errors.New("no such operation")
