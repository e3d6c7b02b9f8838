package domain

import (
	"fmt"
	"sync"
	"time"
)

// maxRememberedRefusals bounds the refusals one instance remembers: past
// it, expired ones are swept, and if none has expired a new refusal is
// not remembered (the shared throttle still refuses it, a store read
// later).
const maxRememberedRefusals = 10_000

// signInRefusals remembers, on this instance, the sign-in throttle's
// refusals of an address (SignInAttemptRule's attempts spent,
// SignInAddressRule's failures) and of an address at one e-mail
// (SignInPairRule), each until the moment the shared throttle said it
// lifts. An address flooding sign-ins is then refused from memory,
// before any read of the throttle's store, lock or password hash. It
// never refuses what the store would let through: nothing forgives a
// throttle key early, and other instances only add to it, so the store's
// refusal holds at least until that moment.
type signInRefusals struct {
	mu    sync.Mutex
	until map[string]rememberedRefusal
}

type rememberedRefusal struct {
	until  time.Time
	answer func(wait time.Duration) *Error
}

// refused answers the first of keys refused at now from memory, or nil.
func (r *signInRefusals) refused(now time.Time, keys ...string) *Error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range keys {
		if e, ok := r.until[k]; ok {
			if wait := e.until.Sub(now); wait > 0 {
				return e.answer(wait)
			}
			delete(r.until, k)
		}
	}
	return nil
}

// remember keeps the throttle's refusal of key until until, answered by
// answer with the wait left.
func (r *signInRefusals) remember(now time.Time, key string, until time.Time, answer func(time.Duration) *Error) {
	if !until.After(now) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.until == nil {
		r.until = map[string]rememberedRefusal{}
	}
	if _, ok := r.until[key]; !ok && len(r.until) >= maxRememberedRefusals {
		for k, e := range r.until {
			if !e.until.After(now) {
				delete(r.until, k)
			}
		}
		if len(r.until) >= maxRememberedRefusals {
			return
		}
	}
	r.until[key] = rememberedRefusal{until: until, answer: answer}
}

// attemptsSpent is RATE_LIMIT_EXCEEDED for an address past
// SignInAttemptRule, for wait.
func attemptsSpent(wait time.Duration) *Error {
	return &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: wait,
		Message: fmt.Sprintf("more than %d sign-ins from this address lately; try again in %s", SignInAttemptRule.Burst, RoundUpSecond(wait))}
}

// failuresRefused is RATE_LIMIT_EXCEEDED for an address past
// SignInPairRule or SignInAddressRule, for wait.
func failuresRefused(wait time.Duration) *Error {
	return &Error{Kind: KindRateLimited, Code: CodeRateLimitExceeded, RetryAfter: wait,
		Message: fmt.Sprintf("too many failed sign-ins from this address; try again in %s", RoundUpSecond(wait))}
}
