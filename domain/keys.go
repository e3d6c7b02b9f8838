package domain

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Customer is a Payline customer (an integrator); it owns API keys.
type Customer struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// APIKey is a customer's credential for one mode. The secret itself is
// never stored: only its SHA-256 hash (for lookup) and an AES-GCM sealed
// copy (to sign webhooks).
type APIKey struct {
	ID         string
	CustomerID string
	Mode       Mode
	CreatedAt  time.Time
	RevokedAt  *time.Time
	// ExpiresAt, when set, is when the key stops authenticating: keys that
	// expire let a customer rotate without downtime.
	ExpiresAt  *time.Time
	SecretHash []byte
}

// Scope is the tenant the key authenticates.
func (k APIKey) Scope() Scope { return Scope{CustomerID: k.CustomerID, Mode: k.Mode} }

// Active reports whether the key authenticates at now: not revoked, not
// expired.
func (k APIKey) Active(now time.Time) bool {
	return k.RevokedAt == nil && (k.ExpiresAt == nil || now.Before(*k.ExpiresAt))
}

// KeyAdminStore is the API key store with transactions over keys and the
// audit log, so a change and its audit entry commit together.
type KeyAdminStore interface {
	APIKeyStore
	InAdminTx(ctx context.Context, fn func(ctx context.Context, tx AdminTx) error) error
}

// CustomerStore holds customers.
type CustomerStore interface {
	// CreateCustomer returns ErrDuplicate when the name is taken.
	CreateCustomer(ctx context.Context, c Customer) error
	// CustomerByName returns ErrNoRows when no customer has the name.
	CustomerByName(ctx context.Context, name string) (Customer, error)
	// Customers lists every customer by name.
	Customers(ctx context.Context) ([]Customer, error)
}

// APIKeyStore holds API keys. Methods over a tenant's keys take its scope;
// the two that find a key's tenant from nothing else say so.
type APIKeyStore interface {
	// CreateAPIKey stores a key and its secret, which the store seals at
	// rest (webhooks are signed with it, so it must be recoverable).
	CreateAPIKey(ctx context.Context, s Scope, k APIKey, secret string) error
	// APIKeys lists the scope's keys, newest first.
	APIKeys(ctx context.Context, s Scope) ([]APIKey, error)
	// RevokeAPIKey returns ErrNoRows when the scope has no such key.
	RevokeAPIKey(ctx context.Context, s Scope, id string, at time.Time) error
	// APIKeyBySecretHash finds the key a presented secret belongs to, in
	// any tenant: authentication is how the tenant is learned. ErrNoRows
	// when none matches.
	APIKeyBySecretHash(ctx context.Context, hash []byte) (APIKey, error)
	// APIKeyScope finds the tenant of a key id, for the operator's
	// `keys revoke KEY_ID`. ErrNoRows when unknown.
	APIKeyScope(ctx context.Context, id string) (Scope, error)
	// APIKey returns ErrNoRows when the scope has no such key.
	APIKey(ctx context.Context, s Scope, id string) (APIKey, error)
	// APIKeySecret recovers a key's secret from its sealed copy, to sign
	// webhook deliveries; ErrNoRows when the scope has no such key.
	APIKeySecret(ctx context.Context, s Scope, id string) (string, error)
}

// CreatedKey is a newly created key with its secret, which is shown once.
type CreatedKey struct {
	Customer Customer
	Key      APIKey
	Secret   string
}

// KeyService manages customers and API keys and authenticates requests.
type KeyService struct {
	customers CustomerStore
	keys      KeyAdminStore
	clock     Clock

	// Successful authentications are remembered for cacheTTL so a busy key
	// does not cost a query per request. Revocations through this service
	// drop the entry at once; one made by another process (the CLI) takes
	// effect within cacheTTL.
	cacheTTL time.Duration
	mu       sync.Mutex
	cache    map[[sha256.Size]byte]cachedKey
	// revoked are told of every revocation this process learns of, and
	// ended of every member whose sessions ended, so connections that
	// outlive a request (GraphQL websockets) can close.
	revoked map[int]func(keyID string)
	ended   map[int]func(memberID string)
	nextID  int
}

