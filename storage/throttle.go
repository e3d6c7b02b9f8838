package storage

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// SignInThrottle is domain.SignInThrottle on the database, for servers
// that share no Redis: every instance on the database counts the same
// failures. Each key's row holds the moment its failures are all
// forgiven, in microseconds; rows past it are deleted as failures come.
type SignInThrottle struct{ db *DB }

// NewSignInThrottle returns the sign-in throttle of db.
func NewSignInThrottle(db *DB) *SignInThrottle { return &SignInThrottle{db: db} }

// Wait is how long until every key may fail again.
func (t *SignInThrottle) Wait(ctx context.Context, rule domain.ThrottleRule, now time.Time, keys ...string) (time.Duration, error) {
	if len(keys) == 0 {
		return 0, nil
	}
	query, args, err := sqlx.In(`SELECT COALESCE(MAX(free_at), 0) FROM sign_in_throttle WHERE throttle_key IN (?)`, keys)
	if err != nil {
		return 0, err
	}
	var freeAt int64
	if err := t.db.GetContext(ctx, &freeAt, t.db.Rebind(query), args...); err != nil {
		return 0, translate(err)
	}
	return rule.Wait(time.UnixMicro(freeAt), now), nil
}

// failSQL counts one failure of a key: domain.ThrottleRule.After in one
// statement, atomic however many instances fail the same key at once.
// Its arguments are the key, now+every, every, every, now+window,
// now+window and every, in microseconds.
const failSQL = `INSERT INTO sign_in_throttle (throttle_key, free_at) VALUES (?, ?)
	ON CONFLICT (throttle_key) DO UPDATE SET free_at = CASE
		WHEN sign_in_throttle.free_at < excluded.free_at - ? THEN excluded.free_at
		WHEN sign_in_throttle.free_at + ? > ? THEN CAST(? AS BIGINT)
		ELSE sign_in_throttle.free_at + ? END`

// pruneSQL forgets up to 100 keys whose failures are all forgiven: a
// failure adds at most two keys, so pruning a hundred with each keeps the
// table to the keys that failed lately. On PostgreSQL rows another
// instance is pruning or counting are skipped, never waited for, so two
// prunes cannot deadlock.
func pruneSQL(q sqlx.ExtContext) string {
	return `DELETE FROM sign_in_throttle WHERE throttle_key IN (
		SELECT throttle_key FROM sign_in_throttle WHERE free_at <= ? LIMIT 100` + rowLock(q, "FOR UPDATE SKIP LOCKED") + `)`
}

// Fail counts one failure against each key, and forgets keys whose
// failures are all forgiven by now. Each key's count is one atomic
// statement; no transaction spans them, so no instance waits on another's.
func (t *SignInThrottle) Fail(ctx context.Context, rule domain.ThrottleRule, now time.Time, keys ...string) error {
	at, every, limit := now.UnixMicro(), rule.Every.Microseconds(), now.Add(rule.Window()).UnixMicro()
	if _, err := t.db.ExecContext(ctx, t.db.Rebind(pruneSQL(t.db)), at); err != nil {
		return translate(err)
	}
	for _, k := range keys {
		if _, err := t.db.ExecContext(ctx, t.db.Rebind(failSQL), k, at+every, every, every, limit, limit, every); err != nil {
			return translate(err)
		}
	}
	return nil
}
