// Package webhook verifies Payline's webhook deliveries in one call, and
// signs deliveries for an integrator's own tests. It depends on the
// standard library only, so it can be copied into or vendored by any Go
// program that receives Payline's webhooks.
//
//	func handle(w http.ResponseWriter, r *http.Request) {
//		body, _ := io.ReadAll(r.Body)
//		if err := webhook.Verify(secret, r.Header, body, webhook.DefaultTolerance); err != nil {
//			http.Error(w, "bad signature", http.StatusUnauthorized)
//			return
//		}
//		// body is the event Payline sent: {"event", "event_id", "payload"}
//		w.WriteHeader(http.StatusOK)
//	}
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// The headers a delivery carries.
const (
	HeaderSignature = "X-Service-Signature"
	HeaderTimestamp = "X-Timestamp"
	HeaderWebhookID = "X-Service-Webhook-Id"
)

// DefaultTolerance is how far a delivery's timestamp may be from the
// receiver's clock: Payline's own rule for the deliveries it receives.
const DefaultTolerance = 5 * time.Minute

// Why a delivery was refused; Verify's errors wrap one of these.
var (
	ErrMissing   = errors.New("webhook: the delivery has no signature or timestamp header")
	ErrStale     = errors.New("webhook: the delivery's timestamp is outside the tolerance (stale or replayed)")
	ErrSignature = errors.New("webhook: the signature does not match the body and timestamp under this secret")
)

// Signature is the X-Service-Signature of a body sent at a time: "v2="
// and the hex HMAC-SHA256, keyed with the API secret, of
// "v2:<unix seconds>:<raw body>".
func Signature(secret string, timestamp int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v2:" + strconv.FormatInt(timestamp, 10) + ":"))
	mac.Write(body)
	return "v2=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a delivery: its X-Service-Signature must be the signature
// of the raw body (as received, before any parsing) at its X-Timestamp
// under secret (the API secret of the key that created the webhook), and
// that timestamp within tolerance of now. It compares in constant time.
func Verify(secret string, header http.Header, body []byte, tolerance time.Duration) error {
	return verifyAt(secret, header, body, tolerance, time.Now())
}

func verifyAt(secret string, header http.Header, body []byte, tolerance time.Duration, now time.Time) error {
	sig, stamp := header.Get(HeaderSignature), header.Get(HeaderTimestamp)
	if sig == "" || stamp == "" {
		return ErrMissing
	}
	ts, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %s is %q, not Unix seconds", ErrMissing, HeaderTimestamp, stamp)
	}
	if d := now.Sub(time.Unix(ts, 0)); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: %s from now", ErrStale, d.Round(time.Second))
	}
	if !hmac.Equal([]byte(Signature(secret, ts, body)), []byte(sig)) {
		return ErrSignature
	}
	return nil
}

// Sign returns the headers Payline would send with body at time at,
// signed with secret: for an integrator's tests of their own handler.
func Sign(secret string, at time.Time, body []byte) http.Header {
	h := http.Header{}
	h.Set(HeaderSignature, Signature(secret, at.Unix(), body))
	h.Set(HeaderTimestamp, strconv.FormatInt(at.Unix(), 10))
	h.Set("Content-Type", "application/json")
	return h
}
