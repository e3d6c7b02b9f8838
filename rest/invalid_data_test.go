package rest

import (
	"context"
	"encoding/json"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// spoilingConnector answers as its connector until spoil is set; then it
// sends an identity without a full name and paystubs without a currency
// or a pay period, as a broken connector or upstream would.
type spoilingConnector struct {
	domain.Connector
	spoil *atomic.Bool
}

func (c spoilingConnector) Fetch(ctx context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	f, err := c.Connector.Fetch(ctx, r)
	if err != nil || !c.spoil.Load() {
		return f, err
	}
	if f.Identity != nil {
		f.Identity.FullName = ""
	}
	for i := range f.Paystubs {
		f.Paystubs[i].Currency, f.Paystubs[i].PayPeriodStart = "", ""
	}
	return f, nil
}

// TestInvalidDataKeepsTheLastGoodData: once a source sends data that
// fails its rules, a job reading it ends in error with
// INVALID_CONNECTOR_DATA and an event naming the fields, a monitoring
// refresh stores nothing of it, and the data read before stays served.
func TestInvalidDataKeepsTheLastGoodData(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		spoil := &atomic.Bool{}
		f := newFixture(t, db, func(s *fixtureSetup) {
			s.wrapConnector = func(c domain.Connector) domain.Connector { return spoilingConnector{c, spoil} }
		})
		good, _ := f.connectWithJobs("keeps-data", "identity", "paystubs")
		identity := string(f.get("/v1/accounts/" + good + "/identity").raw)
		stubs := string(f.get("/v1/accounts/" + good + "/paystubs?limit=100").raw)

		spoil.Store(true)
		f.clock.advance(45 * 24 * time.Hour) // a pay date passes: a refresh would add paystubs
		f.refreshMonitored()
		if got := string(f.get("/v1/accounts/" + good + "/identity").raw); got != identity {
			t.Errorf("identity after a bad refresh:\n%s\nwant\n%s", got, identity)
		}
		if got := string(f.get("/v1/accounts/" + good + "/paystubs?limit=100").raw); got != stubs {
			t.Errorf("paystubs changed after a bad refresh")
		}

		_, tokenID := f.connectWithJobs("gets-bad-data", "identity", "paystubs")
		for _, j := range f.get("/v1/jobs?link_token_id=" + tokenID).list(t) {
			if j["outcome"] != "error" || j["error_code"] != domain.CodeInvalidConnectorData || j["error_type"] != domain.ErrorTypePlatform {
				t.Errorf("job %v: %v %v/%v", j["name"], j["outcome"], j["error_type"], j["error_code"])
			}
		}
		events, err := storage.NewTransactor(f.db, nil).ListEvents(context.Background(), f.key.Scope())
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{"identity.added": {"full_name"}, "paystubs.added": {"pay_period_start", "currency"}}
		for _, e := range events {
			var p struct {
				LinkTokenID   string   `json:"link_token_id"`
				InvalidFields []string `json:"invalid_fields"`
			}
			if json.Unmarshal(e.Payload, &p) != nil || p.LinkTokenID != tokenID {
				continue
			}
			for _, field := range want[e.Name] {
				if !slices.Contains(p.InvalidFields, field) {
					t.Errorf("%s names %v, not %s", e.Name, p.InvalidFields, field)
				}
			}
			delete(want, e.Name)
		}
		if len(want) > 0 {
			t.Errorf("no event for %v", want)
		}
	})
}
