package domain

import (
	"context"
	"fmt"
	"net/netip"
	"sync"
	"time"
)

// The sign-in throttle counts guesses, not owners: a failure is held
// against the address it came from, so strangers cannot lock a member
// out, and an e-mail guessed from everywhere is only slowed
// (docs/dashboard.md, "Throttling").
var (
	// SignInPairRule refuses one address guessing one e-mail: five
	// failures, then one more a minute.
	SignInPairRule = ThrottleRule{Burst: 5, Every: time.Minute}
	// SignInAddressRule refuses one address trying many e-mails (password
	// spraying): a hundred failures, then one every ten seconds. That is
	// far above what the members behind one office NAT mistype between
	// them, so their failures never refuse one another.
	SignInAddressRule = ThrottleRule{Burst: 100, Every: 10 * time.Second}
	// SignInEmailBackoff slows every address's attempts for an e-mail
	// that failed more than three times lately, from any address, and
	// refuses no one for good: an address's attempt is told at once to
	// come back (429 with Retry-After) in one second, doubling with each
	// further failure up to eight, and when it does, within
	// SignInTurnKept, its password is checked whatever other addresses
	// tried meanwhile. Nothing waits inside the server. One failure is
	// forgiven a minute, and ten at most are remembered.
	SignInEmailBackoff = Backoff{Count: ThrottleRule{Burst: 10, Every: time.Minute}, Free: 3, First: time.Second, Cap: 8 * time.Second}
	// SignInTurnKept is how long an address told to wait for a slowed
	// e-mail keeps its turn once the wait is over. Within it the address
	// may try that e-mail as SignInPairRule allows: the same five guesses
	// as when each attempt waited its delay before being checked.
	SignInTurnKept = time.Minute
	// SignInAttemptRule bounds the sign-ins one address makes, failed or
	// not, on every instance together: a hundred and twenty at once (an
	// office signing in at nine), then two a second. Password checks cost
	// CPU, so no single address may ask for them faster than that.
	SignInAttemptRule = ThrottleRule{Burst: 120, Every: 500 * time.Millisecond}
)

// signInAttempt is a sign-in's standing with the throttle: its keys, and
// when each key's failures were all forgiven as it arrived. turn is the
// address's turn at a slowed e-mail, tries its attempts of any kind.
type signInAttempt struct {
	pair, addr, email, turn, tries           string
	pairAt, addrAt, emailAt, turnAt, triesAt time.Time
}

// throttledAddress is what the throttle counts a client address as: an
// IPv4 address itself, an IPv6 one by its /64, the smallest block one
// subscriber is given, so changing the low bits earns no fresh counts.
func throttledAddress(addr string) string {
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	if ip = ip.Unmap(); ip.Is4() {
		return ip.String()
	}
	p, err := ip.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}

// signInKeys are the throttle's keys of a sign-in for email from
// clientAddr, with no moments read yet.
func signInKeys(email, clientAddr string) signInAttempt {
	block := throttledAddress(clientAddr)
	return signInAttempt{pair: ThrottleKey("pair", email+"\x00"+block), addr: ThrottleKey("addr", block), email: ThrottleKey("email", email),
		turn: ThrottleKey("turn", email+"\x00"+block), tries: ThrottleKey("tries", block)}
}

// standing reads the moments of a's keys from the throttle.
func standing(ctx context.Context, t SignInThrottle, a signInAttempt) (signInAttempt, error) {
	at, err := t.ForgivenAt(ctx, a.pair, a.addr, a.email, a.turn, a.tries)
	if err != nil {
		return a, err
	}
	a.pairAt, a.addrAt, a.emailAt, a.turnAt, a.triesAt = at[0], at[1], at[2], at[3], at[4]
	return a, nil
}

// refusedFor is how long the attempt's address must wait before it may
// try this e-mail again: zero when it may.
func (a signInAttempt) refusedFor(now time.Time) time.Duration {
	return max(SignInPairRule.Wait(a.pairAt, now), SignInAddressRule.Wait(a.addrAt, now))
}

// refused is RATE_LIMIT_EXCEEDED while the attempt's address is past
// SignInPairRule's or SignInAddressRule's failures, remembered in r until
// each lifts; nil when it is not.
func (a signInAttempt) refused(r *signInRefusals, now time.Time) error {
	wait := a.refusedFor(now)
	if wait <= 0 {
		return nil
	}
	r.remember(now, a.pair, now.Add(SignInPairRule.Wait(a.pairAt, now)), failuresRefused)
	r.remember(now, a.addr, now.Add(SignInAddressRule.Wait(a.addrAt, now)), failuresRefused)
	return failuresRefused(wait)
}

// delay is how long an address waits for its turn at the attempt's
// e-mail: zero while the e-mail is not slowed.
func (a signInAttempt) delay(now time.Time) time.Duration {
	return SignInEmailBackoff.Delay(a.emailAt, now)
}

