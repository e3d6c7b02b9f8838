package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/internal/jsontest"
)

// responseSeeds holds FuzzUpstreamDecode's seeds: what a real Payline
// (the upstream the relay tests run against) answers the relay's
// requests, recorded by testdata/capture.sh, one body a file, named
// KIND.STATUS.N.json.
var responseSeeds = filepath.Join("testdata", "responses")

// responseKinds are the upstream's answers the client decodes; a fuzz
// input's kind picks one (modulo their count).
var responseKinds = []string{"platforms", "platform", "employers", "employer", "search", "accounts", "account", "jobs",
	domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductAllocations, domain.ProductPaystubs,
	domain.ProductTaxForms, domain.ProductShifts, "document", "webhooks", "link_token", "webhook", "error"}

// lastPage ends any listing: the answer after the fuzzed ones.
var lastPage = []byte(`{"data": [], "meta": {"count": 0, "next_cursor": null}}`)

// answering is an upstream that answers its first two requests with one
// status and body, and every later one with an empty last page, so a
// listing whose fuzzed page names a next cursor ends.
type answering struct {
	status int
	body   []byte
	n      atomic.Int32
}

func (a *answering) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	status, body := a.status, a.body
	if a.n.Add(1) > 2 {
		status, body = http.StatusOK, lastPage
	}
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(bytes.NewReader(body)), Request: req}, nil
}

// FuzzUpstreamDecode: whatever the upstream answers (a list page in its
// envelope, a product, a directory page, a webhook delivery), the
// client turns it into an error or domain values without panicking; each
// of its wire shapes decoded from it encodes and decodes again to the
// same value; and a delivery verifies under its own signature only.
func FuzzUpstreamDecode(f *testing.F) {
	seeds, err := os.ReadDir(responseSeeds)
	if err != nil || len(seeds) == 0 {
		f.Fatalf("no seeds in %s (testdata/capture.sh records them): %v", responseSeeds, err)
	}
	for _, e := range seeds {
		kind, status, ok := parseResponseName(e.Name())
		if !ok {
			f.Fatalf("%s: not KIND.STATUS.N.json of a known kind", e.Name())
		}
		body, err := os.ReadFile(filepath.Join(responseSeeds, e.Name()))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(slices.Index(responseKinds, kind)), uint16(status), body)
	}
	f.Fuzz(func(t *testing.T, kind uint8, status uint16, body []byte) {
		k := responseKinds[int(kind)%len(responseKinds)]
		code := 100 + int(status)%500
		if code == http.StatusTooManyRequests {
			code = http.StatusOK // a 429 waits on the budget's pause: budget_test's concern, not decoding's
		}
		if k == "webhook" {
			verifies(t, body)
		}
		readAsClient(t, k, code, body)
		if code == http.StatusOK {
			upstreamRoundTrips(t, k, body)
		}
	})
}

// readAsClient has the client read body, answered with code, where it
// reads an answer of kind k.
func readAsClient(t *testing.T, k string, code int, body []byte) {
	// The budget's rate is lifted: nothing here reaches an upstream, and
	// at the default each input would wait its turn.
	c, err := New(Config{URL: "http://127.0.0.1:1", Secret: "fuzz", HTTP: &http.Client{Transport: &answering{status: code, body: body}},
		RequestTimeout: time.Second, Rate: 1e9})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	account := domain.Account{ID: "a", CustomerID: "c", EndUserID: "e", PlatformID: "p"}
	switch k {
	case "platforms":
		_, _ = c.Platforms(ctx)
	case "platform":
		_, _ = c.Platform(ctx, "p")
	case "employers":
		_, _, _ = c.EmployersPage(ctx, time.Time{}, "")
	case "employer":
		_, _ = c.Employer(ctx, "e")
		_, _ = c.EmployerByEIN(ctx, "101234567")
	case "search":
		_, _ = c.Search(ctx, domain.SearchQuery{Q: "summit", Limit: 3})
	case "accounts":
		_, _, _ = c.Accounts(ctx, time.Time{}, "")
	case "account":
		_, _ = c.Account(ctx, "a")
	case "jobs":
		_, _ = c.Jobs(ctx, "a")
	case "document":
		_, _ = c.document(ctx, "e", "d")
	case "webhooks":
		_ = c.EnsureWebhook(ctx, "https://relay.example/hooks")
	case "link_token":
		_, _ = c.CreateLinkToken(ctx, domain.LinkTokenRequest{OrgName: "Fuzz", RequiredJobs: []string{"paystubs"}}, "e")
	case "webhook", "error":
		_ = c.Verify(ctx)
	default:
		_, _ = c.Fetch(ctx, domain.FetchRequest{Account: account, Product: k, Since: time.Unix(0, 0), Now: time.Unix(1e9, 0)})
	}
}

