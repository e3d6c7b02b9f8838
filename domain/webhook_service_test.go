package domain_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
)

// scriptedSender answers each delivery with the next status of its
// script (200 once the script is done), or fails when the status is 0.
type scriptedSender struct {
	mu     sync.Mutex
	script []int
	sent   []domain.WebhookRequest
}

func (s *scriptedSender) Send(_ context.Context, r domain.WebhookRequest) (domain.WebhookResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, r)
	status := 200
	if len(s.script) > 0 {
		status, s.script = s.script[0], s.script[1:]
	}
	if status == 0 {
		return domain.WebhookResponse{}, errors.New("connection refused")
	}
	return domain.WebhookResponse{Status: status, Excerpt: "ok"}, nil
}

// fixedResolver resolves every host to one address.
type fixedResolver struct{ ip string }

func (r fixedResolver) LookupIPAddr(context.Context, string) ([]net.IPAddr, error) {
	return []net.IPAddr{{IP: net.ParseIP(r.ip)}}, nil
}

func strp(s string) *string { return &s }

func (w *world) webhooks(sender domain.WebhookSender, resolver domain.Resolver) *domain.WebhookService {
	return domain.NewWebhookService(w.tx, w.keys, sender, resolver, w.clock, w.sc.Mode)
}

func TestWebhookCreate(t *testing.T) {
	sandboxWorld := newWorld(t, storage.SQLite, domain.ModeSandbox)
	prodWorld := newWorld(t, storage.SQLite, domain.ModeProduction)
	valid := func(url string) domain.WebhookInput {
		return domain.WebhookInput{URL: strp(url), EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion)}
	}
	tests := []struct {
		name     string
		w        *world
		resolver domain.Resolver
		in       domain.WebhookInput
		code     string
	}{
		{"sandbox to localhost", sandboxWorld, nil, valid("https://127.0.0.1:9/hook"), ""},
		{"production to a public host", prodWorld, fixedResolver{"93.184.216.34"}, valid("https://hooks.example.com/x"), ""},
		{"production to a host that resolves privately", prodWorld, fixedResolver{"10.0.0.8"}, valid("https://hooks.example.com/x"), domain.CodeInvalidFields},
		{"production to a private address", prodWorld, nil, valid("https://192.168.1.4/x"), domain.CodeInvalidFields},
		{"no url", sandboxWorld, nil, domain.WebhookInput{EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion)}, domain.CodeMissingFields},
		{"no version", sandboxWorld, nil, domain.WebhookInput{URL: strp("https://a.example.com"), EnabledEvents: []string{"account.added"}}, domain.CodeMissingFields},
		{"no events", sandboxWorld, nil, domain.WebhookInput{URL: strp("https://a.example.com"), Version: strp(domain.LatestVersion)}, domain.CodeMissingFields},
		{"http", sandboxWorld, nil, valid("http://a.example.com"), domain.CodeInvalidFields},
		{"credentials in the url", sandboxWorld, nil, valid("https://u:p@a.example.com"), domain.CodeInvalidFields},
		{"unknown event", sandboxWorld, nil, domain.WebhookInput{URL: strp("https://a.example.com"), EnabledEvents: []string{"cake.baked"}, Version: strp(domain.LatestVersion)}, domain.CodeInvalidFields},
		{"unknown version", sandboxWorld, nil, domain.WebhookInput{URL: strp("https://a.example.com"), EnabledEvents: []string{"account.added"}, Version: strp("1999-01-01")}, domain.CodeInvalidFields},
		{"bad status", sandboxWorld, nil, domain.WebhookInput{URL: strp("https://a.example.com"), EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion), Status: strp("asleep")}, domain.CodeInvalidFields},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			svc := tc.w.webhooks(&scriptedSender{}, tc.resolver)
			got, err := svc.Create(tc.w.ctx, tc.w.key, tc.in)
			wantCode(t, err, tc.code)
			if err != nil {
				return
			}
			stored, err := svc.Webhook(tc.w.ctx, tc.w.sc, got.ID)
			if err != nil || stored.URL != *tc.in.URL || stored.Status != domain.WebhookActive || stored.APIKeyID != tc.w.key.ID {
				t.Errorf("stored %+v, %v", stored, err)
			}
		})
	}
	t.Run("limit per key", func(t *testing.T) {
		w := newWorld(t, storage.SQLite, domain.ModeSandbox)
		svc := w.webhooks(&scriptedSender{}, nil)
		for i := range domain.MaxWebhooksPerKey {
			if _, err := svc.Create(w.ctx, w.key, valid("https://a.example.com/"+string(rune('a'+i)))); err != nil {
				t.Fatal(err)
			}
		}
		_, err := svc.Create(w.ctx, w.key, valid("https://a.example.com/last"))
		wantCode(t, err, domain.CodeWebhookLimit)
		page, err := svc.Webhooks(w.ctx, w.sc, domain.PageRequest{Limit: 100})
		if err != nil || len(page.Items) != domain.MaxWebhooksPerKey {
			t.Errorf("%d webhooks, %v", len(page.Items), err)
		}
	})
}

