package main

// The fault harness's parts (fault_test.go has its tests): the webhook
// receiver, `payline serve` processes, tenants, an event publisher and a
// private PostgreSQL to stop and start.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/testwait"
	"payline/storage"
	"payline/storage/storagetest"
)

// faultReceiver is a TLS webhook receiver that counts each event_id and
// can be taken down and brought back on the same address.
type faultReceiver struct {
	mu     sync.Mutex
	seen   map[string]int
	first  map[string]time.Time
	latest map[string]time.Time
	total  int
	caFile string
	url    string
	srv    *httptest.Server
	// arrived is signalled (without blocking) on every delivery.
	arrived chan struct{}
}

func newFaultReceiver(t *testing.T) *faultReceiver {
	t.Helper()
	r := &faultReceiver{seen: map[string]int{}, first: map[string]time.Time{}, latest: map[string]time.Time{}, arrived: make(chan struct{}, 1)}
	r.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			EventID string `json:"event_id"`
		}
		if err := json.NewDecoder(req.Body).Decode(&body); err != nil || body.EventID == "" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		r.seen[body.EventID]++
		now := time.Now()
		if r.seen[body.EventID] == 1 {
			r.first[body.EventID] = now
		}
		r.latest[body.EventID] = now
		r.total++
		r.mu.Unlock()
		select {
		case r.arrived <- struct{}{}:
		default:
		}
		w.WriteHeader(http.StatusOK)
	}))
	r.srv.StartTLS()
	t.Cleanup(r.srv.Close)
	r.url = r.srv.URL
	r.caFile = filepath.Join(t.TempDir(), "receiver-ca.pem")
	if err := os.WriteFile(r.caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: r.srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	return r
}

// faultInstance is one `payline serve` child process on a fixed address,
// so that it can be killed and started again where clients expect it.
type faultInstance struct {
	t    *testing.T
	id   string
	addr string
	args []string
	mu   sync.Mutex
	logs bytes.Buffer
	cmd  *exec.Cmd
	done chan struct{}
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func startFaultInstance(t *testing.T, id, url string, args ...string) *faultInstance {
	t.Helper()
	in := &faultInstance{t: t, id: id, addr: freeAddr(t),
		args: append([]string{"serve", "--database-url", url, "--instance-id", id}, args...)}
	in.start()
	t.Cleanup(func() {
		in.stop()
		if t.Failed() {
			t.Logf("instance %s logged:\n%s", id, in.log())
		}
	})
	return in
}

// faultTenant is a customer with a sandbox key and a webhook to the
// receiver for every event.
type faultTenant struct {
	customerID, keyID, secret, webhookID string
}

func newFaultTenant(t *testing.T, url, name, addr, receiverURL string) faultTenant {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"keys", "create", "--customer", name, "--mode", "sandbox", "--json", "--database-url", url},
		&out, io.Discard, env("PAYLINE_MASTER_KEY", testMasterKey)); err != nil {
		t.Fatal(err)
	}
	var k struct {
		CustomerID string `json:"customer_id"`
		KeyID      string `json:"key_id"`
		Secret     string `json:"secret"`
	}
	if err := json.Unmarshal(out.Bytes(), &k); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	events, _ := json.Marshal(domain.EventNames())
	status, hook := apiPost(t, addr, k.Secret, "/v1/webhooks",
		fmt.Sprintf(`{"url": %q, "version": "2025-07-08", "enabled_events": %s}`, receiverURL+"/hook", events))
	if status != 200 {
		t.Fatalf("create webhook: %d %v", status, hook)
	}
	return faultTenant{customerID: k.CustomerID, keyID: k.KeyID, secret: k.Secret,
		webhookID: hook["data"].(map[string]any)["id"].(string)}
}

// publisher writes events into the outbox the way the service does (event
// row and delivery jobs in one transaction), from this process, so a run
// of thousands of events does not wait on the sandbox's request rate.
type publisher struct {
	db *storage.DB
	tx *storage.Transactor
}

func newPublisher(t *testing.T, url string) *publisher {
	t.Helper()
	db, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	q, err := storage.NewQueue(db, storage.QueueConfig{}) // inserts only: never started
	if err != nil {
		t.Fatal(err)
	}
	return &publisher{db: db, tx: storage.NewTransactor(db, q)}
}

// eventIDs lists every event the outbox holds: what must be delivered.
func eventIDs(t *testing.T, db *storage.DB) []string {
	t.Helper()
	var ids []string
	if err := db.SelectContext(context.Background(), &ids, `SELECT id FROM events`); err != nil {
		t.Fatal(err)
	}
	return ids
}

