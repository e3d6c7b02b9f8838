package rest

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"payline/domain"
	"payline/domain/search"
	"payline/graph"
	"payline/storage"
	"payline/storage/storagetest"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestInternalErrorsAreLoggedWithTheRequestID: an unexpected failure in
// REST, in Link's API and in GraphQL reaches the caller as UNKNOWN_ERROR
// and the log with the request id of the response, as REST always did.
func TestInternalErrorsAreLoggedWithTheRequestID(t *testing.T) {
	db := storagetest.Open(t, storage.SQLite, storagetest.Seeded)
	logs := &syncBuffer{}
	f := newFixture(t, db, func(s *fixtureSetup) {
		s.logs = logs
		s.rest.GraphQL = graph.NewHandler(&graph.Resolver{Directory: domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build),
			Logger: slog.New(slog.NewTextHandler(logs, nil))})
	})
	f.skipSpec = true
	_, token := f.createToken(switchTokenBody(""))
	if err := f.queue.Stop(t.Context()); err != nil {
		t.Fatal(err)
	}
	db.Close() // from here every query fails

	for _, tc := range []struct {
		name string
		send func() result
	}{
		{"rest", func() result { return f.get("/v1/accounts") }},
		{"link", func() result {
			return f.request("GET", "/link/v1/api/session", nil, "Authorization", "Bearer "+token)
		}},
		{"graphql", func() result {
			return f.post("/graphql", `{"query": "{ employer(id: \"`+domain.NewID()+`\") { name } }"}`)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := tc.send()
			id := res.header.Get("x-service-request-id")
			if !strings.Contains(string(res.raw), domain.CodeUnknown) || strings.Contains(string(res.raw), "closed") {
				t.Errorf("body %s: want UNKNOWN_ERROR without the cause", res.raw)
			}
			if !strings.Contains(logs.String(), "request_id="+id) {
				t.Errorf("no log line with request_id=%s in:\n%s", id, logs.String())
			}
		})
	}
}