type cachedKey struct {
	key     APIKey
	expires time.Time
}

// AuthCacheTTL is how long a successful authentication is remembered.
const AuthCacheTTL = 5 * time.Second

// NewKeyService wires the key use cases.
func NewKeyService(customers CustomerStore, keys KeyAdminStore, clock Clock) *KeyService {
	return &KeyService{
		customers: customers, keys: keys, clock: clock,
		cacheTTL: AuthCacheTTL, cache: map[[sha256.Size]byte]cachedKey{}, revoked: map[int]func(string){},
		ended: map[int]func(string){},
	}
}

// RememberFor sets how long a successful authentication is remembered
// (AuthCacheTTL until set). Revocations this process is told of drop the
// entry at once; one it is not told of takes effect within d.
func (s *KeyService) RememberFor(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cacheTTL = d
}

// CreateCustomer adds a customer. Errors: INVALID_FIELDS for a blank name,
// CONFLICT when the name is taken.
func (s *KeyService) CreateCustomer(ctx context.Context, name string) (Customer, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return Customer{}, Errorf(KindInvalid, CodeInvalidFields, "customer name must not be blank")
	}
	c := Customer{ID: NewID(), Name: name, CreatedAt: s.clock.Now()}
	err := s.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.CustomerStore().CreateCustomer(ctx, c); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, Scope{CustomerID: c.ID}, ActorOf(ctx), AuditCustomerAdded, c.ID, c.CreatedAt))
	})
	if errors.Is(err, ErrDuplicate) {
		return Customer{}, Errorf(KindConflict, CodeConflict, "a customer named %q already exists", name)
	}
	return c, err
}

// EnsureCustomer returns the customer with the name, creating it if needed.
func (s *KeyService) EnsureCustomer(ctx context.Context, name string) (Customer, error) {
	c, err := s.customers.CustomerByName(ctx, strings.TrimSpace(name))
	if err == nil {
		return c, nil
	}
	if !errors.Is(err, ErrNoRows) {
		return Customer{}, err
	}
	c, err = s.CreateCustomer(ctx, name)
	if IsKind(err, KindConflict) { // created concurrently
		return s.customers.CustomerByName(ctx, strings.TrimSpace(name))
	}
	return c, err
}

// Customers lists every customer.
// AuditLog lists a tenant's audit entries, newest first.
func (s *KeyService) AuditLog(ctx context.Context, sc Scope, limit int) ([]AuditEntry, error) {
	var out []AuditEntry
	err := s.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		var err error
		out, err = tx.Audit().AuditLog(ctx, sc, limit)
		return err
	})
	return out, err
}

func (s *KeyService) Customers(ctx context.Context) ([]Customer, error) {
	return s.customers.Customers(ctx)
}

// CustomerName is a customer's name (a report's requester); ErrNoRows
// for an unknown id.
func (s *KeyService) CustomerName(ctx context.Context, id string) (string, error) {
	all, err := s.customers.Customers(ctx)
	if err != nil {
		return "", err
	}
	for _, c := range all {
		if c.ID == id {
			return c.Name, nil
		}
	}
	return "", ErrNoRows
}

// CreateKey creates a key for the named customer (created if missing) in
// the given mode and returns its secret, the only time it is available in
// plain text. It is the operator's (CLI's) way; the audit log says so.
func (s *KeyService) CreateKey(ctx context.Context, customerName string, mode Mode) (CreatedKey, error) {
	c, err := s.EnsureCustomer(ctx, customerName)
	if err != nil {
		return CreatedKey{}, err
	}
	created, err := s.createKey(ctx, Scope{CustomerID: c.ID, Mode: mode}, nil, "cli")
	created.Customer = c
	return created, err
}

