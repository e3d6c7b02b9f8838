package domain

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// countingDocumentObserver records what a DocumentAdmission reports.
type countingDocumentObserver struct {
	mu       sync.Mutex
	outcomes map[string]int // outcome, or "refused/"+reason
	previews map[bool]int
}

func (o *countingDocumentObserver) DocumentWork(outcome, reason string, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.outcomes == nil {
		o.outcomes = map[string]int{}
	}
	if reason != "" {
		outcome += "/" + reason
	}
	o.outcomes[outcome]++
}

func (o *countingDocumentObserver) LinkPreview(limited bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.previews == nil {
		o.previews = map[bool]int{}
	}
	o.previews[limited]++
}

func (o *countingDocumentObserver) count(key string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.outcomes[key]
}

var (
	tenantA = Scope{CustomerID: "a", Mode: ModeSandbox}
	tenantB = Scope{CustomerID: "b", Mode: ModeSandbox}
)

// admitLater admits w in a goroutine; its result arrives on the channel.
func admitLater(a *DocumentAdmission, ctx context.Context, w DocumentWork) <-chan admitResult {
	ch := make(chan admitResult, 1)
	go func() {
		release, err := a.Admit(ctx, w)
		ch <- admitResult{release, err}
	}()
	return ch
}

type admitResult struct {
	release func()
	err     error
}

// waitQueued waits until n requests wait in a's queue.
func waitQueued(t *testing.T, a *DocumentAdmission, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, waiting := a.Load(); waiting == n {
			return
		}
		if time.Now().After(deadline) {
			_, waiting := a.Load()
			t.Fatalf("%d waiting, want %d", waiting, n)
		}
		time.Sleep(time.Millisecond) // polling the queue's length; nothing signals it
	}
}

func mustAdmit(t *testing.T, a *DocumentAdmission, w DocumentWork) func() {
	t.Helper()
	release, err := a.Admit(context.Background(), w)
	if err != nil {
		t.Fatalf("admit %+v: %v", w, err)
	}
	return release
}

// TestDocumentAdmissionShares: one tenant holds at most its share of the
// slots, so another tenant is admitted at once while the first tenant's
// next request waits; a freed slot goes to the waiter whose tenant may
// take it.
func TestDocumentAdmissionShares(t *testing.T) {
	obs := &countingDocumentObserver{}
	a := NewDocumentAdmission(DocumentAdmissionConfig{Slots: 2, Wait: time.Minute}, obs)
	if got := a.Config().TenantShare; got != 1 {
		t.Fatalf("tenant share of 2 slots = %d, want 1", got)
	}
	releaseA1 := mustAdmit(t, a, DocumentWork{Tenant: tenantA, Token: "a1"})
	a2 := admitLater(a, context.Background(), DocumentWork{Tenant: tenantA, Token: "a2"})
	waitQueued(t, a, 1)
	releaseB := mustAdmit(t, a, DocumentWork{Tenant: tenantB, Token: "b1"}) // the free slot, past tenant A's waiter
	releaseA1()
	r := <-a2
	if r.err != nil {
		t.Fatalf("tenant A's second request after its first finished: %v", r.err)
	}
	r.release()
	releaseB()
	if running, waiting := a.Load(); running != 0 || waiting != 0 {
		t.Fatalf("after every release: %d running, %d waiting", running, waiting)
	}
	if len(a.tenants) != 0 || len(a.tokens) != 0 {
		t.Fatalf("shares kept after every release: %v %v", a.tenants, a.tokens)
	}
	if obs.count(DocumentAdmitted) != 3 || obs.count(DocumentQueued) != 1 {
		t.Fatalf("observed %v", obs.outcomes)
	}
}

