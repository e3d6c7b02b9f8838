package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"payline/domain"
)

// SQLUpstreamBudgets is domain.UpstreamBudgets in the database the
// instances share: one row per upstream, its domain.BudgetBucket read
// and written in one transaction with the row locked (FOR UPDATE on
// PostgreSQL; SQLite's write transactions exclude each other already).
// At an upstream's few requests a second, a transaction each is cheap.
type SQLUpstreamBudgets struct{ db *DB }

// NewSQLUpstreamBudgets returns the budgets kept in db.
func NewSQLUpstreamBudgets(db *DB) *SQLUpstreamBudgets { return &SQLUpstreamBudgets{db: db} }

var _ domain.UpstreamBudgets = (*SQLUpstreamBudgets)(nil)

// Take implements domain.UpstreamBudgets.
func (s *SQLUpstreamBudgets) Take(ctx context.Context, name string, now time.Time, maxRate, burst float64) (time.Duration, error) {
	return takeSlot(ctx, s.update, name, now, maxRate, burst)
}

// Limited implements domain.UpstreamBudgets.
func (s *SQLUpstreamBudgets) Limited(ctx context.Context, name string, now, until time.Time, maxRate float64) error {
	return s.update(ctx, name, func(b domain.BudgetBucket) domain.BudgetBucket { return b.Limited(now, until, maxRate) })
}

// takeSlot is Take over either store's update: the bucket's own rule,
// its wait read out of the change.
func takeSlot(ctx context.Context, update func(context.Context, string, func(domain.BudgetBucket) domain.BudgetBucket) error,
	name string, now time.Time, maxRate, burst float64) (time.Duration, error) {
	var wait time.Duration
	err := update(ctx, name, func(b domain.BudgetBucket) domain.BudgetBucket {
		b, wait = b.Take(now, maxRate, burst)
		return b
	})
	return wait, err
}

func (s *SQLUpstreamBudgets) update(ctx context.Context, name string, change func(domain.BudgetBucket) domain.BudgetBucket) error {
	return s.db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		// The row exists before it is locked, so two first takers cannot
		// both insert.
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO upstream_budgets (name, state) VALUES (?, '{}') ON CONFLICT (name) DO NOTHING`), name); err != nil {
			return translate(err)
		}
		var raw string
		if err := tx.GetContext(ctx, &raw, tx.Rebind(`SELECT state FROM upstream_budgets WHERE name = ?`+rowLock(tx, "FOR UPDATE")), name); err != nil {
			return translate(err)
		}
		var b domain.BudgetBucket
		if err := json.Unmarshal([]byte(raw), &b); err != nil {
			return fmt.Errorf("upstream budget %q: %w", name, err)
		}
		next, err := json.Marshal(change(b))
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE upstream_budgets SET state = ? WHERE name = ?`), string(next), name)
		return translate(err)
	})
}

// RedisUpstreamBudgets is domain.UpstreamBudgets in the Redis the
// instances share (--redis-url): one key per upstream holding its
// domain.BudgetBucket as JSON, changed in an optimistic transaction
// (WATCH, then MULTI/EXEC, again when another instance changed it
// first), so the bucket's rules stay in the domain, in one place.
type RedisUpstreamBudgets struct{ client *redis.Client }

// NewRedisUpstreamBudgets returns the budgets kept in client's Redis.
func NewRedisUpstreamBudgets(client *redis.Client) *RedisUpstreamBudgets {
	return &RedisUpstreamBudgets{client: client}
}

var _ domain.UpstreamBudgets = (*RedisUpstreamBudgets)(nil)

// redisBudgetPrefix namespaces the budgets' keys in a shared Redis; a
// key idle for a day is forgotten (an upstream no longer relayed to).
const (
	redisBudgetPrefix = "payline:upstream_budget:"
	redisBudgetTTL    = 24 * time.Hour
	redisBudgetTries  = 200
)

// Take implements domain.UpstreamBudgets.
func (r *RedisUpstreamBudgets) Take(ctx context.Context, name string, now time.Time, maxRate, burst float64) (time.Duration, error) {
	return takeSlot(ctx, r.update, name, now, maxRate, burst)
}

// Limited implements domain.UpstreamBudgets.
func (r *RedisUpstreamBudgets) Limited(ctx context.Context, name string, now, until time.Time, maxRate float64) error {
	return r.update(ctx, name, func(b domain.BudgetBucket) domain.BudgetBucket { return b.Limited(now, until, maxRate) })
}

func (r *RedisUpstreamBudgets) update(ctx context.Context, name string, change func(domain.BudgetBucket) domain.BudgetBucket) error {
	key := redisBudgetPrefix + name
	for range redisBudgetTries {
		err := r.client.Watch(ctx, func(tx *redis.Tx) error {
			var b domain.BudgetBucket
			raw, err := tx.Get(ctx, key).Bytes()
			switch {
			case errors.Is(err, redis.Nil):
			case err != nil:
				return err
			default:
				if err := json.Unmarshal(raw, &b); err != nil {
					return fmt.Errorf("upstream budget %q: %w", name, err)
				}
			}
			next, err := json.Marshal(change(b))
			if err != nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.Set(ctx, key, next, redisBudgetTTL)
				return nil
			})
			return err
		}, key)
		if !errors.Is(err, redis.TxFailedErr) {
			if err != nil {
				return fmt.Errorf("upstream budget %q in Redis: %w", name, err)
			}
			return nil
		}
		// Another instance changed it first: again after a moment's
		// jitter, so those that collided do not collide again. (Each
		// instance takes its slots one at a time, so few ever collide.)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(2 * time.Millisecond)))):
		}
	}
	return fmt.Errorf("upstream budget %q in Redis: changed by others %d times in a row", name, redisBudgetTries)
}