// CreateKeyAs is the admin API's key creation: an administrator's session
// creates a key in its own tenant, optionally expiring at expiresAt (in
// the future). Errors: ROLE_FORBIDDEN, INVALID_FIELDS.
func (s *KeyService) CreateKeyAs(ctx context.Context, sess Session, expiresAt *time.Time) (CreatedKey, error) {
	if !sess.Role.CanManageKeys() {
		return CreatedKey{}, Errorf(KindForbidden, CodeRoleForbidden, "only administrators create API keys; your role is %s", sess.Role)
	}
	if expiresAt != nil && !expiresAt.After(s.clock.Now()) {
		var p Problems
		p.Invalid("expires_at", "must be in the future")
		return CreatedKey{}, p.Err()
	}
	return s.createKey(ctx, sess.Scope(), expiresAt, "member:"+sess.Email)
}

func (s *KeyService) createKey(ctx context.Context, sc Scope, expiresAt *time.Time, actor string) (CreatedKey, error) {
	secret, err := RandomHex(32)
	if err != nil {
		return CreatedKey{}, fmt.Errorf("generate secret: %w", err)
	}
	hash := sha256.Sum256([]byte(secret))
	now := s.clock.Now()
	k := APIKey{ID: NewID(), CustomerID: sc.CustomerID, Mode: sc.Mode, CreatedAt: now, ExpiresAt: expiresAt, SecretHash: hash[:]}
	err = s.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.Keys().CreateAPIKey(ctx, sc, k, secret); err != nil {
			return fmt.Errorf("store key: %w", err)
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, actor, AuditKeyCreated, k.ID, now))
	})
	if err != nil {
		return CreatedKey{}, err
	}
	return CreatedKey{Key: k, Secret: secret}, nil
}

// Keys lists a customer's keys in every mode.
func (s *KeyService) Keys(ctx context.Context, c Customer) ([]APIKey, error) {
	var all []APIKey
	for _, m := range []Mode{ModeSandbox, ModeDevelopment, ModeProduction} {
		ks, err := s.keys.APIKeys(ctx, Scope{CustomerID: c.ID, Mode: m})
		if err != nil {
			return nil, err
		}
		all = append(all, ks...)
	}
	return all, nil
}

// KeysOf lists a tenant's keys, newest first: every role may see them
// (never their secrets).
func (s *KeyService) KeysOf(ctx context.Context, sc Scope) ([]APIKey, error) {
	return s.keys.APIKeys(ctx, sc)
}

// SigningKey is the key a new webhook is signed with: the caller's own
// API key, or, for a dashboard member, the tenant's newest active key
// (receivers verify signatures with a key's secret). Errors:
// INVALID_FIELDS when the tenant has no active key of the mode.
func (s *KeyService) SigningKey(ctx context.Context, sc Scope) (APIKey, error) {
	if k, ok := APIKeyFrom(ctx); ok {
		return k, nil
	}
	keys, err := s.keys.APIKeys(ctx, sc)
	if err != nil {
		return APIKey{}, err
	}
	now := s.clock.Now()
	for _, k := range keys {
		if k.Active(now) {
			return k, nil
		}
	}
	return APIKey{}, Errorf(KindInvalid, CodeInvalidFields,
		"webhooks are signed with an API key's secret, and this workspace has no active %s key: create one under API keys first", sc.Mode)
}

// Now is the service's clock, for transports that show a key's state.
func (s *KeyService) Now() time.Time { return s.clock.Now() }

// ListAPIKeys is the cursor list name of the admin API's key list.
const ListAPIKeys = "api_keys"