// privatePostgres is a PostgreSQL cluster of this test's own, in a
// temporary directory on a free port, so the test can stop and start it
// without touching the server every other test uses.
type privatePostgres struct {
	t       *testing.T
	bin     string
	dir     string
	port    string
	asOwner func(name string, args ...string) *exec.Cmd
}

// startPrivatePostgres initialises and starts a cluster with Debian's
// PostgreSQL binaries (root runs them as the postgres user, as the server
// refuses root). Missing binaries skip the test, or fail it under CI.
func startPrivatePostgres(t *testing.T) *privatePostgres {
	t.Helper()
	storagetest.PostgresServer(t) // the same skip-or-fail rule as every PostgreSQL test
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/pg_ctl")
	if len(bins) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("PostgreSQL's server binaries (/usr/lib/postgresql/*/bin/pg_ctl) are missing: the database-restart fault test needs them")
		}
		t.Skip("PostgreSQL's server binaries are not installed; skipping the database-restart fault test")
	}
	p := &privatePostgres{t: t, bin: filepath.Dir(bins[len(bins)-1])}
	p.asOwner = exec.Command
	dir, err := os.MkdirTemp("", "payline-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p.dir = dir
	if os.Geteuid() == 0 {
		out, err := exec.Command("id", "-u", "postgres").Output()
		if err != nil {
			t.Fatalf("running as root, the test needs the postgres user to run PostgreSQL: %v", err)
		}
		var uid int
		fmt.Sscan(string(out), &uid)
		if err := os.Chown(dir, uid, -1); err != nil {
			t.Fatal(err)
		}
		p.asOwner = func(name string, args ...string) *exec.Cmd {
			return exec.Command("runuser", append([]string{"-u", "postgres", "--", name}, args...)...)
		}
	}
	_, p.port, _ = net.SplitHostPort(freeAddr(t))
	if out, err := p.asOwner(filepath.Join(p.bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres",
		"--auth=trust", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	p.start()
	t.Cleanup(func() { p.stop() })
	return p
}

// apiCall makes one request and returns its status, body and duration;
// a transport error is the body.
func apiCall(method, addr, secret, path, body string) (int, map[string]any, http.Header, time.Duration) {
	began := time.Now()
	status, out, header, err := apiDo(nil, method, "http://"+addr+path, secret, body, nil)
	if err != nil {
		out = map[string]any{"transport": err.Error()}
	}
	return status, out, header, time.Since(began)
}

// retrying makes a request until it is not refused for the rate (429),
// waiting as Retry-After says, as a well-behaved client does.
func retrying(t *testing.T, method, addr, secret, path, body string) (int, map[string]any) {
	t.Helper()
	for range 200 {
		status, out, header, _ := apiCall(method, addr, secret, path, body)
		if status != http.StatusTooManyRequests {
			return status, out
		}
		wait, _ := time.ParseDuration(header.Get("Retry-After") + "s")
		time.Sleep(max(wait, 100*time.Millisecond) / 4) // the server's Retry-After paces the retry, as a client's would
	}
	t.Fatalf("%s %s: still refused for the rate after 200 tries", method, path)
	return 0, nil
}

// down closes the receiver's listener and its open connections, so
// deliveries are refused.
func (r *faultReceiver) down() {
	r.srv.Listener.Close()
	r.srv.CloseClientConnections()
}

// up listens again on the same address with the same certificate.
func (r *faultReceiver) up(t *testing.T) {
	t.Helper()
	addr := strings.TrimPrefix(r.url, "https://")
	var l net.Listener
	testwait.Until(t, time.Second, func() error { // the old socket may take a moment to release the port
		var err error
		l, err = net.Listen("tcp", addr)
		return err
	})
	srv := &http.Server{Handler: r.srv.Config.Handler, TLSConfig: r.srv.TLS}
	go func() { _ = srv.ServeTLS(l, "", "") }()
	t.Cleanup(func() { srv.Close() })
}

// counts returns how many distinct events arrived and how many
// deliveries were repeats.
func (r *faultReceiver) counts() (distinct, duplicates int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen), r.total - len(r.seen)
}

// missing returns the ids of want that never arrived.
func (r *faultReceiver) missing(want []string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, id := range want {
		if r.seen[id] == 0 {
			out = append(out, id)
		}
	}
	return out
}

// arrivedBy is when every id in ids had arrived after since (zero and
// false if one has not).
func (r *faultReceiver) arrivedBy(ids []string, since time.Time) (time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var last time.Time
	for _, id := range ids {
		at := r.latest[id]
		if !at.After(since) {
			return time.Time{}, false
		}
		if at.After(last) {
			last = at
		}
	}
	return last, true
}

// waitDistinct waits until n distinct events arrived, failing the test
// after within.
func (r *faultReceiver) waitDistinct(t *testing.T, n int, within time.Duration) {
	t.Helper()
	waiting := time.After(within)
	for d, _ := r.counts(); d < n; d, _ = r.counts() {
		select {
		case <-r.arrived:
		case <-waiting:
			t.Fatalf("only %d of %d deliveries in %v", d, n, within)
		}
	}
}

// waitAll waits until every id in want arrived, or the deadline passes,
// and returns when the last of them first arrived.
func (r *faultReceiver) waitAll(t *testing.T, want func() []string, within time.Duration) (time.Time, bool) {
	t.Helper()
	deadline := time.After(within)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		ids := want()
		if len(ids) > 0 && len(r.missing(ids)) == 0 {
			r.mu.Lock()
			var last time.Time
			for _, id := range ids {
				if at := r.first[id]; at.After(last) {
					last = at
				}
			}
			r.mu.Unlock()
			return last, true
		}
		select {
		case <-deadline:
			return time.Time{}, false
		case <-tick.C:
		case <-r.arrived:
		}
	}
}

