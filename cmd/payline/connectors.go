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
	fmt.Fprint(e.stderr, "usage: payline connectors serve-sandbox [--addr ADDR] | payline connectors check URL [--users FILE] [--platform ID]... [--json]\n"+
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

// checkUsage is connectors check's synopsis.
const checkUsage = "usage: payline connectors check URL [--users FILE] [--platform ID]... [--json]"

// checkConnector runs the conformance kit and prints a table (or JSON);
// it fails when any scenario failed (a skipped one does not).
func (e environment) checkConnector(ctx context.Context, args []string) error {
	fs := e.flagSet("connectors check")
	usersFile := fs.String("users", "", "a JSON file naming the connector's test users for each login scenario "+
		`({"password", "good", "mfa", "mfa_code", "locked", "job_error", "job_pending"}); default the sandbox's`)
	var platforms []string
	fs.Func("platform", "check only this platform id of the connector's (repeat for several); default every platform it lists",
		func(id string) error { platforms = append(platforms, id); return nil })
	asJSON := fs.Bool("json", false, "print the results as JSON (for CI) instead of a table")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, checkUsage)
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
	results := conformance.Check(ctx, fs.Arg(0), secret, users, nil, platforms...)
	n := tally(results)
	if *asJSON {
		err = e.printCheckJSON(fs.Arg(0), results, n)
	} else {
		err = e.printCheckTable(results, n)
	}
	if err != nil {
		return err
	}
	if n.Failed > 0 {
		return fmt.Errorf("%w: %d of %d scenarios failed", errChecksFailed, n.Failed, len(results))
	}
	return nil
}

// checkCounts are how many scenarios passed, failed and were skipped.
type checkCounts struct {
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
}

func tally(results []conformance.Result) checkCounts {
	var n checkCounts
	for _, r := range results {
		switch r.State {
		case conformance.Passed:
			n.Passed++
		case conformance.Skipped:
			n.Skipped++
		default:
			n.Failed++
		}
	}
	return n
}

// printCheckTable prints one row per scenario, then each problem found in
// the products' data, then the counts.
func (e environment) printCheckTable(results []conformance.Result, n checkCounts) error {
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "SCENARIO\tRESULT\tDETAIL")
	for _, r := range results {
		verdict := map[conformance.State]string{conformance.Passed: "pass", conformance.Skipped: "skip"}[r.State]
		if verdict == "" {
			verdict = "FAIL"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", r.Scenario, verdict, r.Reason)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	var problems []string
	for _, r := range results {
		problems = append(problems, r.Problems...)
	}
	if len(problems) > 0 {
		fmt.Fprintln(e.stdout, "\nPROBLEMS IN THE DATA (platform · product · item · field)")
		for _, p := range problems {
			fmt.Fprintln(e.stdout, "  "+p)
		}
	}
	_, err := fmt.Fprintf(e.stdout, "%d of %d scenarios passed, %d skipped, %d failed\n", n.Passed, len(results), n.Skipped, n.Failed)
	return err
}

// checkReport is connectors check --json's output (docs/connectors.md).
type checkReport struct {
	Connector string               `json:"connector"`
	Passed    bool                 `json:"passed"`
	Counts    checkCounts          `json:"counts"`
	Results   []conformance.Result `json:"results"`
}

func (e environment) printCheckJSON(url string, results []conformance.Result, n checkCounts) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(checkReport{Connector: url, Passed: conformance.AllPassed(results), Counts: n, Results: results})
}