// KeysPage pages a tenant's keys, newest first. A tenant has few keys, so
// the page is cut from the whole list.
func (s *KeyService) KeysPage(ctx context.Context, sc Scope, p PageRequest) (Page[APIKey], error) {
	all, err := s.keys.APIKeys(ctx, sc)
	if err != nil {
		return Page[APIKey]{}, err
	}
	if p.Cursor != nil {
		i := 0
		for i < len(all) && all[i].ID != p.Cursor.ID {
			i++
		}
		all = all[min(i+1, len(all)):]
	}
	return PageOf(ListAPIKeys, all[:min(len(all), p.Limit+1)], p.Limit, func(k APIKey) (string, string) {
		return k.CreatedAt.Format(time.RFC3339Nano), k.ID
	}), nil
}

// RevokeKey revokes a key by id, as the operator (CLI). Errors:
// API_KEY_NOT_FOUND.
func (s *KeyService) RevokeKey(ctx context.Context, id string) error {
	notFound := Errorf(KindNotFound, CodeAPIKeyNotFound, "no API key with id %s", id)
	if !ValidID(id) {
		return notFound
	}
	scope, err := s.keys.APIKeyScope(ctx, id)
	if errors.Is(err, ErrNoRows) {
		return notFound
	}
	if err != nil {
		return err
	}
	_, err = s.revoke(ctx, scope, id, "cli")
	return err
}

// RevokeKeyAs is the admin API's revocation: an administrator revokes a
// key of its own tenant. Errors: ROLE_FORBIDDEN, API_KEY_NOT_FOUND (also
// for another tenant's key).
func (s *KeyService) RevokeKeyAs(ctx context.Context, sess Session, id string) (APIKey, error) {
	if !sess.Role.CanManageKeys() {
		return APIKey{}, Errorf(KindForbidden, CodeRoleForbidden, "only administrators revoke API keys; your role is %s", sess.Role)
	}
	if !ValidID(id) {
		return APIKey{}, Errorf(KindNotFound, CodeAPIKeyNotFound, "no API key %s in this workspace", id)
	}
	return s.revoke(ctx, sess.Scope(), id, "member:"+sess.Email)
}

func (s *KeyService) revoke(ctx context.Context, sc Scope, id, actor string) (APIKey, error) {
	now := s.clock.Now()
	var k APIKey
	err := s.keys.InAdminTx(ctx, func(ctx context.Context, tx AdminTx) error {
		if err := tx.Keys().RevokeAPIKey(ctx, sc, id, now); err != nil {
			if errors.Is(err, ErrNoRows) {
				return Errorf(KindNotFound, CodeAPIKeyNotFound, "no API key %s in this workspace", id)
			}
			return err
		}
		var err error
		if k, err = tx.Keys().APIKey(ctx, sc, id); err != nil {
			return err
		}
		return tx.Audit().AppendAudit(ctx, NewAudit(ctx, sc, actor, AuditKeyRevoked, id, now))
	})
	if err != nil {
		return APIKey{}, err
	}
	s.Forget(id)
	return k, nil
}

// Forget drops any remembered authentication of a revoked key, so its
// next use is checked against the database, and tells OnRevoked's
// watchers. Revocations through this service call it; another process's
// reach it through the database's notifications.
func (s *KeyService) Forget(keyID string) {
	s.mu.Lock()
	for h, c := range s.cache {
		if c.key.ID == keyID {
			delete(s.cache, h)
		}
	}
	watchers := make([]func(string), 0, len(s.revoked))
	for _, fn := range s.revoked {
		watchers = append(watchers, fn)
	}
	s.mu.Unlock()
	for _, fn := range watchers {
		fn(keyID)
	}
}

// OnRevoked calls fn with the id of every key revoked from now on, until
// stop is called. fn runs on the revoking goroutine and must not block.
func (s *KeyService) OnRevoked(fn func(keyID string)) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID
	s.nextID++
	s.revoked[id] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.revoked, id)
	}
}

