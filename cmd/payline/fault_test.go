package main

// The fault harness (issue 13): several `payline serve` processes on one
// PostgreSQL, a webhook receiver in this process, and faults injected
// from outside: kill -9 of an instance, a PostgreSQL stop and start, a
// receiver outage, and many Link sessions at once. Each test prints what
// it measured (lost and duplicate events, time to full delivery) and
// docs/reliability.md records a run. They run with every `go test`; they
// need PostgreSQL (and skip without it, failing under CI like every
// PostgreSQL test).

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestFaultKillOneOfThree: three instances deliver 10,000 events; one is
// killed with SIGKILL while it holds deliveries in flight and started
// again a second later. Every event arrives; the attempts the dead
// process held are queued again by the heartbeat rescue (storage's
// rescuer), so full delivery comes well inside 30 s of the restart
// instead of after River's stuck-job threshold.
func TestFaultKillOneOfThree(t *testing.T) {
	// Not parallel: its three instances' pools with another test's would
	// pass the shared PostgreSQL's max_connections.
	const events = 10_000
	url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	rcv := newFaultReceiver(t)
	var insts []*faultInstance
	for i := range 3 {
		insts = append(insts, startFaultInstance(t, fmt.Sprintf("fault-%d", i), url, "--webhook-ca-file", rcv.caFile))
	}
	tenant := newFaultTenant(t, url, "kill", insts[0].addr, rcv.url)
	pub := newPublisher(t, url)
	sc := domain.Scope{CustomerID: tenant.customerID, Mode: domain.ModeSandbox}

	published := make(chan error, 1)
	start := time.Now()
	go func() { published <- pub.publish(context.Background(), sc, 0, events, 250) }()

	// Kill instance 1 once deliveries are well under way.
	rcv.waitDistinct(t, events*7/10, 60*time.Second)
	victim := insts[1]
	victim.kill()
	killedAt := time.Now()
	var held []string // the events whose deliveries the dead process held
	if err := pub.db.SelectContext(context.Background(), &held,
		`SELECT args->>'event_id' FROM river_job WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] LIKE 'fault-1@%'`); err != nil {
		t.Fatal(err)
	}
	victim.start()
	restartedAt := time.Now()
	if err := <-published; err != nil {
		t.Fatal(err)
	}

	last, ok := rcv.waitAll(t, func() []string { return eventIDs(t, pub.db) }, 90*time.Second)
	// The deliveries the dead process held may have reached the receiver
	// before the kill; they are attempted again all the same (their
	// success was never recorded), which is what the rescue is for.
	waitUntil(t, "the cut-off deliveries to be attempted again", func() bool {
		_, again := rcv.arrivedBy(held, killedAt)
		return again || len(held) == 0
	})
	distinct, dups := rcv.counts()
	all := eventIDs(t, pub.db)
	lost := len(rcv.missing(all))
	t.Logf("kill -9 of 1 of 3 instances: %d events, %d received, %d lost, %d duplicate deliveries; the killed process held %d deliveries in flight; restarted %v after the kill",
		len(all), distinct, lost, dups, len(held), restartedAt.Sub(killedAt).Round(time.Millisecond))
	if at, ok := rcv.arrivedBy(held, killedAt); ok && len(held) > 0 {
		t.Logf("the %d cut-off deliveries arrived again %v after the kill", len(held), at.Sub(killedAt).Round(time.Millisecond))
	} else if len(held) > 0 {
		t.Errorf("some of the %d deliveries the killed process held were not attempted again", len(held))
	}
	if !ok {
		t.Fatalf("%d of %d events never arrived within 90 s of the restart", lost, len(all))
	}
	if len(all) != events {
		t.Fatalf("the outbox holds %d events, want %d", len(all), events)
	}
	full := last.Sub(restartedAt)
	t.Logf("full delivery %v after the restart (%v after the kill; run took %v)", full.Round(time.Millisecond),
		last.Sub(killedAt).Round(time.Millisecond), last.Sub(start).Round(time.Millisecond))
	if full > 30*time.Second {
		t.Errorf("full delivery took %v after the restart; the bar is 30 s", full)
	}
	if len(held) == 0 {
		t.Log("note: the killed process held no delivery at the moment of the kill")
	}
}

