package domain

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Reading a document runs programs (pdftoppm, tesseract) that take a core
// and hundreds of megabytes each, and an upload holds up to 101 MiB of
// files in memory while it waits. DocumentAdmission decides which uploads
// and previews may do that now: an instance-wide number of slots sized
// to the cores, of which one tenant may hold only a share and one link
// token only one, and a queue in front of them with a deadline, so that
// no tenant's flood takes every slot and nobody waits without end.
//
// An upload is admitted before its body is read off the wire (Link's
// transport asks first: LinkService.AdmitUploads), so a request that is
// refused or still waiting holds a connection, not its files.

// DocumentWork is who asks to read documents: the tenant and the link
// token the upload came with.
type DocumentWork struct {
	Tenant Scope
	Token  string
}

// DocumentAdmissionConfig sizes a DocumentAdmission; zero fields take
// their defaults.
type DocumentAdmissionConfig struct {
	// Slots is how many uploads are read at once on this instance
	// (default: the number of cores, one program a core).
	Slots int
	// TenantShare is how many of the slots one tenant may hold at once
	// (default: half, at least one), so another tenant always finds one.
	TenantShare int
	// TokenQueued is how many of one link token's requests may be
	// admitted or waiting at once (default 2: a preview and the upload
	// that follows it); a token reads one at a time whatever this says.
	TokenQueued int
	// Queue is how many requests may wait for a slot, instance-wide
	// (default four a slot); one tenant may fill half of it.
	Queue int
	// Wait is how long a request waits for a slot before it is refused
	// with DOCUMENTS_BUSY (default 20 s).
	Wait time.Duration
}

// DefaultDocumentWait is how long an upload waits for a slot by default.
const DefaultDocumentWait = 20 * time.Second

func (c DocumentAdmissionConfig) withDefaults() DocumentAdmissionConfig {
	if c.Slots <= 0 {
		c.Slots = runtime.NumCPU()
	}
	if c.TenantShare <= 0 {
		c.TenantShare = max(1, c.Slots/2)
	}
	if c.TokenQueued <= 0 {
		c.TokenQueued = 2
	}
	if c.Queue <= 0 {
		c.Queue = 4 * c.Slots
	}
	if c.Wait <= 0 {
		c.Wait = DefaultDocumentWait
	}
	return c
}

// How an admission ended, for DocumentObserver.
const (
	DocumentAdmitted = "admitted" // a slot at once, or after waiting
	DocumentQueued   = "queued"   // no slot free: the request waits
	DocumentRefused  = "refused"
)

// Why an admission was refused, for DocumentObserver.
const (
	RefusedToken     = "token"      // the link token already has TokenQueued requests
	RefusedTenant    = "tenant"     // the tenant already fills half the queue
	RefusedQueueFull = "queue_full" // the instance's queue is full
	RefusedDeadline  = "deadline"   // no slot within Wait
	RefusedLeft      = "left"       // the caller left while waiting
)

// DocumentObserver is told what document admission and Link's previews
// do, for metrics.
type DocumentObserver interface {
	// DocumentWork: an upload or preview was admitted (waited is how long
	// it waited; zero when a slot was free), queued, or refused (reason:
	// one of the Refused* values).
	DocumentWork(outcome, reason string, waited time.Duration)
	// LinkPreview: a preview was asked for; limited when the token's
	// preview rate refused it.
	LinkPreview(limited bool)
}

type noDocumentObserver struct{}

func (noDocumentObserver) DocumentWork(string, string, time.Duration) {}
func (noDocumentObserver) LinkPreview(bool)                           {}

// DocumentAdmission is the instance's slots for reading documents. Make
// one with NewDocumentAdmission; it is safe for concurrent use.
type DocumentAdmission struct {
	cfg DocumentAdmissionConfig
	obs DocumentObserver

	mu      sync.Mutex
	running int
	waiting []*documentWaiter // in order of arrival
	tenants map[Scope]*documentShare
	tokens  map[string]*documentShare
}

// documentShare is what one tenant or one token holds: slots it reads
// in, and requests waiting.
type documentShare struct{ running, waiting int }

type documentWaiter struct {
	work    DocumentWork
	granted chan struct{} // closed once it holds a slot
	done    bool          // granted, or gone from the queue
}

// NewDocumentAdmission makes the slots cfg describes (its zero fields
// defaulted); obs may be nil.
func NewDocumentAdmission(cfg DocumentAdmissionConfig, obs DocumentObserver) *DocumentAdmission {
	if obs == nil {
		obs = noDocumentObserver{}
	}
	return &DocumentAdmission{cfg: cfg.withDefaults(), obs: obs, tenants: map[Scope]*documentShare{}, tokens: map[string]*documentShare{}}
}

// Config is the admission's configuration, defaults filled in.
func (a *DocumentAdmission) Config() DocumentAdmissionConfig { return a.cfg }

// Load is how many requests hold a slot and how many wait, now.
func (a *DocumentAdmission) Load() (running, waiting int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running, len(a.waiting)
}