// SessionsEnded tells OnSessionsEnded's watchers that sessions of the
// member ended (signed out, ended by an administrator, a password reset,
// the member removed). MemberService calls it once the end commits;
// another process's ends reach it through the database's notifications.
// Members' sessions are never remembered, so there is nothing to forget.
func (s *KeyService) SessionsEnded(memberID string) {
	s.mu.Lock()
	watchers := make([]func(string), 0, len(s.ended))
	for _, fn := range s.ended {
		watchers = append(watchers, fn)
	}
	s.mu.Unlock()
	for _, fn := range watchers {
		fn(memberID)
	}
}

// OnSessionsEnded calls fn with the id of every member some of whose
// sessions end from now on, until stop is called. It lives beside
// OnRevoked so that a credential's end, a key's or a session's, reaches
// what outlives a request by one path. fn runs on the ending goroutine and
// must not block.
func (s *KeyService) OnSessionsEnded(fn func(memberID string)) (stop func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID
	s.nextID++
	s.ended[id] = fn
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.ended, id)
	}
}

// ForgetAll drops every remembered authentication.
func (s *KeyService) ForgetAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.cache)
}

// SigningSecret is the secret webhooks of a key are signed with. A
// revoked key keeps signing the webhooks it created, so receivers need no
// change until the webhook is replaced.
func (s *KeyService) SigningSecret(ctx context.Context, sc Scope, keyID string) (string, error) {
	secret, err := s.keys.APIKeySecret(ctx, sc, keyID)
	if err != nil {
		return "", fmt.Errorf("signing key %s: %w", keyID, err)
	}
	return secret, nil
}

// Authenticate returns the key a presented secret belongs to. Every
// failure is UNAUTHORIZED_REQUEST (401) with a code saying which: missing,
// invalid, revoked, or a key of another mode.
func (s *KeyService) Authenticate(ctx context.Context, secret string, mode Mode) (APIKey, error) {
	if secret == "" {
		return APIKey{}, Errorf(KindUnauthorized, CodeMissingAPISecret, "missing x-api-secret header; send your API secret for the %s mode", mode)
	}
	hash := sha256.Sum256([]byte(secret))
	now := s.clock.Now()
	s.mu.Lock()
	c, ok := s.cache[hash]
	s.mu.Unlock()
	if ok && now.Before(c.expires) && c.key.Active(now) {
		return c.key, nil
	}
	k, err := s.keys.APIKeyBySecretHash(ctx, hash[:])
	if errors.Is(err, ErrNoRows) || (err == nil && subtle.ConstantTimeCompare(k.SecretHash, hash[:]) != 1) {
		return APIKey{}, Errorf(KindUnauthorized, CodeInvalidAPISecret, "the x-api-secret header is not a valid API secret")
	}
	if err != nil {
		return APIKey{}, fmt.Errorf("look up API key: %w", err)
	}
	if k.RevokedAt != nil {
		return APIKey{}, Errorf(KindUnauthorized, CodeRevokedAPISecret, "this API secret was revoked; create a new key")
	}
	if k.ExpiresAt != nil && !now.Before(*k.ExpiresAt) {
		return APIKey{}, Errorf(KindUnauthorized, CodeExpiredAPISecret, "this API secret expired at %s; use its replacement", k.ExpiresAt.Format(time.RFC3339))
	}
	if k.Mode != mode {
		return APIKey{}, Errorf(KindUnauthorized, CodeWrongModeAPISecret,
			"this API secret is for the %s mode; this server serves %s", k.Mode, mode)
	}
	s.mu.Lock()
	s.cache[hash] = cachedKey{key: k, expires: now.Add(s.cacheTTL)}
	s.mu.Unlock()
	return k, nil
}

// KeyCredential is the credential of an API key presented as secret.
func (s *KeyService) KeyCredential(k APIKey, secret string, mode Mode) Credential {
	c := Credential{Holder: "key:" + k.ID, KeyID: k.ID, Check: func(ctx context.Context) error {
		_, err := s.Authenticate(ctx, secret, mode)
		return err
	}}
	if k.ExpiresAt != nil {
		c.ExpiresAt = *k.ExpiresAt
	}
	return c
}