// TestFaultDatabaseRestart: PostgreSQL stops while two instances deliver
// events. During the outage requests fail fast with 503 and the spec's
// body and /readyz names the database; when it is back both instances
// recover by themselves, and every event, published before and after,
// arrives.
func TestFaultDatabaseRestart(t *testing.T) {
	t.Parallel() // it mostly waits (processes, deliveries, timeouts): beside the other waiting tests
	pg := startPrivatePostgres(t)
	url := pg.url()
	rcv := newFaultReceiver(t)
	var insts []*faultInstance
	for i := range 2 {
		insts = append(insts, startFaultInstance(t, fmt.Sprintf("pg-%d", i), url, "--webhook-ca-file", rcv.caFile))
	}
	tenant := newFaultTenant(t, url, "restart", insts[0].addr, rcv.url)
	pub := newPublisher(t, url)
	sc := domain.Scope{CustomerID: tenant.customerID, Mode: domain.ModeSandbox}
	if err := pub.publish(context.Background(), sc, 0, 3000, 250); err != nil {
		t.Fatal(err)
	}
	rcv.waitDistinct(t, 500, 60*time.Second)
	pg.stop()
	stoppedAt := time.Now()

	// During the outage: 503 with the spec's body, fast, from every instance.
	var slowest time.Duration
	for _, in := range insts {
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/v1/accounts", ""},
			{"GET", "/v1/webhooks", ""},
			{"POST", "/v1/link_tokens", `{"org_name": "Acme Bank", "end_user_id": "outage", "required_jobs": ["paystubs"]}`},
		} {
			status, body, header, took := apiCall(c.method, in.addr, tenant.secret, c.path, c.body)
			slowest = max(slowest, took)
			e, _ := body["error"].(map[string]any)
			if status != 503 || e == nil || e["code"] != domain.CodeServiceUnavailable || e["type"] != "SERVICE_UNAVAILABLE" ||
				e["status_code"] != float64(503) || e["message"] == "" || header.Get("Retry-After") == "" {
				t.Errorf("%s %s on %s during the outage: %d %v (Retry-After %q)", c.method, c.path, in.id, status, body, header.Get("Retry-After"))
			}
		}
		status, body, _, _ := apiCall("GET", in.addr, "", "/readyz", "")
		checks, _ := body["checks"].(map[string]any)
		if status != 503 || checks == nil || checks["database"] == "ok" || checks["database"] == nil {
			t.Errorf("/readyz on %s during the outage: %d %v", in.id, status, body)
		}
	}
	t.Logf("during the outage every request failed with 503 in at most %v", slowest.Round(time.Millisecond))
	if slowest > 5*time.Second {
		t.Errorf("a request took %v to fail during the outage; it should fail fast", slowest)
	}

	// Keep it down for 5 s: longer than a connection retry, long enough
	// for every heartbeat to fail.
	time.Sleep(time.Until(stoppedAt.Add(5 * time.Second))) // the outage's length, not a wait for a result
	pg.start()
	startedAt := time.Now()
	t.Logf("PostgreSQL was down %v", startedAt.Sub(stoppedAt).Round(time.Millisecond))
	for _, in := range insts {
		testwait.Every(50*time.Millisecond).Eventually(t, 30*time.Second, func() bool {
			status, _, _, _ := apiCall("GET", in.addr, "", "/readyz", "")
			return status == 200
		}, "%s ready after PostgreSQL came back", in.id)
	}
	t.Logf("both instances ready %v after PostgreSQL came back", time.Since(startedAt).Round(time.Millisecond))
	if status, body, _, _ := apiCall("GET", insts[1].addr, tenant.secret, "/v1/webhooks", ""); status != 200 {
		t.Errorf("after the outage: %d %v", status, body)
	}
	if err := pub.publish(context.Background(), sc, 3000, 1000, 250); err != nil {
		t.Fatal(err)
	}
	last, ok := rcv.waitAll(t, func() []string { return eventIDs(t, pub.db) }, 90*time.Second)
	all := eventIDs(t, pub.db)
	distinct, dups := rcv.counts()
	t.Logf("database restart: %d events, %d received, %d lost, %d duplicate deliveries", len(all), distinct, len(rcv.missing(all)), dups)
	if !ok || len(all) != 4000 {
		t.Fatalf("%d of %d events never arrived", len(rcv.missing(all)), len(all))
	}
	t.Logf("full delivery %v after PostgreSQL came back", last.Sub(startedAt).Round(time.Millisecond))
	if d := last.Sub(startedAt); d > 30*time.Second {
		t.Errorf("full delivery took %v after the database came back; the bar is 30 s", d)
	}
}