// Admit takes a slot for w, waiting in the queue for at most the
// configured Wait; release gives it back (call it once; it is a no-op
// after an error). Errors: TOO_MANY_CONCURRENT_REQUESTS (429) when the
// token already has TokenQueued requests admitted or waiting, or the
// tenant fills half the queue; DOCUMENTS_BUSY (503) when the queue is
// full or no slot came within Wait; the context's when the caller left
// while waiting.
func (a *DocumentAdmission) Admit(ctx context.Context, w DocumentWork) (release func(), err error) {
	start := time.Now()
	a.mu.Lock()
	tenant, token := a.share(w)
	var refused string
	var refusal error
	switch {
	case token.running+token.waiting >= a.cfg.TokenQueued:
		refused, refusal = RefusedToken, &Error{Kind: KindRateLimited, Code: CodeTooManyConcurrent, RetryAfter: 5 * time.Second,
			Message: fmt.Sprintf("this link token already has %d uploads or previews being read or waiting; wait for them to finish", a.cfg.TokenQueued)}
	case a.eligible(tenant, token):
		a.grant(tenant, token)
		a.mu.Unlock()
		a.obs.DocumentWork(DocumentAdmitted, "", 0)
		return a.releaser(w), nil
	case len(a.waiting) >= a.cfg.Queue:
		refused, refusal = RefusedQueueFull, a.busy()
	case tenant.waiting >= max(1, a.cfg.Queue/2):
		refused, refusal = RefusedTenant, &Error{Kind: KindRateLimited, Code: CodeTooManyConcurrent, RetryAfter: 10 * time.Second,
			Message: fmt.Sprintf("this customer already has %d uploads or previews waiting to be read on this server; retry after they finish", tenant.waiting)}
	}
	if refusal != nil {
		a.forget(w, tenant, token) // a share made for this request alone holds nothing
		a.mu.Unlock()
		return a.refuse(refused, 0, refusal)
	}
	wt := &documentWaiter{work: w, granted: make(chan struct{})}
	a.waiting = append(a.waiting, wt)
	tenant.waiting++
	token.waiting++
	a.mu.Unlock()
	a.obs.DocumentWork(DocumentQueued, "", 0)

	timer := time.NewTimer(a.cfg.Wait)
	defer timer.Stop()
	select {
	case <-wt.granted:
		a.obs.DocumentWork(DocumentAdmitted, "", time.Since(start))
		return a.releaser(w), nil
	case <-timer.C:
		if a.leaveQueue(wt) { // granted as the deadline passed
			a.obs.DocumentWork(DocumentAdmitted, "", time.Since(start))
			return a.releaser(w), nil
		}
		return a.refuse(RefusedDeadline, time.Since(start), a.busy())
	case <-ctx.Done():
		if a.leaveQueue(wt) {
			a.releaser(w)()
		}
		return a.refuse(RefusedLeft, time.Since(start), ctx.Err())
	}
}

// busy is the refusal of an instance overloaded with documents.
func (a *DocumentAdmission) busy() error {
	return &Error{Kind: KindUnavailable, Code: CodeDocumentsBusy, RetryAfter: 30 * time.Second,
		Message: fmt.Sprintf("this server is reading as many documents as it can (%d at once, %d waiting); retry in 30 seconds", a.cfg.Slots, a.cfg.Queue)}
}

func (a *DocumentAdmission) refuse(reason string, waited time.Duration, err error) (func(), error) {
	a.obs.DocumentWork(DocumentRefused, reason, waited)
	return func() {}, err
}

// share is w's tenant's and token's shares, made when new. Callers hold mu.
func (a *DocumentAdmission) share(w DocumentWork) (tenant, token *documentShare) {
	if tenant = a.tenants[w.Tenant]; tenant == nil {
		tenant = &documentShare{}
		a.tenants[w.Tenant] = tenant
	}
	if token = a.tokens[w.Token]; token == nil {
		token = &documentShare{}
		a.tokens[w.Token] = token
	}
	return tenant, token
}

// eligible says whether work of this tenant and token may take a slot
// now. Callers hold mu.
func (a *DocumentAdmission) eligible(tenant, token *documentShare) bool {
	return a.running < a.cfg.Slots && tenant.running < a.cfg.TenantShare && token.running == 0
}

func (a *DocumentAdmission) grant(tenant, token *documentShare) {
	a.running++
	tenant.running++
	token.running++
}

// leaveQueue takes a waiter that gave up out of the queue; it reports
// true when the waiter had been granted a slot meanwhile (the caller then
// holds it).
func (a *DocumentAdmission) leaveQueue(wt *documentWaiter) (granted bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if wt.done {
		return true
	}
	wt.done = true
	for i, o := range a.waiting {
		if o == wt {
			a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
			break
		}
	}
	tenant, token := a.share(wt.work)
	tenant.waiting--
	token.waiting--
	a.forget(wt.work, tenant, token)
	return false
}

// releaser gives w's slot back, once, and hands free slots to the
// waiters that may take them, in order of arrival.
func (a *DocumentAdmission) releaser(w DocumentWork) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			a.mu.Lock()
			defer a.mu.Unlock()
			tenant, token := a.share(w)
			a.running--
			tenant.running--
			token.running--
			a.forget(w, tenant, token)
			a.dispatch()
		})
	}
}

// dispatch grants free slots to waiters in order of arrival, passing over
// those whose tenant or token holds its share. Callers hold mu.
func (a *DocumentAdmission) dispatch() {
	for i := 0; i < len(a.waiting) && a.running < a.cfg.Slots; {
		wt := a.waiting[i]
		tenant, token := a.share(wt.work)
		if !a.eligible(tenant, token) {
			i++
			continue
		}
		a.waiting = append(a.waiting[:i], a.waiting[i+1:]...)
		tenant.waiting--
		token.waiting--
		a.grant(tenant, token)
		wt.done = true
		close(wt.granted)
	}
}

// forget drops shares that hold nothing, so the maps hold only the
// tenants and tokens with work in hand. Callers hold mu.
func (a *DocumentAdmission) forget(w DocumentWork, tenant, token *documentShare) {
	if *tenant == (documentShare{}) {
		delete(a.tenants, w.Tenant)
	}
	if *token == (documentShare{}) {
		delete(a.tokens, w.Token)
	}
}
