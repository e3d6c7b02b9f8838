package reports

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"payline/domain"
)

// DefaultLinkTTL is how long a download link works.
const DefaultLinkTTL = 15 * time.Minute

// Signer makes and checks download links: an HMAC-SHA256 over the
// document id and the expiry, keyed with a link key that has an id. The
// tenant is not signed: document ids are unique across tenants and only
// the tenant's own documents are ever signed, so a link is checked
// before anything is read, and a wrong one costs the same whether or not
// the document exists. Link keys are derived from the master key (HKDF-SHA256) per key
// id; a signature names its key id, so keys can be rotated while links
// signed with an older one still verify until they expire.
type Signer struct {
	current string
	keys    map[string][]byte
	base    string
	ttl     time.Duration
	clock   domain.Clock
}

// linkKeyIDs are the key ids links may be signed with; the first signs.
var linkKeyIDs = []string{"k2"}

// NewSigner derives the link keys from the master key. publicURL is where
// callers reach the server; ttl is the links' lifetime (DefaultLinkTTL
// when zero).
func NewSigner(masterKey []byte, publicURL string, ttl time.Duration, clock domain.Clock) (*Signer, error) {
	if ttl <= 0 {
		ttl = DefaultLinkTTL
	}
	s := &Signer{current: linkKeyIDs[0], keys: map[string][]byte{}, base: strings.TrimRight(publicURL, "/"), ttl: ttl, clock: clock}
	for _, kid := range linkKeyIDs {
		k, err := hkdf.Key(sha256.New, masterKey, nil, "payline download links "+kid, 32)
		if err != nil {
			return nil, err
		}
		s.keys[kid] = k
	}
	return s, nil
}

func (s *Signer) mac(kid, docID string, expires int64) []byte {
	m := hmac.New(sha256.New, s.keys[kid])
	fmt.Fprintf(m, "payline-download-v2\n%s\n%d", docID, expires)
	return m.Sum(nil)
}

// Link signs a fresh link to a document (one of the caller's tenant).
func (s *Signer) Link(docID string) domain.DocumentLink {
	exp := s.clock.Now().Add(s.ttl).Truncate(time.Second)
	q := url.Values{}
	q.Set("expires", strconv.FormatInt(exp.Unix(), 10))
	q.Set("signature", s.current+"."+hex.EncodeToString(s.mac(s.current, docID, exp.Unix())))
	return domain.DocumentLink{ID: docID, DownloadURL: s.base + "/files/" + docID + "?" + q.Encode(), DownloadURLExpiration: domain.Timestamp(exp)}
}

// Check verifies a link's expiry and signature, reading nothing. Every
// failure is the same 403: a caller learns nothing about which part was
// wrong, or whether the document exists.
func (s *Signer) Check(docID, expires, signature string) error {
	refused := domain.Errorf(domain.KindForbidden, domain.CodeDownloadLinkInvalid,
		"this download link is expired or not valid; get a fresh one from the report or document it came with")
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || !s.clock.Now().Before(time.Unix(exp, 0)) {
		return refused
	}
	kid, sig, ok := strings.Cut(signature, ".")
	got, err := hex.DecodeString(sig)
	if _, known := s.keys[kid]; !ok || !known || err != nil || !hmac.Equal(got, s.mac(kid, docID, exp)) {
		return refused
	}
	return nil
}
