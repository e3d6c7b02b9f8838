package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"payline/domain"
	"payline/storage"
)

// environment carries what every command reads from outside: environment
// variables and the output streams.
type environment struct {
	getenv         func(string) string
	stdout, stderr io.Writer
}

// dataFlags are the flags of every command that opens the database.
type dataFlags struct {
	databaseURL   string
	masterKeyFile string
}

func (e environment) envOr(name, def string) string {
	if v := e.getenv(name); v != "" {
		return v
	}
	return def
}

// flagSet makes a FlagSet whose errors print to stderr and return errUsage.
func (e environment) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("payline "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	return fs
}

func (e environment) addDataFlags(fs *flag.FlagSet) *dataFlags {
	d := &dataFlags{}
	fs.StringVar(&d.databaseURL, "database-url", e.envOr("PAYLINE_DATABASE_URL", "sqlite:payline.db"),
		"sqlite:PATH or postgres://USER@HOST:PORT/DB (PAYLINE_DATABASE_URL)")
	fs.StringVar(&d.masterKeyFile, "master-key-file", e.getenv("PAYLINE_MASTER_KEY_FILE"),
		"file holding the 32-byte master key that encrypts API secrets; default: beside the SQLite database (PAYLINE_MASTER_KEY_FILE; PAYLINE_MASTER_KEY takes the key itself)")
	return d
}

// parse parses flags wherever they stand, so `keys revoke ID --database-url
// URL` works as well as the flags-first order the flag package expects.
// The positional arguments are left in fs.Args().
func parse(fs *flag.FlagSet, args []string) error {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return errHelp
			}
			return errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
	return fs.Parse(append([]string{"--"}, positional...))
}

// openMigrated opens the database and brings its schema up to date.
func openMigrated(ctx context.Context, url string) (*storage.DB, error) {
	db, err := storage.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openStores opens and migrates the database and builds the key service.
func (e environment) openStores(ctx context.Context, d *dataFlags) (*storage.DB, *domain.KeyService, error) {
	db, err := openMigrated(ctx, d.databaseURL)
	if err != nil {
		return nil, nil, err
	}
	box, err := e.secretBox(db, d)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	ks := storage.NewKeyStore(db)
	return db, domain.NewKeyService(ks, ks, box, domain.SystemClock{}), nil
}

// secretBox opens the master key's box.
func (e environment) secretBox(db *storage.DB, d *dataFlags) (*domain.SecretBox, error) {
	key, err := e.masterKey(db, d)
	if err != nil {
		return nil, err
	}
	return domain.NewSecretBox(key)
}

// masterKey finds the key that seals API secrets: PAYLINE_MASTER_KEY (64
// hex characters or base64 of 32 bytes), else a key file, created with
// mode 0600 on first use. For SQLite the file defaults to DB.master-key
// beside the database; PostgreSQL deployments must name one or set the
// variable, since there is no obvious place beside a server.
func (e environment) masterKey(db *storage.DB, d *dataFlags) ([]byte, error) {
	if v := strings.TrimSpace(e.getenv("PAYLINE_MASTER_KEY")); v != "" {
		return decodeMasterKey(v)
	}
	path := d.masterKeyFile
	if path == "" {
		if db.Dialect != storage.SQLite {
			return nil, errors.New("set PAYLINE_MASTER_KEY (64 hex characters) or --master-key-file: PostgreSQL deployments need a master key to encrypt API secrets")
		}
		path = db.Path + ".master-key"
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key := make([]byte, domain.MasterKeySize)
		if _, err := randRead(key); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, []byte(hex.EncodeToString(key)+"\n"), 0o600); err != nil {
			return nil, fmt.Errorf("create master key file: %w", err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read master key file: %w", err)
	}
	return decodeMasterKey(strings.TrimSpace(string(b)))
}

func decodeMasterKey(s string) ([]byte, error) {
	if b, err := hex.DecodeString(s); err == nil && len(b) == domain.MasterKeySize {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == domain.MasterKeySize {
		return b, nil
	}
	return nil, errors.New("master key must be 32 bytes as 64 hex characters or base64")
}

func (e environment) logger(format string) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(e.stderr, nil))
	}
	return slog.New(slog.NewTextHandler(e.stderr, nil))
}

func (e environment) duration(name string, def time.Duration) time.Duration {
	if v := e.getenv(name); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

func (e environment) boolean(name string, def bool) bool {
	if b, err := strconv.ParseBool(e.getenv(name)); err == nil {
		return b
	}
	return def
}
