package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"payline/connectors/protocol"
	"payline/connectors/routing"
	"payline/connectors/upstream"
	"payline/domain"
	"payline/domain/sandbox"
	"payline/rest"
	"payline/storage"
)

// sourcesFile is --connectors: the mode's payroll sources, in preference
// order. Each is a connector (url) or an upstream relay (upstream).
// Secrets are named by the environment variable holding them, never
// written in the file.
type sourcesFile struct {
	Connectors []sourceSpec `json:"connectors"`
}

// sourceSpec is one source of --connectors, or the one --upstream-url or
// --connector-url names.
type sourceSpec struct {
	Name string `json:"name"`
	// URL is a connector protocol server; Upstream a Pinwheel-compatible
	// API to relay to. One of the two.
	URL       string `json:"url"`
	Upstream  string `json:"upstream"`
	SecretEnv string `json:"secret_env"`
	CAFile    string `json:"ca_file"`
	// PlatformIDs and PlatformTypes it takes; an upstream naming neither
	// takes every platform no other source names.
	PlatformIDs   []string `json:"platform_ids"`
	PlatformTypes []string `json:"platform_types"`
	// Rate, for an upstream, is its request budget (--upstream-rate when
	// zero); Version and LinkJS as --upstream-version and
	// --upstream-link-js.
	Rate    float64 `json:"rate"`
	Version string  `json:"version"`
	LinkJS  string  `json:"link_js"`
	// DocumentOrigins, for an upstream, as --upstream-document-origins.
	DocumentOrigins []string `json:"document_origins"`
}

// namedUpstream is an upstream client and its name among the mode's
// sources.
type namedUpstream struct {
	name   string
	client *upstream.Client
}

// builtinConnector is the mode's compiled-in connector: the sandbox's,
// or none outside it.
func (m *Main) builtinConnector() domain.Connector {
	if m.Config.Mode != domain.ModeSandbox {
		return domain.NoConnector{}
	}
	delay := m.Config.SandboxPendingDelay
	if delay <= 0 {
		delay = time.Minute
	}
	return sandbox.Connector{PendingDelay: delay}
}

// sourceSpecs reads the sources --upstream-url, --connector-url or
// --connectors name (serve takes one of the three).
func (m *Main) sourceSpecs() ([]sourceSpec, error) {
	switch {
	case m.Config.UpstreamURL != "":
		return []sourceSpec{{Name: "upstream", Upstream: m.Config.UpstreamURL, SecretEnv: "PAYLINE_UPSTREAM_SECRET",
			CAFile: m.Config.UpstreamCAFile, Version: m.Config.UpstreamVersion, LinkJS: m.Config.UpstreamLinkJS,
			DocumentOrigins: m.Config.UpstreamDocumentOrigins}}, nil
	case m.Config.ConnectorURL != "":
		return []sourceSpec{{URL: m.Config.ConnectorURL, SecretEnv: "PAYLINE_CONNECTOR_SECRET", CAFile: m.Config.ConnectorCAFile}}, nil
	case m.Config.ConnectorsFile == "":
		return nil, nil
	}
	raw, err := os.ReadFile(m.Config.ConnectorsFile)
	if err != nil {
		return nil, fmt.Errorf("--connectors: %w", err)
	}
	var f sourcesFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("--connectors %s: %w", m.Config.ConnectorsFile, err)
	}
	if len(f.Connectors) == 0 {
		return nil, fmt.Errorf("--connectors %s names no connector", m.Config.ConnectorsFile)
	}
	for i, c := range f.Connectors {
		if c.Name == "" || (c.URL == "") == (c.Upstream == "") || c.SecretEnv == "" {
			return nil, fmt.Errorf("--connectors %s: entry %d needs a name, a url (a connector) or an upstream (a relay) but not both, and secret_env (the environment variable holding its secret)",
				m.Config.ConnectorsFile, i+1)
		}
	}
	return f.Connectors, nil
}

