package storage_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
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

// signInInstances are n instances of the member service (each its own
// store handle) on one database or Redis, with one clock, and two
// members, ada and bob, added; the waits of slowed e-mails are recorded in
// delays as the clock is moved past them.
type signInInstances struct {
	t         *testing.T
	instances []*domain.MemberService
	clock     *movableClock
	customer  domain.Customer
	run       string // names of this run only: Redis outlives the test
	ada, bob  string

	mu     sync.Mutex
	delays []time.Duration
}

const throttledPassword = "correct horse battery staple"

func newSignInInstances(t *testing.T, n int, db *storage.DB, newThrottle func() domain.SignInThrottle) *signInInstances {
	t.Helper()
	s := &signInInstances{t: t, clock: newMovableClock(), run: domain.NewID()}
	for range n {
		ks := storage.NewKeyStore(db)
		keys := domain.NewKeyService(ks, ks, s.clock)
		m := domain.NewMemberService(keys, ks, ks, newThrottle(), s.clock, bcrypt.MinCost)
		s.instances = append(s.instances, m)
	}
	s.ada, s.bob = "ada-"+s.run+"@acme.test", "bob-"+s.run+"@acme.test"
	for _, email := range []string{s.ada, s.bob} {
		added, err := s.instances[0].AddMember(context.Background(), "acme", email, "administrator", throttledPassword)
		if err != nil {
			t.Fatal(err)
		}
		s.customer = added.Customer
	}
	return s
}

// addr is the n-th client address of this run.
func (s *signInInstances) addr(n int) string { return fmt.Sprintf("client-%d-%s", n, s.run) }

// signIn tries email and password from an address on instance i (round
// the instances), as a request from that address would, and when told
// to wait its turn (SIGN_IN_SLOWED) comes back once the wait is over, as
// the dashboard does: the wait is recorded in delays (zero when there was
// none) and the clock moved past it.
func (s *signInInstances) signIn(i int, email, password, from string) error {
	err := s.try(i, email, password, from)
	var de *domain.Error
	wait := time.Duration(0)
	if errors.As(err, &de) && de.Code == domain.CodeSignInSlowed {
		wait = de.RetryAfter
		s.clock.advance(wait)
		err = s.try(i, email, password, from)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays = append(s.delays, wait)
	return err
}

// try is one attempt of signIn, answered as it is.
func (s *signInInstances) try(i int, email, password, from string) error {
	ctx := domain.WithClientAddress(context.Background(), from)
	_, _, err := s.instances[i%len(s.instances)].SignIn(ctx, email, password, from, domain.ModeSandbox, time.Hour)
	return err
}

// lastDelay is the wait the latest signIn was told to come back after.
func (s *signInInstances) lastDelay() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.delays[len(s.delays)-1]
}

// refusedEverywhere checks that every instance refuses email's right
// password from an address with RATE_LIMIT_EXCEEDED and a retry hint.
func (s *signInInstances) refusedEverywhere(what, email, from string) {
	s.t.Helper()
	for i := range s.instances {
		err := s.try(i, email, throttledPassword, from)
		var de *domain.Error
		if !errors.As(err, &de) || de.Code != domain.CodeRateLimitExceeded || de.RetryAfter <= 0 {
			s.t.Fatalf("%s: instance %d answered %v, want RATE_LIMIT_EXCEEDED with a retry hint", what, i, err)
		}
	}
}

// guess fails a sign-in, and fails the test if it was not refused as a
// wrong password.
func (s *signInInstances) guess(i int, email, from string) {
	s.t.Helper()
	if err := s.signIn(i, email, "a guess", from); !hasCode(err, domain.CodeInvalidCredentials) {
		s.t.Fatalf("guess %d at %s from %s: %v", i, email, from, err)
	}
}

