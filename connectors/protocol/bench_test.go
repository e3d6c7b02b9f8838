package protocol_test

import (
	"context"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// BenchmarkConnectorCalls compares each connector call made in process on
// the sandbox with the same call over the protocol on loopback (signing,
// HTTP, JSON both ways, verifying), alternating under -count. The bar:
// the protocol adds at most 2 ms per call (docs/benchmarks.md).
func BenchmarkConnectorCalls(b *testing.B) {
	direct := sandbox.Connector{PendingDelay: time.Hour}
	platforms, _ := sandbox.Directory(10)
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000b1", CustomerID: "c", EndUserID: "bench", PlatformID: platforms[0].ID,
		EmployerName: "Sycamore Publishing Inc", Connection: "good", CreatedAt: now.AddDate(0, 0, -3)}
	j := domain.Job{ID: "0195f0a0-0000-7000-8000-0000000000b2", Name: domain.JobPaystubs, CreatedAt: now}
	ctx := context.Background()
	calls := []struct {
		name string
		call func(c domain.Connector) error
	}{
		{"login", func(c domain.Connector) error {
			_, err := c.Login(ctx, platforms[0], domain.Credentials{Username: sandbox.UserGood, Password: sandbox.Password})
			return err
		}},
		{"run", func(c domain.Connector) error { _, err := c.Run(ctx, j, a, now, now); return err }},
		{"fetch-identity", func(c domain.Connector) error {
			_, err := c.Fetch(ctx, domain.FetchRequest{Account: a, Product: domain.ProductIdentity, Now: now})
			return err
		}},
		{"fetch-paystubs", func(c domain.Connector) error {
			_, err := c.Fetch(ctx, domain.FetchRequest{Account: a, Product: domain.ProductPaystubs, Since: now.Add(-domain.PaystubHistory), Now: now})
			return err
		}},
	}
	client := servedB(b, direct)
	for _, c := range calls {
		for _, via := range []struct {
			name string
			c    domain.Connector
		}{{"in-process", direct}, {"protocol", client}} {
			b.Run(c.name+"/"+via.name, func(b *testing.B) {
				for b.Loop() {
					if err := c.call(via.c); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