// verifies checks that a delivery signed with the upstream's secret
// verifies, and that the same signature does not verify another body.
func verifies(t *testing.T, body []byte) {
	c, err := New(Config{URL: "http://127.0.0.1:1", Secret: "fuzz"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	ts := strconv.FormatInt(now.Unix(), 10)
	header := func(sig string) func(string) string {
		return func(name string) string {
			switch name {
			case "x-timestamp":
				return ts
			case "x-service-signature":
				return sig
			}
			return ""
		}
	}
	sig := domain.SignWebhook("fuzz", now.Unix(), body)
	if err := c.VerifyWebhook(header(sig), body, now); err != nil {
		t.Fatalf("a delivery signed with the secret does not verify: %v", err)
	}
	if err := c.VerifyWebhook(header(sig), append(slices.Clip(body), ' '), now); err == nil {
		t.Fatal("a delivery changed after signing verifies")
	}
}

// envelope is every answer's: data, and a list's next cursor.
type envelope struct {
	Data json.RawMessage `json:"data"`
	Meta struct {
		NextCursor *string `json:"next_cursor"`
	} `json:"meta"`
}

// upstreamRoundTrips checks that each wire shape of kind k decoded from
// body (the envelope's data) encodes and decodes to the same value.
func upstreamRoundTrips(t *testing.T, k string, body []byte) {
	var env envelope
	jsontest.RoundTrip[envelope](t, body)
	if json.Unmarshal(body, &env) != nil {
		return
	}
	data := env.Data
	switch k {
	case "platforms":
		jsontest.RoundTrip[[]platformJSON](t, data)
	case "platform":
		jsontest.RoundTrip[platformJSON](t, data)
	case "employers":
		jsontest.RoundTrip[[]employerJSON](t, data)
	case "employer":
		jsontest.RoundTrip[employerJSON](t, data)
	case "accounts":
		jsontest.RoundTrip[[]accountJSON](t, data)
	case "account":
		jsontest.RoundTrip[accountJSON](t, data)
	case "jobs":
		jsontest.RoundTrip[[]jobJSON](t, data)
	case "webhooks":
		jsontest.RoundTrip[[]webhookJSON](t, data)
	case "webhook":
		jsontest.RoundTrip[deliveryJSON](t, body)
	}
}

// parseResponseName reads KIND.STATUS.N.json.
func parseResponseName(name string) (kind string, status int, ok bool) {
	parts := strings.Split(name, ".")
	if len(parts) != 4 || parts[3] != "json" || !slices.Contains(responseKinds, parts[0]) {
		return "", 0, false
	}
	status, err := strconv.Atoi(parts[1])
	return parts[0], status, err == nil && status >= 100 && status < 600
}

// TestResponseSeeds: FuzzUpstreamDecode has a seed of every kind.
func TestResponseSeeds(t *testing.T) {
	have := map[string]bool{}
	entries, _ := os.ReadDir(responseSeeds)
	for _, e := range entries {
		kind, _, ok := parseResponseName(e.Name())
		if !ok {
			t.Errorf("%s: not KIND.STATUS.N.json of a known kind", e.Name())
		}
		have[kind] = true
	}
	for _, k := range responseKinds {
		if !have[k] {
			t.Errorf("no seed of %s in %s (testdata/capture.sh records them)", k, responseSeeds)
		}
	}
}
