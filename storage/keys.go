package storage

import (
	"context"
	"database/sql"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// KeyStore implements domain.CustomerStore, domain.KeyAdminStore,
// domain.MemberStore and domain.AuditStore: the credential tables, on the
// database or (inside InAdminTx) on one transaction.
type KeyStore struct {
	db *DB
	q  keyQueryer
}

type keyQueryer interface {
	Rebind(query string) string
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
	sqlx.QueryerContext
}

// auditQueryer is what the audit log's statements need: the database, a
// key store's transaction or the Link stores' one.
type auditQueryer interface {
	Rebind(query string) string
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	sqlx.QueryerContext
}

// NewKeyStore returns the credential store of db.
func NewKeyStore(db *DB) *KeyStore { return &KeyStore{db: db, q: db} }

// InAdminTx runs fn in one transaction over keys and the audit log.
func (s *KeyStore) InAdminTx(ctx context.Context, fn func(ctx context.Context, tx domain.AdminTx) error) error {
	return s.db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		return fn(ctx, &KeyStore{db: s.db, q: tx})
	})
}

// Keys is the key store of the transaction.
func (s *KeyStore) Keys() domain.APIKeyStore { return s }

// Audit is the audit log of the transaction.
func (s *KeyStore) Audit() domain.AuditStore { return s }

// CustomerStore is the customers of the transaction.
func (s *KeyStore) CustomerStore() domain.CustomerStore { return s }

// Members is the members of the transaction.
func (s *KeyStore) Members() domain.MemberStore { return s }

type customerRow struct {
	ID        string    `db:"id"`
	Name      string    `db:"name"`
	CreatedAt time.Time `db:"created_at"`
}

func (r customerRow) domain() domain.Customer {
	return domain.Customer{ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt.UTC()}
}

type apiKeyRow struct {
	ID           string     `db:"id"`
	CustomerID   string     `db:"customer_id"`
	Mode         string     `db:"mode"`
	SecretHash   string     `db:"secret_hash"`
	SealedSecret []byte     `db:"sealed_secret"`
	CreatedAt    time.Time  `db:"created_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
	ExpiresAt    *time.Time `db:"expires_at"`
}

func (r apiKeyRow) domain() (domain.APIKey, error) {
	hash, err := hex.DecodeString(r.SecretHash)
	if err != nil {
		// Read as an empty hash, the key would fail every sign-in with
		// no trace of why.
		return domain.APIKey{}, fmt.Errorf("api key %s: stored secret_hash is not hex: %w", r.ID, err)
	}
	k := domain.APIKey{
		ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(),
		SecretHash: hash,
	}
	if r.RevokedAt != nil {
		t := r.RevokedAt.UTC()
		k.RevokedAt = &t
	}
	if r.ExpiresAt != nil {
		t := r.ExpiresAt.UTC()
		k.ExpiresAt = &t
	}
	return k, nil
}

const apiKeyColumns = `id, customer_id, mode, secret_hash, sealed_secret, created_at, revoked_at, expires_at`

// CreateCustomer inserts a customer; domain.ErrDuplicate if the name is taken.
func (s *KeyStore) CreateCustomer(ctx context.Context, c domain.Customer) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO customers (id, name, created_at) VALUES (?, ?, ?)`),
		c.ID, c.Name, c.CreatedAt)
	return translate(err)
}