// count counts the attempt against its address's SignInAttemptRule, or
// refuses it with RATE_LIMIT_EXCEEDED when the address has none left,
// remembered in r until it has one again.
func (a signInAttempt) count(ctx context.Context, t SignInThrottle, r *signInRefusals, now time.Time) error {
	if wait := SignInAttemptRule.Wait(a.triesAt, now); wait > 0 {
		r.remember(now, a.tries, now.Add(wait), attemptsSpent)
		return attemptsSpent(wait)
	}
	if err := t.Fail(ctx, SignInAttemptRule, now, a.tries); err != nil {
		return fmt.Errorf("sign-in throttle: %w", err)
	}
	return nil
}

// waitTurn applies SignInEmailBackoff: nil when the e-mail is not slowed
// or the address's turn has come; otherwise RATE_LIMIT_EXCEEDED with
// the wait, giving the address a turn when it holds none. A turn is a
// key whose failures are forgiven SignInTurnKept after it comes, so the
// store forgets it by itself.
func (a signInAttempt) waitTurn(ctx context.Context, t SignInThrottle, now time.Time) error {
	d := a.delay(now)
	if d <= 0 {
		return nil
	}
	comes := a.turnAt.Add(-SignInTurnKept)
	if !a.turnAt.After(now) { // no turn held, or it lapsed
		if err := t.Fail(ctx, ThrottleRule{Burst: 1, Every: d + SignInTurnKept}, now, a.turn); err != nil {
			return fmt.Errorf("sign-in throttle: %w", err)
		}
		comes = now.Add(d)
	}
	if !comes.After(now) {
		return nil
	}
	wait := comes.Sub(now)
	return &Error{Kind: KindRateLimited, Code: CodeSignInSlowed, RetryAfter: wait,
		Message: fmt.Sprintf("sign-ins for this e-mail address failed often lately, so each address waits its turn: try again in %s (after %s)",
			RoundUpSecond(wait), comes.UTC().Add(time.Second-1).Truncate(time.Second).Format("15:04:05 UTC"))}
}

// RoundUpSecond is d in whole seconds, rounded up: the one rule for the
// wait a Retry-After header and a message say.
func RoundUpSecond(d time.Duration) time.Duration {
	return (d + time.Second - 1).Truncate(time.Second)
}

// fail counts the attempt's failure against its keys, and says which
// limits this failure began: refusing the address (throttled), slowing
// the e-mail (slowed).
func (a signInAttempt) fail(ctx context.Context, t SignInThrottle, now time.Time) (throttled, slowed bool, err error) {
	for _, f := range []struct {
		rule ThrottleRule
		key  string
	}{{SignInPairRule, a.pair}, {SignInAddressRule, a.addr}, {SignInEmailBackoff.Count, a.email}} {
		if err := t.Fail(ctx, f.rule, now, f.key); err != nil {
			return false, false, err
		}
	}
	after := signInAttempt{pairAt: SignInPairRule.After(a.pairAt, now), addrAt: SignInAddressRule.After(a.addrAt, now),
		emailAt: SignInEmailBackoff.Count.After(a.emailAt, now)}
	return after.refusedFor(now) > 0, a.delay(now) == 0 && after.delay(now) > 0, nil
}

// refuse counts a failed sign-in against the throttle's keys and, when
// the e-mail is a member's, writes the refusal to the audit log, with
// member.sign_in_throttled when this failure made the throttle refuse
// its address, and member.sign_in_slowed when it made the e-mail's
// attempts wait: one entry as each begins, not one per refused attempt,
// so strangers cannot fill the log. It returns INVALID_CREDENTIALS, or
// the error of the throttle or the log.
func (s *MemberService) refuse(ctx context.Context, now time.Time, attempt signInAttempt, m *Member, mode Mode) error {
	throttled, slowed, err := attempt.fail(ctx, s.throttle, now)
	if err != nil {
		return fmt.Errorf("sign-in throttle: %w", err)
	}
	if m != nil {
		actions := []string{AuditSignInRefused}
		if throttled {
			actions = append(actions, AuditSignInThrottle)
		}
		if slowed {
			actions = append(actions, AuditSignInSlowed)
		}
		err := s.customers.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
			for _, action := range actions {
				e := NewAudit(ctx, Scope{CustomerID: m.CustomerID, Mode: mode}, "member:"+m.Email, action, m.ID, now)
				if err := tx.Audit().AppendAudit(ctx, e); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("audit refused sign-in: %w", err)
		}
	}
	return Errorf(KindUnauthorized, CodeInvalidCredentials, "the e-mail address or password is wrong")
}

// keyedLocks are mutexes by key, each kept only while it is held or
// waited for.
type keyedLocks struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	mu    sync.Mutex
	users int
}

// lock holds key's mutex until unlock is called.
func (k *keyedLocks) lock(key string) (unlock func()) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyedLock{}
	}
	l, ok := k.locks[key]
	if !ok {
		l = &keyedLock{}
		k.locks[key] = l
	}
	l.users++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
}
