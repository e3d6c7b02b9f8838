package storage

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"payline/domain"
)

// RedisSignInThrottle is domain.SignInThrottle in Redis, for servers that
// share one (--redis-url), as the API's rate limit does: each key is a
// Redis string holding the moment its failures are all forgiven, in
// microseconds, and expiring then, so Redis forgets it by itself.
type RedisSignInThrottle struct{ client *redis.Client }

// NewRedisSignInThrottle returns the sign-in throttle kept in client's
// Redis.
func NewRedisSignInThrottle(client *redis.Client) *RedisSignInThrottle {
	return &RedisSignInThrottle{client: client}
}

// redisThrottlePrefix namespaces the throttle's keys in a shared Redis.
const redisThrottlePrefix = "payline:sign_in:"

// failScript is domain.ThrottleRule.After for each of KEYS, atomic in
// Redis. ARGV: now, every and the window, in microseconds (exact in Lua's
// doubles until the year 2255).
var failScript = redis.NewScript(`
local now, every, window = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
for _, key in ipairs(KEYS) do
  local free = tonumber(redis.call('GET', key)) or now
  if free < now then free = now end
  free = math.min(free + every, now + window)
  redis.call('SET', key, string.format('%d', free), 'PX', math.max(1, math.ceil((free - now) / 1000)))
end
return 0
`)

func (t *RedisSignInThrottle) names(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = redisThrottlePrefix + k
	}
	return out
}

// ForgivenAt is when each key's failures are all forgiven: the zero time
// for a key Redis does not hold.
func (t *RedisSignInThrottle) ForgivenAt(ctx context.Context, keys ...string) ([]time.Time, error) {
	out := make([]time.Time, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	values, err := t.client.MGet(ctx, t.names(keys)...).Result()
	if err != nil {
		return nil, fmt.Errorf("read the sign-in throttle from Redis: %w", err)
	}
	for i, v := range values {
		s, ok := v.(string)
		if !ok { // no such key: nothing to forgive
			continue
		}
		freeAt, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("sign-in throttle in Redis holds %q: %w", s, err)
		}
		out[i] = time.UnixMicro(freeAt)
	}
	return out, nil
}

// Fail counts one failure against each key.
func (t *RedisSignInThrottle) Fail(ctx context.Context, rule domain.ThrottleRule, now time.Time, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	err := failScript.Run(ctx, t.client, t.names(keys), now.UnixMicro(), rule.Every.Microseconds(), rule.Window().Microseconds()).Err()
	if err != nil {
		return fmt.Errorf("count a failed sign-in in Redis: %w", err)
	}
	return nil
}