// CustomerByName finds a customer by its unique name.
func (s *KeyStore) CustomerByName(ctx context.Context, name string) (domain.Customer, error) {
	var r customerRow
	err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT id, name, created_at FROM customers WHERE name = ?`), name)
	return r.domain(), translate(err)
}

// Customers lists customers by name.
func (s *KeyStore) Customers(ctx context.Context) ([]domain.Customer, error) {
	var rows []customerRow
	if err := s.q.SelectContext(ctx, &rows, `SELECT id, name, created_at FROM customers ORDER BY name`); err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Customer, len(rows))
	for i, r := range rows {
		out[i] = r.domain()
	}
	return out, nil
}

// CreateAPIKey stores a key under the scope's tenant, its secret sealed
// (KeySecretAD).
func (s *KeyStore) CreateAPIKey(ctx context.Context, sc domain.Scope, k domain.APIKey, secret string) error {
	box := s.db.sealer.box.Load()
	if box == nil {
		return errNoMasterKey
	}
	sealed, err := box.Seal([]byte(secret), KeySecretAD(k.ID))
	if err != nil {
		return fmt.Errorf("seal secret of key %s: %w", k.ID, err)
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO api_keys (`+apiKeyColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		k.ID, sc.CustomerID, string(sc.Mode), hex.EncodeToString(k.SecretHash), sealed, k.CreatedAt, k.RevokedAt, k.ExpiresAt)
	return translate(err)
}

// APIKeySecret opens one of the scope's keys' sealed secret.
func (s *KeyStore) APIKeySecret(ctx context.Context, sc domain.Scope, id string) (string, error) {
	var sealed []byte
	err := s.q.GetContext(ctx, &sealed, s.q.Rebind(`SELECT sealed_secret FROM api_keys WHERE id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode))
	if err != nil {
		return "", translate(err)
	}
	box := s.db.sealer.box.Load()
	if box == nil {
		return "", errNoMasterKey
	}
	b, err := box.Open(sealed, KeySecretAD(id))
	if err != nil {
		return "", fmt.Errorf("open secret of key %s: %w", id, err)
	}
	return string(b), nil
}

// APIKeys lists the scope's keys, newest first.
func (s *KeyStore) APIKeys(ctx context.Context, sc domain.Scope) ([]domain.APIKey, error) {
	var rows []apiKeyRow
	err := s.q.SelectContext(ctx, &rows, s.q.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys
		WHERE customer_id = ? AND mode = ? ORDER BY created_at DESC, id DESC`), sc.CustomerID, string(sc.Mode))
	if err != nil {
		return nil, translate(err)
	}
	out := make([]domain.APIKey, len(rows))
	for i, r := range rows {
		if out[i], err = r.domain(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// RevokeAPIKey marks the scope's key revoked; domain.ErrNoRows when the
// scope has no such key. Revoking twice keeps the first time.
func (s *KeyStore) RevokeAPIKey(ctx context.Context, sc domain.Scope, id string, at time.Time) error {
	res, err := s.q.ExecContext(ctx, s.q.Rebind(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?)
		WHERE id = ? AND customer_id = ? AND mode = ?`), at, id, sc.CustomerID, string(sc.Mode))
	if err != nil {
		return translate(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return translate(err)
	} else if n == 0 {
		return domain.ErrNoRows
	}
	return notifyInvalidate(ctx, s.q, s.db.Dialect, "key "+id)
}

// APIKeyBySecretHash finds a key by the hash of its secret, in any tenant.
func (s *KeyStore) APIKeyBySecretHash(ctx context.Context, hash []byte) (domain.APIKey, error) {
	var r apiKeyRow
	if err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE secret_hash = ?`), hex.EncodeToString(hash)); err != nil {
		return domain.APIKey{}, translate(err)
	}
	return r.domain()
}

// APIKeyScope finds the tenant that owns a key id.
func (s *KeyStore) APIKeyScope(ctx context.Context, id string) (domain.Scope, error) {
	var r apiKeyRow
	if err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE id = ?`), id); err != nil {
		return domain.Scope{}, translate(err)
	}
	k, err := r.domain()
	return k.Scope(), err
}

// APIKey returns one of the scope's keys.
func (s *KeyStore) APIKey(ctx context.Context, sc domain.Scope, id string) (domain.APIKey, error) {
	var r apiKeyRow
	err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT `+apiKeyColumns+` FROM api_keys WHERE id = ? AND customer_id = ? AND mode = ?`),
		id, sc.CustomerID, string(sc.Mode))
	if err != nil {
		return domain.APIKey{}, translate(err)
	}
	return r.domain()
}

