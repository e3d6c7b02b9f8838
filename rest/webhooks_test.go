package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

func TestWebhookRegistration(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		const url = "https://hooks.example.com/payline"
		for _, tc := range []struct{ name, body, code, mention string }{
			{"no version", `{"url": "` + url + `", "enabled_events": ["account.added"]}`, domain.CodeMissingFields, "version"},
			{"old version", `{"url": "` + url + `", "version": "2022-09-09", "enabled_events": ["account.added"]}`, domain.CodeInvalidFields, "2023-04-18"},
			{"unknown version", `{"url": "` + url + `", "version": "2024-01-01", "enabled_events": ["account.added"]}`, domain.CodeInvalidFields, "version"},
			{"http", `{"url": "http://hooks.example.com", "version": "2025-07-08", "enabled_events": ["account.added"]}`, domain.CodeInvalidFields, "https"},
			{"not a url", `{"url": "hooks", "version": "2025-07-08", "enabled_events": ["account.added"]}`, domain.CodeInvalidFields, "url"},
			{"credentials", `{"url": "https://u:p@hooks.example.com", "version": "2025-07-08", "enabled_events": ["account.added"]}`, domain.CodeInvalidFields, "credentials"},
			{"unknown event", `{"url": "` + url + `", "version": "2025-07-08", "enabled_events": ["account.exploded"]}`, domain.CodeInvalidFields, "account.exploded"},
			{"no events", `{"url": "` + url + `", "version": "2025-07-08", "enabled_events": []}`, domain.CodeInvalidFields, "enabled_events"},
			{"bad status", `{"url": "` + url + `", "version": "2025-07-08", "enabled_events": ["income.added"], "status": "on"}`, domain.CodeInvalidFields, "status"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				res := f.post("/v1/webhooks", tc.body)
				res.wantError(t, 400, typeInvalid, tc.code)
				if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, tc.mention) {
					t.Errorf("message %q does not mention %q", msg, tc.mention)
				}
			})
		}
		res := f.post("/v1/webhooks", `{"url": "`+url+`", "version": "2023-11-22",
			"enabled_events": ["account.added", "direct_deposit_switch.added", "account.added"]}`)
		w := res.data(t)
		if w["status"] != "active" || w["version"] != "2023-11-22" || fmt.Sprint(w["enabled_events"]) != "[account.added direct_deposit_switch.added]" {
			t.Errorf("created %v", w)
		}
		id := w["id"].(string)
		updated := f.request("PUT", "/v1/webhooks/"+id, strings.NewReader(`{"url": "https://hooks.example.com/v2", "enabled_events": ["income.added"]}`),
			"Content-Type", "application/json").data(t)
		if updated["url"] != "https://hooks.example.com/v2" || fmt.Sprint(updated["enabled_events"]) != "[income.added]" {
			t.Errorf("updated %v", updated)
		}
		f.request("PUT", "/v1/webhooks/"+id, strings.NewReader(`{"version": "2025-07-08"}`), "Content-Type", "application/json").
			wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
		if got := f.get("/v1/webhooks/" + id).data(t); got["url"] != "https://hooks.example.com/v2" {
			t.Errorf("GET after PUT %v", got)
		}

		// Ten per key: the eleventh is refused; another key has its own ten.
		for i := 1; i < domain.MaxWebhooksPerKey; i++ {
			f.createWebhook(url, `"income.added"`)
		}
		f.post("/v1/webhooks", `{"url": "`+url+`", "version": "2025-07-08", "enabled_events": ["income.added"]}`).
			wantError(t, 400, typeInvalid, domain.CodeWebhookLimit)
		second, _ := f.keys.CreateKey(context.Background(), "acme", domain.ModeSandbox)
		if res := f.post("/v1/webhooks", `{"url": "`+url+`", "version": "2025-07-08", "enabled_events": ["income.added"]}`, "x-api-secret", second.Secret); res.status != 200 {
			t.Errorf("another key of the customer: %d %s", res.status, res.raw)
		}
		list := f.get("/v1/webhooks?limit=4")
		if len(list.list(t)) != 4 || list.meta(t)["next_cursor"] == nil {
			t.Errorf("first page %s", list.raw)
		}

		// Another customer sees none of them and cannot touch them.
		other, _ := f.keys.CreateKey(context.Background(), "globex", domain.ModeSandbox)
		if got := f.get("/v1/webhooks", "x-api-secret", other.Secret).list(t); len(got) != 0 {
			t.Errorf("globex sees %d webhooks", len(got))
		}
		f.request("DELETE", "/v1/webhooks/"+id, nil, "x-api-secret", other.Secret).wantError(t, 404, typeNotFound, domain.CodeWebhookNotFound)

		del := f.request("DELETE", "/v1/webhooks/"+id, nil)
		if del.status != 200 || string(del.raw) != "{}\n" {
			t.Errorf("DELETE: %d %q", del.status, del.raw)
		}
		f.get("/v1/webhooks/"+id).wantError(t, 404, typeNotFound, domain.CodeWebhookNotFound)
		f.get("/v1/webhooks/nope").wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
	})
}

