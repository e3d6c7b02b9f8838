package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
)

// waitUntil polls cond until it holds or 20 s pass.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Every(50*time.Millisecond).Eventually(t, 20*time.Second, cond, "waiting for %s", what)
}

// TestWebhooksListen runs `payline webhooks listen` against a sandbox
// server: a Link session's events reach a plain-HTTP local receiver with
// valid signatures, the receiver's answers appear in the delivery log,
// the sandbox test event goes the same way, and the listener is deleted
// when the CLI stops.
func TestWebhooksListen(t *testing.T) {
	eachDatabase(t, func(t *testing.T, url string) {
		var out strings.Builder
		m := startMain(t, url, writerFunc(func(p []byte) (int, error) { return out.Write(p) }))
		defer m.Close(context.Background())
		secret := secretLine.FindStringSubmatch(out.String())[1]

		type received struct {
			header http.Header
			body   []byte
		}
		var mu sync.Mutex
		var got []received
		rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			mu.Lock()
			got = append(got, received{r.Header.Clone(), body})
			mu.Unlock()
			if strings.Contains(string(body), `"webhook.test"`) {
				w.WriteHeader(http.StatusTeapot) // an answer other than 200 is logged as such
			}
		}))
		defer rcv.Close()

		ctx, stop := context.WithCancel(context.Background())
		var cliMu sync.Mutex
		var cli strings.Builder
		done := make(chan error, 1)
		go func() {
			done <- run(ctx, []string{"webhooks", "listen", "--forward-to", rcv.URL + "/hook", "--api-url", "http://" + m.Addr()},
				writerFunc(func(p []byte) (int, error) { cliMu.Lock(); defer cliMu.Unlock(); return cli.Write(p) }), io.Discard,
				env("PAYLINE_API_SECRET", secret))
		}()
		cliOut := func() string { cliMu.Lock(); defer cliMu.Unlock(); return cli.String() }
		ready := regexp.MustCompile(`Ready\. .* as webhook ([0-9a-f-]{36})\.`)
		waitUntil(t, "the listener to be ready", func() bool { return ready.MatchString(cliOut()) })
		hookID := ready.FindStringSubmatch(cliOut())[1]
		if _, list := apiGet(t, m.Addr(), secret, "/v1/webhooks"); !strings.Contains(fmtJSON(list), domain.ListenerURLPrefix+hookID) {
			t.Errorf("the listener is not among the webhooks: %v", list)
		}

		linkThroughBinary(t, m.Addr(), secret)
		waitUntil(t, "account.added and direct_deposit_switch.added at the local receiver", func() bool {
			mu.Lock()
			defer mu.Unlock()
			names := ""
			for _, r := range got {
				names += string(r.body)
			}
			return strings.Contains(names, `"account.added"`) && strings.Contains(names, `"direct_deposit_switch.added"`)
		})
		mu.Lock()
		for _, r := range got {
			ts, _ := strconv.ParseInt(r.header.Get("x-timestamp"), 10, 64)
			if r.header.Get("x-service-signature") != domain.SignWebhook(secret, ts, r.body) || r.header.Get("x-service-webhook-id") != hookID ||
				r.header.Get("service-version") != domain.LatestVersion || r.header.Get("content-type") != "application/json" {
				t.Errorf("delivery headers %v for %s", r.header, r.body)
			}
		}
		n := len(got)
		mu.Unlock()

		waitUntil(t, "every forwarded delivery in the log", func() bool {
			_, log := apiGet(t, m.Addr(), secret, "/v1/webhooks/"+hookID+"/deliveries?limit=100")
			return len(log["data"].([]any)) == n
		})
		_, log := apiGet(t, m.Addr(), secret, "/v1/webhooks/"+hookID+"/deliveries?limit=100")
		for _, d := range log["data"].([]any) {
			if d := d.(map[string]any); d["outcome"] != "delivered" || d["status_code"] != float64(200) {
				t.Errorf("delivery %v", d)
			}
		}
		status, test := apiPost(t, m.Addr(), secret, "/v1/sandbox/webhooks/"+hookID+"/test", "")
		if d, _ := test["data"].(map[string]any); status != 200 || d["status_code"] != float64(418) || d["outcome"] != "failed" {
			t.Errorf("sandbox test through the listener: %d %v", status, test)
		}
		if !strings.Contains(cliOut(), "account.added") || !strings.Contains(cliOut(), "→ 200 OK") || !strings.Contains(cliOut(), "→ 418") {
			t.Errorf("the CLI printed:\n%s", cliOut())
		}

		t.Logf("the CLI printed:\n%s", cliOut())
		stop()
		if err := <-done; err != nil {
			t.Fatalf("listen returned %v", err)
		}
		waitUntil(t, "the listener to be deleted", func() bool {
			status, _ := apiGet(t, m.Addr(), secret, "/v1/webhooks/"+hookID)
			return status == 404
		})
	})
}