type memberRow struct {
	ID           string    `db:"id"`
	CustomerID   string    `db:"customer_id"`
	Email        string    `db:"email"`
	PasswordHash string    `db:"password_hash"`
	Role         string    `db:"role"`
	CreatedAt    time.Time `db:"created_at"`
}

// CreateMember inserts a member; domain.ErrDuplicate if the e-mail is taken.
func (s *KeyStore) CreateMember(ctx context.Context, m domain.Member) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO members (id, customer_id, email, password_hash, role, created_at)
		VALUES (?, ?, ?, ?, ?, ?)`), m.ID, m.CustomerID, m.Email, string(m.PasswordHash), string(m.Role), m.CreatedAt)
	return translate(err)
}

func (r memberRow) domain() domain.Member {
	return domain.Member{ID: r.ID, CustomerID: r.CustomerID, Email: r.Email, PasswordHash: []byte(r.PasswordHash),
		Role: domain.Role(r.Role), CreatedAt: r.CreatedAt.UTC()}
}

const memberColumns = `id, customer_id, email, password_hash, role, created_at`

// MemberByEmail finds a member by e-mail (stored lower-case).
func (s *KeyStore) MemberByEmail(ctx context.Context, email string) (domain.Member, error) {
	var r memberRow
	err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT `+memberColumns+` FROM members WHERE email = ?`), email)
	return r.domain(), translate(err)
}

// MemberOf finds a customer's member by id; domain.ErrNoRows for another
// customer's.
func (s *KeyStore) MemberOf(ctx context.Context, customerID, id string) (domain.Member, error) {
	var r memberRow
	err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT `+memberColumns+` FROM members WHERE id = ? AND customer_id = ?`), id, customerID)
	return r.domain(), translate(err)
}

// MembersOf lists a customer's members by e-mail.
func (s *KeyStore) MembersOf(ctx context.Context, customerID string) ([]domain.Member, error) {
	var rows []memberRow
	err := s.q.SelectContext(ctx, &rows, s.q.Rebind(`SELECT `+memberColumns+` FROM members WHERE customer_id = ? ORDER BY email`), customerID)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]domain.Member, len(rows))
	for i, r := range rows {
		out[i] = r.domain()
	}
	return out, nil
}

// CustomerName names a customer.
func (s *KeyStore) CustomerName(ctx context.Context, customerID string) (string, error) {
	var name string
	err := s.q.GetContext(ctx, &name, s.q.Rebind(`SELECT name FROM customers WHERE id = ?`), customerID)
	return name, translate(err)
}

// CreateSession stores a session by the hash of its token.
func (s *KeyStore) CreateSession(ctx context.Context, hash []byte, sess domain.Session) error {
	_, err := s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO member_sessions (token_hash, member_id, mode, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?)`), hex.EncodeToString(hash), sess.MemberID, string(sess.Mode), sess.CreatedAt, sess.ExpiresAt)
	return translate(err)
}

// SessionByHash finds a session with its member and workspace.
func (s *KeyStore) SessionByHash(ctx context.Context, hash []byte) (domain.Session, error) {
	var r struct {
		MemberID   string    `db:"member_id"`
		CustomerID string    `db:"customer_id"`
		Workspace  string    `db:"workspace"`
		Email      string    `db:"email"`
		Role       string    `db:"role"`
		Mode       string    `db:"mode"`
		CreatedAt  time.Time `db:"created_at"`
		ExpiresAt  time.Time `db:"expires_at"`
	}
	err := s.q.GetContext(ctx, &r, s.q.Rebind(`SELECT ms.member_id, m.customer_id, c.name AS workspace, m.email, m.role, ms.mode,
		ms.created_at, ms.expires_at
		FROM member_sessions ms JOIN members m ON m.id = ms.member_id JOIN customers c ON c.id = m.customer_id
		WHERE ms.token_hash = ?`), hex.EncodeToString(hash))
	return domain.Session{MemberID: r.MemberID, CustomerID: r.CustomerID, WorkspaceName: r.Workspace, Email: r.Email,
		Role: domain.Role(r.Role), Mode: domain.Mode(r.Mode), CreatedAt: r.CreatedAt.UTC(), ExpiresAt: r.ExpiresAt.UTC()}, translate(err)
}