// TestWebhookSSRFGuard: outside the sandbox, internal addresses are
// refused at creation, and at dial time for a URL that got past it.
func TestWebhookSSRFGuard(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db, func(s *fixtureSetup) { s.rest.Mode = domain.ModeProduction })
		for _, u := range []string{"https://127.0.0.1/hook", "https://10.0.0.1/hook", "https://169.254.169.254/latest/meta-data",
			"https://[::1]/hook", "https://localhost/hook", "https://192.168.1.10/hook", "https://100.64.0.1/hook"} {
			res := f.post("/v1/webhooks", `{"url": "`+u+`", "version": "2025-07-08", "enabled_events": ["account.added"]}`)
			res.wantError(t, 400, typeInvalid, domain.CodeInvalidFields)
			if msg := res.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "address") {
				t.Errorf("%s: %q", u, msg)
			}
		}

		// A webhook whose host reaches loopback anyway (DNS changed after it
		// was created) is refused when dialed.
		rcv := newReceiver(t, always(200))
		sc := f.key.Scope()
		now := time.Now().UTC()
		w := domain.Webhook{ID: domain.NewID(), APIKeyID: f.key.ID, URL: rcv.srv.URL, EnabledEvents: []string{"account.added"},
			Status: domain.WebhookActive, Version: "2025-07-08", CreatedAt: now, LastUpdated: now}
		tx := storage.NewTransactor(db, f.queue)
		if err := tx.CreateWebhook(context.Background(), sc, w); err != nil {
			t.Fatal(err)
		}
		e := domain.Event{ID: domain.NewID(), Name: "account.added", CreatedAt: now, Payload: domain.EventPayload(`{}`)}
		if err := tx.CreateEvent(context.Background(), sc, e); err != nil {
			t.Fatal(err)
		}
		res, err := f.webhooks.Deliver(context.Background(), domain.DeliveryRun{Scope: sc, WebhookID: w.ID, EventID: e.ID}, 1, nil)
		if err != nil || res != domain.DeliveryGiveUp {
			t.Fatalf("deliver: %v %v", res, err)
		}
		if len(rcv.deliveries()) != 0 {
			t.Fatal("the guarded client reached a loopback receiver")
		}
		log, _ := tx.FindDeliveries(context.Background(), sc, w.ID, domain.PageRequest{Limit: 1})
		if len(log.Items) != 1 || !strings.Contains(log.Items[0].Error, "refused") {
			t.Errorf("delivery log %+v", log.Items)
		}
	})
}

