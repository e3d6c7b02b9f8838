package storage

import (
	"context"
	"errors"
	"fmt"
	"payline/internal/secretbox"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jmoiron/sqlx"
)

// sealer seals the columns that hold people's data (paystubs, identity,
// tax forms, reports, rendered documents, connector credentials) with the
// master key the DB was given (SealWith). Each value is bound to its row
// by additional data naming the table and the row's key, so a ciphertext
// copied to another row, or another tenant's, does not open.
type sealer struct {
	box atomic.Pointer[secretbox.Box]
}

// errNoMasterKey is what a store returns when it must seal or open people's
// data on a DB that was given no key: a wiring mistake, never plaintext.
var errNoMasterKey = errors.New("storage: no master key to seal people's data with (call DB.SealWith)")

// SealWith gives the database the key ring that seals people's data at
// rest. Until it is called, storing or reading such data fails.
func (db *DB) SealWith(box *secretbox.Box) { db.sealer.box.Store(box) }

// rowAD is the additional data of a sealed column's value: the table and
// the row's key, NUL-separated (no key holds a NUL).
func rowAD(table string, key ...string) []byte {
	return []byte(table + "\x00" + strings.Join(key, "\x00"))
}

func (s *sealer) seal(plain []byte, table string, key ...string) ([]byte, error) {
	box := s.box.Load()
	if box == nil {
		return nil, errNoMasterKey
	}
	return box.Seal(plain, rowAD(table, key...))
}

// open reads a sealed value, or the plaintext a row held before its table
// was sealed (payline keys rotate-master seals those).
func (s *sealer) open(stored []byte, table string, key ...string) ([]byte, error) {
	box := s.box.Load()
	if box == nil {
		return nil, errNoMasterKey
	}
	b, err := box.OpenStored(stored, rowAD(table, key...))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", table, strings.Join(key, "/"), err)
	}
	return b, nil
}

// sealedColumn is a column whose values are sealed, for re-sealing under a
// new master key.
type sealedColumn struct {
	table, column string
	key           []string // the columns of the primary key
	ad            func(key []string) []byte
	// plainBefore: rows written before the column was sealed hold
	// plaintext, which re-sealing seals.
	plainBefore bool
}

func storageAD(table string) func([]string) []byte {
	return func(key []string) []byte { return rowAD(table, key...) }
}

// sealedColumns lists every sealed column: those the domain seals with its
// own additional data, and those storage seals (rowAD).
var sealedColumns = []sealedColumn{
	{"api_keys", "sealed_secret", []string{"id"}, func(k []string) []byte { return KeySecretAD(k[0]) }, false},
	{"link_tokens", "sealed_allocation", []string{"id"}, func(k []string) []byte { return allocationAD(k[0]) }, false},
	{"link_tokens", "sealed_matching", []string{"id"}, func(k []string) []byte { return matchingAD(k[0]) }, false},
	{"jobs", "sealed_payment", []string{"id"}, func(k []string) []byte { return BillCardAD(k[0]) }, false},
	{"accounts", "connection", []string{"id"}, storageAD("accounts"), true},
	{"account_products", "body", []string{"account_id", "product"}, storageAD("account_products"), true},
	{"paystubs", "body", []string{"id"}, storageAD("paystubs"), true},
	{"account_records", "body", []string{"id"}, storageAD("account_records"), true},
	{"verification_reports", "body", []string{"customer_id", "mode", "end_user_id", "report_type"}, storageAD("verification_reports"), true},
	{"files", "body", []string{"id"}, storageAD("files"), true},
	{"webhook_deliveries", "response_excerpt", []string{"id"}, storageAD("webhook_deliveries"), false},
	{"outbox_messages", "sealed_to", []string{"id"}, storageAD("outbox_messages.sealed_to"), false},
	{"outbox_messages", "body_text", []string{"id"}, storageAD("outbox_messages.body_text"), false},
	{"outbox_messages", "body_html", []string{"id"}, storageAD("outbox_messages.body_html"), false},
	{"lookup_keys", "sealed_key", []string{"name"}, storageAD("lookup_keys"), false},
	{"link_orders", "sealed_code", []string{"id"}, func(k []string) []byte { return orderCodeAD(k[0]) }, false},
	{"link_orders", "sealed_request", []string{"id"}, func(k []string) []byte { return orderRequestAD(k[0]) }, false},
	{"link_orders", "sealed_contacts", []string{"id"}, func(k []string) []byte { return orderContactsAD(k[0]) }, false},
	{"link_orders", "sealed_link_token", []string{"id"}, func(k []string) []byte { return orderTokenAD(k[0]) }, false},
	{"disputes", "sealed_detail", []string{"id"}, func(k []string) []byte { return disputeDetailAD(k[0]) }, false},
	{"portal_addresses", "sealed_email", []string{"customer_id", "mode", "end_user_id"}, storageAD("portal_addresses"), false},
}

