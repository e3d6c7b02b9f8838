package storage_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// movableClock is a clock tests move by hand; it never moves by itself.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

func newMovableClock() *movableClock {
	return &movableClock{now: time.Now().UTC().Truncate(time.Microsecond)}
}

func (c *movableClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *movableClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// throttleStores runs fn once per store of failed sign-ins: the database
// of each dialect, and Redis (beside an SQLite database). newThrottle
// gives each instance its own handle, and connection, on the one store.
func throttleStores(t *testing.T, fn func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle)) {
	t.Helper()
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		fn(t, db, func() domain.SignInThrottle { return storage.NewSignInThrottle(db) })
	})
	t.Run("redis", func(t *testing.T) {
		storagetest.RedisURL(t)
		db := storagetest.Open(t, storage.SQLite, storagetest.Empty)
		fn(t, db, func() domain.SignInThrottle { return storage.NewRedisSignInThrottle(storagetest.Redis(t)) })
	})
}

func hasCode(err error, code string) bool {
	var de *domain.Error
	return errors.As(err, &de) && de.Code == code
}

// TestSignInThrottleSharedByInstances: three instances (each its own
// MemberService and store handle) on one database, or one Redis, count
// failed sign-ins together: after five failures for an e-mail, or from an
// address, spread over the three, the next attempt is refused by every
// one of them, even with the right password.
func TestSignInThrottleSharedByInstances(t *testing.T) {
	throttleStores(t, func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle) {
		ctx := context.Background()
		clock := newMovableClock()
		var instances [3]*domain.MemberService
		for i := range instances {
			ks := storage.NewKeyStore(db)
			keys := domain.NewKeyService(ks, ks, storagetest.TestBox, clock)
			instances[i] = domain.NewMemberService(keys, ks, ks, newThrottle(), clock, bcrypt.MinCost)
		}
		// Redis outlives the test: names of this run only.
		run := domain.NewID()
		ada, bob := "ada-"+run+"@acme.test", "bob-"+run+"@acme.test"
		const password = "correct horse battery staple"
		for _, email := range []string{ada, bob} {
			if _, err := instances[0].AddMember(ctx, "acme", email, "administrator", password); err != nil {
				t.Fatal(err)
			}
		}
		addr := func(n int) string { return fmt.Sprintf("client-%d-%s", n, run) }
		signIn := func(i int, email, password, from string) error {
			_, _, err := instances[i%len(instances)].SignIn(ctx, email, password, from, domain.ModeSandbox, time.Hour)
			return err
		}
		refusedEverywhere := func(what, email string, from func(i int) string) {
			t.Helper()
			for i := range instances {
				err := signIn(i, email, password, from(i))
				var de *domain.Error
				if !errors.As(err, &de) || de.Code != domain.CodeRateLimitExceeded || de.RetryAfter <= 0 {
					t.Fatalf("%s: instance %d answered %v, want RATE_LIMIT_EXCEEDED with a retry hint", what, i, err)
				}
			}
		}
		burst := domain.SignInRule.Burst

		// One e-mail guessed from a new address each time, round the three.
		for i := range burst {
			if err := signIn(i, ada, "a guess", addr(i)); !hasCode(err, domain.CodeInvalidCredentials) {
				t.Fatalf("guess %d: %v", i, err)
			}
		}
		refusedEverywhere("the e-mail's next attempt", ada, func(i int) string { return addr(100 + i) })

		// One address trying a new e-mail each time, strangers' included.
		for i := range burst {
			if err := signIn(i, fmt.Sprintf("nobody-%d-%s@acme.test", i, run), "a guess", addr(200)); !hasCode(err, domain.CodeInvalidCredentials) {
				t.Fatalf("stranger %d: %v", i, err)
			}
		}
		refusedEverywhere("the address's next attempt", bob, func(int) string { return addr(200) })

		// A minute forgives one failure, on whichever instance asks; the
		// next wrong guess is counted by all three again.
		clock.advance(domain.SignInRule.Every)
		if err := signIn(1, ada, password, addr(300)); err != nil {
			t.Fatalf("a minute later: %v", err)
		}
		if err := signIn(2, ada, "a guess", addr(301)); !hasCode(err, domain.CodeInvalidCredentials) {
			t.Fatalf("a guess a minute later: %v", err)
		}
		refusedEverywhere("the attempt after the forgiven one", ada, func(i int) string { return addr(400 + i) })
	})
}

// TestSignInThrottleCountsConcurrentFailures: failures counted at once by
// three instances are all counted (the update is atomic in the store).
func TestSignInThrottleCountsConcurrentFailures(t *testing.T) {
	throttleStores(t, func(t *testing.T, _ *storage.DB, newThrottle func() domain.SignInThrottle) {
		ctx := context.Background()
		rule, now := domain.SignInRule, time.Now().UTC().Truncate(time.Microsecond)
		stores := []domain.SignInThrottle{newThrottle(), newThrottle(), newThrottle()}
		key := domain.ThrottleKey("email", domain.NewID())
		var wg sync.WaitGroup
		errs := make(chan error, rule.Burst)
		for i := range rule.Burst {
			wg.Go(func() { errs <- stores[i%3].Fail(ctx, rule, now, key) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		for i, s := range stores {
			if wait, err := s.Wait(ctx, rule, now, key); err != nil || wait != rule.Every {
				t.Errorf("instance %d: after %d concurrent failures Wait = %s, %v; want %s", i, rule.Burst, wait, err, rule.Every)
			}
		}
	})
}

// TestSignInThrottleForgets: the store keeps a key no longer than the
// rule's window after its last failure, so keys strangers invent do not
// pile up.
func TestSignInThrottleForgets(t *testing.T) {
	ctx := context.Background()
	rule := domain.SignInRule
	storagetest.Dialects(t, storagetest.Empty, func(t *testing.T, db *storage.DB) {
		s := storage.NewSignInThrottle(db)
		count := func() (n int) {
			t.Helper()
			if err := db.GetContext(ctx, &n, `SELECT COUNT(*) FROM sign_in_throttle`); err != nil {
				t.Fatal(err)
			}
			return n
		}
		t0 := time.Now().UTC().Truncate(time.Microsecond)
		for i := range 10 {
			if err := s.Fail(ctx, rule, t0, domain.ThrottleKey("email", fmt.Sprint(i, "@example.com"))); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(); n != 10 {
			t.Fatalf("%d rows after ten failed e-mails, want 10", n)
		}
		// A failure once the others are forgiven deletes them.
		if err := s.Fail(ctx, rule, t0.Add(rule.Window()), domain.ThrottleKey("addr", "192.0.2.1")); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 1 {
			t.Errorf("%d rows after the window, want only the new key's", n)
		}
	})
	t.Run("redis", func(t *testing.T) {
		client := storagetest.Redis(t)
		s := storage.NewRedisSignInThrottle(client)
		key := domain.ThrottleKey("email", domain.NewID())
		now := time.Now().UTC()
		for n := 1; n <= rule.Burst+2; n++ {
			if err := s.Fail(ctx, rule, now, key); err != nil {
				t.Fatal(err)
			}
			ttl, err := client.PTTL(ctx, "payline:sign_in:"+key).Result()
			want := min(time.Duration(n)*rule.Every, rule.Window())
			if err != nil || ttl <= 0 || ttl > want {
				t.Fatalf("after %d failures the key expires in %s (%v), want within %s", n, ttl, err, want)
			}
		}
	})
}
