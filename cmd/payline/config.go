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
	"payline/internal/secretbox"
	"payline/storage"
)

// environment carries what every command reads from outside: environment
// variables and the output streams.
type environment struct {
	getenv         func(string) string
	stdout, stderr io.Writer
	stdin          io.Reader
}

// dataFlags are the flags of every command that opens the database.
type dataFlags struct {
	databaseURL   string
	masterKeyFile string
	// previousKeyFile is the master key being rotated away from, which
	// still opens what it sealed (payline keys rotate-master).
	previousKeyFile string
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
		"file holding the 32-byte master key that encrypts API secrets and people's data; default: beside the SQLite database (PAYLINE_MASTER_KEY_FILE; PAYLINE_MASTER_KEY takes the key itself)")
	fs.StringVar(&d.previousKeyFile, "previous-master-key-file", e.getenv("PAYLINE_PREVIOUS_MASTER_KEY_FILE"),
		"during a master key rotation, the file holding the old key, which still opens what it sealed (PAYLINE_PREVIOUS_MASTER_KEY_FILE; PAYLINE_PREVIOUS_MASTER_KEY takes the key itself)")
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
	s, err := e.openSealedStores(ctx, d)
	return s.db, s.keys, err
}

// sealedStores are the database, the verified master key and its box,
// and the key service built on them.
type sealedStores struct {
	db        *storage.DB
	masterKey []byte
	// rotating: the database's recorded key is the previous one; payline
	// keys rotate-master has not finished.
	rotating bool
	box      *secretbox.Box
	keys     *domain.KeyService
}

// openSealedStores opens and migrates the database and finds and verifies
// its master key, once.
func (e environment) openSealedStores(ctx context.Context, d *dataFlags) (sealedStores, error) {
	// A PostgreSQL deployment without a key is refused before anything
	// is created in its database.
	if dialect, _, err := storage.ParseURL(d.databaseURL); err == nil && dialect == storage.Postgres &&
		strings.TrimSpace(e.getenv("PAYLINE_MASTER_KEY")) == "" && d.masterKeyFile == "" {
		return sealedStores{}, errNoPostgresKey
	}
	db, err := openMigrated(ctx, d.databaseURL)
	if err != nil {
		return sealedStores{}, err
	}
	ring, err := e.masterKey(ctx, db, d)
	if err != nil {
		db.Close()
		return sealedStores{}, err
	}
	box, err := secretbox.New(ring.key, ring.previous...)
	if err != nil {
		db.Close()
		return sealedStores{}, err
	}
	db.SealWith(box)
	// Values sealed before their binding named its table are bound anew
	// (once; later starts find nothing to do).
	if _, err := db.RebindSealed(ctx); err != nil {
		db.Close()
		return sealedStores{}, fmt.Errorf("re-bind sealed values: %w", err)
	}
	ks := storage.NewKeyStore(db)
	keys := domain.NewKeyService(ks, ks, domain.SystemClock{})
	return sealedStores{db: db, masterKey: ring.key, rotating: ring.rotating, box: box, keys: keys}, nil
}

// masterKey finds the key that seals API secrets and proves it is the one
// this database was sealed with. The key is PAYLINE_MASTER_KEY (64 hex
// characters or base64 of 32 bytes), else a key file. For SQLite the file
// defaults to DB.master-key beside the database; PostgreSQL deployments
// must name one or set the variable, since there is no obvious place
// beside a server. A key file is created (mode 0600) only for a database
// that has sealed nothing yet; a missing or different key is refused with
// what to do, because a new key would leave every sealed secret unreadable.
//
// During a rotation the previous key (PAYLINE_PREVIOUS_MASTER_KEY or
// --previous-master-key-file) joins the ring: the database may still
// record it until payline keys rotate-master has sealed everything again.
func (e environment) masterKey(ctx context.Context, db *storage.DB, d *dataFlags) (keyRing, error) {
	ring, err := e.findKeyRing(ctx, db, d)
	if err != nil {
		return keyRing{}, err
	}
	if ring.previous != nil && ring.recorded.Check != "" {
		_, check := secretbox.Fingerprint(ring.previous[0])
		ring.rotating = ring.recorded.Check == check
	}
	return ring, nil
}

// keyRing is the master key, any previous one, and what the database
// records.
type keyRing struct {
	key      []byte
	previous [][]byte
	recorded storage.MasterKeyRecord
	rotating bool
}