func TestWebhookUpdateDelete(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	svc := w.webhooks(&scriptedSender{}, nil)
	hook, err := svc.Create(w.ctx, w.key, domain.WebhookInput{URL: strp("https://a.example.com"), EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion)})
	if err != nil {
		t.Fatal(err)
	}
	unknown := domain.NewID()
	tests := []struct {
		name string
		id   string
		in   domain.WebhookInput
		code string
	}{
		{"pause", hook.ID, domain.WebhookInput{Status: strp("paused")}, ""},
		{"events and url", hook.ID, domain.WebhookInput{URL: strp("https://b.example.com"), EnabledEvents: []string{"paystubs.added", "paystubs.added"}}, ""},
		{"version", hook.ID, domain.WebhookInput{Version: strp(domain.LatestVersion)}, domain.CodeInvalidFields},
		{"no events", hook.ID, domain.WebhookInput{EnabledEvents: []string{}}, domain.CodeInvalidFields},
		{"malformed id", "x", domain.WebhookInput{}, domain.CodeInvalidFields},
		{"unknown", unknown, domain.WebhookInput{}, domain.CodeWebhookNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w.clock.Advance(time.Second)
			got, err := svc.Update(w.ctx, w.sc, tc.id, tc.in)
			wantCode(t, err, tc.code)
			if err == nil && !got.LastUpdated.Equal(w.clock.Now()) {
				t.Errorf("last updated %v, want the clock's now", got.LastUpdated)
			}
		})
	}
	got, err := svc.Webhook(w.ctx, w.sc, hook.ID)
	if err != nil || got.Status != domain.WebhookPaused || got.URL != "https://b.example.com" || len(got.EnabledEvents) != 1 {
		t.Fatalf("after updates: %+v, %v", got, err)
	}
	hooks, errs := svc.WebhooksByID(w.ctx, w.sc, []string{unknown, hook.ID})
	if hooks[1].ID != hook.ID || errs[1] != nil {
		t.Errorf("WebhooksByID slot 1: %v", errs[1])
	}
	wantCode(t, errs[0], domain.CodeWebhookNotFound)
	wantCode(t, svc.Delete(w.ctx, w.sc, unknown), domain.CodeWebhookNotFound)
	if err := svc.Delete(w.ctx, w.sc, hook.ID); err != nil {
		t.Fatal(err)
	}
	_, err = svc.Webhook(w.ctx, w.sc, hook.ID)
	wantCode(t, err, domain.CodeWebhookNotFound)
	_, err = svc.Deliveries(w.ctx, w.sc, hook.ID, domain.PageRequest{Limit: 5})
	wantCode(t, err, domain.CodeWebhookNotFound)
}

