package main

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestCoalesced: a hundred signals while the work runs make one more
// run, not a hundred; a signal after that is run too.
func TestCoalesced(t *testing.T) {
	var runs atomic.Int32
	started, release := make(chan struct{}, 10), make(chan struct{})
	c := newCoalesced(func() {
		runs.Add(1)
		started <- struct{}{}
		<-release
	}, time.Millisecond)
	defer c.Close()
	c.Signal()
	<-started
	for range 100 {
		c.Signal()
	}
	release <- struct{}{}
	<-started // the one run the hundred collapsed into
	release <- struct{}{}
	c.Signal()
	<-started
	close(release)
	if n := runs.Load(); n != 3 {
		t.Errorf("%d runs, want 3", n)
	}
}
