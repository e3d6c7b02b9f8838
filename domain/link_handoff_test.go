package domain_test

import (
	"bytes"
	"crypto/sha256"
	"strings"
	"sync"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage/storagetest"
)

// TestLinkHandoff: a hand-off keeps only the hash of its code, which is
// not the token; the code is claimed once (of two phones racing, one
// wins) for a key of the phone's own that opens the same session until
// the token expires; a code not claimed in time expires; a used session
// cannot be handed off; a step the token cannot take is refused, on both
// databases.
func TestLinkHandoff(t *testing.T) {
	for _, d := range storagetest.DialectList() {
		t.Run(string(d), func(t *testing.T) {
			w := newWorld(t, d, domain.ModeSandbox)
			tok, value := w.mustToken(domain.LinkTokenRequest{RequiredJobs: []string{"paystubs"}})
			h, code, err := w.link.StartHandoff(w.ctx, value, domain.HandoffStep{Screen: domain.HandoffLogin, PlatformID: w.payroll.ID})
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(code))
			stored, err := w.tx.LinkHandoffs().LinkHandoff(w.ctx, w.sc, h.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(code) < 43 || strings.Contains(code, value) || !bytes.Equal(stored.CodeHash, sum[:]) || stored.KeyHash != nil ||
				stored.LinkTokenID != tok.ID || !stored.Expires.Equal(w.clock.Now().Add(domain.HandoffTTL)) {
				t.Fatalf("stored %+v for code %q", stored, code)
			}

			// Two phones race for one code: one gets a key.
			var wg sync.WaitGroup
			keys := make([]string, 2)
			errs := make([]error, 2)
			for i := range keys {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, keys[i], errs[i] = w.link.ClaimHandoff(w.ctx, code)
				}()
			}
			wg.Wait()
			key := keys[0]
			if errs[0] != nil {
				key = keys[1]
				wantCode(t, errs[0], domain.CodeLinkHandoffInvalid)
				wantCode(t, errs[1], "")
			} else {
				wantCode(t, errs[1], domain.CodeLinkHandoffInvalid)
			}
			sess, err := w.link.Open(w.ctx, key)
			if err != nil || sess.Token.ID != tok.ID {
				t.Fatalf("the phone's key opens %v, %v", sess.Token.ID, err)
			}
			if _, status, err := w.link.Handoff(w.ctx, value, h.ID); err != nil || status != "claimed" {
				t.Errorf("the computer sees %q, %v", status, err)
			}
			if _, _, err := w.link.Handoff(w.ctx, key+"x", h.ID); err == nil {
				t.Error("a key with a character more opened the session")
			}

			// A code not claimed in time has expired.
			_, later, err := w.link.StartHandoff(w.ctx, value, domain.HandoffStep{Screen: domain.HandoffSearch})
			if err != nil {
				t.Fatal(err)
			}
			w.clock.Advance(domain.HandoffTTL)
			_, _, err = w.link.ClaimHandoff(w.ctx, later)
			wantCode(t, err, domain.CodeLinkHandoffExpired)

			// Another token cannot see this one's hand-off.
			_, other := w.mustToken(domain.LinkTokenRequest{})
			_, _, err = w.link.Handoff(w.ctx, other, h.ID)
			wantCode(t, err, domain.CodeLinkHandoffInvalid)
			// Steps Link cannot continue at, or a platform the token cannot use.
			_, _, err = w.link.StartHandoff(w.ctx, other, domain.HandoffStep{Screen: "JOB_SUCCESS"})
			wantCode(t, err, domain.CodeInvalidFields)

			// The phone logs in: the session is used, for the computer too.
			if _, err := w.link.Login(w.ctx, key, domain.LoginRequest{PlatformID: w.payroll.ID,
				Credentials: domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password}}); err != nil {
				t.Fatalf("login with the phone's key: %v", err)
			}
			_, _, err = w.link.StartHandoff(w.ctx, value, domain.HandoffStep{Screen: domain.HandoffSearch})
			wantCode(t, err, domain.CodeLinkTokenUsed)

			// The key lasts no longer than the token.
			w.clock.Advance(domain.LinkTokenLifetime)
			_, err = w.link.Open(w.ctx, key)
			wantCode(t, err, domain.CodeLinkTokenExpired)
		})
	}
}
