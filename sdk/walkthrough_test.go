package sdk_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"payline.dev/client"
	"payline.dev/client/api"
	"payline.dev/client/webhook"
)

// TestWalkthrough is client/README.md's walkthrough, the Go version of
// the README's: create a link token, finish a sandbox session with the
// helper, wait for the jobs, read the paystubs page by page, receive a
// webhook and verify it, and read a typed error, against a real server.
func TestWalkthrough(t *testing.T) {
	srv := sandboxServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	c, err := client.New(srv.URL, srv.Secret)
	if err != nil {
		t.Fatal(err)
	}

	// The platform to log in to.
	search, err := c.SearchWithResponse(ctx, &api.SearchParams{Q: "summit payroll",
		ResponseTypes: &[]api.SearchParamsResponseTypes{api.SearchParamsResponseTypesPlatform}})
	if err != nil {
		t.Fatal(err)
	}
	if len(search.JSON200.Data) == 0 {
		t.Fatal("no platform named like summit payroll")
	}
	platformID := search.JSON200.Data[0].Id

	// 1. A link token for a switch and the data products.
	jobs := []api.JobType{"direct_deposit_switch", "identity", "employment", "income", "paystubs", "tax_forms"}
	token, err := c.CreateLinkTokenWithResponse(ctx, api.LinkTokenCreate{
		OrgName: ptr("Acme Bank"), EndUserId: ptr("go-user"), RequiredJobs: &jobs,
		Allocation: &api.LinkTokenAllocation{Targets: &[]api.AllocationTarget{{
			Name: ptr("Main"), Type: "checking", AccountNumber: "123456789", RoutingNumber: "011000015"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tok := token.JSON200.Data

	// 2. The sandbox helper completes Link as the modal would.
	session, err := c.SandboxLinkSessionWithResponse(ctx, api.SandboxLinkSessionJSONRequestBody{
		Token: tok.Token, PlatformId: &platformID, Username: "user_good", Password: "pass_good",
		Allocation: &api.SandboxAllocation{Action: ptr(api.SandboxLinkSessionJSONBodyAllocationActionPartialSwitch),
			Type: ptr(api.SandboxLinkSessionJSONBodyAllocationTypeAmount), Value: ptr(client.Dollars(15000))},
	})
	if err != nil {
		t.Fatal(err)
	}
	accountID := session.JSON200.Data.AccountId

	// 3. Wait for the six jobs to finish.
	var done []api.Job
	for len(done) < len(jobs) {
		done = done[:0]
		for job, err := range c.Jobs(ctx, &api.ListJobsParams{LinkTokenId: &tok.Id}) {
			if err != nil {
				t.Fatal(err)
			}
			if job.Outcome != api.OutcomePending {
				done = append(done, job)
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the jobs did not finish: %d of %d", len(done), len(jobs))
		}
	}
	for _, job := range done {
		if job.Outcome != api.OutcomeSuccess {
			t.Errorf("job %s: %s %v", job.Name, job.Outcome, job.ErrorCode)
		}
	}

	// 4. Every paystub, five to a page; each adds up.
	n := 0
	for stub, err := range c.Paystubs(ctx, accountID.String(), &api.ListPaystubsParams{Limit: ptr(5)}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		sum := 0
		for _, e := range stub.Earnings {
			sum += e.Amount
		}
		if sum != stub.GrossPayAmount {
			t.Errorf("paystub %s: earnings add up to %d, gross is %d", stub.PayDate, sum, stub.GrossPayAmount)
		}
	}
	if n <= 5 {
		t.Errorf("%d paystubs: the iterator did not go past the first page of 5", n)
	}

	// 5. A webhook, received over TLS and verified.
	deliveries := make(chan error, 1)
	hook := receiver(t, srv, func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		deliveries <- webhook.Verify(srv.Secret, r.Header, body, webhook.DefaultTolerance)
	})
	created, err := c.CreateWebhookWithResponse(ctx, api.CreateWebhookJSONRequestBody{
		Url: hook, EnabledEvents: []string{"account.added"}, Version: api.N20250708})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SandboxTestWebhookWithResponse(ctx, created.JSON200.Data.Id.String()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-deliveries:
		if err != nil {
			t.Errorf("the delivery did not verify: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("no delivery")
	}

	// 6. Errors are typed and carry the request id.
	_, err = c.GetAccountWithResponse(ctx, "00000000-0000-4000-8000-000000000000")
	var apiErr *client.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Type == "" || apiErr.RequestID == "" {
		t.Errorf("an unknown account: %#v", err)
	}
}

// receiver serves handle over TLS with the certificate the server trusts
// and returns its URL.
func receiver(t *testing.T, srv *sandbox, handle http.HandlerFunc) string {
	t.Helper()
	cert, err := tls.LoadX509KeyPair(srv.CertFile, srv.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: handle, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "https://" + ln.Addr().(*net.TCPAddr).String() + "/hooks"
}

func ptr[T any](v T) *T { return &v }
