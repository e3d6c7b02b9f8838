package rest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestFloodingAddressWaits: an address refused without a credential far
// more often than floodRule allows has its next requests held for the
// flood delay before they are looked at, holding no place or slot; other
// addresses are served at once; when the tarpit is full, a flooding
// address's request is refused at once with its connection closed.
func TestFloodingAddressWaits(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		const delay = time.Minute // long enough that "held" cannot be "slow"
		// The rule's burst, refilled once an hour: the address keeps
		// flooding while the test looks (at the real rule's refill, a
		// hundredth of a second without a refusal ends it).
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.rest.TrustProxy, s.rest.FloodDelay = true, delay
			s.rest.floodRule = domain.ThrottleRule{Burst: floodRule.Burst, Every: time.Hour}
		})
		const flooder, other = "203.0.113.7", "198.51.100.9"
		send := func(ctx context.Context, from, secret string) (*http.Response, error) {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.http.URL+"/v1/accounts", nil)
			req.Header.Set("X-Forwarded-For", from)
			req.Header.Set("X-Forwarded-Proto", "https")
			req.Header.Set("x-api-secret", secret)
			req.Header.Set("Service-Version", domain.LatestVersion)
			res, err := http.DefaultClient.Do(req)
			if err == nil {
				res.Body.Close()
			}
			return res, err
		}

		// Wrong secrets until the address counts as flooding: every one a 401
		// answered at once, the rule's burst of them.
		sent := 0
		for ; !f.server.tarpit.flooding(flooder); sent++ {
			if sent > 10*floodRule.Burst {
				t.Fatalf("%d refusals and the address does not count as flooding", sent)
			}
			res, err := send(context.Background(), flooder, "sk_wrong")
			if err != nil || res.StatusCode != http.StatusUnauthorized {
				t.Fatalf("wrong secret %d: %v %v", sent, res, err)
			}
		}
		if sent != floodRule.Burst {
			t.Errorf("the address counted as flooding after %d refusals; want %d", sent, floodRule.Burst)
		}

		// Its next request, even with a good key, waits in the tarpit.
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel) // the held request is let go however the test ends
		held := make(chan error, 1)
		go func() { _, err := send(ctx, flooder, f.secret); held <- err }()
		waitFor(t, "the flooding address's request held", func() bool { return len(f.server.tarpit.places) == 1 })
		if n := len(f.server.slots); n != 0 {
			t.Errorf("%d slots taken while the request is held; want none", n)
		}
		if n := f.server.perAddress.held(addressKey(flooder)); n != 0 {
			t.Errorf("the held request takes %d of its address's places; want none", n)
		}

		// Another address is served meanwhile.
		if res, err := send(context.Background(), other, f.secret); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("another address during the flood: %v %v", res, err)
		}

		// The tarpit full: once the address floods again, its next request
		// is refused at once, told to come back, and its connection closed.
		filled := 0
		for ; len(f.server.tarpit.places) < cap(f.server.tarpit.places); filled++ {
			f.server.tarpit.places <- struct{}{}
		}
		for i := 0; ; i++ {
			if i > 10*floodRule.Burst {
				t.Fatal("no request refused at once with the tarpit full")
			}
			res, err := send(context.Background(), flooder, "sk_wrong")
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode == http.StatusUnauthorized {
				continue // not flooding again yet
			}
			if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !res.Close {
				t.Fatalf("with the tarpit full: %v; want 429 with Retry-After, the connection closed", res)
			}
			break
		}
		for range filled {
			<-f.server.tarpit.places
		}

		// A client that hangs up while held leaves the tarpit.
		cancel()
		<-held
		waitFor(t, "the hung-up request gone from the tarpit", func() bool { return len(f.server.tarpit.places) == 0 })
	})
}

// TestTarpitCountsOnlyStrangersRefusals: a customer's key refused by its
// own rate limit is not a stranger's refusal, however often.
func TestTarpitCountsOnlyStrangersRefusals(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.TrustProxy = true; s.rest.RateLimit = 1 })
		const from = "203.0.113.8"
		limited := 0
		for range 2 * floodRule.Burst {
			req, _ := http.NewRequest(http.MethodGet, f.http.URL+"/v1/accounts", nil)
			req.Header.Set("X-Forwarded-For", from)
			req.Header.Set("X-Forwarded-Proto", "https")
			req.Header.Set("x-api-secret", f.secret)
			req.Header.Set("Service-Version", domain.LatestVersion)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode == http.StatusTooManyRequests {
				limited++
			}
		}
		if limited < floodRule.Burst {
			t.Fatalf("%d of the key's calls rate limited; want more than the flood rule's burst", limited)
		}
		if f.server.tarpit.flooding(from) {
			t.Error("a customer's own rate limit made its address count as flooding")
		}
	})
}
