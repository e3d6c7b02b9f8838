package rest

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"payline/domain"
)

// redisLimiter keeps each tenant's bucket in Redis (GCRA, redis_rate), so
// every instance using the same Redis enforces one limit. When Redis
// cannot answer, requests are let through and the failure is logged:
// losing the limit for a moment is better than refusing every customer.
type redisLimiter struct {
	limiter *redis_rate.Limiter
	limit   redis_rate.Limit
	every   rate.Limit
	log     *slog.Logger
}

func newRedisLimiter(client *redis.Client, limit rate.Limit, log *slog.Logger) limiter {
	if limit == rate.Inf {
		return newKeyLimiter(limit, nil)
	}
	n := max(1, int(limit))
	return &redisLimiter{limiter: redis_rate.NewLimiter(client), limit: redis_rate.PerSecond(n), every: limit, log: log}
}

func (l *redisLimiter) allow(ctx context.Context, tenant string) (time.Duration, bool) {
	res, err := l.limiter.Allow(ctx, "payline:rate:"+tenant, l.limit)
	if err != nil {
		l.log.WarnContext(ctx, "rate limit: Redis did not answer; letting the request through", slog.Any("error", err))
		return 0, true
	}
	if res.Allowed > 0 {
		return 0, true
	}
	return res.RetryAfter, false
}

// status asks Redis for the tenant's bucket at a cost of nothing, which
// reads it without taking a request.
func (l *redisLimiter) status(ctx context.Context, tenant string) (domain.RateStatus, bool) {
	res, err := l.limiter.AllowN(ctx, "payline:rate:"+tenant, l.limit, 0)
	if err != nil {
		l.log.WarnContext(ctx, "rate limit: Redis did not answer a status read", slog.Any("error", err))
		return domain.RateStatus{}, false
	}
	return domain.RateStatus{Limit: l.limit.Burst, Remaining: res.Remaining, PerSecond: float64(l.every),
		ResetAt: time.Now().Add(res.ResetAfter)}, true
}

func (l *redisLimiter) describe() string { return strconv.FormatFloat(float64(l.every), 'f', -1, 64) }
