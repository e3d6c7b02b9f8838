package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"text/tabwriter"
	"time"

	"payline/connectors/protocol"
	"payline/connectors/protocol/conformance"
	"payline/domain"
	"payline/domain/sandbox"
)

// connectors serves the sandbox over the connector protocol, or checks a
// connector against it.
func (e environment) connectors(ctx context.Context, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "serve-sandbox":
			return e.serveSandboxConnector(ctx, args[1:])
		case "check":
			return e.checkConnector(ctx, args[1:])
		}
	}
	fmt.Fprint(e.stderr, "usage: payline connectors serve-sandbox [--addr ADDR] | payline connectors check URL [--users FILE]\n"+
		"  (both read the shared secret from PAYLINE_CONNECTOR_SECRET)\n")
	return errUsage
}

// connectorSecret is the protocol's shared secret, which is never a flag.
func (e environment) connectorSecret(cmd string) (string, error) {
	s := e.getenv("PAYLINE_CONNECTOR_SECRET")
	if s == "" {
		fmt.Fprintf(e.stderr, "payline %s: set PAYLINE_CONNECTOR_SECRET to the secret Payline and the connector share\n", cmd)
		return "", errUsage
	}
	return s, nil
}

// serveSandboxConnector serves the compiled-in sandbox connector over the
// protocol, so serve --connector-url can run Payline's sandbox out of
// process, and connectors check has a reference to pass.
func (e environment) serveSandboxConnector(ctx context.Context, args []string) error {
	fs := e.flagSet("connectors serve-sandbox")
	addr := fs.String("addr", e.envOr("PAYLINE_CONNECTOR_ADDR", "127.0.0.1:8090"), "the address to serve the protocol on (PAYLINE_CONNECTOR_ADDR)")
	pending := fs.Duration("sandbox-pending-delay", time.Minute, "how long user_pending's jobs stay pending before they fail")
	tlsCert := fs.String("tls-cert", "", "PEM certificate to serve HTTPS with (needed off loopback: Payline sends credentials only over TLS)")
	tlsKey := fs.String("tls-key", "", "PEM private key of --tls-cert")
	if err := parse(fs, args); err != nil {
		return err
	}
	secret, err := e.connectorSecret("connectors serve-sandbox")
	if err != nil {
		return err
	}
	if (*tlsCert == "") != (*tlsKey == "") {
		fmt.Fprintln(e.stderr, "payline connectors serve-sandbox: --tls-cert and --tls-key go together")
		return errUsage
	}
	logger := e.logger("text", 0)
	platforms, _ := sandbox.Directory(sandbox.DefaultEmployerCount)
	handler := protocol.NewServer("payline sandbox", sandbox.Connector{PendingDelay: *pending}, platforms, secret, domain.SystemClock{}, logger)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	scheme := "http"
	if *tlsCert != "" {
		scheme = "https"
	}
	fmt.Fprintf(e.stdout, "serving the sandbox connector (protocol v%s, %d platforms) at %s://%s\n", protocol.Version, len(platforms), scheme, ln.Addr())
	errc := make(chan error, 1)
	go func() {
		if *tlsCert != "" {
			errc <- srv.ServeTLS(ln, *tlsCert, *tlsKey)
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// errChecksFailed is a connector that failed a conformance scenario.
var errChecksFailed = errors.New("the connector failed the conformance check")

// checkConnector runs the conformance kit and prints a table; it fails
// unless every scenario passed.
func (e environment) checkConnector(ctx context.Context, args []string) error {
	fs := e.flagSet("connectors check")
	usersFile := fs.String("users", "", "a JSON file naming the connector's test users for each login scenario "+
		`({"password", "good", "mfa", "mfa_code", "locked", "job_error", "job_pending"}); default the sandbox's`)
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "usage: payline connectors check URL [--users FILE]")
		return errUsage
	}
	secret, err := e.connectorSecret("connectors check")
	if err != nil {
		return err
	}
	users := conformance.DefaultUsers
	if *usersFile != "" {
		raw, err := os.ReadFile(*usersFile)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &users); err != nil {
			return fmt.Errorf("--users %s: %w", *usersFile, err)
		}
	}
	results := conformance.Check(ctx, fs.Arg(0), secret, users, nil)
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SCENARIO\tRESULT\tDETAIL")
	failed := 0
	for _, r := range results {
		verdict := "pass"
		if !r.Passed {
			verdict, failed = "FAIL", failed+1
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", r.Scenario, verdict, r.Reason)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%d of %d scenarios passed\n", len(results)-failed, len(results))
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d scenarios failed", errChecksFailed, failed, len(results))
	}
	return nil
}
