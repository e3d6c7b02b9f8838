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

// recording is an upstream that records what it is asked and answers
// directory lookups only for what it holds.
type recording struct {
	domain.Upstream // the methods this test does not call
	named
	employers map[string]domain.Employer // by id and by EIN
	results   []domain.SearchResult
}

func (u recording) Act(_ context.Context, accountID, action string) error {
	*u.calls = append(*u.calls, u.name+" "+action+" "+accountID)
	return nil
}

func (u recording) SetBillNavigatorStatus(_ context.Context, endUser, action, _ string) error {
	*u.calls = append(*u.calls, u.name+" bill navigator "+action+" "+endUser)
	if u.name == "b" {
		return domain.ErrNoRows // b does not know the end user: nothing to change there
	}
	return nil
}

func (u recording) Employer(_ context.Context, id string) (domain.Employer, error) {
	if e, ok := u.employers[id]; ok {
		return e, nil
	}
	return domain.Employer{}, domain.ErrNoRows
}

func (u recording) EmployerByEIN(ctx context.Context, ein string) (domain.Employer, error) {
	return u.Employer(ctx, ein)
}

func (u recording) Search(_ context.Context, q domain.SearchQuery) ([]domain.SearchResult, error) {
	*u.calls = append(*u.calls, u.name+" search "+q.Q)
	return u.results, nil
}

// TestRelayActsWhereTheAccountLives: account actions go to the upstream
// that holds the account (the first upstream for accounts made before
// sources had names, an error for one no longer configured); bill
// navigator changes go to every upstream, one that does not know the end
// user being no failure; directory lookups ask each upstream in order
// until one has it; searches ask the upstreams only while a directory is
// still syncing, until the limit is met; and a relayed account's jobs run
// at its upstream whatever its platform's preferred source.
func TestRelayActsWhereTheAccountLives(t *testing.T) {
	var calls []string
	acme := domain.Employer{ID: "e1", Name: "Acme", EIN: "12-3456789"}
	a := recording{named: named{"a", &calls}}
	b := recording{named: named{"b", &calls}, employers: map[string]domain.Employer{"e1": acme, "12-3456789": acme},
		results: []domain.SearchResult{{ResponseType: domain.ResponseEmployer, Employer: &acme}}}
	syncing := true
	sources := map[string]string{"acct-b": "b", "acct-old": "", "acct-gone": "c"}
	r, err := routing.New([]routing.Route{
		{Name: "a", Connector: a, Upstream: a, PlatformIDs: []string{"p1"}},
		{Name: "b", Connector: b, Upstream: b, PlatformIDs: []string{"p1"}},
	}, named{"builtin", &calls}, routing.Options{
		SourceOf: func(_ context.Context, acct domain.Account) (string, bool, error) {
			s, ok := sources[acct.ID]
			return s, ok, nil
		},
		Syncing: func(context.Context) bool { return syncing },
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	relay := r.Relay()
	for _, c := range []struct{ source, account string }{{"b", "acct-b"}, {"", "acct-old"}} {
		if err := relay.Act(ctx, c.source, c.account, "disconnect"); err != nil {
			t.Fatal(err)
		}
	}
	if err := relay.Act(ctx, "c", "acct-gone", "disconnect"); err == nil {
		t.Error("an action at an upstream no longer configured succeeded")
	}
	if err := relay.SetBillNavigatorStatus(ctx, "erin", "pause", "moving"); err != nil {
		t.Errorf("bill navigator: %v", err)
	}
	if e, err := relay.EmployerByEIN(ctx, "12-3456789"); err != nil || e.ID != "e1" {
		t.Errorf("employer by EIN: %+v, %v; want b's", e, err)
	}
	if e, err := relay.Employer(ctx, "e1"); err != nil || e.ID != "e1" {
		t.Errorf("employer: %+v, %v; want b's", e, err)
	}
	if _, err := relay.Employer(ctx, "nobody"); !errors.Is(err, domain.ErrNoRows) {
		t.Errorf("an employer no upstream has: %v; want ErrNoRows", err)
	}
	res, err := relay.Search(ctx, domain.SearchQuery{Q: "acme", Limit: 1})
	if err != nil || len(res) != 1 {
		t.Errorf("search while syncing: %v, %v; want b's one result", res, err)
	}
	syncing = false
	if res, err := relay.Search(ctx, domain.SearchQuery{Q: "later", Limit: 5}); err != nil || len(res) != 0 {
		t.Errorf("search once synced asked the upstreams: %v, %v", res, err)
	}
	// Jobs: a relayed account runs at its upstream, an old one at the
	// first, one no longer configured is an error, and an account that is
	// not relayed at its platform's preferred source.
	for _, acct := range []domain.Account{{ID: "acct-b", PlatformID: "p1"}, {ID: "acct-old", PlatformID: "p1"}, {ID: "local", PlatformID: "p1"}} {
		if _, err := r.Run(ctx, domain.Job{}, acct, time.Time{}, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := r.Run(ctx, domain.Job{}, domain.Account{ID: "acct-gone", PlatformID: "p1"}, time.Time{}, time.Time{}); err == nil {
		t.Error("a job of an account at an upstream no longer configured ran")
	}
	want := []string{
		"b disconnect acct-b", "a disconnect acct-old",
		"a bill navigator pause erin", "b bill navigator pause erin",
		"a search acme", "b search acme",
		"b run p1", "a run p1", "a run p1",
	}
	if !slices.Equal(calls, want) {
		t.Errorf("calls:\n%q\nwant\n%q", calls, want)
	}
}