// TestFaultReceiverOutage: the receiver is down for two minutes of the
// real schedule, compressed 30 times (4 s, with retries based on 1 s
// instead of 30 s inside a 30 s window instead of 15 min). Events queued
// before and during the outage all arrive once it is back, inside the
// window, and no delivery is given up.
func TestFaultReceiverOutage(t *testing.T) {
	// Not parallel: its retry window is compressed thirty times (30 s), and
	// a busy partner test could make deliveries outlast it.
	const compression = 30
	retry := storage.RetrySchedule{Base: storage.DefaultRetrySchedule.Base / compression, Window: storage.DefaultRetrySchedule.Window / compression}
	outage := 2 * time.Minute / compression
	url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	rcv := newFaultReceiver(t)
	m := &Main{Config: ServeConfig{Addr: "127.0.0.1:0", DatabaseURL: url, Mode: domain.ModeSandbox, WebhookCAFile: rcv.caFile, WebhookRetry: retry},
		Stdout: io.Discard, Logger: slog.New(slog.DiscardHandler), Getenv: env("PAYLINE_MASTER_KEY", testMasterKey)}
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close(context.Background()) })
	tenant := newFaultTenant(t, url, "outage", m.Addr(), rcv.url)
	pub := newPublisher(t, url)
	sc := domain.Scope{CustomerID: tenant.customerID, Mode: domain.ModeSandbox}

	if err := pub.publish(context.Background(), sc, 0, 200, 100); err != nil {
		t.Fatal(err)
	}
	if _, ok := rcv.waitAll(t, func() []string { return eventIDs(t, pub.db) }, 30*time.Second); !ok {
		t.Fatal("the first 200 events did not arrive")
	}
	rcv.down()
	downAt := time.Now()
	if err := pub.publish(context.Background(), sc, 200, 300, 100); err != nil {
		t.Fatal(err)
	}
	// Wait until the failures are being retried: the outage is seen.
	waitUntil(t, "failed attempts during the outage", func() bool {
		var n int
		_ = pub.db.GetContext(context.Background(), &n, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_delivery' AND state = 'retryable'`)
		return n > 0
	})
	time.Sleep(time.Until(downAt.Add(outage))) // the outage itself, not a wait for a result
	rcv.up(t)
	upAt := time.Now()

	last, ok := rcv.waitAll(t, func() []string { return eventIDs(t, pub.db) }, retry.Window+10*time.Second)
	all := eventIDs(t, pub.db)
	distinct, dups := rcv.counts()
	var givenUp, failed int
	_ = pub.db.GetContext(context.Background(), &givenUp, `SELECT COUNT(*) FROM river_job WHERE kind = 'webhook_delivery' AND state IN ('cancelled', 'discarded')`)
	_ = pub.db.GetContext(context.Background(), &failed, `SELECT COUNT(*) FROM webhook_deliveries WHERE status_code IS NULL`)
	t.Logf("receiver down %v (2 min compressed %dx): %d events, %d received, %d lost, %d duplicates, %d failed attempts, %d given up",
		upAt.Sub(downAt).Round(time.Millisecond), compression, len(all), distinct, len(rcv.missing(all)), dups, failed, givenUp)
	if !ok || len(all) != 500 {
		t.Fatalf("%d of %d events never arrived", len(rcv.missing(all)), len(all))
	}
	t.Logf("every event arrived %v after the receiver came back (window %v)", last.Sub(upAt).Round(time.Millisecond), retry.Window)
	if givenUp != 0 {
		t.Errorf("%d deliveries were given up", givenUp)
	}
	if failed == 0 {
		t.Error("no failed attempt was recorded: the outage was not seen")
	}
}

