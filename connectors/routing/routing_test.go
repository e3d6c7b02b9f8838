package routing_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"payline/connectors/routing"
	"payline/domain"
)

// named is a connector that answers with its name and records its calls.
type named struct {
	name  string
	calls *[]string
}

func (n named) Login(_ context.Context, p domain.Platform, _ domain.Credentials) (string, error) {
	*n.calls = append(*n.calls, n.name+" login "+p.ID)
	return n.name, nil
}

func (n named) Match(_ context.Context, _ domain.PlatformMatching, candidates []domain.Platform) []domain.Platform {
	for _, c := range candidates {
		*n.calls = append(*n.calls, n.name+" match "+c.ID)
	}
	return candidates[:1]
}

func (n named) Run(_ context.Context, j domain.Job, a domain.Account, _, _ time.Time) (domain.JobResult, error) {
	*n.calls = append(*n.calls, n.name+" run "+a.PlatformID)
	return domain.JobResult{Outcome: domain.OutcomeSuccess}, nil
}

func (n named) Fetch(_ context.Context, r domain.FetchRequest) (domain.Fetched, error) {
	*n.calls = append(*n.calls, n.name+" fetch "+r.Account.PlatformID)
	return domain.Fetched{}, nil
}

// TestRouting: a platform goes to the connector naming its id, else the
// one naming its type, else the fallback; matching asks each connector
// about its own candidates only; a platform claimed twice is refused.
func TestRouting(t *testing.T) {
	var calls []string
	a, b, builtin := named{"a", &calls}, named{"b", &calls}, named{"builtin", &calls}
	types := map[string]domain.PlatformType{"p1": domain.PlatformPayroll, "p2": domain.PlatformMerchant, "p3": domain.PlatformTax}
	typeOf := func(_ context.Context, id string) (domain.PlatformType, error) {
		if t, ok := types[id]; ok {
			return t, nil
		}
		return "", errors.New("no such platform")
	}
	r, err := routing.New([]routing.Route{
		{Name: "a", Connector: a, PlatformIDs: []string{"p1"}},
		{Name: "b", Connector: b, PlatformTypes: []domain.PlatformType{domain.PlatformMerchant, domain.PlatformPayroll}},
	}, builtin, routing.Options{TypeOf: typeOf})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, p := range []domain.Platform{{ID: "p1", Type: domain.PlatformPayroll}, {ID: "p2", Type: domain.PlatformMerchant}, {ID: "p3", Type: domain.PlatformTax}} {
		if _, err := r.Login(ctx, p, domain.Credentials{}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Run(ctx, domain.Job{}, domain.Account{PlatformID: p.ID}, time.Now(), time.Now()); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Fetch(ctx, domain.FetchRequest{Account: domain.Account{PlatformID: p.ID}}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a login p1", "a run p1", "a fetch p1", "b login p2", "b run p2", "b fetch p2", "builtin login p3", "builtin run p3", "builtin fetch p3"}
	if !slices.Equal(calls, want) {
		t.Errorf("calls\n got %v\nwant %v", calls, want)
	}
	calls = nil
	got := r.Match(ctx, domain.PlatformMatching{}, []domain.Platform{{ID: "p1", Type: domain.PlatformPayroll}, {ID: "p2", Type: domain.PlatformMerchant},
		{ID: "p4", Type: domain.PlatformMerchant}, {ID: "p3", Type: domain.PlatformTax}})
	if want := []string{"a match p1", "b match p2", "b match p4", "builtin match p3"}; !slices.Equal(calls, want) {
		t.Errorf("match calls %v, want %v", calls, want)
	}
	if len(got) != 3 || got[0].ID != "p1" || got[1].ID != "p2" || got[2].ID != "p3" {
		t.Errorf("matched %v", got)
	}
	if _, err := r.Run(ctx, domain.Job{}, domain.Account{PlatformID: "unknown"}, time.Now(), time.Now()); err == nil {
		t.Error("a platform the directory lacks was routed")
	}
	if _, err := routing.New([]routing.Route{{Name: "a", Connector: a, PlatformIDs: []string{"p1"}}, {Name: "b", Connector: b, PlatformIDs: []string{"p1"}}},
		builtin, routing.Options{TypeOf: typeOf}); err == nil {
		t.Error("a platform claimed twice was accepted")
	}
}

// hanging is an upstream that answers a link token only when it does not
// hang; otherwise it waits for the caller to give up.
type hanging struct {
	domain.Upstream // the methods this test does not call
	domain.Connector
	name string
	hang bool
}

func (h hanging) CreateLinkToken(ctx context.Context, _ domain.LinkTokenRequest, _ string) (domain.UpstreamToken, error) {
	if h.hang {
		<-ctx.Done()
		return domain.UpstreamToken{}, ctx.Err()
	}
	return domain.UpstreamToken{Token: h.name}, nil
}

func (h hanging) Platform(ctx context.Context, id string) (domain.Platform, error) {
	if h.hang {
		<-ctx.Done()
		return domain.Platform{}, ctx.Err()
	}
	return domain.Platform{ID: id, Name: h.name}, nil
}

// TestHungUpstreamFailsOver (issue 47, item 4): a new link token and a
// directory lookup wait on an upstream that hangs only the router's
// failover bound, then go to the next upstream; the last upstream that
// could answer is waited on for as long as the caller allows.
func TestHungUpstreamFailsOver(t *testing.T) {
	sourceOf := func(context.Context, domain.Account) (string, bool, error) { return "", false, nil }
	r, err := routing.New([]routing.Route{
		{Name: "hung", Connector: hanging{name: "hung", hang: true}, Upstream: hanging{name: "hung", hang: true}, All: true},
		{Name: "good", Connector: hanging{name: "good"}, Upstream: hanging{name: "good"}, All: true},
	}, nil, routing.Options{SourceOf: sourceOf, FailoverAfter: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	// The caller would wait an hour: only the failover bound lets the
	// token through.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	tok, relayed, err := r.Relay().CreateLinkToken(ctx, domain.LinkTokenRequest{}, "erin")
	if err != nil || !relayed || tok.Source != "good" || tok.Token != "good" {
		t.Fatalf("token = %+v relayed %v err %v; want the good upstream's", tok, relayed, err)
	}
	p, err := r.Relay().Platform(ctx, "p1")
	if err != nil || p.Name != "good" {
		t.Fatalf("platform = %+v, %v; want the good upstream's answer", p, err)
	}

	// The hung upstream alone: nothing to fail over to, so the caller's
	// own deadline ends the wait, as UPSTREAM_UNAVAILABLE or its error.
	alone, err := routing.New([]routing.Route{
		{Name: "hung", Connector: hanging{name: "hung", hang: true}, Upstream: hanging{name: "hung", hang: true}, All: true},
	}, nil, routing.Options{SourceOf: sourceOf, FailoverAfter: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	short, cancelShort := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelShort()
	if _, _, err := alone.Relay().CreateLinkToken(short, domain.LinkTokenRequest{}, "erin"); err == nil {
		t.Fatal("a hung upstream alone gave a token")
	}
	if short.Err() == nil {
		t.Fatal("the only upstream was given up on before the caller's deadline: the failover bound applies only when another upstream could answer")
	}
}
