package upstream

import (
	"encoding/json"
	"strings"
	"time"

	"payline/domain"
)

// deliveryJSON is a webhook delivery from the upstream: its event, id and
// payload, which names an account (account.added) or a job
// (<job>.added).
type deliveryJSON struct {
	Event   string      `json:"event"`
	EventID string      `json:"event_id"`
	Payload payloadJSON `json:"payload"`
}

// payloadJSON is what the relay reads of a delivery's payload: the spec's
// account.added and <job>.added fields.
type payloadJSON struct {
	// account.added names the account in account_id; a job's event names
	// the job in id and its account in account_id.
	ID          string     `json:"id"`
	AccountID   string     `json:"account_id"`
	LinkTokenID string     `json:"link_token_id"`
	PlatformID  string     `json:"platform_id"`
	CreatedAt   *time.Time `json:"created_at"`
	Connected   *bool      `json:"connected"`
	Name        string     `json:"name"`
	Timestamp   *time.Time `json:"timestamp"`
	Outcome     string     `json:"outcome"`
	Params      paramsJSON `json:"params"`
}

// UnmarshalJSON reads what it can: a payload the relay cannot read names
// no account (and the delivery is answered, not refused).
func (p *payloadJSON) UnmarshalJSON(b []byte) error {
	type plain payloadJSON
	var v plain
	if json.Unmarshal(b, &v) == nil {
		*p = payloadJSON(v)
	} else {
		*p = payloadJSON{}
	}
	return nil
}

// paramsJSON are a job's params as a delivery carries them; ones that
// cannot be read leave the job unread (bad), not the delivery.
type paramsJSON struct {
	params *domain.JobParams
	bad    bool
}

// UnmarshalJSON implements json.Unmarshaler.
func (u *paramsJSON) UnmarshalJSON(b []byte) error {
	*u = paramsJSON{}
	if string(b) == "null" {
		return nil
	}
	var p domain.JobParams
	if json.Unmarshal(b, &p) != nil {
		u.bad = true
		return nil
	}
	u.params = &p
	return nil
}

// ParseWebhook implements domain.Upstream (ParseDelivery).
func (c *Client) ParseWebhook(body []byte) (domain.UpstreamDelivery, error) {
	return ParseDelivery(body)
}

// ParseDelivery reads a delivery's body into the domain's terms. Errors:
// 400 INVALID_JSON for a body that is not an event {event, event_id,
// payload}.
func ParseDelivery(body []byte) (domain.UpstreamDelivery, error) {
	var e deliveryJSON
	if err := json.Unmarshal(body, &e); err != nil || e.Event == "" {
		return domain.UpstreamDelivery{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidJSON, "the body is not an upstream event {event, event_id, payload}")
	}
	p := e.Payload
	d := domain.UpstreamDelivery{Event: e.Event, EventID: e.EventID, AccountID: p.AccountID, LinkTokenID: p.LinkTokenID}
	if e.Event == "account.added" {
		if a, ok := p.account(); ok {
			d.Account = &a
		}
	} else if j, ok := p.job(e.Event); ok {
		d.Job = &j
	}
	return d, nil
}

// account is the account an account.added payload describes, when it
// carries everything an account needs.
func (p payloadJSON) account() (domain.UpstreamAccount, bool) {
	if p.AccountID == "" || p.LinkTokenID == "" || p.PlatformID == "" || p.CreatedAt == nil || p.Connected == nil {
		return domain.UpstreamAccount{}, false
	}
	return domain.UpstreamAccount{ID: p.AccountID, LinkTokenID: p.LinkTokenID, PlatformID: p.PlatformID, CreatedAt: p.CreatedAt.UTC(),
		Connected: *p.Connected}, true
}

// job is the job a <job>.added payload describes, when it carries
// everything a job needs.
func (p payloadJSON) job(event string) (domain.UpstreamJob, bool) {
	name, _ := strings.CutSuffix(event, ".added")
	if p.ID == "" || p.AccountID == "" || p.LinkTokenID == "" || p.Name != name || p.Outcome == "" {
		return domain.UpstreamJob{}, false
	}
	j := domain.UpstreamJob{ID: p.ID, AccountID: p.AccountID, Name: domain.JobType(p.Name), Outcome: domain.Outcome(p.Outcome)}
	if p.Timestamp != nil {
		j.CreatedAt = p.Timestamp.UTC()
	}
	if p.Params.bad {
		return domain.UpstreamJob{}, false
	}
	if p.Params.params != nil {
		j.Params = *p.Params.params
	}
	return j, true
}
