package rest

import (
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"payline/storage"
	"payline/storage/storagetest"
)

// corpusRequest is one malformed request of the corpus.
type corpusRequest struct {
	name, method, path, body string
	headers                  []string
	// lenient cases send a strange but valid value (free text): any
	// answer but 5XX will do, and a refusal still has the spec's body.
	lenient bool
}

// hostileIDs are path ids an attacker or a broken client sends: traversal,
// injection, markup, NUL, invalid UTF-8, huge, numbers, empty-ish.
var hostileIDs = []string{
	"..%2F..%2Fetc%2Fpasswd", "%2e%2e", "'%20OR%201=1--", "1;DROP%20TABLE%20accounts", "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
	"%00", "%ff%fe", "%c0%ae", strings.Repeat("a", 5000), "-1", "NaN", "%20", "%7B%7D", "null",
}

// badValues are malformed values for a query parameter of the schema's
// type: every one of them must be refused.
func badValues(s *openapi3.Schema) []string {
	if s == nil {
		return nil
	}
	out := []string{"%00", "%ff%fe"}
	switch {
	case s.Type.Is("integer"):
		out = append(out, "abc", "-1", "1e3", "99999999999999999999", "1.5")
	case s.Type.Is("boolean"):
		out = append(out, "maybe", "2")
	case s.Format == "date" || s.Format == "date-time":
		out = append(out, "yesterday", "2026-13-45", "2026-02-30T25:00:00Z")
	case len(s.Enum) > 0:
		out = append(out, "teleport")
	case s.Type.Is("array") && s.Items != nil && s.Items.Value != nil && len(s.Items.Value.Enum) > 0:
		out = append(out, "teleport")
	}
	return out
}

// hostileBodies are request bodies no endpoint can take.
var hostileBodies = []struct{ name, body string }{
	{"broken JSON", `{"a": `},
	{"null", `null`},
	{"an array", `[]`},
	{"a string", `"text"`},
	{"two objects", `{} {}`},
	{"duplicate keys", `{"url": "https://a.example", "url": "https://b.example"}`},
	{"an unknown field", `{"not_a_field": true}`},
	{"wrong types", `{"url": 5, "org_name": [], "end_user_id": {}, "enabled_events": "all", "version": 2025, "username": false, "expires_at": 1}`},
	{"nulls", `{"url": null, "org_name": null, "end_user_id": null, "enabled_events": null, "version": null, "username": null}`},
	{"deep nesting", strings.Repeat(`{"a":`, 10000) + `1` + strings.Repeat(`}`, 10000)},
	{"invalid UTF-8", "{\"org_name\": \"\xff\xfe\", \"url\": \"\xc0\xae\"}"},
	{"NUL", `{"org_name": "a\u0000b", "end_user_id": "\u0000", "url": "https://x.example/\u0000"}`},
	{"boundary numbers", `{"ttl": 1e309, "amount": -0.001, "allocation": {"value": 1e400}}`},
	{"a body over 1 MiB", `{"org_name": "` + strings.Repeat("x", 1<<20) + `"}`},
}

var pathParam = regexp.MustCompile(`\{[a-z_]+\}`)

