package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// SignWebhook is the x-service-signature of a delivery: "v2=" and the hex
// HMAC-SHA256, keyed with the API secret, of "v2:<timestamp>:<raw body>".
func SignWebhook(secret string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v2:" + strconv.FormatInt(timestamp, 10) + ":"))
	mac.Write(body)
	return "v2=" + hex.EncodeToString(mac.Sum(nil))
}

// signedRequest is the POST that delivers event e to webhook w: the
// payload shaped for the webhook's version, signed with the API secret of
// the key that created the webhook.
func signedRequest(w Webhook, e Event, secret string, now time.Time) (WebhookRequest, error) {
	payload, err := ShapeForVersion(EventResource(e.Name), w.Version, e.Payload)
	if err != nil {
		return WebhookRequest{}, fmt.Errorf("shape event %s for version %s: %w", e.ID, w.Version, err)
	}
	body, err := json.Marshal(map[string]any{"event": e.Name, "event_id": e.ID, "payload": payload})
	if err != nil {
		return WebhookRequest{}, err
	}
	ts := now.Unix()
	return WebhookRequest{URL: w.URL, Body: body, Headers: map[string]string{
		"Content-Type": "application/json", "User-Agent": "Payline-Webhooks/1",
		"x-service-signature": SignWebhook(secret, ts, body), "x-service-webhook-id": w.ID,
		"x-timestamp": strconv.FormatInt(ts, 10), "service-version": w.Version,
	}}, nil
}

// VerifyWebhookSignature checks a delivery signed as SignWebhook signs:
// the signature must match the body and timestamp under secret, and the
// timestamp must be within WebhookTolerance of now. Errors: 401
// INVALID_WEBHOOK_SIGNATURE saying which.
func VerifyWebhookSignature(secret, timestamp, signature string, body []byte, now time.Time) error {
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return Errorf(KindUnauthorized, CodeInvalidWebhookSignature, "x-timestamp is missing or not a Unix time")
	}
	if d := now.Sub(time.Unix(ts, 0)); d > WebhookTolerance || d < -WebhookTolerance {
		return Errorf(KindUnauthorized, CodeInvalidWebhookSignature, "x-timestamp is more than %s from now: a stale or replayed delivery", WebhookTolerance)
	}
	if !hmac.Equal([]byte(SignWebhook(secret, ts, body)), []byte(signature)) {
		return Errorf(KindUnauthorized, CodeInvalidWebhookSignature, "the signature does not match the body and timestamp")
	}
	return nil
}