// TestDocumentAdmissionRefusals: a token with a request read and one
// waiting is refused a third (429); a tenant filling half the queue is
// refused more (429); a full queue refuses at once and a request that
// waits past the deadline is refused (503 DOCUMENTS_BUSY, with
// Retry-After); a caller that leaves the queue leaves nothing behind.
func TestDocumentAdmissionRefusals(t *testing.T) {
	code := func(err error) string { return AsError(err).Code }
	t.Run("token", func(t *testing.T) {
		a := NewDocumentAdmission(DocumentAdmissionConfig{Slots: 4, Wait: time.Minute}, nil)
		release := mustAdmit(t, a, DocumentWork{Tenant: tenantA, Token: "t"})
		defer release()
		second := admitLater(a, context.Background(), DocumentWork{Tenant: tenantA, Token: "t"}) // one at a time per token
		waitQueued(t, a, 1)
		_, err := a.Admit(context.Background(), DocumentWork{Tenant: tenantA, Token: "t"})
		if e := AsError(err); e.Code != CodeTooManyConcurrent || e.Kind != KindRateLimited || e.RetryAfter <= 0 {
			t.Fatalf("third request of one token: %v", err)
		}
		release()
		r := <-second
		if r.err != nil {
			t.Fatal(r.err)
		}
		r.release()
	})
	t.Run("tenant queue", func(t *testing.T) {
		a := NewDocumentAdmission(DocumentAdmissionConfig{Slots: 1, Queue: 4, Wait: time.Minute}, nil)
		release := mustAdmit(t, a, DocumentWork{Tenant: tenantB, Token: "b"})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var waiters []<-chan admitResult
		for i, tok := range []string{"a1", "a2"} {
			waiters = append(waiters, admitLater(a, ctx, DocumentWork{Tenant: tenantA, Token: tok}))
			waitQueued(t, a, i+1)
		}
		if _, err := a.Admit(ctx, DocumentWork{Tenant: tenantA, Token: "a3"}); code(err) != CodeTooManyConcurrent {
			t.Fatalf("a tenant's third waiter in a queue of 4: %v", err)
		}
		third := admitLater(a, ctx, DocumentWork{Tenant: tenantB, Token: "b2"}) // another tenant still queues
		waitQueued(t, a, 3)
		cancel()
		for _, w := range append(waiters, third) {
			if r := <-w; !errors.Is(r.err, context.Canceled) {
				t.Fatalf("a waiter whose caller left: %v", r.err)
			}
		}
		release()
		if running, waiting := a.Load(); running != 0 || waiting != 0 {
			t.Fatalf("after the callers left: %d running, %d waiting", running, waiting)
		}
	})
	t.Run("busy", func(t *testing.T) {
		obs := &countingDocumentObserver{}
		a := NewDocumentAdmission(DocumentAdmissionConfig{Slots: 1, Queue: 1, Wait: 50 * time.Millisecond}, obs)
		release := mustAdmit(t, a, DocumentWork{Tenant: tenantA, Token: "a"})
		defer release()
		waiter := admitLater(a, context.Background(), DocumentWork{Tenant: tenantB, Token: "b1"})
		waitQueued(t, a, 1)
		_, err := a.Admit(context.Background(), DocumentWork{Tenant: tenantB, Token: "b2"})
		if e := AsError(err); e.Code != CodeDocumentsBusy || e.Kind != KindUnavailable || e.RetryAfter <= 0 {
			t.Fatalf("a full queue: %v", err)
		}
		r := <-waiter // past its deadline, the slot still held
		if e := AsError(r.err); e.Code != CodeDocumentsBusy {
			t.Fatalf("a waiter past the deadline: %v", r.err)
		}
		if obs.count(DocumentRefused+"/"+RefusedQueueFull) != 1 || obs.count(DocumentRefused+"/"+RefusedDeadline) != 1 {
			t.Fatalf("observed %v", obs.outcomes)
		}
	})
}

// TestDocumentAdmissionRace admits and releases from many goroutines at
// once (run with -race): every request ends admitted or refused, and the
// admission ends empty.
func TestDocumentAdmissionRace(t *testing.T) {
	a := NewDocumentAdmission(DocumentAdmissionConfig{Slots: 3, Queue: 8, Wait: time.Second}, nil)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := DocumentWork{Tenant: []Scope{tenantA, tenantB}[i%2], Token: string(rune('a' + i%5))}
			release, err := a.Admit(context.Background(), w)
			if err == nil {
				release()
			}
		}()
	}
	wg.Wait()
	if running, waiting := a.Load(); running != 0 || waiting != 0 || len(a.tenants) != 0 || len(a.tokens) != 0 {
		t.Fatalf("after every request: %d running, %d waiting, %v, %v", running, waiting, a.tenants, a.tokens)
	}
}
