// Command payline is the Payline service: one binary with the subcommands
// serve, migrate, customers, keys and directory. main only parses and
// wires; the work lives in domain, storage and rest.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

const usage = `usage: payline <command> [flags]

commands:
  serve                       run the API server (default database: sqlite:payline.db)
  version, --version          print the version and the commit it was built from
  ready [--url URL]           exit 0 when the server answers GET /readyz with 200 (a container's
                              health check; default http:// and PAYLINE_ADDR)
  migrate                     apply database migrations and exit
  customers create NAME       add a customer
  customers list              list customers
  keys create --customer NAME --mode MODE [--json]
                              create an API key (and the customer if new); prints the secret once
  keys list [--customer NAME] list API keys (never their secrets)
  keys revoke KEY_ID          revoke an API key
  keys rotate-master [--batch N]
                              seal every secret again under a new master key (the old one in
                              --previous-master-key-file or PAYLINE_PREVIOUS_MASTER_KEY)
  members add --customer NAME --email E --role R [--password-stdin]
                              add a dashboard and admin API member (administrator, developer,
                              reviewer or viewer); prints a one-time password unless one is read
                              from stdin
  members list --customer NAME
                              list a customer's members
  members remove --customer NAME --email E
                              remove a member, ending their sessions and admin tokens
  members reset-password --customer NAME --email E [--password-stdin]
                              give a member a new password (printed once unless read from stdin),
                              ending their sessions and admin tokens
  webhooks listen [--forward-to URL] [--api-url URL] [--events a,b]
                              receive this key's webhooks on a local URL through a connection to the
                              server, or print them without --forward-to (sandbox and development;
                              the secret comes from PAYLINE_API_SECRET)
  directory seed [--employers N]
                              load the generated sandbox employer and platform directory
  audit list [--customer NAME] [--limit N] [--json]
                              print the audit log (key and member changes, sign-ins), newest first
  reports render --end-user ID [--type voie|voe] [--customer NAME] -o FILE.pdf
                              render an end user's verification report from the stored data
  connectors serve-sandbox [--addr ADDR]
                              serve the sandbox connector over the connector protocol
                              (the shared secret comes from PAYLINE_CONNECTOR_SECRET)
  connectors check URL [--users FILE] [--platform ID]... [--json]
                              drive a connector through every scenario of the protocol on each of
                              its platforms and print a pass/skip/FAIL table (or JSON); exits 0
                              only when none fails

Every command that touches data takes --database-url (PAYLINE_DATABASE_URL).
Run "payline <command> -h" for its flags.
`

// errUsage marks a command line that could not be understood; it exits 2.
var errUsage = errors.New("usage")

// errHelp is a -h request: the flag package has printed the help.
var errHelp = errors.New("help")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv)
	switch {
	case err == nil, errors.Is(err, errHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "payline:", err)
		os.Exit(1)
	}
}

// run executes one command line. Tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	env := environment{getenv: getenv, stdout: stdout, stderr: stderr, stdin: os.Stdin}
	switch args[0] {
	case "serve":
		return env.serve(ctx, args[1:])
	case "migrate":
		return env.migrate(ctx, args[1:])
	case "customers":
		return env.customers(ctx, args[1:])
	case "keys":
		return env.keys(ctx, args[1:])
	case "members":
		return env.members(ctx, args[1:])
	case "webhooks":
		return env.webhooks(ctx, args[1:])
	case "directory":
		return env.directory(ctx, args[1:])
	case "reports":
		return env.reports(ctx, args[1:])
	case "audit":
		return env.audit(ctx, args[1:])
	case "connectors":
		return env.connectors(ctx, args[1:])
	case "ready":
		return env.ready(ctx, args[1:])
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, versionLine())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprintf(stderr, "payline: unknown command %q\n\n%s", args[0], usage)
	return errUsage
}