// routeSources builds the one route table of the mode's payroll sources
// (connectors/routing): each upstream is asked once whether it takes its
// secret, each connector what it serves; one line stops serve when one
// does not answer or refuses. A connector takes the platforms the file
// names by id, then those its capabilities list that no other source
// names, then the platform types the file gives it; an upstream the
// platforms and types the file gives it, or every platform when it gives
// none; every other platform stays with the mode's compiled-in
// connector. Where several sources take a platform, the file's order is
// the preference (new link tokens fail over down it).
func (m *Main) routeSources(ctx context.Context, s *starting) error {
	specs, err := m.sourceSpecs()
	if err != nil {
		return err
	}
	s.connector, s.relay = m.builtinConnector(), domain.NoRelay{}
	if len(specs) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	routes := make([]routing.Route, len(specs))
	listed := make([][]string, len(specs))
	named := map[string]bool{}
	for i, spec := range specs {
		secret := ""
		if m.Getenv != nil {
			secret = m.Getenv(spec.SecretEnv)
		}
		if spec.Upstream != "" {
			if routes[i], err = m.upstreamRoute(ctx, spec, secret, len(specs) > 1); err != nil {
				return err
			}
			s.upstreams = append(s.upstreams, namedUpstream{name: spec.Name, client: routes[i].Upstream.(*upstream.Client)})
		} else {
			caps, route, err := m.connectorRoute(ctx, spec, secret)
			if err != nil {
				return err
			}
			routes[i] = route
			s.capabilities = append(s.capabilities, caps)
			for _, p := range caps.Platforms {
				listed[i] = append(listed[i], p.ID)
			}
		}
		for _, id := range spec.PlatformIDs {
			named[id] = true
		}
	}
	// What a connector lists is its own unless the file gave it to another.
	for i := range routes {
		for _, id := range listed[i] {
			if !named[id] {
				routes[i].PlatformIDs = append(routes[i].PlatformIDs, id)
			}
		}
	}
	router, err := routing.New(routes, s.connector, routing.Options{
		TypeOf: func(ctx context.Context, id string) (domain.PlatformType, error) {
			p, err := m.directory.Platform(ctx, id)
			return p.Type, err
		},
		SourceOf: func(ctx context.Context, a domain.Account) (string, bool, error) {
			l, err := s.tx.Upstream().UpstreamLink(ctx, domain.Scope{CustomerID: a.CustomerID, Mode: a.Mode}, a.LinkTokenID)
			if errors.Is(err, domain.ErrNoRows) {
				return "", false, nil
			}
			return l.Source, err == nil, err
		},
		Syncing: m.directorySyncing(),
	})
	if err != nil {
		where := "--connectors " + m.Config.ConnectorsFile
		return fmt.Errorf("%s: %w (name the platform in one connector's platform_ids)", where, err)
	}
	for _, r := range routes {
		kind := "connector"
		if r.Upstream != nil {
			kind = "upstream"
		}
		m.Logger.Info("payroll platforms go to a source", slog.String("source", r.Name), slog.String("kind", kind),
			slog.Int("platforms", len(r.PlatformIDs)), slog.Any("platform_types", r.PlatformTypes), slog.Bool("every_platform", r.All))
	}
	s.connector, s.relay = router, router.Relay()
	if len(s.upstreams) > 0 && strings.TrimRight(m.Config.PublicURL, "/") == "" {
		return fmt.Errorf("--public-url is needed with an upstream: the upstream delivers its events to {public-url}/v1/upstream/webhooks")
	}
	return nil
}

// upstreamRoute makes an upstream's client and checks it answers and
// takes the secret: one request, whatever the size of its directory,
// which syncs in the background once the queue runs. Among several
// sources (others), an upstream that does not answer within
// startVerifyTimeout is no reason to stop: serve starts, the upstream's
// platforms fail over to the next source that covers them (its client's
// circuit passes it over at once after a few tries), and its webhook,
// directory and data come as soon as it answers. A refused secret still
// stops serve: that is a mistake to mend, not an outage.
func (m *Main) upstreamRoute(ctx context.Context, spec sourceSpec, secret string, others bool) (routing.Route, error) {
	if secret == "" {
		return routing.Route{}, fmt.Errorf("%s is not set: the relay needs upstream %q's API secret", spec.SecretEnv, spec.Name)
	}
	up, err := upstream.New(upstream.Config{URL: spec.Upstream, BudgetName: spec.Name + "@" + spec.Upstream, Secret: secret, Version: cmp.Or(spec.Version, m.Config.UpstreamVersion),
		LinkJS: spec.LinkJS, CAFile: spec.CAFile, Rate: cmp.Or(spec.Rate, m.Config.UpstreamRate), DocumentOrigins: spec.DocumentOrigins})
	if err != nil {
		return routing.Route{}, fmt.Errorf("upstream %q: %w", spec.Name, err)
	}
	vctx := ctx
	if others {
		var cancel context.CancelFunc
		vctx, cancel = context.WithTimeout(ctx, startVerifyTimeout)
		defer cancel()
	}
	if err := up.Verify(vctx); err != nil {
		var de *domain.Error
		unreachable := errors.As(err, &de) && de.Code == domain.CodeUpstreamUnavailable || vctx.Err() != nil && ctx.Err() == nil
		if !others || !unreachable {
			return routing.Route{}, err
		}
		m.Logger.Warn("an upstream did not answer at start; serving through the other sources until it does",
			slog.String("upstream", spec.Name), slog.Any("error", err))
	}
	r := routing.Route{Name: spec.Name, Connector: up, Upstream: up, PlatformIDs: spec.PlatformIDs,
		All: len(spec.PlatformIDs) == 0 && len(spec.PlatformTypes) == 0}
	r.PlatformTypes, err = platformTypes(spec)
	return r, err
}

