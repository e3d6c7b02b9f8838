package rest

import (
	"io"
	"net/http"
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

	// A request whose body has not finished arriving holds the one slot.
	body, writer := io.Pipe()
	req, _ := http.NewRequest("POST", f.http.URL+"/v1/link_tokens", body)
	req.Header.Set("x-api-secret", f.secret)
	req.Header.Set("Service-Version", domain.LatestVersion)
	req.Header.Set("Content-Type", "application/json")
	done := make(chan int)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			done <- 0
			return
		}
		resp.Body.Close()
		done <- resp.StatusCode
	}()
	if _, err := writer.Write([]byte(`{"org_name": "Acme Bank", `)); err != nil { // the handler is reading it
		t.Fatal(err)
	}
	var busy result
	waitFor(t, "the instance to be busy", func() bool {
		busy = f.get("/v1/accounts")
		return busy.status == 429
	})
	if busy.errorCode() != domain.CodeServerBusy || busy.header.Get("Retry-After") != "1" {
		t.Errorf("busy: %d %s (Retry-After %q)", busy.status, busy.raw, busy.header.Get("Retry-After"))
	}
	_, _ = writer.Write([]byte(`"end_user_id": "slow", "required_jobs": ["paystubs"]}`))
	writer.Close()
	if status := <-done; status != 200 {
		t.Errorf("the slow request: %d", status)
	}
	if res := f.get("/v1/accounts"); res.status != 200 {
		t.Errorf("after the slot freed: %d %s", res.status, res.raw)
	}
}
