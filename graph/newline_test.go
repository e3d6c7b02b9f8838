package graph_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"payline/graph"
)

// TestAnswersEndWithNewline: every answer of /graphql over HTTP is one
// JSON document ending with exactly one newline, as REST's answers are,
// so a curl in a terminal leaves the prompt on a line of its own (issue
// 51: gqlgen writes its JSON without one). Answers, gqlgen's own errors
// (a document that does not parse, a field that does not exist) and
// Payline's refusals before gqlgen (a body that is not JSON) alike, over
// POST and GET.
func TestAnswersEndWithNewline(t *testing.T) {
	srv := httptest.NewServer(graph.NewHandler(&graph.Resolver{}))
	t.Cleanup(srv.Close)
	post := func(body string) *http.Request {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		return req
	}
	get := func(query string) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql?query="+url.QueryEscape(query), nil)
		return req
	}
	for name, tc := range map[string]struct {
		req    *http.Request
		status int
		want   string // in the body
	}{
		"answer":           {post(`{"query": "{ __typename }"}`), 200, `"__typename":"Query"`},
		"answer over GET":  {get(`{ __typename }`), 200, `"__typename":"Query"`},
		"parse error":      {post(`{"query": "{ __typename"}`), 422, `"errors"`},
		"unknown field":    {post(`{"query": "{ nothing }"}`), 422, `"errors"`},
		"body is not JSON": {post(`{"query": `), 400, `"errors"`},
	} {
		t.Run(name, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status || !bytes.Contains(body, []byte(tc.want)) {
				t.Fatalf("%d %s, want %d with %s", resp.StatusCode, body, tc.status, tc.want)
			}
			if !bytes.HasSuffix(body, []byte("}\n")) {
				t.Errorf("the answer does not end with a newline after its JSON: %q", body)
			}
			var doc map[string]any
			if err := json.Unmarshal(body, &doc); err != nil {
				t.Errorf("the answer is not one JSON document: %v: %q", err, body)
			}
		})
	}
}