func (in *faultInstance) log() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.logs.String()
}

// start runs the process and waits until it listens.
func (in *faultInstance) start() {
	t := in.t
	t.Helper()
	cmd := exec.Command(os.Args[0], append(in.args, "--addr", in.addr)...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1", "PAYLINE_MASTER_KEY="+testMasterKey)
	cmd.Stdout = io.Discard
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	in.cmd, in.done = cmd, make(chan struct{})
	listening := make(chan struct{}, 1)
	go func(done chan struct{}) {
		s := bufio.NewScanner(stderr)
		s.Buffer(make([]byte, 64<<10), 1<<20)
		for s.Scan() {
			in.mu.Lock()
			in.logs.WriteString(s.Text() + "\n")
			in.mu.Unlock()
			if listeningAddr.MatchString(s.Text()) {
				select {
				case listening <- struct{}{}:
				default:
				}
			}
		}
		_ = cmd.Wait()
		close(done)
	}(in.done)
	select {
	case <-listening:
	case <-in.done:
		t.Fatalf("instance %s exited before listening:\n%s", in.id, in.log())
	case <-time.After(60 * time.Second):
		t.Fatalf("instance %s did not listen within 60 s", in.id)
	}
}

// kill ends the process with SIGKILL, as a crash would, and waits for it.
func (in *faultInstance) kill() {
	_ = in.cmd.Process.Signal(syscall.SIGKILL)
	<-in.done
}

// stop ends the process with SIGTERM (SIGKILL after 20 s).
func (in *faultInstance) stop() {
	select {
	case <-in.done:
		return
	default:
	}
	_ = in.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-in.done:
	case <-time.After(20 * time.Second):
		in.kill()
	}
}

// publish writes n account.added events for tenant, batch per transaction.
func (p *publisher) publish(ctx context.Context, sc domain.Scope, from, n, batch int) error {
	for start := from; start < from+n; start += batch {
		err := p.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
			for seq := start; seq < min(start+batch, from+n); seq++ {
				if err := domain.PublishEvent(ctx, tx, sc, "account.added", time.Now(), map[string]int{"seq": seq}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *privatePostgres) url() string {
	return "postgres://postgres@127.0.0.1:" + p.port + "/postgres?sslmode=disable"
}

func (p *privatePostgres) start() {
	p.t.Helper()
	opts := fmt.Sprintf("-p %s -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200", p.port, p.dir)
	if out, err := p.asOwner(filepath.Join(p.bin, "pg_ctl"), "-D", filepath.Join(p.dir, "data"), "-o", opts,
		"-l", filepath.Join(p.dir, "log"), "-w", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(p.dir, "log"))
		p.t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

// stop shuts the server down at once: connections are cut, as when a
// database host fails over.
func (p *privatePostgres) stop() {
	_ = p.asOwner(filepath.Join(p.bin, "pg_ctl"), "-D", filepath.Join(p.dir, "data"), "-m", "immediate", "-w", "stop").Run()
}