// TestWebhookDeliveries runs Link with a webhook on a real HTTPS receiver
// and checks each delivery's headers, signature and payload.
func TestWebhookDeliveries(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		hookID := f.createWebhook(rcv.srv.URL+"/hooks", `"account.added", "direct_deposit_switch.added"`)
		tokenID, token := f.createToken(switchTokenBody(""))
		acct := f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "remainder"}`)).data(t)["account_id"].(string)
		// The jobs' events commit with their outcomes, so once the jobs are
		// final every delivery that will ever exist is queued.
		f.waitJobs(tokenID, 1)
		f.waitDeliveriesSettled(t)
		if queued, _ := f.deliveryJobs(); queued != 2 {
			t.Fatalf("%d deliveries queued, want account.added and direct_deposit_switch.added only", queued)
		}
		got := rcv.deliveries()
		if len(got) != 2 {
			t.Fatalf("%d deliveries, want account.added and direct_deposit_switch.added only", len(got))
		}
		byEvent := map[string]map[string]any{}
		for _, d := range got {
			ts, err := strconv.ParseInt(d.header.Get("x-timestamp"), 10, 64)
			if err != nil || time.Since(time.Unix(ts, 0)) > time.Minute {
				t.Errorf("x-timestamp %q", d.header.Get("x-timestamp"))
			}
			if want := domain.SignWebhook(f.secret, ts, d.body); d.header.Get("x-service-signature") != want {
				t.Errorf("signature %q, want %q", d.header.Get("x-service-signature"), want)
			}
			if d.header.Get("x-service-webhook-id") != hookID || d.header.Get("service-version") != "2025-07-08" ||
				d.header.Get("content-type") != "application/json" {
				t.Errorf("headers %v", d.header)
			}
			var body struct {
				Event   string         `json:"event"`
				EventID string         `json:"event_id"`
				Payload map[string]any `json:"payload"`
			}
			dec := json.NewDecoder(strings.NewReader(string(d.body)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&body); err != nil || !domain.ValidID(body.EventID) {
				t.Fatalf("body %s: %v", d.body, err)
			}
			byEvent[body.Event] = body.Payload
		}
		added := byEvent["account.added"]
		if added["account_id"] != acct || added["end_user_id"] != "user-123" || added["link_token_id"] != tokenID ||
			added["platform_id"] != p.ID || added["connected"] != true || added["created_at"] == nil {
			t.Errorf("account.added payload %v", added)
		}
		sw := byEvent["direct_deposit_switch.added"]
		params, _ := sw["params"].(map[string]any)
		if sw["account_id"] != acct || sw["end_user_id"] != "user-123" || sw["link_token_id"] != tokenID ||
			sw["name"] != "direct_deposit_switch" || sw["outcome"] != "success" || sw["timestamp"] == nil || sw["id"] == nil ||
			params["action"] != "partial_switch" || params["allocation"].(map[string]any)["type"] != "remainder" {
			t.Errorf("direct_deposit_switch.added payload %v", sw)
		}
		log := f.get("/v1/webhooks/" + hookID + "/deliveries").list(t)
		if len(log) != 2 || log[0]["outcome"] != "delivered" || log[0]["status_code"] != float64(200) || log[0]["attempt"] != float64(1) {
			t.Errorf("delivery log %v", log)
		}
	})
}

// TestWebhookRetries: 5XX retries up to five times inside the window;
// 4XX, other 2XX and redirects are final at once; a recovering receiver
// gets the event.
func TestWebhookRetries(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		for _, tc := range []struct {
			name     string
			respond  func(int) int
			attempts int
			outcome  string
		}{
			{"5XX six attempts then failed", always(503), 6, domain.DeliveryFailed},
			{"4XX is final", always(404), 1, domain.DeliveryFailed},
			{"202 is final", always(202), 1, domain.DeliveryFailed},
			{"redirect is not followed", always(302), 1, domain.DeliveryFailed},
			{"recovers on the third", func(n int) int {
				if n < 3 {
					return 500
				}
				return 200
			}, 3, domain.DeliveryDelivered},
		} {
			t.Run(tc.name, func(t *testing.T) {
				rcv := newReceiver(t, tc.respond)
				window := 3 * time.Second
				f := newFixture(t, db, func(s *fixtureSetup) {
					s.caFile = rcv.caFile
					s.retry = storage.RetrySchedule{Base: 100 * time.Millisecond, Window: window}
				})
				hookID := f.createWebhook(rcv.srv.URL, `"account.added"`)
				// The subtests share the database and customer: the next
				// one's events must not go to this one's closed receiver.
				t.Cleanup(func() { f.request("DELETE", "/v1/webhooks/"+hookID, nil) })
				_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "retry"}`)
				before, _ := f.deliveryJobs()
				f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, ""))
				if q, _ := f.deliveryJobs(); q != before+1 {
					t.Fatalf("%d deliveries queued with the login, want 1", q-before)
				}
				f.waitDeliveriesSettled(t) // no attempt can follow a final state
				got := rcv.deliveries()
				if len(got) != tc.attempts {
					t.Fatalf("%d attempts, want %d", len(got), tc.attempts)
				}
				ids := map[string]bool{}
				for _, d := range got {
					var b struct {
						EventID string `json:"event_id"`
					}
					_ = json.Unmarshal(d.body, &b)
					ids[b.EventID] = true
				}
				if len(ids) != 1 {
					t.Errorf("retries carried %d different event_ids", len(ids))
				}
				waitFor(t, "the log", func() bool { return len(f.get("/v1/webhooks/"+hookID+"/deliveries").list(t)) == tc.attempts })
				log := f.get("/v1/webhooks/" + hookID + "/deliveries").list(t)
				if log[0]["outcome"] != tc.outcome || log[0]["attempt"] != float64(tc.attempts) || log[0]["next_attempt"] != nil {
					t.Errorf("last attempt %v", log[0])
				}
				for _, l := range log[1:] {
					if l["outcome"] != domain.DeliveryRetrying || l["next_attempt"] == nil {
						t.Errorf("earlier attempt %v", l)
					}
				}
				// The schedule keeps every retry inside the window: each
				// logged retry's next attempt is due by then. (When the
				// attempts then arrive also depends on River's scheduler and
				// the machine's load: a busy CI machine once spread them
				// over 17 s, which says nothing of the schedule.)
				var firstAt time.Time
				for _, l := range log {
					at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(l["created_at"]))
					if err != nil {
						t.Fatalf("created_at %v: %v", l["created_at"], err)
					}
					if firstAt.IsZero() || at.Before(firstAt) {
						firstAt = at
					}
				}
				retries := 0
				for _, l := range log {
					if l["outcome"] != domain.DeliveryRetrying {
						continue
					}
					retries++
					next, err := time.Parse(time.RFC3339Nano, fmt.Sprint(l["next_attempt"]))
					if err != nil {
						t.Fatalf("next_attempt %v: %v", l["next_attempt"], err)
					}
					if next.After(firstAt.Add(window + 100*time.Millisecond)) {
						t.Errorf("attempt %v was rescheduled for %s, beyond the %s window from the first at %s", l["attempt"], next, window, firstAt)
					}
				}
				if retries != tc.attempts-1 {
					t.Errorf("%d retrying entries in the log, want %d", retries, tc.attempts-1)
				}
			})
		}
	})
}

