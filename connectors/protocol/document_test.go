package protocol_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"

	"payline/connectors/protocol"
	"payline/connectors/protocol/conformance"
	"payline/domain"
	"payline/domain/sandbox"
)

// recorded is one exchange on the wire.
type recorded struct {
	req          *http.Request
	body         []byte
	status       int
	header       http.Header
	responseBody []byte
}

type recorder struct {
	mu  sync.Mutex
	all []recorded
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(raw))
	r.mu.Lock()
	r.all = append(r.all, recorded{req: req.Clone(context.Background()), body: body, status: resp.StatusCode, header: resp.Header.Clone(), responseBody: raw})
	r.mu.Unlock()
	return resp, nil
}

// TestWireMatchesDocument: every request Payline's client and the
// conformance kit send, and every answer the Go server gives, in the
// sandbox scenarios and the kit's refusals, matches
// docs/connector-protocol.yaml.
func TestWireMatchesDocument(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "connector-protocol.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("the document is not valid OpenAPI: %v", err)
	}
	_, srv := served(t, sandbox.Connector{PendingDelay: time.Hour})
	doc.Servers = openapi3.Servers{{URL: srv.URL}}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	client, err := protocol.New(protocol.Config{URL: srv.URL, Secret: secret, HTTP: &http.Client{Transport: rec}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	platforms, _ := sandbox.Directory(10)
	if _, err := client.Login(ctx, platforms[0], domain.Credentials{Username: sandbox.UserMFA, Password: sandbox.Password}); err == nil {
		t.Fatal("MFA user logged in without a code")
	}
	a := domain.Account{ID: domain.NewID(), CustomerID: "c", EndUserID: "e", PlatformID: platforms[0].ID, Connection: "good", CreatedAt: time.Now().Add(-time.Hour)}
	for _, product := range []string{domain.ProductIdentity, domain.ProductPaystubs, domain.ProductShifts, domain.ProductTaxForms, domain.ProductAllocations} {
		if _, err := client.Fetch(ctx, domain.FetchRequest{Account: a, Product: product, Since: time.Now().Add(-domain.PaystubHistory), Now: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	results := conformance.Check(ctx, srv.URL, secret, conformance.DefaultUsers, &http.Client{Transport: rec})
	for _, r := range results {
		if r.Failed() {
			t.Errorf("%s: %s", r.Scenario, r.Reason)
		}
	}
	seen := map[string]bool{}
	for _, ex := range rec.all {
		req := ex.req
		req.Body = io.NopCloser(bytes.NewReader(ex.body))
		route, params, err := router.FindRoute(req)
		if err != nil {
			if ex.status == http.StatusNotFound {
				continue // the kit's unknown operation, refused as it should be
			}
			t.Errorf("%s %s: not an operation of the document: %v", req.Method, req.URL.Path, err)
			continue
		}
		seen[route.Operation.OperationID] = true
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{MultiError: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
		signed := req.Header.Get(protocol.HeaderSignature) != ""
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil && signed && ex.status != http.StatusUnauthorized {
			t.Errorf("%s %s: the request does not match the document: %v\n%s", req.Method, req.URL.Path, err, ex.body)
		}
		out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.status, Header: ex.header,
			Body: io.NopCloser(bytes.NewReader(ex.responseBody)), Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
		if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
			t.Errorf("%s %s: the %d answer does not match the document: %v\n%.300s", req.Method, req.URL.Path, ex.status, err, ex.responseBody)
		}
	}
	for _, op := range []string{"capabilities", "login", "match", "runJob", "fetchProduct"} {
		if !seen[op] {
			t.Errorf("no exchange exercised %s", op)
		}
	}
}
