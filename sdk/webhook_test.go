package sdk_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"payline.dev/client/webhook"
	"payline/domain"
)

// TestWebhookAgreesWithTheServer: a delivery the server signs verifies
// with the Go client's webhook package, and one that package signs
// verifies in the server's check. (The package's refusals are tested in
// its own module: client/webhook.)
func TestWebhookAgreesWithTheServer(t *testing.T) {
	const secret = "sk_sandbox_0123456789abcdef"
	body := []byte(`{"event":"account.added","event_id":"0195f0a0-0000-7000-8000-000000000001","payload":{"account_id":"a"}}`)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

	if got, want := webhook.Signature(secret, now.Unix(), body), domain.SignWebhook(secret, now.Unix(), body); got != want {
		t.Errorf("the client signs %s, the server %s", got, want)
	}
	// webhook.Verify checks against the clock, so the server signs a
	// minute before now.
	signed := time.Now().Add(-time.Minute)
	server := http.Header{}
	server.Set("x-service-signature", domain.SignWebhook(secret, signed.Unix(), body))
	server.Set("x-timestamp", strconv.FormatInt(signed.Unix(), 10))
	if err := webhook.Verify(secret, server, body, webhook.DefaultTolerance); err != nil {
		t.Errorf("the server's signature: %v", err)
	}
	ours := webhook.Sign(secret, now, body)
	if err := domain.VerifyWebhookSignature(secret, ours.Get(webhook.HeaderTimestamp), ours.Get(webhook.HeaderSignature), body, now); err != nil {
		t.Errorf("the server refuses the client's signature: %v", err)
	}
}