// connectorRoute makes a connector's client and asks what it serves (a
// URL that does not answer, a secret it refuses or another protocol
// version stops serve with one line).
func (m *Main) connectorRoute(ctx context.Context, spec sourceSpec, secret string) (protocol.Capabilities, routing.Route, error) {
	label := fmt.Sprintf("connector %q", spec.Name)
	if spec.Name == "" {
		label = "the connector at " + spec.URL
	}
	if secret == "" {
		return protocol.Capabilities{}, routing.Route{}, fmt.Errorf("%s: %s is not set (its secret)", label, spec.SecretEnv)
	}
	c, err := protocol.New(protocol.Config{URL: spec.URL, Secret: secret, CAFile: spec.CAFile})
	if err != nil {
		return protocol.Capabilities{}, routing.Route{}, fmt.Errorf("%s: %w", label, err)
	}
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return protocol.Capabilities{}, routing.Route{}, fmt.Errorf("%s at %s: %w", label, spec.URL, err)
	}
	r := routing.Route{Name: cmp.Or(spec.Name, caps.Name), Connector: c, PlatformIDs: append([]string(nil), spec.PlatformIDs...)}
	r.PlatformTypes, err = platformTypes(spec)
	return caps, r, err
}

// startVerifyTimeout bounds serve's first request to each of several
// upstreams: one that hangs delays the start this long, no more.
const startVerifyTimeout = 5 * time.Second

func platformTypes(spec sourceSpec) ([]domain.PlatformType, error) {
	var out []domain.PlatformType
	for _, t := range spec.PlatformTypes {
		pt, ok := domain.ParsePlatformType(t)
		if !ok {
			return nil, fmt.Errorf("source %q: platform type %q is not payroll, time_and_attendance, tax or merchant", spec.Name, t)
		}
		out = append(out, pt)
	}
	return out, nil
}

// addConnectorsPlatforms puts the platforms the connectors serve that the
// directory lacks into it, so Link finds them.
func (m *Main) addConnectorsPlatforms(ctx context.Context, s *starting) error {
	for _, caps := range s.capabilities {
		added, err := m.addConnectorPlatforms(ctx, caps, s.clock.Now())
		if err != nil {
			return err
		}
		m.Logger.Info("payroll platforms go to the connector", slog.String("connector", caps.Name),
			slog.Int("platforms", len(caps.Platforms)), slog.Int("added_to_directory", added))
	}
	return nil
}

// startRelays makes the relay use cases of each upstream (ingest,
// reconciliation, directory sync), once the queue they write to exists.
func (m *Main) startRelays(_ context.Context, s *starting) error {
	// One budget per upstream across every instance: in Redis when they
	// share one, else in PostgreSQL; on SQLite (one instance, as a rule)
	// each process keeps its own, and a transaction a request would only
	// slow the one writer down.
	var shared domain.UpstreamBudgets
	switch {
	case m.redis != nil:
		shared = storage.NewRedisUpstreamBudgets(m.redis)
	case m.db.Dialect == storage.Postgres:
		shared = storage.NewSQLUpstreamBudgets(m.db)
	}
	for _, up := range s.upstreams {
		if shared != nil {
			up.client.ShareBudget(shared)
		}
	}
	for _, up := range s.upstreams {
		m.relays = append(m.relays, domain.NewRelayService(s.tx, up.name, up.client, m.directory, s.clock, m.Logger))
	}
	return nil
}

// upstreamBudgets reads each upstream's request budget for /metrics.
func (s *starting) upstreamBudgets() []rest.UpstreamBudget {
	out := make([]rest.UpstreamBudget, 0, len(s.upstreams))
	for _, up := range s.upstreams {
		st := up.client.Stats()
		out = append(out, rest.UpstreamBudget{Upstream: up.name, Spent: st.Spent, Limited: st.Limited, Waits: st.Waits,
			Waiting: st.Waiting, Rate: st.Rate, MaxRate: st.MaxRate})
	}
	return out
}

// linkOrigins are the origins of the upstreams' Link SDKs, which the
// modal loads and frames.
func (s *starting) linkOrigins() []string {
	var out []string
	for _, up := range s.upstreams {
		out = append(out, up.client.LinkOrigin())
	}
	return out
}

// directorySyncing reports whether any upstream's directory has not
// completed its first sync (searches then ask the upstreams too). Once
// every one has, it stays so: no more reads.
func (m *Main) directorySyncing() func(ctx context.Context) bool {
	var synced atomic.Bool
	return func(ctx context.Context) bool {
		if synced.Load() || len(m.relays) == 0 {
			return false
		}
		for _, r := range m.relays {
			if st, err := r.DirectoryStatus(ctx); err != nil || st.CompletedAt.IsZero() {
				return true
			}
		}
		synced.Store(true)
		return false
	}
}

// splitList reads a comma-separated flag: its items, trimmed, without
// empty ones.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