// TestFaultLinkSessionsOverThreeInstances: 1,000 sandbox Link sessions
// from ten customers, spread over three instances. Every payroll job runs
// exactly once (one attempt, completed) and every event is delivered.
func TestFaultLinkSessionsOverThreeInstances(t *testing.T) {
	// Not parallel: its three instances' pools with another test's would
	// pass the shared PostgreSQL's max_connections.
	const sessions, tenants = 1000, 10
	url := storagetest.NewURL(t, storage.Postgres, storagetest.Empty)
	rcv := newFaultReceiver(t)
	var insts []*faultInstance
	for i := range 3 {
		insts = append(insts, startFaultInstance(t, fmt.Sprintf("link-%d", i), url, "--webhook-ca-file", rcv.caFile))
	}
	var ts []faultTenant
	for i := range tenants {
		ts = append(ts, newFaultTenant(t, url, fmt.Sprintf("tenant-%d", i), insts[i%3].addr, rcv.url))
	}
	_, search := retrying(t, "GET", insts[0].addr, ts[0].secret, "/v1/search?q=summit+payroll&response_types=platform", "")
	platformID := search["data"].([]any)[0].(map[string]any)["id"].(string)

	start := time.Now()
	work := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for range 24 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				tn, addr := ts[i%tenants], insts[i%3].addr
				status, tok := retrying(t, "POST", addr, tn.secret, "/v1/link_tokens", fmt.Sprintf(`{"org_name": "Acme Bank", "end_user_id": "user-%d",
					"required_jobs": ["direct_deposit_switch"], "allocation": {"targets": [{"type": "checking", "account_number": "123456789", "routing_number": "011000015"}]}}`, i))
				if status != 200 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("link token %d: %d %v", i, status, tok))
					mu.Unlock()
					continue
				}
				token := tok["data"].(map[string]any)["token"].(string)
				// The session goes to the next instance: nothing ties a
				// token to the process that made it.
				status, sess := retrying(t, "POST", insts[(i+1)%3].addr, tn.secret, "/v1/sandbox/link_sessions",
					`{"token": "`+token+`", "platform_id": "`+platformID+`", "username": "user_good", "password": "pass_good"}`)
				if status != 200 {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("link session %d: %d %v", i, status, sess))
					mu.Unlock()
				}
			}
		}()
	}
	for i := range sessions {
		work <- i
	}
	close(work)
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d of %d sessions failed; first: %s", len(failures), sessions, failures[0])
	}
	t.Logf("%d Link sessions over 3 instances in %v", sessions, time.Since(start).Round(time.Millisecond))

	pub := newPublisher(t, url)
	ctx := context.Background()
	var jobs int
	waitUntil(t, "every payroll job finished", func() bool {
		var open int
		_ = pub.db.GetContext(ctx, &open, `SELECT COUNT(*) FROM river_job WHERE kind = 'payroll_job' AND state <> 'completed'`)
		_ = pub.db.GetContext(ctx, &jobs, `SELECT COUNT(*) FROM jobs`)
		return open == 0 && jobs >= sessions
	})
	var runs []struct {
		Attempt int    `db:"attempt"`
		State   string `db:"state"`
		JobID   string `db:"job_id"`
	}
	if err := pub.db.SelectContext(ctx, &runs, `SELECT attempt, state, args->>'job_id' AS job_id FROM river_job WHERE kind = 'payroll_job'`); err != nil {
		t.Fatal(err)
	}
	perJob := map[string]int{}
	for _, r := range runs {
		perJob[r.JobID]++
		if r.Attempt != 1 || r.State != "completed" {
			t.Errorf("job %s: attempt %d, %s; want one completed attempt", r.JobID, r.Attempt, r.State)
		}
	}
	var outcomes []string
	if err := pub.db.SelectContext(ctx, &outcomes, `SELECT COALESCE(outcome, '') FROM jobs`); err != nil {
		t.Fatal(err)
	}
	for _, o := range outcomes {
		if o != "success" {
			t.Errorf("a job ended %q", o)
			break
		}
	}
	if len(perJob) != jobs {
		t.Errorf("%d jobs but %d queued runs of them", jobs, len(perJob))
	}
	for id, n := range perJob {
		if n != 1 {
			t.Errorf("job %s was queued %d times", id, n)
		}
	}

	last, ok := rcv.waitAll(t, func() []string { return eventIDs(t, pub.db) }, 60*time.Second)
	all := eventIDs(t, pub.db)
	distinct, dups := rcv.counts()
	t.Logf("%d jobs, each run once; %d events, %d received, %d lost, %d duplicates; all delivered %v after the first session",
		jobs, len(all), distinct, len(rcv.missing(all)), dups, last.Sub(start).Round(time.Millisecond))
	if !ok {
		t.Fatalf("%d of %d events never arrived", len(rcv.missing(all)), len(all))
	}
}