// TestWebhookPausesAfter30Days: no 200 for 30 days pauses the webhook,
// which then gets nothing until PUT makes it active again.
func TestWebhookPausesAfter30Days(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		failing := true
		var mu sync.Mutex
		rcv := newReceiver(t, func(int) int {
			mu.Lock()
			defer mu.Unlock()
			if failing {
				return 500
			}
			return 200
		})
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		hookID := f.createWebhook(rcv.srv.URL, `"account.added"`)
		test := func() { f.post("/v1/sandbox/webhooks/"+hookID+"/test", "") }
		test()
		f.clock.advance(29 * 24 * time.Hour)
		test()
		if s := f.get("/v1/webhooks/" + hookID).data(t)["status"]; s != "active" {
			t.Fatalf("paused after 29 days: %v", s)
		}
		f.clock.advance(24*time.Hour + time.Minute)
		test()
		if s := f.get("/v1/webhooks/" + hookID).data(t)["status"]; s != "paused" {
			t.Fatalf("status after 30 days of failures: %v", s)
		}
		before := len(rcv.deliveries())
		queuedBefore, _ := f.deliveryJobs()
		_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "paused"}`)
		f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, ""))
		// account.added commits with the login, and deliveries are queued
		// in that transaction: none was for the paused webhook.
		if f.countEvents("account.added") != 1 {
			t.Fatal("the login wrote no account.added")
		}
		f.waitDeliveriesSettled(t)
		if queued, _ := f.deliveryJobs(); queued != queuedBefore || len(rcv.deliveries()) != before {
			t.Fatalf("a paused webhook got deliveries: %d queued, %d received", queued-queuedBefore, len(rcv.deliveries())-before)
		}
		mu.Lock()
		failing = false
		mu.Unlock()
		f.request("PUT", "/v1/webhooks/"+hookID, strings.NewReader(`{"status": "active"}`), "Content-Type", "application/json")
		_, token = f.createToken(`{"org_name": "Acme", "end_user_id": "resumed"}`)
		f.linkSession(sessionBody(token, switchPlatform(t).ID, sandbox.UserGood, ""))
		waitFor(t, "a delivery after resuming", func() bool { return len(rcv.deliveries()) > before })
	})
}

// TestDeliveryLogKeepsResponse: the delivery log shows the start of what
// the endpoint answered (REST and GraphQL alike), at most 512 bytes, so a
// customer sees why a delivery was refused; it is sealed at rest; an empty
// answer shows null.
func TestDeliveryLogKeepsResponse(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		reason := `{"error": "signature mismatch for Ada: check the signing secret"}`
		rcv := newReceiver(t, func(n int) int { return map[bool]int{true: 401, false: 200}[n == 1] })
		rcv.reply = func(n int) string {
			if n == 1 {
				return reason + strings.Repeat(" padding", 200)
			}
			return ""
		}
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		hookID := f.createWebhook(rcv.srv.URL, `"account.added"`)
		f.post("/v1/sandbox/webhooks/"+hookID+"/test", "")
		f.post("/v1/sandbox/webhooks/"+hookID+"/test", "")
		log := f.get("/v1/webhooks/" + hookID + "/deliveries").list(t)
		if len(log) != 2 {
			t.Fatalf("%d deliveries logged, want 2", len(log))
		}
		refused, empty := log[1], log[0] // newest first
		excerpt, _ := refused["response_excerpt"].(string)
		if refused["status_code"] != float64(401) || !strings.HasPrefix(excerpt, reason) || len(excerpt) > domain.ResponseExcerptBytes {
			t.Errorf("the refused delivery: status %v, excerpt of %d bytes %.80q", refused["status_code"], len(excerpt), excerpt)
		}
		if v, ok := empty["response_excerpt"]; !ok || v != nil {
			t.Errorf("an empty answer's excerpt: %v (present %v), want null", v, ok)
		}
		data := f.gql(`query ($id: ID!) { webhook(id: $id) { deliveries { edges { node { statusCode responseExcerpt } } } } }`,
			map[string]any{"id": hookID}).ok(t)
		edges := data["webhook"].(map[string]any)["deliveries"].(map[string]any)["edges"].([]any)
		if got := edges[1].(map[string]any)["node"].(map[string]any)["responseExcerpt"]; got != excerpt {
			t.Errorf("GraphQL's responseExcerpt %.60q, REST's %.60q", got, excerpt)
		}
		for _, hit := range searchDatabase(t, db, []string{"signature mismatch for Ada"}) {
			t.Errorf("in plain text at rest: %s", hit)
		}
	})
}

// TestSendTestOfDeletedWebhook: a webhook deleted while its test event is
// being sent logs no attempt, so the test answers 404 WEBHOOK_NOT_FOUND,
// never a 200 with an empty delivery; a test sent to a live webhook
// answers the attempt it made.
func TestSendTestOfDeletedWebhook(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		var f *fixture
		var mu sync.Mutex
		deleteOnReceipt := map[string]bool{}
		rcv := newReceiver(t, func(int) int { return 200 })
		rcv.respond = func(int) int {
			mu.Lock()
			defer mu.Unlock()
			for id := range deleteOnReceipt {
				if res := f.request("DELETE", "/v1/webhooks/"+id, nil); res.status != 200 {
					t.Errorf("delete webhook %s: %d %s", id, res.status, res.raw)
				}
				delete(deleteOnReceipt, id)
			}
			return 200
		}
		f = newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })

		kept := f.createWebhook(rcv.srv.URL, `"account.added"`)
		d := f.post("/v1/sandbox/webhooks/"+kept+"/test", "").data(t)
		if d["event"] != "webhook.test" || d["outcome"] != "delivered" || d["id"] == "" {
			t.Errorf("test of a live webhook: %v", d)
		}

		gone := f.createWebhook(rcv.srv.URL, `"account.added"`)
		mu.Lock()
		deleteOnReceipt[gone] = true
		mu.Unlock()
		f.post("/v1/sandbox/webhooks/"+gone+"/test", "").wantError(t, http.StatusNotFound, typeNotFound, domain.CodeWebhookNotFound)
		if n := len(rcv.deliveries()); n != 2 {
			t.Errorf("the receiver got %d test events, want 2", n)
		}
	})
}

// TestWebhookDeliveriesSurviveRestart: deliveries queued or failing when
// the process stops are finished by the next one; no event is lost.
func TestWebhookDeliveriesSurviveRestart(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		var mu sync.Mutex
		up := false
		rcv := newReceiver(t, func(int) int {
			mu.Lock()
			defer mu.Unlock()
			if up {
				return 200
			}
			return 503
		})
		retry := storage.RetrySchedule{Base: 200 * time.Millisecond, Window: 10 * time.Second}
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile; s.retry = retry })
		f.createWebhook(rcv.srv.URL, `"account.added", "paystubs.added", "income.added"`)
		p := switchPlatform(t)
		for i := 0; i < 4; i++ {
			_, token := f.createToken(fmt.Sprintf(`{"org_name": "Acme", "end_user_id": "r%d", "required_jobs": ["paystubs", "income"]}`, i))
			f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, ""))
		}
		waitFor(t, "failing attempts", func() bool { return len(rcv.deliveries()) >= 3 })
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := f.queue.StopAndCancel(ctx); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		up = true
		mu.Unlock()

		// A new process on the same database.
		next, err := storage.NewQueue(db, storage.QueueConfig{PollInterval: 50 * time.Millisecond, Retry: retry})
		if err != nil {
			t.Fatal(err)
		}
		jobs := domain.NewJobService(storage.NewTransactor(db, next), sandbox.Connector{}, domain.SystemClock{})
		if err := next.Start(context.Background(), storage.Runners{Job: jobs.Run, Delivery: f.webhooks.Deliver, Schedule: f.monitoring.Schedule, Refresh: f.monitoring.RefreshAccount}); err != nil {
			t.Fatal(err)
		}
		defer next.Stop(context.Background())
		// Payroll jobs cut off by the stop finish too, and their events are
		// delivered: 4 logins x (account.added, paystubs.added, income.added).
		waitFor(t, "all 12 events delivered with 200", func() bool {
			events, _ := storage.NewTransactor(db, nil).ListEvents(context.Background(), f.key.Scope())
			want := map[string]bool{}
			for _, e := range events {
				if e.Name == "account.added" || e.Name == "paystubs.added" || e.Name == "income.added" { // the webhook's events
					want[e.ID] = true
				}
			}
			if len(want) != 12 {
				return false
			}
			ok := map[string]bool{}
			for _, d := range rcv.deliveries() {
				var b struct {
					EventID string `json:"event_id"`
				}
				_ = json.Unmarshal(d.body, &b)
				if want[b.EventID] {
					ok[b.EventID] = true
				}
			}
			return len(ok) == len(want)
		})
	})
}

// TestWebhookVersionsAndPlatformMatching: a platform-matching switch has
// no params.action; 2023-11-22+ webhooks get it so, older ones cannot
// represent it and log it as skipped.
func TestWebhookVersionsAndPlatformMatching(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		rcv := newReceiver(t, always(200))
		f := newFixture(t, db, func(s *fixtureSetup) { s.caFile = rcv.caFile })
		newer := f.createWebhook(rcv.srv.URL+"/new", `"direct_deposit_switch.added"`)
		older := f.post("/v1/webhooks", `{"url": "`+rcv.srv.URL+`/old", "version": "2023-07-18", "enabled_events": ["direct_deposit_switch.added"]}`).data(t)["id"].(string)
		tokenID, value := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "pm", "required_jobs": ["direct_deposit_switch"],
			"allocation": {"targets": [{"type": "checking", "account_number": "12345678", "routing_number": "` + goodRouting + `"}]},
			"end_user": {"platform_matching": {"social_security_last_four": "4321", "first_name": "Ada", "last_name": "Lovelace",
				"date_of_birth": "1990-12-10", "mobile_phone_number": "5551234567", "home_address_zip_code": "94107"}}}`)
		_, out := f.linkAPI("GET", "matches", value, "")
		pid := out["platforms"].([]any)[0].(map[string]any)["id"].(string)
		if status, out := f.linkAPI("POST", "matched_switch", value, `{"platform_id": "`+pid+`"}`); status != 200 {
			t.Fatalf("matched switch %d %v", status, out)
		}
		f.waitJobs(tokenID, 1)
		waitFor(t, "the newer webhook's delivery", func() bool { return len(rcv.deliveries()) == 1 })
		got := rcv.deliveries()[0]
		if got.header.Get("service-version") != "2023-11-22" && got.header.Get("service-version") != "2025-07-08" {
			t.Errorf("delivered to version %s", got.header.Get("service-version"))
		}
		var body struct {
			Payload struct {
				Params map[string]any `json:"params"`
			} `json:"payload"`
		}
		_ = json.Unmarshal(got.body, &body)
		if len(body.Payload.Params) != 0 {
			t.Errorf("params %v, want neither action nor allocation", body.Payload.Params)
		}
		waitFor(t, "the older webhook's log", func() bool { return len(f.get("/v1/webhooks/"+older+"/deliveries").list(t)) == 1 })
		if l := f.get("/v1/webhooks/" + older + "/deliveries").list(t)[0]; l["outcome"] != domain.DeliverySkipped || !strings.Contains(fmt.Sprint(l["error"]), "2023-11-22") {
			t.Errorf("older webhook log %v", l)
		}
		if l := f.get("/v1/webhooks/" + newer + "/deliveries").list(t)[0]; l["outcome"] != domain.DeliveryDelivered {
			t.Errorf("newer webhook log %v", l)
		}
	})
}