func TestWebhookDeliver(t *testing.T) {
	bothDialects(t, domain.ModeSandbox, func(t *testing.T, w *world) {
		sender := &scriptedSender{}
		svc := w.webhooks(sender, nil)
		hook, err := svc.Create(w.ctx, w.key, domain.WebhookInput{URL: strp("https://a.example.com/hook"), EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion)})
		if err != nil {
			t.Fatal(err)
		}
		w.mustLogin(sandbox.UserGood, "identity")
		evs, err := w.tx.Events().ListEvents(w.ctx, w.sc)
		if err != nil || len(evs) == 0 {
			t.Fatalf("events: %v", err)
		}
		run := domain.DeliveryRun{Scope: w.sc, WebhookID: hook.ID, EventID: evs[0].ID}
		next := w.clock.Now().Add(time.Minute)
		tests := []struct {
			name    string
			status  int // 0: no response
			next    *time.Time
			result  domain.DeliveryResult
			outcome string
		}{
			{"200", 200, &next, domain.DeliveryDone, domain.DeliveryDelivered},
			{"503 with a retry left", 503, &next, domain.DeliveryRetry, domain.DeliveryRetrying},
			{"no response with a retry left", 0, &next, domain.DeliveryRetry, domain.DeliveryRetrying},
			{"503 on the last attempt", 503, nil, domain.DeliveryGiveUp, domain.DeliveryFailed},
			{"201 is final", 201, &next, domain.DeliveryGiveUp, domain.DeliveryFailed},
			{"404 is final", 404, &next, domain.DeliveryGiveUp, domain.DeliveryFailed},
		}
		for i, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				sender.script = []int{tc.status}
				res, err := svc.Deliver(w.ctx, run, i+1, tc.next)
				if err != nil || res != tc.result {
					t.Fatalf("result %v, %v; want %v", res, err, tc.result)
				}
				page, err := svc.Deliveries(w.ctx, w.sc, hook.ID, domain.PageRequest{Limit: 1})
				if err != nil || len(page.Items) != 1 {
					t.Fatalf("deliveries: %v", err)
				}
				if d := page.Items[0]; d.Outcome != tc.outcome || d.Attempt != i+1 || d.EventName != "account.added" {
					t.Errorf("logged %s attempt %d of %s, want %s attempt %d", d.Outcome, d.Attempt, d.EventName, tc.outcome, i+1)
				}
			})
		}
		req := sender.sent[0]
		if req.URL != "https://a.example.com/hook" || req.Headers["x-service-signature"] == "" || !strings.Contains(string(req.Body), evs[0].ID) {
			t.Errorf("request %s %v %s", req.URL, req.Headers, req.Body)
		}
		got, err := svc.Webhook(w.ctx, w.sc, hook.ID)
		if err != nil || got.FailingSince == nil || got.Status != domain.WebhookActive {
			t.Fatalf("after failures: failing since %v, %s", got.FailingSince, got.Status)
		}
		// A webhook failing for WebhookPauseAfter is paused, and a paused
		// webhook's deliveries are skipped.
		w.clock.Advance(domain.WebhookPauseAfter)
		sender.script = []int{500}
		if _, err := svc.Deliver(w.ctx, run, 9, &next); err != nil {
			t.Fatal(err)
		}
		if got, _ := svc.Webhook(w.ctx, w.sc, hook.ID); got.Status != domain.WebhookPaused {
			t.Fatalf("after %v failing: %s", domain.WebhookPauseAfter, got.Status)
		}
		sent := len(sender.sent)
		if res, err := svc.Deliver(w.ctx, run, 10, &next); err != nil || res != domain.DeliveryDone || len(sender.sent) != sent {
			t.Errorf("a paused webhook: %v, %v, %d sent", res, err, len(sender.sent)-sent)
		}
		of, err := svc.DeliveriesOfWebhooks(w.ctx, w.sc, []string{hook.ID}, domain.PageRequest{Limit: 1})
		if err != nil || of[hook.ID].Items[0].Outcome != domain.DeliverySkipped {
			t.Errorf("DeliveriesOfWebhooks: %v", err)
		}
		// Resuming forgets past failures.
		resumed, err := svc.Update(w.ctx, w.sc, hook.ID, domain.WebhookInput{Status: strp("active")})
		if err != nil || resumed.FailingSince != nil {
			t.Errorf("resumed: failing since %v, %v", resumed.FailingSince, err)
		}
		// A deleted webhook's queued deliveries end quietly.
		if err := svc.Delete(w.ctx, w.sc, hook.ID); err != nil {
			t.Fatal(err)
		}
		if res, err := svc.Deliver(w.ctx, run, 1, &next); err != nil || res != domain.DeliveryDone {
			t.Errorf("a deleted webhook: %v, %v", res, err)
		}
	})
}