// SealedColumns names every sealed column as table.column, for tests and
// docs.
func SealedColumns() []string {
	out := make([]string, len(sealedColumns))
	for i, c := range sealedColumns {
		out[i] = c.table + "." + c.column
	}
	return out
}

// rebinds are the sealed columns once bound to the bare row id, and the
// binding they have now.
var rebinds = []struct {
	table, column string
	ad            func(id string) []byte
}{
	{"api_keys", "sealed_secret", KeySecretAD},
	{"jobs", "sealed_payment", BillCardAD},
}

// RebindSealed seals again, bound to its table-named additional data, every
// value of the columns that were once bound to the bare row id (see
// LegacyBareAD); values already re-bound are left alone, so it is
// safe at every start. Each row is compared and set in its own statement.
// A value neither binding opens stops it with an error naming the row.
func (db *DB) RebindSealed(ctx context.Context) (int, error) {
	box := db.sealer.box.Load()
	if box == nil {
		return 0, errNoMasterKey
	}
	n := 0
	for _, c := range rebinds {
		var rows []struct {
			ID     string `db:"id"`
			Sealed []byte `db:"v"`
		}
		if err := db.SelectContext(ctx, &rows, `SELECT id, `+c.column+` AS v FROM `+c.table+` WHERE `+c.column+` IS NOT NULL`); err != nil {
			return n, translate(err)
		}
		for _, r := range rows {
			if _, err := box.Open(r.Sealed, c.ad(r.ID)); err == nil {
				continue // bound already
			}
			plain, err := box.Open(r.Sealed, LegacyBareAD(r.ID))
			if err != nil {
				return n, fmt.Errorf("%s.%s of row %s opens under neither its binding nor the bare id: %w", c.table, c.column, r.ID, err)
			}
			sealed, err := box.Seal(plain, c.ad(r.ID))
			if err != nil {
				return n, err
			}
			if _, err := db.ExecContext(ctx, db.Rebind(`UPDATE `+c.table+` SET `+c.column+` = ? WHERE id = ? AND `+c.column+` = ?`),
				sealed, r.ID, r.Sealed); err != nil {
				return n, translate(err)
			}
			n++
		}
	}
	return n, nil
}

// ReSealProgress reports one re-sealed batch.
type ReSealProgress struct {
	Column string // table.column
	Sealed int    // values sealed again in this batch
}

// ReSeal seals again, with the primary key of the DB's box, every value
// that is not sealed by it: values sealed by a previous master key, and the
// plaintext of rows written before their table was sealed. It works in
// batches of batchSize rows, one short transaction each, while the
// database serves: a row a request rewrote meanwhile is left as the
// request wrote it (compare and set) and looked at again. It returns how
// many values it sealed; a value no key opens stops it with an error naming
// the row.
func (db *DB) ReSeal(ctx context.Context, batchSize int, progress func(ReSealProgress)) (int, error) {
	box := db.sealer.box.Load()
	if box == nil {
		return 0, errNoMasterKey
	}
	total := 0
	for _, c := range sealedColumns {
		for {
			n, err := db.reSealBatch(ctx, box, c, batchSize)
			if err != nil {
				return total, err
			}
			if n == 0 {
				break
			}
			total += n
			if progress != nil {
				progress(ReSealProgress{Column: c.table + "." + c.column, Sealed: n})
			}
			if db.Dialect == SQLite {
				// SQLite has one writer at a time, and a server's writes wait
				// for it by polling: batches back to back would starve them
				// until the rotation ends. A moment between batches lets
				// them in (PostgreSQL's row locks need none).
				time.Sleep(sqliteYield)
			}
		}
	}
	return total, nil
}