// TestWebhooksListenPrints: without --forward-to, `payline webhooks
// listen` needs no receiver: it prints each delivery's event and body and
// answers 200, which the delivery log records as delivered.
func TestWebhooksListenPrints(t *testing.T) {
	var out strings.Builder
	m := startMain(t, "sqlite:"+filepath.Join(t.TempDir(), "payline.db"), writerFunc(func(p []byte) (int, error) { return out.Write(p) }))
	defer m.Close(context.Background())
	secret := secretLine.FindStringSubmatch(out.String())[1]

	ctx, stop := context.WithCancel(context.Background())
	var cliMu sync.Mutex
	var cli strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"webhooks", "listen", "--api-url", "http://" + m.Addr()},
			writerFunc(func(p []byte) (int, error) { cliMu.Lock(); defer cliMu.Unlock(); return cli.Write(p) }), io.Discard,
			env("PAYLINE_API_SECRET", secret))
	}()
	cliOut := func() string { cliMu.Lock(); defer cliMu.Unlock(); return cli.String() }
	ready := regexp.MustCompile(`Ready\. Printing .* as webhook ([0-9a-f-]{36})\.`)
	waitUntil(t, "the listener to be ready", func() bool { return ready.MatchString(cliOut()) })
	hookID := ready.FindStringSubmatch(cliOut())[1]

	status, test := apiPost(t, m.Addr(), secret, "/v1/sandbox/webhooks/"+hookID+"/test", "")
	if d, _ := test["data"].(map[string]any); status != 200 || d["status_code"] != float64(200) || d["outcome"] != "delivered" {
		t.Errorf("sandbox test through the printing listener: %d %v", status, test)
	}
	waitUntil(t, "the test event printed", func() bool {
		return strings.Contains(cliOut(), "webhook.test") && strings.Contains(cliOut(), `"event":"webhook.test"`)
	})
	stop()
	if err := <-done; err != nil {
		t.Fatalf("listen returned %v", err)
	}
	t.Logf("the CLI printed:\n%s", cliOut())
}

func fmtJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestWebhooksListenKeepsTheSecret: `payline webhooks listen` sends the
// API secret only to https, or http on this machine, and follows no
// redirect with it: a server answering the listener's handshake with a
// redirect gets the listen refused, and the address it points to
// receives nothing.
func TestWebhooksListenKeepsTheSecret(t *testing.T) {
	var reached sync.Map
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Store("secret", r.Header.Get("x-api-secret"))
	}))
	defer other.Close()
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirecting.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := listen(ctx, io.Discard, redirecting.URL, "sk_secret", "http://127.0.0.1:1/hooks", "", "")
	if err == nil || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("listen through a redirect: %v; want it refused naming the redirect", err)
	}
	if v, ok := reached.Load("secret"); ok {
		t.Errorf("the redirect's target received a request (x-api-secret %q)", v)
	}
	err = listen(ctx, io.Discard, "http://payline.example.com", "sk_secret", "http://127.0.0.1:1/hooks", "", "")
	if err == nil || !strings.Contains(err.Error(), "must be https") {
		t.Errorf("listen to plain http off this machine: %v; want it refused", err)
	}
}
