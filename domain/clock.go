package domain

import "time"

// Clock is the source of the current time. Services take one so tests can
// move time instead of sleeping.
type Clock interface {
	Now() time.Time
}

// SystemClock reads the machine's clock, in UTC.
type SystemClock struct{}

// Now returns the current UTC time truncated to microseconds, the
// precision every timestamp of the API carries.
func (SystemClock) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