// DeleteSession ends a session, and tells the other processes on the
// database once the deletion commits, so they close its websockets.
func (s *KeyStore) DeleteSession(ctx context.Context, hash []byte) error {
	var members []string
	err := s.q.SelectContext(ctx, &members, s.q.Rebind(`DELETE FROM member_sessions WHERE token_hash = ? RETURNING member_id`),
		hex.EncodeToString(hash))
	if err != nil {
		return translate(err)
	}
	for _, id := range members {
		if err := notifyInvalidate(ctx, s.q, s.db.Dialect, "member "+id); err != nil {
			return err
		}
	}
	return nil
}

// DeleteMember removes the customer's member.
func (s *KeyStore) DeleteMember(ctx context.Context, customerID, id string) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM members WHERE id = ? AND customer_id = ?`), id, customerID))
}

func (s *KeyStore) SetMemberPassword(ctx context.Context, customerID, id string, hash []byte) error {
	return expectOne(s.q.ExecContext(ctx, s.q.Rebind(`UPDATE members SET password_hash = ? WHERE id = ? AND customer_id = ?`),
		string(hash), id, customerID))
}

// DeleteMemberSessions ends every session of a member and counts them,
// and tells the other processes on the database once the deletion
// commits, so they close the member's websockets.
func (s *KeyStore) DeleteMemberSessions(ctx context.Context, memberID string) (int, error) {
	res, err := s.q.ExecContext(ctx, s.q.Rebind(`DELETE FROM member_sessions WHERE member_id = ?`), memberID)
	if err != nil {
		return 0, translate(err)
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return int(n), translate(err)
	}
	return int(n), notifyInvalidate(ctx, s.q, s.db.Dialect, "member "+memberID)
}

type auditRow struct {
	ID         string    `db:"id"`
	CustomerID string    `db:"customer_id"`
	Mode       string    `db:"mode"`
	Actor      string    `db:"actor"`
	Address    string    `db:"address"`
	Action     string    `db:"action"`
	Target     string    `db:"target"`
	Detail     string    `db:"detail"`
	At         time.Time `db:"at"`
}

// AppendAudit adds an entry to the audit log.
func (s *KeyStore) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	return appendAudit(ctx, s.q, e)
}

// AuditLog lists the scope's entries, newest first.
func (s *KeyStore) AuditLog(ctx context.Context, sc domain.Scope, limit int) ([]domain.AuditEntry, error) {
	return auditLog(ctx, s.q, sc, limit)
}

func appendAudit(ctx context.Context, q auditQueryer, e domain.AuditEntry) error {
	_, err := q.ExecContext(ctx, q.Rebind(`INSERT INTO audit_log (id, customer_id, mode, actor, address, action, target, detail, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), e.ID, e.CustomerID, string(e.Mode), e.Actor, e.Address, e.Action, e.Target, e.Detail, e.At)
	return translate(err)
}

func auditLog(ctx context.Context, q auditQueryer, sc domain.Scope, limit int) ([]domain.AuditEntry, error) {
	var rows []auditRow
	err := sqlx.SelectContext(ctx, q, &rows, q.Rebind(`SELECT id, customer_id, mode, actor, address, action, target, detail, at FROM audit_log
		WHERE customer_id = ? AND mode = ? ORDER BY at DESC, id DESC LIMIT ?`), sc.CustomerID, string(sc.Mode), limit)
	if err != nil {
		return nil, translate(err)
	}
	out := make([]domain.AuditEntry, len(rows))
	for i, r := range rows {
		out[i] = domain.AuditEntry{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), Actor: r.Actor, Address: r.Address,
			Action: r.Action, Target: r.Target, Detail: r.Detail, At: r.At.UTC()}
	}
	return out, nil
}