func TestWebhookSendTest(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	sender := &scriptedSender{}
	svc := w.webhooks(sender, nil)
	hook, err := svc.Create(w.ctx, w.key, domain.WebhookInput{URL: strp("https://a.example.com/hook"), EnabledEvents: []string{"account.added"}, Version: strp(domain.LatestVersion)})
	if err != nil {
		t.Fatal(err)
	}
	d, err := svc.SendTest(w.ctx, w.sc, hook.ID)
	if err != nil || d.EventName != "webhook.test" || d.Outcome != domain.DeliveryDelivered {
		t.Fatalf("SendTest: %+v, %v", d, err)
	}
	if len(sender.sent) != 1 || !strings.Contains(string(sender.sent[0].Body), hook.ID) {
		t.Errorf("sent %d", len(sender.sent))
	}
	_, err = svc.SendTest(w.ctx, w.sc, domain.NewID())
	wantCode(t, err, domain.CodeWebhookNotFound)
	_, err = svc.SendTest(w.ctx, domain.Scope{CustomerID: w.sc.CustomerID, Mode: domain.ModeProduction}, hook.ID)
	wantCode(t, err, domain.CodeNotSandbox)
}

func TestWebhookListen(t *testing.T) {
	w := newWorld(t, storage.SQLite, domain.ModeSandbox)
	svc := w.webhooks(&scriptedSender{}, nil)
	prod := newWorld(t, storage.SQLite, domain.ModeProduction)
	_, err := prod.webhooks(&scriptedSender{}, nil).OpenListener(prod.ctx, prod.key, domain.ListenerInput{})
	wantCode(t, err, domain.CodeNotSandbox)
	_, err = svc.OpenListener(w.ctx, w.key, domain.ListenerInput{EnabledEvents: []string{"cake.baked"}})
	wantCode(t, err, domain.CodeInvalidFields)
	_, err = svc.OpenListener(w.ctx, w.key, domain.ListenerInput{Version: "1999-01-01"})
	wantCode(t, err, domain.CodeInvalidFields)

	l, err := svc.OpenListener(w.ctx, w.key, domain.ListenerInput{EnabledEvents: []string{"account.added"}})
	if err != nil || !l.IsListener() {
		t.Fatalf("OpenListener: %+v, %v", l, err)
	}
	got := make(chan domain.ListenedDelivery, 4)
	ctx, cancel := context.WithCancel(w.ctx)
	done := make(chan error, 1)
	go func() {
		done <- svc.Listen(ctx, w.sc, l, func(_ context.Context, d domain.ListenedDelivery) (int, error) {
			select { // the test reads the first; later ones must not block the listener
			case got <- d:
			default:
			}
			return 200, nil
		})
	}()
	// Events commit until the listener's subscription sees one: it
	// starts listening at some point after the goroutine starts.
	deadline := time.After(10 * time.Second)
	var d domain.ListenedDelivery
wait:
	for {
		w.mustLogin(sandbox.UserGood, "identity")
		select {
		case d = <-got:
			break wait
		case <-time.After(200 * time.Millisecond):
		case <-deadline:
			t.Fatal("no delivery reached the listener")
		}
	}
	if d.Event != "account.added" || d.Request.Headers["x-service-signature"] == "" {
		t.Errorf("listened %s %v", d.Event, d.Request.Headers)
	}
	// A sandbox test event goes to the listener, and SendTest returns the
	// attempt the listener logged.
	sent, err := svc.SendTest(w.ctx, w.sc, l.ID)
	if err != nil || sent.EventName != "webhook.test" || sent.Outcome != domain.DeliveryDelivered {
		t.Fatalf("SendTest to a listener: %+v, %v", sent, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Listen: %v", err)
	}
	_, err = svc.Webhook(w.ctx, w.sc, l.ID)
	wantCode(t, err, domain.CodeWebhookNotFound) // the listener is deleted when it ends

	stale, err := svc.OpenListener(w.ctx, w.key, domain.ListenerInput{})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := svc.SweepListeners(w.ctx); err != nil || n != 0 {
		t.Fatalf("a fresh listener swept: %d, %v", n, err)
	}
	w.clock.Advance(domain.ListenerStaleAfter + time.Second)
	if n, err := svc.SweepListeners(w.ctx); err != nil || n != 1 {
		t.Fatalf("swept %d, %v; want the stale listener", n, err)
	}
	_, err = svc.Webhook(w.ctx, w.sc, stale.ID)
	wantCode(t, err, domain.CodeWebhookNotFound)
}