// TestSignInThrottleSharedByInstances: three instances (each its own
// MemberService and store handle) on one database, or one Redis, count
// failed sign-ins together. Five failures for an e-mail from one address,
// spread over the three, make every one of them refuse that address's
// next attempt, even with the right password; SignInAddressRule's burst
// of failures from one address, for any e-mails, refuse it for every
// e-mail. Failures made elsewhere refuse no one: the member signs in from
// another address, and another member from the guesser's (one office
// behind one NAT).
func TestSignInThrottleSharedByInstances(t *testing.T) {
	throttleStores(t, func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle) {
		s := newSignInInstances(t, 3, db, newThrottle)
		guesser := s.addr(0)
		for i := range domain.SignInPairRule.Burst {
			s.guess(i, s.ada, guesser)
		}
		s.refusedEverywhere("the guesser's next attempt", s.ada, guesser)
		for i := range s.instances {
			if err := s.signIn(i, s.ada, throttledPassword, s.addr(100+i)); err != nil {
				t.Fatalf("the member from another address, on instance %d: %v", i, err)
			}
			if err := s.signIn(i, s.bob, throttledPassword, guesser); err != nil {
				t.Fatalf("another member behind the guesser's address, on instance %d: %v", i, err)
			}
		}

		// An IPv6 address counts by its /64, so changing the low bits
		// earns no fresh guesses (a /64 of this run only).
		block := fmt.Sprintf("2001:db8:%x:%x::", rand.N(1<<16), rand.N(1<<16))
		for i := range domain.SignInPairRule.Burst {
			s.guess(i, s.bob, fmt.Sprint(block, i+1))
		}
		s.refusedEverywhere("the /64's next attempt", s.bob, block+"ffff:1")
		if err := s.signIn(0, s.bob, throttledPassword, "2001:db8::1"); err != nil {
			t.Fatalf("the member from another /64: %v", err)
		}

		// One address trying a new e-mail each time, strangers' included.
		sprayer := s.addr(200)
		for i := range domain.SignInAddressRule.Burst {
			s.guess(i, fmt.Sprintf("nobody-%d-%s@acme.test", i, s.run), sprayer)
		}
		s.refusedEverywhere("the sprayer's next attempt", s.bob, sprayer)

		// A minute forgives one of the guesser's failures, on whichever
		// instance asks; the next wrong guess is counted by all three.
		s.clock.advance(domain.SignInPairRule.Every)
		if err := s.signIn(1, s.ada, throttledPassword, guesser); err != nil {
			t.Fatalf("a minute later: %v", err)
		}
		s.guess(2, s.ada, guesser)
		s.refusedEverywhere("the attempt after the forgiven one", s.ada, guesser)
	})
}

// TestSignInSlowsAGuessedEmail: an e-mail guessed once from each of many
// addresses (none of which the throttle refuses) makes each address wait
// its turn at it, from one second after its fourth failure doubling to
// eight seconds. The wait is answered at once (SIGN_IN_SLOWED with
// Retry-After), nothing sleeps in the server; an address that comes back
// when told has its password checked whatever others tried meanwhile, so
// the right password from an address with no failures is never refused;
// the delay fades as the failures are forgiven. The administrator sees the
// slowing begin, and an address being refused, in the audit log, once
// each and not once per attempt.
func TestSignInSlowsAGuessedEmail(t *testing.T) {
	throttleStores(t, func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle) {
		s := newSignInInstances(t, 2, db, newThrottle)
		b := domain.SignInEmailBackoff
		var got []time.Duration
		for i := range b.Count.Burst + 2 {
			s.guess(i, s.ada, s.addr(i))
			got = append(got, s.lastDelay())
		}
		want := []time.Duration{0, 0, 0, 0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second,
			8 * time.Second, 8 * time.Second, 8 * time.Second}
		if !slices.Equal(got, want) {
			t.Errorf("delays before each guess from a new address\n got %v\nwant %v", got, want)
		}
		// The owner, from a clean address, is told at once to come back;
		// guesses from other addresses meanwhile take no turn of its.
		owner := s.addr(100)
		err := s.try(0, s.ada, throttledPassword, owner)
		var told *domain.Error
		if !errors.As(err, &told) || told.Code != domain.CodeSignInSlowed || told.RetryAfter != b.Cap {
			t.Fatalf("the owner's first attempt: %v, want SIGN_IN_SLOWED with a wait of %s", err, b.Cap)
		}
		for i := range 3 {
			if err := s.try(i, s.ada, "a guess", s.addr(200+i)); !hasCode(err, domain.CodeSignInSlowed) {
				t.Fatalf("a guess from another address while the owner waits: %v", err)
			}
		}
		s.clock.advance(told.RetryAfter)
		if err := s.try(1, s.ada, throttledPassword, owner); err != nil {
			t.Fatalf("the owner back when told, on the other instance: %v", err)
		}
		for i := range s.instances {
			if err := s.signIn(i, s.ada, throttledPassword, s.addr(110+i)); err != nil {
				t.Fatalf("the right password from a clean address, on instance %d: %v", i, err)
			}
			if d := s.lastDelay(); d > b.Cap {
				t.Errorf("the owner waited %s, more than the cap %s", d, b.Cap)
			}
		}
		s.clock.advance(b.Count.Window())
		if err := s.signIn(0, s.ada, throttledPassword, s.addr(0)); err != nil || s.lastDelay() != 0 {
			t.Errorf("once every failure is forgiven: %v, after waiting %s", err, s.lastDelay())
		}

		// The guesser from one address: refused after five, with one
		// entry saying so; its refused attempts write nothing.
		guesser := s.addr(300)
		for i := range domain.SignInPairRule.Burst {
			s.guess(i, s.bob, guesser)
		}
		for range 3 {
			s.refusedEverywhere("the guesser", s.bob, guesser)
		}
		log, err := s.instances[0].AuditLog(context.Background(), domain.Session{CustomerID: s.customer.ID, Mode: domain.ModeSandbox}, 100)
		if err != nil {
			t.Fatal(err)
		}
		count := map[string]int{}
		for _, e := range log {
			count[e.Action]++
			if e.Action == domain.AuditSignInThrottle && e.Address != guesser {
				t.Errorf("throttled sign-in audited from %q, want the guesser's %q", e.Address, guesser)
			}
		}
		wantCount := map[string]int{domain.AuditSignInRefused: b.Count.Burst + 2 + domain.SignInPairRule.Burst,
			domain.AuditSignInSlowed: 2, domain.AuditSignInThrottle: 1, domain.AuditSignedIn: len(s.instances) + 2}
		if !maps.Equal(count, wantCount) {
			t.Errorf("audit entries by action\n got %v\nwant %v", count, wantCount)
		}
	})
}

