package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/domain/search"
	"payline/internal/secretbox"
	"payline/storage"
)

func (e environment) customers(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, "usage: payline customers create NAME | payline customers list\n")
		return errUsage
	}
	fs := e.flagSet("customers " + args[0])
	d := e.addDataFlags(fs)
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "create":
		if fs.NArg() != 1 {
			fmt.Fprint(e.stderr, "usage: payline customers create [flags] NAME\n")
			return errUsage
		}
		db, keys, err := e.openStores(ctx, d)
		if err != nil {
			return err
		}
		defer db.Close()
		c, err := keys.CreateCustomer(ctx, fs.Arg(0))
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "created customer %s (%s)\n", c.Name, c.ID)
		return nil
	case "list":
		db, keys, err := e.openStores(ctx, d)
		if err != nil {
			return err
		}
		defer db.Close()
		cs, err := keys.Customers(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCREATED")
		for _, c := range cs {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.ID, c.Name, c.CreatedAt.Format(time.RFC3339))
		}
		return tw.Flush()
	}
	fmt.Fprintf(e.stderr, "payline customers: unknown subcommand %q\n", args[0])
	return errUsage
}

func (e environment) keys(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, "usage: payline keys create|list|revoke|rotate-master [flags]\n")
		return errUsage
	}
	fs := e.flagSet("keys " + args[0])
	d := e.addDataFlags(fs)
	switch args[0] {
	case "create":
		customer := fs.String("customer", "", "customer name (created if it does not exist)")
		mode := fs.String("mode", "", "sandbox, development or production")
		asJSON := fs.Bool("json", false, "print one JSON object {customer_id, key_id, secret, mode}")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		m, err := domain.ParseMode(*mode)
		if *customer == "" || err != nil {
			switch {
			case *customer == "":
				fmt.Fprintln(e.stderr, "payline keys create: --customer is required")
			case *mode == "":
				fmt.Fprintln(e.stderr, "payline keys create: --mode is required")
			default:
				fmt.Fprintf(e.stderr, "payline keys create: --mode %q: must be sandbox, development or production\n", *mode)
			}
			fmt.Fprint(e.stderr, "usage: payline keys create --customer NAME --mode sandbox|development|production [--json]\n")
			return errUsage
		}
		db, keys, err := e.openStores(ctx, d)
		if err != nil {
			return err
		}
		defer db.Close()
		created, err := keys.CreateKey(ctx, *customer, m)
		if err != nil {
			return err
		}
		if *asJSON {
			return json.NewEncoder(e.stdout).Encode(map[string]string{
				"customer_id": created.Customer.ID, "key_id": created.Key.ID, "secret": created.Secret, "mode": string(m),
			})
		}
		fmt.Fprintf(e.stdout, "created %s key %s for customer %s\nsecret (shown once): %s\n", m, created.Key.ID, created.Customer.Name, created.Secret)
		return nil
	case "list":
		customer := fs.String("customer", "", "only this customer's keys")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		db, keys, err := e.openStores(ctx, d)
		if err != nil {
			return err
		}
		defer db.Close()
		return e.listKeys(ctx, keys, *customer)
	case "revoke":
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			fmt.Fprint(e.stderr, "usage: payline keys revoke [flags] KEY_ID\n")
			return errUsage
		}
		db, keys, err := e.openStores(ctx, d)
		if err != nil {
			return err
		}
		defer db.Close()
		if err := keys.RevokeKey(ctx, fs.Arg(0)); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "revoked key %s\n", fs.Arg(0))
		return nil
	case "rotate-master":
		batch := fs.Int("batch", 500, "values sealed again per transaction")
		if err := parse(fs, args[1:]); err != nil {
			return err
		}
		if *batch < 1 {
			fmt.Fprint(e.stderr, "usage: payline keys rotate-master [--batch N] [--master-key-file NEW] [--previous-master-key-file OLD]\n")
			return errUsage
		}
		return e.rotateMaster(ctx, d, *batch)
	}
	fmt.Fprintf(e.stderr, "payline keys: unknown subcommand %q\n", args[0])
	return errUsage
}

