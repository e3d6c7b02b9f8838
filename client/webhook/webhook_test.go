package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"
)

// TestRefusals: a signed delivery verifies until its tolerance runs out;
// a tampered body, a wrong secret, a stale or future timestamp and missing
// headers are refused, each for its reason. That the server's signatures
// verify here and this package's in the server is checked in Payline's
// module, which has the server's code (sdk/webhook_test.go).
func TestRefusals(t *testing.T) {
	const secret = "sk_sandbox_0123456789abcdef"
	body := []byte(`{"event":"account.added","event_id":"0195f0a0-0000-7000-8000-000000000001","payload":{"account_id":"a"}}`)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

	ours := Sign(secret, now, body)
	if err := verifyAt(secret, ours, body, DefaultTolerance, now.Add(time.Minute)); err != nil {
		t.Errorf("a delivery signed a minute ago: %v", err)
	}
	for name, c := range map[string]struct {
		secret string
		header http.Header
		body   []byte
		now    time.Time
		want   error
	}{
		"tampered body":   {secret, ours, append([]byte(nil), append(body[:len(body)-1], ' ', '}')...), now, ErrSignature},
		"wrong secret":    {"sk_sandbox_other", ours, body, now, ErrSignature},
		"stale":           {secret, ours, body, now.Add(6 * time.Minute), ErrStale},
		"from the future": {secret, ours, body, now.Add(-6 * time.Minute), ErrStale},
		"no signature":    {secret, http.Header{HeaderTimestamp: {strconv.FormatInt(now.Unix(), 10)}}, body, now, ErrMissing},
		"no timestamp":    {secret, http.Header{HeaderSignature: {ours.Get(HeaderSignature)}}, body, now, ErrMissing},
		"garbled time":    {secret, http.Header{HeaderSignature: {ours.Get(HeaderSignature)}, HeaderTimestamp: {"yesterday"}}, body, now, ErrMissing},
	} {
		if err := verifyAt(c.secret, c.header, c.body, DefaultTolerance, c.now); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}
