package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"payline/domain"
)

// audit runs `payline audit list`: the append-only audit log of every
// customer (or one), every mode, newest first.
func (e environment) audit(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "list" {
		fmt.Fprint(e.stderr, "usage: payline audit list [--customer NAME] [--limit N] [--json]\n")
		return errUsage
	}
	fs := e.flagSet("audit list")
	d := e.addDataFlags(fs)
	customer := fs.String("customer", "", "only this customer's entries")
	limit := fs.Int("limit", 100, "at most this many entries, newest first")
	asJSON := fs.Bool("json", false, "one JSON object per line")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *limit < 1 {
		fmt.Fprintln(e.stderr, "payline audit list: --limit must be at least 1")
		return errUsage
	}
	db, keys, err := e.openStores(ctx, d)
	if err != nil {
		return err
	}
	defer db.Close()
	customers, err := keys.Customers(ctx)
	if err != nil {
		return err
	}
	names := map[string]string{}
	var entries []domain.AuditEntry
	for _, c := range customers {
		if *customer != "" && c.Name != *customer {
			continue
		}
		names[c.ID] = c.Name
		// "": the customer's own changes (created, members added).
		for _, m := range []domain.Mode{"", domain.ModeSandbox, domain.ModeDevelopment, domain.ModeProduction} {
			got, err := keys.AuditLog(ctx, domain.Scope{CustomerID: c.ID, Mode: m}, *limit)
			if err != nil {
				return err
			}
			entries = append(entries, got...)
		}
	}
	if *customer != "" && len(names) == 0 {
		return domain.Errorf(domain.KindNotFound, domain.CodeCustomerNotFound, "no customer named %q", *customer)
	}
	slices.SortFunc(entries, func(a, b domain.AuditEntry) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	entries = entries[:min(len(entries), *limit)]
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		for _, a := range entries {
			if err := enc.Encode(map[string]string{"at": a.At.UTC().Format(time.RFC3339Nano), "customer": names[a.CustomerID],
				"customer_id": a.CustomerID, "mode": string(a.Mode), "actor": a.Actor, "address": a.Address, "action": a.Action, "target": a.Target, "detail": a.Detail}); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT (UTC)\tCUSTOMER\tMODE\tACTOR\tADDRESS\tACTION\tTARGET\tDETAIL")
	for _, a := range entries {
		mode := string(a.Mode)
		if mode == "" {
			mode = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", a.At.UTC().Format(time.RFC3339), names[a.CustomerID], mode, a.Actor,
			cmp.Or(a.Address, "-"), a.Action, a.Target, cmp.Or(a.Detail, "-"))
	}
	return tw.Flush()
}