func (e environment) findKeyRing(ctx context.Context, db *storage.DB, d *dataFlags) (keyRing, error) {
	store := storage.NewMasterKeyStore(db)
	recorded, hasRecord, err := store.Recorded(ctx)
	if err != nil {
		return keyRing{}, err
	}
	sampleID, sample, hasSealed, err := store.SealedSample(ctx)
	if err != nil {
		return keyRing{}, err
	}
	key, source, path, err := e.findMasterKey(db, d)
	if err != nil {
		return keyRing{}, err
	}
	previous, err := e.findPreviousKey(d)
	if err != nil {
		return keyRing{}, err
	}
	ring := keyRing{key: key, previous: previous, recorded: recorded}
	if key == nil { // the key file does not exist
		if hasRecord || hasSealed {
			id := "of unknown id (sealed before ids were recorded)"
			if hasRecord {
				id = recorded.KeyID
			}
			return keyRing{}, fmt.Errorf(`this database's secrets were sealed with master key %s, and %s does not exist.
Restore that file from your backup, or set PAYLINE_MASTER_KEY to the key, and start again.
Payline will not make a new key: it could not open the API secrets and webhook data already sealed.
README, "Master key", explains where the key lives and how to recover`, id, source)
		}
		if key, err = createKeyFile(path); err != nil {
			return keyRing{}, err
		}
		ring.key = key
	}
	id, check := secretbox.Fingerprint(key)
	wrong := func(want string) error {
		return fmt.Errorf(`the master key from %s (key id %s) is not the one that sealed this database's secrets (key id %s).
Point PAYLINE_MASTER_KEY or --master-key-file at the original key and start again.
README, "Master key", explains where the key lives and how to recover`, source, id, want)
	}
	if hasRecord {
		for _, k := range append([][]byte{key}, previous...) {
			if _, c := secretbox.Fingerprint(k); c == recorded.Check {
				return ring, nil
			}
		}
		return keyRing{}, wrong(recorded.KeyID)
	}
	if hasSealed { // sealed before fingerprints: the key must open a secret
		box, err := secretbox.New(key, previous...)
		if err != nil {
			return keyRing{}, err
		}
		_, err = box.Open(sample, storage.KeySecretAD(sampleID))
		if err != nil { // sealed before the binding named its table
			_, err = box.Open(sample, storage.LegacyBareAD(sampleID))
		}
		if err != nil {
			return keyRing{}, wrong("unknown, sealed before ids were recorded")
		}
	}
	got, err := store.Record(ctx, storage.MasterKeyRecord{KeyID: id, Check: check}, time.Now())
	if err != nil {
		return keyRing{}, err
	}
	if got.Check != check { // another process recorded its key first
		return keyRing{}, wrong(got.KeyID)
	}
	ring.recorded = got
	return ring, nil
}

// findPreviousKey reads the key being rotated away from, if one is set.
func (e environment) findPreviousKey(d *dataFlags) ([][]byte, error) {
	if v := strings.TrimSpace(e.getenv("PAYLINE_PREVIOUS_MASTER_KEY")); v != "" {
		key, err := decodeMasterKey(v)
		if err != nil {
			return nil, fmt.Errorf("PAYLINE_PREVIOUS_MASTER_KEY: %w", err)
		}
		return [][]byte{key}, nil
	}
	if d.previousKeyFile == "" {
		return nil, nil
	}
	b, err := os.ReadFile(d.previousKeyFile)
	if err != nil {
		return nil, fmt.Errorf("read previous master key file: %w", err)
	}
	key, err := decodeMasterKey(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, fmt.Errorf("the previous key file %s: %w", d.previousKeyFile, err)
	}
	return [][]byte{key}, nil
}

var errNoPostgresKey = errors.New("set PAYLINE_MASTER_KEY (64 hex characters) or --master-key-file: PostgreSQL deployments need a master key to encrypt API secrets")

// findMasterKey reads the configured key and says where it came from; a
// key file that does not exist gives a nil key and its path.
func (e environment) findMasterKey(db *storage.DB, d *dataFlags) (key []byte, source, path string, err error) {
	if v := strings.TrimSpace(e.getenv("PAYLINE_MASTER_KEY")); v != "" {
		key, err := decodeMasterKey(v)
		return key, "PAYLINE_MASTER_KEY", "", err
	}
	path = d.masterKeyFile
	if path == "" {
		if db.Dialect != storage.SQLite {
			return nil, "", "", errNoPostgresKey
		}
		path = db.Path + ".master-key"
	}
	source = "the key file " + path
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, source, path, nil
	}
	if err != nil {
		return nil, source, path, fmt.Errorf("read master key file: %w", err)
	}
	key, err = decodeMasterKey(strings.TrimSpace(string(b)))
	if err != nil {
		return nil, source, path, fmt.Errorf("%s: %w", source, err)
	}
	return key, source, path, nil
}

// createKeyFile makes a new master key file at path.
func createKeyFile(path string) ([]byte, error) {
	key, err := domain.RandomBytes(secretbox.KeySize)
	if err != nil {
		return nil, err
	}
	// O_EXCL: two processes starting at once must not both write a key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create master key file: %w", err)
	}
	if _, err := f.WriteString(hex.EncodeToString(key) + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("write master key file: %w", err)
	}
	return key, f.Close()
}

func decodeMasterKey(s string) ([]byte, error) {
	if b, err := hex.DecodeString(s); err == nil && len(b) == secretbox.KeySize {
		return b, nil
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == secretbox.KeySize {
		return b, nil
	}
	return nil, errors.New("master key must be 32 bytes as 64 hex characters or base64")
}

func (e environment) logger(format string, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(e.stderr, opts))
	}
	return slog.New(slog.NewTextHandler(e.stderr, opts))
}

// atLeast passes on the records of min and above: the job queue's own
// INFO lines (clients starting, poll modes, elections) are kept out of
// the log unless --log-level is debug.
type atLeast struct {
	slog.Handler
	min slog.Level
}

func (h atLeast) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h atLeast) WithAttrs(a []slog.Attr) slog.Handler { return atLeast{h.Handler.WithAttrs(a), h.min} }
func (h atLeast) WithGroup(name string) slog.Handler {
	return atLeast{h.Handler.WithGroup(name), h.min}
}

// queueLogger is the job queue's logger: WARN and above, or everything
// the service logs when it logs debug.
func queueLogger(l *slog.Logger) *slog.Logger {
	if l.Enabled(context.Background(), slog.LevelDebug) {
		return l
	}
	return slog.New(atLeast{l.Handler(), slog.LevelWarn})
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

func (e environment) integer(name string, def int) int {
	if n, err := strconv.Atoi(e.getenv(name)); err == nil {
		return n
	}
	return def
}

func (e environment) float(name string, def float64) float64 {
	if f, err := strconv.ParseFloat(e.getenv(name), 64); err == nil {
		return f
	}
	return def
}
