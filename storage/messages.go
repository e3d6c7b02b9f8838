package storage

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// MessageStore keeps what message delivery remembers: the sandbox outbox
// (recipients and bodies sealed) and the phone numbers that opted out of
// texts (by keyed hash only).
type MessageStore struct {
	db *DB
	// keys caches the hashing keys by name: a key never changes once
	// made (a master key rotation seals it anew, the same bytes).
	keys sync.Map
}

// NewMessageStore returns the outbox and opt-out store over db, which
// must have been given its master key (SealWith).
func NewMessageStore(db *DB) *MessageStore { return &MessageStore{db: db} }

var _ domain.OutboxStore = (*MessageStore)(nil)
var _ domain.MessageOptOuts = (*MessageStore)(nil)

const outboxColumns = `id, channel, to_masked, sealed_to, from_name, subject, body_text, body_html, ref, created_at`

type outboxRow struct {
	ID        string    `db:"id"`
	Channel   string    `db:"channel"`
	ToMasked  string    `db:"to_masked"`
	SealedTo  []byte    `db:"sealed_to"`
	FromName  string    `db:"from_name"`
	Subject   string    `db:"subject"`
	BodyText  []byte    `db:"body_text"`
	BodyHTML  []byte    `db:"body_html"`
	Ref       string    `db:"ref"`
	CreatedAt time.Time `db:"created_at"`
}

var outboxNewest = keyset[domain.OutboxMessage]{list: domain.ListOutboxMessages, column: "created_at", desc: true, byTime: true,
	key: func(m domain.OutboxMessage) keyValue { return keyValue{m.CreatedAt, m.ID} }}

// AddOutboxMessage seals the recipient and both bodies, each bound to the
// row, and stores the message.
func (s *MessageStore) AddOutboxMessage(ctx context.Context, sc domain.Scope, m domain.OutboxMessage) error {
	seal := func(column, v string) ([]byte, error) {
		return s.db.sealer.seal([]byte(v), "outbox_messages."+column, m.ID)
	}
	to, err := seal("sealed_to", m.To)
	if err != nil {
		return err
	}
	text, err := seal("body_text", m.Text)
	if err != nil {
		return err
	}
	html, err := seal("body_html", m.HTML)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO outbox_messages (customer_id, mode, `+outboxColumns+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		sc.CustomerID, string(sc.Mode), m.ID, string(m.Channel), m.ToMasked, to, m.FromName, m.Subject, text, html, m.Ref, m.CreatedAt.UTC())
	return translate(err)
}

// OutboxMessages pages the scope's outbox, newest first, opened.
func (s *MessageStore) OutboxMessages(ctx context.Context, sc domain.Scope, p domain.PageRequest) (domain.Page[domain.OutboxMessage], error) {
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ?", sc.CustomerID, string(sc.Mode))
	return selectPage(ctx, s.db, outboxNewest, `SELECT `+outboxColumns+` FROM outbox_messages`, q, p, s.outboxMessage)
}

func (s *MessageStore) outboxMessage(r outboxRow) (domain.OutboxMessage, error) {
	open := func(column string, v []byte) (string, error) {
		b, err := s.db.sealer.open(v, "outbox_messages."+column, r.ID)
		return string(b), err
	}
	m := domain.OutboxMessage{ID: r.ID, Channel: domain.MessageChannel(r.Channel), ToMasked: r.ToMasked, FromName: r.FromName,
		Subject: r.Subject, Ref: r.Ref, CreatedAt: r.CreatedAt.UTC()}
	var err error
	if m.To, err = open("sealed_to", r.SealedTo); err != nil {
		return m, err
	}
	if m.Text, err = open("body_text", r.BodyText); err != nil {
		return m, err
	}
	m.HTML, err = open("body_html", r.BodyHTML)
	return m, err
}

// phoneLookupKey names the key phone numbers are hashed under.
const phoneLookupKey = "message_opt_outs.phone"

// phoneHash is the keyed hash a phone number is kept as.
func (s *MessageStore) phoneHash(ctx context.Context, phone string) ([]byte, error) {
	key, err := s.lookupKey(ctx, phoneLookupKey)
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(phone))
	return m.Sum(nil), nil
}

// lookupKey reads the named hashing key, making it the first time. Two
// instances making it at once keep the first one written.
func (s *MessageStore) lookupKey(ctx context.Context, name string) ([]byte, error) {
	if k, ok := s.keys.Load(name); ok {
		return k.([]byte), nil
	}
	read := func() ([]byte, error) {
		var sealed []byte
		err := sqlx.GetContext(ctx, s.db, &sealed, s.db.Rebind(`SELECT sealed_key FROM lookup_keys WHERE name = ?`), name)
		if err != nil {
			return nil, translate(err)
		}
		return s.db.sealer.open(sealed, "lookup_keys", name)
	}
	key, err := read()
	if errors.Is(err, domain.ErrNoRows) {
		fresh := make([]byte, 32)
		if _, err := rand.Read(fresh); err != nil {
			return nil, err
		}
		sealed, serr := s.db.sealer.seal(fresh, "lookup_keys", name)
		if serr != nil {
			return nil, serr
		}
		if _, err := s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO lookup_keys (name, sealed_key) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`),
			name, sealed); err != nil {
			return nil, translate(err)
		}
		key, err = read()
	}
	if err != nil {
		return nil, err
	}
	s.keys.Store(name, key)
	return key, nil
}

// OptedOut reads the number's row by its keyed hash.
func (s *MessageStore) OptedOut(ctx context.Context, mode domain.Mode, phone string) (bool, error) {
	h, err := s.phoneHash(ctx, phone)
	if err != nil {
		return false, err
	}
	var out bool
	err = sqlx.GetContext(ctx, s.db, &out, s.db.Rebind(`SELECT opted_out FROM message_opt_outs WHERE mode = ? AND phone_hash = ?`), string(mode), h)
	if err = translate(err); errors.Is(err, domain.ErrNoRows) {
		return false, nil
	}
	return out, err
}

// SetOptedOut records the change; the latest wins.
func (s *MessageStore) SetOptedOut(ctx context.Context, mode domain.Mode, phone string, out bool, source domain.OptOutSource, at time.Time) error {
	h, err := s.phoneHash(ctx, phone)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, s.db.Rebind(`INSERT INTO message_opt_outs (mode, phone_hash, opted_out, source, changed_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (mode, phone_hash) DO UPDATE
		SET opted_out = excluded.opted_out, source = excluded.source, changed_at = excluded.changed_at`),
		string(mode), h, out, string(source), at.UTC())
	return translate(err)
}