// sqliteYield is the pause between re-sealing batches on SQLite.
const sqliteYield = 5 * time.Millisecond

// raw is the column as bytes: SQLite keeps pre-sealing plaintext as TEXT,
// which compares unequal to any BLOB.
func (db *DB) raw(column string) string {
	if db.Dialect == SQLite {
		return "CAST(" + column + " AS BLOB)"
	}
	return column
}

// StaleSealed counts the values of every sealed column that the primary
// key did not seal.
func (db *DB) StaleSealed(ctx context.Context) (map[string]int, error) {
	box := db.sealer.box.Load()
	if box == nil {
		return nil, errNoMasterKey
	}
	out := map[string]int{}
	for _, c := range sealedColumns {
		var n int
		if err := db.GetContext(ctx, &n, db.Rebind(`SELECT COUNT(*) FROM `+c.table+` WHERE `+c.column+` IS NOT NULL AND substr(`+
			db.raw(c.column)+`, 1, ?) <> ?`), len(box.Tag()), box.Tag()); err != nil {
			return nil, translate(err)
		}
		if n > 0 {
			out[c.table+"."+c.column] = n
		}
	}
	return out, nil
}

func (db *DB) reSealBatch(ctx context.Context, box *secretbox.Box, c sealedColumn, batchSize int) (int, error) {
	tag := box.Tag()
	keys := strings.Join(c.key, ", ")
	var sealed int
	err := db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		rows, err := tx.QueryxContext(ctx, tx.Rebind(`SELECT `+keys+`, `+db.raw(c.column)+` FROM `+c.table+`
			WHERE `+c.column+` IS NOT NULL AND substr(`+db.raw(c.column)+`, 1, ?) <> ? ORDER BY `+keys+` LIMIT ?`+rowLock(tx, "FOR UPDATE")),
			len(tag), tag, batchSize)
		if err != nil {
			return err
		}
		type stale struct {
			key   []string
			value []byte
		}
		var batch []stale
		for rows.Next() {
			dest := make([]any, len(c.key)+1)
			key := make([]string, len(c.key))
			for i := range key {
				dest[i] = &key[i]
			}
			var value []byte
			dest[len(key)] = &value
			if err := rows.Scan(dest...); err != nil {
				rows.Close()
				return err
			}
			batch = append(batch, stale{key, value})
		}
		if err := rows.Close(); err != nil {
			return err
		}
		where := make([]string, len(c.key))
		for i, k := range c.key {
			where[i] = k + " = ?"
		}
		update := tx.Rebind(`UPDATE ` + c.table + ` SET ` + c.column + ` = ? WHERE ` + strings.Join(where, " AND ") + ` AND ` + db.raw(c.column) + ` = ?`)
		for _, s := range batch {
			ad := c.ad(s.key)
			open := box.Open
			if c.plainBefore {
				open = box.OpenStored
			}
			plain, err := open(s.value, ad)
			if err != nil {
				return fmt.Errorf("%s.%s of row %s does not open with the master key or the previous one: %w",
					c.table, c.column, strings.Join(s.key, "/"), err)
			}
			again, err := box.Seal(plain, ad)
			if err != nil {
				return err
			}
			args := []any{again}
			for _, k := range s.key {
				args = append(args, k)
			}
			res, err := tx.ExecContext(ctx, update, append(args, s.value)...)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return translate(err)
			}
			sealed += int(n)
		}
		if len(batch) > 0 && sealed == 0 {
			sealed = -1 // every row changed under us; look again
		}
		return nil
	})
	if sealed < 0 {
		return db.reSealBatch(ctx, box, c, batchSize)
	}
	return sealed, translate(err)
}
