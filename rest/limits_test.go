package rest

import (
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestInstanceLimits: headers over the API's limit and requests beyond
// the instance's concurrency cap get the spec's error body (net/http's own
// answers are plain text), and the instance serves again once a slot
// frees.
func TestInstanceLimits(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	f := newFixture(t, db, func(s *fixtureSetup) { s.rest.MaxConcurrent = 1 })

	res := f.get("/v1/accounts", "X-Padding", strings.Repeat("p", MaxHeaderBytes))
	if res.status != 400 || res.errorCode() != domain.CodeHeadersTooLarge || !strings.Contains(res.errorMessage(), "64 KiB") {
		t.Errorf("oversized headers: %d %s", res.status, res.raw)
	}

	// The one slot is taken (as by a request still being served): the next
	// request is refused at once, and served again once the slot frees.
	f.server.slots <- struct{}{}
	busy := f.get("/v1/accounts")
	<-f.server.slots
	if busy.status != 429 || busy.errorCode() != domain.CodeServerBusy || busy.header.Get("Retry-After") != "1" {
		t.Errorf("busy: %d %s (Retry-After %q)", busy.status, busy.raw, busy.header.Get("Retry-After"))
	}
	if res := f.get("/v1/accounts"); res.status != 200 {
		t.Errorf("after the slot freed: %d %s", res.status, res.raw)
	}
	// A request releases its slot when it ends, however it ends.
	for range 3 {
		f.get("/v1/accounts/not-a-uuid")
	}
	if n := len(f.server.slots); n != 0 {
		t.Errorf("%d slots still held after the requests ended", n)
	}
}
