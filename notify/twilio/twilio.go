// Package twilio is an SMS provider (notify/sms.Provider) over Twilio's
// Programmable Messaging REST API, and the receiver of its inbound
// message webhook (people's STOP and START replies, and status callbacks)
// checked by Twilio's X-Twilio-Signature. The account SID and auth token
// are configuration only (flags or environment), never stored, and never
// written to a log or an error.
package twilio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"payline/domain"
	"payline/notify/sms"
)

// DefaultBaseURL is Twilio's API.
const DefaultBaseURL = "https://api.twilio.com"

// Config is a Twilio account and the sender texts come from.
type Config struct {
	// AccountSID (AC...) and AuthToken authenticate every request (HTTP
	// basic auth) and sign Twilio's webhooks.
	AccountSID, AuthToken string
	// From is the sending number (E.164); MessagingServiceSID (MG...)
	// sends through a Messaging Service instead. One of the two.
	From, MessagingServiceSID string
	// StatusCallback, when set, is where Twilio reports each text's fate
	// (Payline's inbound hook takes them: an opt-out refusal is recorded).
	StatusCallback string
	// BaseURL is Twilio's API (DefaultBaseURL when empty); tests point it
	// at a local server.
	BaseURL string
	// HTTPClient sends the requests (a 15 s timeout, no redirects, when
	// nil).
	HTTPClient *http.Client
	// Now dates what was sent (time.Now when nil).
	Now func() time.Time
}

// Client sends texts through Twilio.
type Client struct {
	cfg      Config
	endpoint string
	http     *http.Client
}

var accountSID = regexp.MustCompile(`^AC[0-9a-fA-F]{32}$`)

// New checks the configuration; it does not call Twilio.
func New(cfg Config) (*Client, error) {
	if !accountSID.MatchString(cfg.AccountSID) {
		return nil, errors.New("--twilio-account-sid must be a Twilio account SID: AC and 32 hex digits")
	}
	if cfg.AuthToken == "" {
		return nil, errors.New("PAYLINE_TWILIO_AUTH_TOKEN is required with --twilio-account-sid")
	}
	if (cfg.From == "") == (cfg.MessagingServiceSID == "") {
		return nil, errors.New("give one of --twilio-from (a number in E.164 form) and --twilio-messaging-service-sid")
	}
	base := cfg.BaseURL
	if base == "" {
		base = DefaultBaseURL
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("the Twilio base URL %q is not an http(s) URL", base)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{
			Timeout: 15 * time.Second,
			// The credentials go to Twilio and nowhere it might send us.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	endpoint := strings.TrimRight(base, "/") + "/2010-04-01/Accounts/" + cfg.AccountSID + "/Messages.json"
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Client{cfg: cfg, endpoint: endpoint, http: hc}, nil
}

// message is the part of Twilio's Message resource Payline reads.
type message struct {
	SID    string `json:"sid"`
	Status string `json:"status"`
}

// apiError is Twilio's error body.
type apiError struct {
	Code     int    `json:"code"`
	Message  string `json:"message"`
	MoreInfo string `json:"more_info"`
	Status   int    `json:"status"`
}

// Twilio's error codes that say something Payline acts on.
const (
	codeAuthentication = 20003
	codeTooManyRequest = 20429
	codeUnsubscribed   = 21610
)

// SendText creates a Message: POST /2010-04-01/Accounts/{sid}/Messages.json.
func (c *Client) SendText(ctx context.Context, t sms.Text) (domain.SentMessage, error) {
	form := url.Values{"To": {t.To}, "Body": {t.Body}}
	if c.cfg.MessagingServiceSID != "" {
		form.Set("MessagingServiceSid", c.cfg.MessagingServiceSID)
	} else {
		form.Set("From", c.cfg.From)
	}
	if c.cfg.StatusCallback != "" {
		form.Set("StatusCallback", c.cfg.StatusCallback)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return domain.SentMessage{}, err
	}
	req.SetBasicAuth(c.cfg.AccountSID, c.cfg.AuthToken)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		// url.Error names the endpoint (no credentials in it): retryable.
		return domain.SentMessage{}, fmt.Errorf("twilio: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		return domain.SentMessage{}, fmt.Errorf("twilio: read the answer: %w", err)
	}
	if resp.StatusCode == http.StatusCreated || resp.StatusCode == http.StatusOK {
		var m message
		if err := json.Unmarshal(body, &m); err != nil || m.SID == "" {
			return domain.SentMessage{}, fmt.Errorf("twilio: %d with no message sid", resp.StatusCode)
		}
		return domain.SentMessage{ProviderID: m.SID, SentAt: c.cfg.Now().UTC()}, nil
	}
	return domain.SentMessage{}, refusal(resp.StatusCode, body, t.To)
}

// refusal reads Twilio's error answer: throttling and its own failures
// are worth retrying; any other 4xx is a refusal for good, in Twilio's
// words with the number masked.
func refusal(status int, body []byte, to string) error {
	var e apiError
	_ = json.Unmarshal(body, &e) // a body that is not Twilio's error leaves e empty
	words := strings.TrimRight(strings.ReplaceAll(e.Message, to, domain.MaskAddress(domain.ChannelSMS, to)), ". ")
	switch {
	case e.Code == codeUnsubscribed:
		return fmt.Errorf("%w (Twilio error %d)", sms.ErrOptedOut, e.Code)
	case status == http.StatusTooManyRequests || e.Code == codeTooManyRequest || status >= 500:
		return fmt.Errorf("twilio: answered %d, code %d: %s", status, e.Code, words)
	case e.Code == codeAuthentication || status == http.StatusUnauthorized:
		return fmt.Errorf("%w: the SMS provider refused Payline's credentials (Twilio error %d: %s)", domain.ErrDeliveryRefused, e.Code, words)
	case status >= 400:
		if words == "" {
			words = http.StatusText(status)
		}
		return fmt.Errorf("%w: the SMS provider refused the text: %s (Twilio error %d; %s)", domain.ErrDeliveryRefused, words, e.Code, e.MoreInfo)
	}
	return fmt.Errorf("twilio: unexpected answer %d", status)
}
