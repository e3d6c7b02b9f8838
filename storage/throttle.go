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

// ForgivenAt is when each key's failures are all forgiven: the zero time
// for a key with no row.
func (t *SignInThrottle) ForgivenAt(ctx context.Context, keys ...string) ([]time.Time, error) {
	out := make([]time.Time, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	query, args, err := sqlx.In(`SELECT throttle_key, free_at FROM sign_in_throttle WHERE throttle_key IN (?)`, keys)
	if err != nil {
		return nil, err
	}
	var rows []struct {
		Key    string `db:"throttle_key"`
		FreeAt int64  `db:"free_at"`
	}
	if err := t.db.SelectContext(ctx, &rows, t.db.Rebind(query), args...); err != nil {
		return nil, translate(err)
	}
	at := make(map[string]time.Time, len(rows))
	for _, r := range rows {
		at[r.Key] = time.UnixMicro(r.FreeAt)
	}
	for i, k := range keys {
		out[i] = at[k]
	}
	return out, nil
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
// sign-in adds at most five keys (its attempt, turn and failures), so
// pruning a hundred with each keeps the table to the keys that failed
// lately. On PostgreSQL rows another
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
