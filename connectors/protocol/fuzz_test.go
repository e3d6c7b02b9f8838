package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/connectors/protocol"
	"payline/connectors/protocol/conformance"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/internal/jsontest"
)

var update = flag.Bool("update", false, "rewrite testdata/wire, the fuzz seeds recorded from the sandbox served over the protocol")

// wireSeeds holds FuzzWireDecode's seeds: answers recorded from the
// sandbox served over the protocol (go test -run TestWireSeeds -update
// records them again), one file each, named KIND.STATUS.N.json.
var wireSeeds = filepath.Join("testdata", "wire")

// wireKinds are what Payline's client decodes from a connector: each
// operation's answer, and a fetch's page of each product. A fuzz input's
// kind picks one (modulo their count).
var wireKinds = []string{"capabilities", "login", "match", "run",
	"fetch-" + domain.ProductIdentity, "fetch-" + domain.ProductEmployment, "fetch-" + domain.ProductIncome,
	"fetch-" + domain.ProductPaystubs, "fetch-" + domain.ProductAllocations, "fetch-" + domain.ProductTaxForms,
	"fetch-" + domain.ProductShifts}

// answering is a connector that answers every request with one status and
// body.
type answering struct {
	status int
	body   []byte
}

func (a answering) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{StatusCode: a.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(a.body)), Request: req}, nil
}

// FuzzWireDecode: whatever a connector answers, Payline's client (and the
// kit's page validation) decodes it without panicking, into an error or a
// value; and each wire type decoded from it encodes and decodes again to
// the same value.
func FuzzWireDecode(f *testing.F) {
	seeds, err := os.ReadDir(wireSeeds)
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds in %s (go test -run TestWireSeeds -update records them): %v", wireSeeds, err)
	}
	for _, e := range seeds {
		kind, status, ok := parseSeedName(e.Name())
		if !ok {
			f.Fatalf("%s: not KIND.STATUS.N.json of a known kind", e.Name())
		}
		body, err := os.ReadFile(filepath.Join(wireSeeds, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(slices.Index(wireKinds, kind)), uint16(status), body)
	}
	f.Fuzz(func(t *testing.T, kind uint8, status uint16, body []byte) {
		k := wireKinds[int(kind)%len(wireKinds)]
		code := 100 + int(status)%500 // 100 to 599
		decodeAsClient(t, k, code, body)
		if code == http.StatusOK {
			roundTrips(t, k, body)
		}
	})
}

