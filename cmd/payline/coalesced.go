package main

import (
	"sync"
	"time"
)

// reindexEvery is how often at most the search index is reloaded for
// directory changes announced by other processes (or this one).
const reindexEvery = time.Second

// coalesced runs a piece of work when signalled, at most once every
// interval: signals that come while it runs or rests collapse into one
// more run after. Close stops it, waiting for a run under way.
type coalesced struct {
	signal chan struct{}
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

func newCoalesced(work func(), every time.Duration) *coalesced {
	c := &coalesced{signal: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for {
			select {
			case <-c.stop:
				return
			case <-c.signal:
			}
			work()
			rest := time.NewTimer(every)
			select {
			case <-c.stop:
				rest.Stop()
				return
			case <-rest.C:
			}
		}
	}()
	return c
}

// Signal asks for a run; it never blocks.
func (c *coalesced) Signal() {
	select {
	case c.signal <- struct{}{}:
	default:
	}
}

// Close stops the runs; a nil coalesced is closed.
func (c *coalesced) Close() {
	if c == nil {
		return
	}
	c.once.Do(func() { close(c.stop) })
	<-c.done
}