func (e environment) listKeys(ctx context.Context, keys *domain.KeyService, only string) error {
	customers, err := keys.Customers(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY ID\tCUSTOMER\tMODE\tCREATED\tSTATUS")
	found := false
	for _, c := range customers {
		if only != "" && c.Name != only {
			continue
		}
		found = true
		ks, err := keys.Keys(ctx, c)
		if err != nil {
			return err
		}
		for _, k := range ks {
			status := "active"
			if k.RevokedAt != nil {
				status = "revoked " + k.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, c.Name, k.Mode, k.CreatedAt.Format(time.RFC3339), status)
		}
	}
	if only != "" && !found {
		return domain.Errorf(domain.KindNotFound, domain.CodeCustomerNotFound, "no customer named %q", only)
	}
	return tw.Flush()
}

func (e environment) directory(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "seed" {
		fmt.Fprint(e.stderr, "usage: payline directory seed [--employers N] [--database-url URL]\n")
		return errUsage
	}
	fs := e.flagSet("directory seed")
	d := e.addDataFlags(fs)
	n := fs.Int("employers", sandbox.DefaultEmployerCount, "number of generated employers")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *n < 1 || *n > 2_000_000 {
		return errors.New("--employers must be between 1 and 2000000")
	}
	db, err := openMigrated(ctx, d.databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	platforms, employers := sandbox.Directory(*n)
	if err := domain.NewDirectoryService(storage.NewDirectoryStore(db), domain.NoRelay{}, search.Build).Seed(ctx, platforms, employers); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "seeded %d employers and %d platforms\n", len(employers), len(platforms))
	return nil
}

const membersUsage = `usage: payline members add --customer NAME --email E --role administrator|developer|reviewer|viewer [--password-stdin]
       payline members list --customer NAME
       payline members remove --customer NAME --email E
       payline members reset-password --customer NAME --email E [--password-stdin]
`

func (e environment) members(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, membersUsage)
		return errUsage
	}
	switch args[0] {
	case "add":
	case "list", "remove", "reset-password":
		return e.manageMember(ctx, args[0], args[1:])
	default:
		fmt.Fprintf(e.stderr, "payline members: no command %q\n%s", args[0], membersUsage)
		return errUsage
	}
	fs := e.flagSet("members add")
	d := e.addDataFlags(fs)
	customer := fs.String("customer", "", "customer (workspace) name, created if it does not exist")
	email := fs.String("email", "", "the member's e-mail address, their sign-in name")
	role := fs.String("role", "", "administrator (manages keys, reviews documents), developer (changes webhooks, previews Link), reviewer (reviews uploaded documents) or viewer (reads)")
	fromStdin := fs.Bool("password-stdin", false, "read the password (12 characters or more) from the first line of stdin instead of making one up")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	if *customer == "" || *email == "" || *role == "" {
		fmt.Fprint(e.stderr, "payline members add: --customer, --email and --role are required\n")
		return errUsage
	}
	password, err := e.passwordFromStdin(*fromStdin)
	if err != nil {
		return err
	}
	members, closeDB, err := e.memberService(ctx, d)
	if err != nil {
		return err
	}
	defer closeDB()
	added, err := members.AddMember(ctx, *customer, *email, *role, password)
	if err != nil {
		return err
	}
	// The id is what DELETE /v1/admin/members/{member_id}/sessions takes.
	fmt.Fprintf(e.stdout, "added %s (%s) to %s as member %s\n", added.Member.Email, added.Member.Role, added.Customer.Name, added.Member.ID)
	if added.Password != "" {
		fmt.Fprintf(e.stdout, "password: %s\n(shown once; sign in at /dashboard or POST /v1/admin/token)\n", added.Password)
	}
	return nil
}