// decodeAsClient has Payline's client read body, answered with code, as
// the answer to operation k.
func decodeAsClient(t *testing.T, k string, code int, body []byte) {
	client, err := protocol.New(protocol.Config{URL: "http://127.0.0.1:1", Secret: secret, Timeout: time.Second,
		HTTP: &http.Client{Transport: answering{status: code, body: body}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := domain.Platform{ID: "p", Name: "P", Type: domain.PlatformPayroll}
	a := domain.Account{ID: "a", CustomerID: "c", EndUserID: "e", PlatformID: "p", Connection: "good", CreatedAt: time.Unix(1e9, 0)}
	switch k {
	case "capabilities":
		_, _ = client.Capabilities(ctx)
	case "login":
		_, _ = client.Login(ctx, p, domain.Credentials{Username: "u", Password: "p"})
	case "match":
		_ = client.Match(ctx, domain.PlatformMatching{}, []domain.Platform{p})
	case "run":
		_, _ = client.Run(ctx, domain.Job{ID: "j", Name: domain.JobIdentity}, a, time.Unix(1e9, 0), time.Unix(1e9+1, 0))
	default:
		product := strings.TrimPrefix(k, "fetch-")
		// The same page answers every cursor: a next_cursor ends the read
		// at the second page, which repeats it.
		f, err := client.Fetch(ctx, domain.FetchRequest{Account: a, Product: product, Since: time.Unix(0, 0), Now: time.Unix(1e9, 0)})
		if err == nil {
			productsRoundTrip(t, f)
		}
		var page protocol.FetchResponse
		if json.Unmarshal(body, &page) == nil {
			_ = protocol.ValidatePage(product, page.Data)
		}
	}
}

// roundTrips checks that the wire type of operation k, decoded from body,
// encodes and decodes to the same value.
func roundTrips(t *testing.T, k string, body []byte) {
	switch k {
	case "capabilities":
		jsontest.RoundTrip[protocol.Capabilities](t, body)
	case "login":
		jsontest.RoundTrip[protocol.LoginResponse](t, body)
	case "match":
		jsontest.RoundTrip[protocol.MatchResponse](t, body)
	case "run":
		jsontest.RoundTrip[protocol.RunResponse](t, body)
	default:
		jsontest.RoundTrip[protocol.FetchResponse](t, body)
	}
	jsontest.RoundTrip[protocol.ErrorBody](t, body)
}

// productsRoundTrip checks that the products the client read encode (as
// the store's codec and the protocol's server write them) and decode to
// the same values.
func productsRoundTrip(t *testing.T, f domain.Fetched) {
	again := func(v any) []byte {
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%T read from a connector does not encode: %v", v, err)
		}
		return out
	}
	if f.Identity != nil {
		jsontest.RoundTrip[domain.Identity](t, again(f.Identity))
	}
	if f.Employment != nil {
		jsontest.RoundTrip[domain.Employment](t, again(f.Employment))
	}
	if f.Income != nil {
		jsontest.RoundTrip[domain.Income](t, again(f.Income))
	}
	jsontest.RoundTrip[[]domain.DepositAllocation](t, again(f.Allocations))
	jsontest.RoundTrip[[]domain.Paystub](t, again(f.Paystubs))
	for _, w := range f.W2s {
		jsontest.RoundTrip[domain.W2](t, again(w.W2))
	}
	for _, s := range f.Shifts {
		jsontest.RoundTrip[domain.Shift](t, again(s.Shift))
	}
}

// parseSeedName reads KIND.STATUS.N.json.
func parseSeedName(name string) (kind string, status int, ok bool) {
	parts := strings.Split(name, ".")
	if len(parts) != 4 || parts[3] != "json" || !slices.Contains(wireKinds, parts[0]) {
		return "", 0, false
	}
	status, err := strconv.Atoi(parts[1])
	return parts[0], status, err == nil && status >= 100 && status < 600
}

// TestWireSeeds: FuzzWireDecode has a seed of every kind, recorded from
// the sandbox served over the protocol (what payline connectors
// serve-sandbox answers) while Payline's client and the conformance kit
// drive it; -update records them again. A list page keeps its first two
// items, so the fuzzer works on small inputs.
func TestWireSeeds(t *testing.T) {
	if !*update {
		have := map[string]bool{}
		entries, _ := os.ReadDir(wireSeeds)
		for _, e := range entries {
			kind, _, ok := parseSeedName(e.Name())
			if !ok {
				t.Errorf("%s: not KIND.STATUS.N.json of a known kind", e.Name())
			}
			have[kind] = true
		}
		for _, k := range wireKinds {
			if !have[k] {
				t.Errorf("no seed of %s in %s (go test -run TestWireSeeds -update records them)", k, wireSeeds)
			}
		}
		return
	}
	recorded := recordWire(t)
	if err := os.RemoveAll(wireSeeds); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(wireSeeds, 0o755); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	seen := map[string]bool{}
	for _, ex := range recorded {
		kind := kindOf(ex)
		body := trimmed(bytes.TrimSpace(ex.responseBody))
		key := kind + "." + strconv.Itoa(ex.status)
		// Up to three different answers of a kind and status.
		if kind == "" || seen[key+string(body)] || n[key] == 3 {
			continue
		}
		seen[key+string(body)] = true
		n[key]++
		name := fmt.Sprintf("%s.%d.%d.json", kind, ex.status, n[key])
		if err := os.WriteFile(filepath.Join(wireSeeds, name), append(body, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recorded %d seeds in %s", len(seen), wireSeeds)
}

// recordWire drives the sandbox served over the protocol with Payline's
// client and the kit, and returns every exchange.
func recordWire(t *testing.T) []recorded {
	_, srv := served(t, sandbox.Connector{PendingDelay: time.Hour})
	rec := &recorder{}
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret, HTTP: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	platforms, _ := sandbox.Directory(10)
	a := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "e", PlatformID: platforms[0].ID, Connection: "good", CreatedAt: time.Now().Add(-time.Hour)}
	for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductPaystubs,
		domain.ProductAllocations, domain.ProductTaxForms} {
		if _, err := client.Fetch(ctx, domain.FetchRequest{Account: a, Product: product, Since: time.Now().Add(-domain.PaystubHistory), Now: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := client.Capabilities(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range conformance.Check(ctx, srv.URL, secret, conformance.DefaultUsers, &http.Client{Transport: rec}) {
		if r.Failed() {
			t.Fatalf("the sandbox failed %s: %s", r.Scenario, r.Reason)
		}
	}
	return rec.all
}

// kindOf is the wire kind of an exchange's answer, "" for an operation
// the client does not call.
func kindOf(ex recorded) string {
	switch ex.req.URL.Path {
	case protocol.PathCapabilities:
		return "capabilities"
	case protocol.PathLogin:
		return "login"
	case protocol.PathMatch:
		return "match"
	case protocol.PathRun:
		return "run"
	case protocol.PathFetch:
		var req protocol.FetchRequest
		if json.Unmarshal(ex.body, &req) != nil || !slices.Contains(wireKinds, "fetch-"+req.Product) {
			return ""
		}
		return "fetch-" + req.Product
	}
	return ""
}

// trimmed keeps a list page's first two items, and capabilities' first
// three platforms.
func trimmed(body []byte) []byte {
	var page struct {
		Data       []json.RawMessage `json:"data"`
		NextCursor *string           `json:"next_cursor"`
	}
	if json.Unmarshal(body, &page) == nil && len(page.Data) > 2 {
		page.Data = page.Data[:2]
		if out, err := json.Marshal(page); err == nil {
			return out
		}
	}
	var caps protocol.Capabilities
	if json.Unmarshal(body, &caps) == nil && len(caps.Platforms) > 3 {
		caps.Platforms = caps.Platforms[:3]
		if out, err := json.Marshal(caps); err == nil {
			return out
		}
	}
	return body
}