// TestMalformedCorpus sends every documented endpoint (docs/openapi.yaml)
// hostile path ids, malformed query values, bodies no endpoint can take,
// and bad headers, on both databases: every answer is 4XX with the spec's
// error body (type, code, a message naming the problem, status_code
// matching the status) and a request id, never 5XX, and the server keeps
// serving.
func TestMalformedCorpus(t *testing.T) {
	openAPIRouter(t, "http://127.0.0.1")
	type op struct {
		method, path string
		query        []*openapi3.Parameter
		uuids        bool // every path parameter is a UUID: hostile ones must be refused
	}
	var ops []op
	for _, p := range specDoc.Paths.InMatchingOrder() {
		if p == "/openapi.yaml" || p == "/connector-protocol.yaml" { // documents, not JSON
			continue
		}
		for method, o := range specDoc.Paths.Value(p).Operations() {
			x := op{method: method, path: "/v1" + p, uuids: true}
			for _, pr := range o.Parameters {
				switch v := pr.Value; {
				case v == nil:
				case v.In == "query":
					x.query = append(x.query, v)
				case v.In == "path" && (v.Schema == nil || v.Schema.Value == nil || v.Schema.Value.Format != "uuid") && !strings.HasSuffix(v.Name, "_id"):
					x.uuids = false
				case v.In == "path" && v.Name == "end_user_id":
					x.uuids = false // the customer's own id: any text is one
				}
			}
			ops = append(ops, x)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].path+ops[i].method < ops[j].path+ops[j].method })
	var corpus []corpusRequest
	for _, o := range ops {
		params := pathParam.FindAllString(o.path, -1)
		for _, id := range hostileIDs {
			if len(params) == 0 {
				break
			}
			corpus = append(corpus, corpusRequest{name: "id " + id[:min(len(id), 20)], method: o.method,
				path: pathParam.ReplaceAllString(o.path, id), body: `{}`, lenient: !o.uuids})
		}
		path := pathParam.ReplaceAllString(o.path, "0195f0a0-0000-7000-8000-000000000000")
		for _, q := range o.query {
			var schema *openapi3.Schema
			if q.Schema != nil {
				schema = q.Schema.Value
			}
			for _, v := range badValues(schema) {
				corpus = append(corpus, corpusRequest{name: "query " + q.Name + "=" + v, method: o.method, path: path + "?" + q.Name + "=" + v,
					lenient: q.Name == "q" || q.Name == "end_user_id"}) // free text: any value is one
			}
		}
		if o.method != http.MethodGet {
			for _, b := range hostileBodies {
				corpus = append(corpus, corpusRequest{name: "body " + b.name, method: o.method, path: path, body: b.body})
			}
			corpus = append(corpus,
				corpusRequest{name: "form body", method: o.method, path: path, body: "a=b", headers: []string{"Content-Type", "application/x-www-form-urlencoded"}},
				corpusRequest{name: "no content type", method: o.method, path: path, body: "{}", headers: []string{"Content-Type", ""}})
		}
		corpus = append(corpus,
			corpusRequest{name: "no version", method: o.method, path: path, body: "{}", headers: []string{"Service-Version", ""}},
			corpusRequest{name: "unknown version", method: o.method, path: path, body: "{}", headers: []string{"Service-Version", "2024-01-01"}},
			corpusRequest{name: "garbage secret", method: o.method, path: path, body: "{}", headers: []string{"x-api-secret", "' OR 1=1 --"}},
			corpusRequest{name: "huge secret", method: o.method, path: path, body: "{}", headers: []string{"x-api-secret", strings.Repeat("s", 8000)}},
			corpusRequest{name: "no secret", method: o.method, path: path, body: "{}", headers: []string{"x-api-secret", ""}},
		)
	}
	// Oversized requests (issue 46, finding 8): answered 414 and 431 in the
	// spec's body, not reset (TestOversizedRequestsAnswered sends the same
	// over a raw connection, and beyond net/http's own limit).
	megabyte := strings.Repeat("a", 1_000_000)
	corpus = append(corpus,
		corpusRequest{name: "a 1 MB URL", method: http.MethodGet, path: "/v1/accounts?pad=" + megabyte},
		corpusRequest{name: "1 MB of headers", method: http.MethodGet, path: "/v1/accounts", headers: []string{"X-Padding", megabyte}},
		corpusRequest{name: "a 1 MB URL to sign-in", method: http.MethodPost, path: "/dashboard/session?pad=" + megabyte, body: "{}"})
	if len(corpus) < 300 {
		t.Fatalf("the corpus has %d requests, want at least 300", len(corpus))
	}
	t.Logf("%d malformed requests over %d endpoints", len(corpus), len(ops))
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.skipSpec = true // the error bodies are checked here, for every path
		for _, c := range corpus {
			headers := append([]string{"Content-Type", "application/json"}, c.headers...)
			res := f.request(c.method, c.path, strings.NewReader(c.body), headers...)
			where := fmt.Sprintf("%s %s (%s)", c.method, c.path[:min(len(c.path), 90)], c.name)
			if res.status >= 500 || (!c.lenient && res.status < 400) {
				t.Errorf("%s: %d, want 4XX: %.300s", where, res.status, res.raw)
				continue
			}
			if res.status < 400 {
				continue
			}
			e, _ := res.body["error"].(map[string]any)
			msg, _ := e["message"].(string)
			if e == nil || e["type"] == nil || e["code"] == nil || e["status_code"] != float64(res.status) || len(msg) < 10 {
				t.Errorf("%s: %d without the spec's error body: %.300s", where, res.status, res.raw)
			}
		}
		if res := f.get("/v1/accounts"); res.status != 200 {
			t.Errorf("after the corpus the server answers %d", res.status)
		}
	})
}
