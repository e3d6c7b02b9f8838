package rest

import (
	"context"
	"log/slog"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"payline/domain"
)

// NewPreviewRate is Link's preview rate per link token
// (domain.PreviewRate) on the API rate limit's machinery: a bucket per
// token in this process, or in Redis when client is set, so that every
// instance sharing it counts a token's previews together. When Redis
// cannot answer, previews are let through and the failure is logged, as
// the API's rate limit does.
func NewPreviewRate(client *redis.Client, log *slog.Logger) domain.KeyRate {
	rule := domain.PreviewRate
	var l limiter = newRuleLimiter(rule, nil)
	if client != nil {
		l = &redisLimiter{limiter: redis_rate.NewLimiter(client), log: log, every: rate.Every(rule.Every),
			limit: redis_rate.Limit{Rate: 1, Period: rule.Every, Burst: max(1, rule.Burst)}}
	}
	return func(ctx context.Context, key string) (time.Duration, bool) { return l.allow(ctx, key) }
}