// passwordFromStdin reads a password from stdin's first line when asked
// (--password-stdin), else "" (Payline makes one up).
func (e environment) passwordFromStdin(asked bool) (string, error) {
	if !asked {
		return "", nil
	}
	line, err := bufio.NewReader(e.stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read password: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	if password == "" {
		return "", errors.New("--password-stdin: stdin had no password")
	}
	return password, nil
}

// memberService opens the database's member use cases for a command.
func (e environment) memberService(ctx context.Context, d *dataFlags) (*domain.MemberService, func(), error) {
	s, err := e.openSealedStores(ctx, d)
	if err != nil {
		return nil, nil, err
	}
	ks := storage.NewKeyStore(s.db)
	return domain.NewMemberService(s.keys, ks, ks, storage.NewSignInThrottle(s.db), domain.SystemClock{}, 0), func() { s.db.Close() }, nil
}

// manageMember lists, removes, or resets the password of, a customer's
// members; removing and resetting end the member's sessions and admin
// tokens, with an audit entry.
func (e environment) manageMember(ctx context.Context, cmd string, args []string) error {
	fs := e.flagSet("members " + cmd)
	d := e.addDataFlags(fs)
	customer := fs.String("customer", "", "customer (workspace) name")
	email := fs.String("email", "", "the member's e-mail address")
	fromStdin := false
	if cmd == "reset-password" {
		fs.BoolVar(&fromStdin, "password-stdin", false, "read the new password (12 characters or more) from the first line of stdin instead of making one up")
	}
	if err := parse(fs, args); err != nil {
		return err
	}
	if *customer == "" || (cmd != "list" && *email == "") {
		need := "--customer and --email are"
		if cmd == "list" {
			need = "--customer is"
		}
		fmt.Fprintf(e.stderr, "payline members %s: %s required\n%s", cmd, need, membersUsage)
		return errUsage
	}
	password, err := e.passwordFromStdin(fromStdin)
	if err != nil {
		return err
	}
	members, closeDB, err := e.memberService(ctx, d)
	if err != nil {
		return err
	}
	defer closeDB()
	switch cmd {
	case "list":
		c, ms, err := members.ListMembers(ctx, *customer)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", c.Name, plural(len(ms), "member"))
		for _, m := range ms {
			fmt.Fprintf(e.stdout, "  %s  %-13s %s  added %s\n", m.ID, m.Role, m.Email, m.CreatedAt.Format(time.DateOnly))
		}
	case "remove":
		if err := members.RemoveMember(ctx, *customer, *email); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "removed %s from %s; their sessions and admin tokens ended\n", *email, *customer)
	case "reset-password":
		made, err := members.ResetPassword(ctx, *customer, *email, password)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "reset the password of %s; their sessions and admin tokens ended\n", *email)
		if made != "" {
			fmt.Fprintf(e.stdout, "password: %s\n(shown once; sign in at /dashboard or POST /v1/admin/token)\n", made)
		}
	}
	return nil
}

// rotateMaster seals again, with the master key, everything sealed with
// the previous one (and any plaintext from before sealing), in batches
// while instances serve, then records the master key as the database's.
// README, "Rotating the master key", gives the steps around it.
func (e environment) rotateMaster(ctx context.Context, d *dataFlags, batch int) error {
	stores, err := e.openSealedStores(ctx, d)
	if err != nil {
		return err
	}
	defer stores.db.Close()
	sealed := map[string]int{}
	total, err := stores.db.ReSeal(ctx, batch, func(p storage.ReSealProgress) { sealed[p.Column] += p.Sealed })
	if err != nil {
		return fmt.Errorf("after sealing %d values again: %w", total, err)
	}
	stale, err := stores.db.StaleSealed(ctx)
	if err != nil {
		return err
	}
	if len(stale) > 0 {
		return fmt.Errorf("values sealed by another key are still being written (%v): restart every instance with the new master key and the previous one, then run rotate-master again", stale)
	}
	id, check := secretbox.Fingerprint(stores.masterKey)
	if err := storage.NewMasterKeyStore(stores.db).Replace(ctx, storage.MasterKeyRecord{KeyID: id, Check: check}, time.Now()); err != nil {
		return err
	}
	for _, c := range storage.SealedColumns() {
		if sealed[c] > 0 {
			fmt.Fprintf(e.stdout, "%-34s %d sealed again\n", c, sealed[c])
		}
	}
	fmt.Fprintf(e.stdout, "sealed %d values again; this database's master key is now %s.\n", total, id)
	if d.previousKeyFile != "" || e.getenv("PAYLINE_PREVIOUS_MASTER_KEY") != "" {
		fmt.Fprint(e.stdout, "Remove the previous master key from every instance's configuration and restart them.\n")
	}
	return nil
}
