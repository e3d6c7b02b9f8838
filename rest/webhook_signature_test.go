package rest

// Webhook signatures: the documented test vector, and the client
// libraries verifying real deliveries.

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"

	"payline.dev/client/webhook"
)

// webhookTestVector is the example of docs/webhooks.md; the test keeps the
// document true.
var webhookTestVector = struct {
	secret    string
	timestamp int64
	body      string
	header    string
}{
	secret:    "c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffee0ddba11c0ffee0ddba1",
	timestamp: 1732233600,
	body:      `{"event":"account.added","event_id":"0193f2a4-6c1e-7b7a-9d1e-5f3a2b1c0d9e","payload":{"account_id":"0193f2a4-6c1e-7b7a-9d1e-000000000001"}}`,
	header:    "v2=08985612f3fccf472ddd80e63416b79490099b94eefc7e1206db2aafe3f3b68a",
}

func TestWebhookSignatureTestVector(t *testing.T) {
	v := webhookTestVector
	got := domain.SignWebhook(v.secret, v.timestamp, []byte(v.body))
	if got != v.header {
		t.Errorf("SignWebhook = %s, want the documented %s", got, v.header)
	}
	doc, err := os.ReadFile("../docs/webhooks.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{v.secret, strconv.FormatInt(v.timestamp, 10), v.body, v.header} {
		if !strings.Contains(string(doc), s) {
			t.Errorf("docs/webhooks.md lacks %q", s)
		}
	}
}

// TestClientVerifiesDeliveries: a real delivery, as the receiver got it,
// verifies with the Go client's webhook.Verify under the key's secret,
// and not under another.
func TestClientVerifiesDeliveries(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		hookID := f.createWebhook(rcv.srv.URL, `"account.added"`)
		f.post("/v1/sandbox/webhooks/"+hookID+"/test", "")
		got := rcv.deliveries()
		if len(got) != 1 {
			t.Fatalf("%d deliveries", len(got))
		}
		if err := webhook.Verify(f.secret, got[0].header, got[0].body, webhook.DefaultTolerance); err != nil {
			t.Errorf("a real delivery: %v", err)
		}
		if err := webhook.Verify(f.secret+"x", got[0].header, got[0].body, webhook.DefaultTolerance); !errors.Is(err, webhook.ErrSignature) {
			t.Errorf("under another secret: %v", err)
		}
	})
}
