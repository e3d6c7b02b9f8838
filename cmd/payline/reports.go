package main

import (
	"context"
	"fmt"
	"os"

	"payline/domain"
	"payline/domain/search"
	"payline/reports"
	"payline/storage"
)

// reports renders a verification report from the stored data, for
// support staff and for looking at one: nothing is stored and no event is
// written.
func (e environment) reports(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "render" {
		fmt.Fprint(e.stderr, "usage: payline reports render --end-user ID [--type voie|voe] [--customer NAME] [--mode MODE] -o FILE.pdf\n")
		return errUsage
	}
	fs := e.flagSet("reports render")
	d := e.addDataFlags(fs)
	endUser := fs.String("end-user", "", "the end_user_id whose report to render")
	typ := fs.String("type", domain.ReportVOIE, "voie or voe")
	customer := fs.String("customer", "", "the customer's name (may be left out when there is one customer)")
	mode := fs.String("mode", string(domain.ModeSandbox), "the mode whose data to read")
	out := fs.String("o", "", "the PDF file to write (readable by you only), or - for standard output")
	dispute := fs.String("dispute-contact", e.getenv("PAYLINE_DISPUTE_CONTACT"),
		"whom the report's Fair Credit Reporting Act notice tells the consumer to contact to dispute its data, as serve's --dispute-contact (PAYLINE_DISPUTE_CONTACT)")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	m, err := domain.ParseMode(*mode)
	if *endUser == "" || *out == "" || err != nil {
		fmt.Fprint(e.stderr, "payline reports render: --end-user and -o are required, and --mode must be sandbox, development or production\n")
		return errUsage
	}
	db, keys, err := e.openStores(ctx, d)
	if err != nil {
		return err
	}
	defer db.Close()
	c, err := e.pickCustomer(ctx, keys, *customer)
	if err != nil {
		return err
	}
	// No signer is needed to render; no queue, since nothing is written.
	tx := storage.NewTransactor(db, nil)
	svc := reports.NewService(tx, domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build), keys, nil, domain.SystemClock{}).
		WithDisputeContact(*dispute).WithDisputes(tx)
	r, pdf, err := svc.Render(ctx, domain.Scope{CustomerID: c.ID, Mode: m}, *endUser, *typ)
	if err != nil {
		return err
	}
	summary := fmt.Sprintf("%s report of %q (%s: payline reports render stores nothing), %s, %d bytes",
		*typ, *endUser, reports.NotStored, plural(len(r.Employments), "employment"), len(pdf))
	if *out == "-" {
		// The PDF is the output; the summary goes to standard error.
		if _, err := e.stdout.Write(pdf); err != nil {
			return err
		}
		fmt.Fprintln(e.stderr, "wrote "+summary)
		return nil
	}
	// A report holds people's data: readable by its owner only, even when
	// the file was there before.
	if err := os.WriteFile(*out, pdf, 0o600); err != nil {
		return err
	}
	if err := os.Chmod(*out, 0o600); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s: %s\n", *out, summary)
	return nil
}

// pickCustomer finds a customer by name, or the only one when name is "".
func (e environment) pickCustomer(ctx context.Context, keys *domain.KeyService, name string) (domain.Customer, error) {
	all, err := keys.Customers(ctx)
	if err != nil {
		return domain.Customer{}, err
	}
	for _, c := range all {
		if c.Name == name || (name == "" && len(all) == 1) {
			return c, nil
		}
	}
	if name == "" {
		return domain.Customer{}, fmt.Errorf("there are %d customers; name one with --customer", len(all))
	}
	return domain.Customer{}, fmt.Errorf("no customer named %q (payline customers list)", name)
}

// plural is "1 employment", "2 employments".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