// TestSignInParallelGuessesCounted: twenty wrong passwords for one
// e-mail sent at once from one address get five INVALID_CREDENTIALS and
// fifteen refusals, as they would one after another: an instance checks
// and counts one address's sign-ins one at a time, so guesses in flight
// cannot all pass the check before any is counted.
func TestSignInParallelGuessesCounted(t *testing.T) {
	throttleStores(t, func(t *testing.T, db *storage.DB, newThrottle func() domain.SignInThrottle) {
		s := newSignInInstances(t, 1, db, newThrottle)
		from := s.addr(7)
		var wg sync.WaitGroup
		errs := make(chan error, 20)
		for range 20 {
			wg.Go(func() { errs <- s.signIn(0, s.bob, "a guess", from) })
		}
		wg.Wait()
		close(errs)
		count := map[string]int{}
		for err := range errs {
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("a parallel guess: %v", err)
			}
			count[de.Code]++
		}
		want := map[string]int{domain.CodeInvalidCredentials: domain.SignInPairRule.Burst, domain.CodeRateLimitExceeded: 20 - domain.SignInPairRule.Burst}
		if !maps.Equal(count, want) {
			t.Errorf("twenty parallel guesses answered %v; want %v", count, want)
		}
	})
}

// TestSignInThrottleCountsConcurrentFailures: failures counted at once by
// three instances are all counted (the update is atomic in the store).
func TestSignInThrottleCountsConcurrentFailures(t *testing.T) {
	throttleStores(t, func(t *testing.T, _ *storage.DB, newThrottle func() domain.SignInThrottle) {
		ctx := context.Background()
		rule, now := domain.SignInPairRule, time.Now().UTC().Truncate(time.Microsecond)
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
			at, err := s.ForgivenAt(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if wait := rule.Wait(at[0], now); wait != rule.Every {
				t.Errorf("instance %d: after %d concurrent failures the key waits %s; want %s", i, rule.Burst, wait, rule.Every)
			}
		}
	})
}

// TestSignInThrottleForgets: the store keeps a key no longer than the
// rule's window after its last failure, so keys strangers invent do not
// pile up.
func TestSignInThrottleForgets(t *testing.T) {
	ctx := context.Background()
	rule := domain.SignInPairRule
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
