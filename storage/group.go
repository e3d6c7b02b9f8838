package storage

import (
	"context"
	"sync"
	"time"
)

// runTimeout bounds one grouped run.
const runTimeout = 15 * time.Second

// grouped runs many callers' requests in few statements ("group commit"):
// a caller that finds no run under way starts one with every request
// queued so far, and requests queued meanwhile go in the next run
// together. Alone, a request runs at once; under load, concurrent ones
// share a statement. Each caller waits for its own result.
type grouped[Req, Res any] struct {
	// run answers a batch: one result per request, in order, or one
	// error for all of them.
	run func(ctx context.Context, reqs []Req) ([]Res, error)
	max int // requests per run
	// life is what runs belong to (the database handle's lifetime): a
	// batch serves many callers, so no one caller's context may end it,
	// but closing the database does, and each run has runTimeout.
	life context.Context

	mu      sync.Mutex
	pending []groupCall[Req, Res]
	running bool
}

type groupCall[Req, Res any] struct {
	req  Req
	done chan groupResult[Res]
}

type groupResult[Res any] struct {
	res Res
	err error
}

// do queues req and waits for its result (or for ctx to end).
func (g *grouped[Req, Res]) do(ctx context.Context, req Req) (Res, error) {
	c := groupCall[Req, Res]{req: req, done: make(chan groupResult[Res], 1)}
	g.mu.Lock()
	g.pending = append(g.pending, c)
	start := !g.running
	g.running = true
	g.mu.Unlock()
	if start {
		go g.drain()
	}
	select {
	case r := <-c.done:
		return r.res, r.err
	case <-ctx.Done():
		var zero Res
		return zero, ctx.Err()
	}
}

// drain runs queued requests until none are left.
func (g *grouped[Req, Res]) drain() {
	for {
		g.mu.Lock()
		n := min(len(g.pending), g.max)
		if n == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		batch := g.pending[:n:n]
		g.pending = g.pending[n:]
		g.mu.Unlock()
		reqs := make([]Req, n)
		for i, c := range batch {
			reqs[i] = c.req
		}
		life := g.life
		if life == nil {
			life = context.Background()
		}
		ctx, cancel := context.WithTimeout(life, runTimeout)
		res, err := g.run(ctx, reqs)
		cancel()
		for i, c := range batch {
			var r groupResult[Res]
			if err != nil {
				r.err = err
			} else {
				r.res = res[i]
			}
			c.done <- r
		}
	}
}
