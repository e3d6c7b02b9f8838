// Package secretbox seals people's data and recoverable secrets at rest with
// AES-256-GCM under the master key (and its predecessors while a database
// moves to a new one). storage seals with it, cmd/payline builds it from
// the master key; the domain never sees a ciphertext.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// KeySize is the length of the AES-256 master key in bytes.
const KeySize = 32

// Marker is the first byte of everything Box seals, followed
// by the sealing key's 8-byte id. Plaintext stored before sealing (JSON,
// PDFs) never starts with it.
const Marker = 0x01

// tagSize is the marker and the key id.
const tagSize = 1 + 8

// Box seals people's data and recoverable secrets with AES-256-GCM
// under the master key. The caller binds each ciphertext to its row with
// additional data, so a ciphertext copied to another row does not open.
//
// A box is a key ring: it seals with its primary key and opens with any of
// its keys, so a database moves to a new master key while it serves
// (payline keys rotate-master). A sealed value is Marker, the key's
// id, the nonce and the ciphertext; values sealed before key ids (nonce and
// ciphertext only) are opened by trying each key.
type Box struct {
	primary sealingKey
	keys    []sealingKey // primary first
}

type sealingKey struct {
	id   [8]byte
	aead cipher.AEAD
}

// New takes the 32-byte primary master key and any previous
// ones that still open older values.
func New(masterKey []byte, previous ...[]byte) (*Box, error) {
	b := &Box{}
	for _, k := range append([][]byte{masterKey}, previous...) {
		if len(k) != KeySize {
			return nil, fmt.Errorf("master key must be %d bytes, got %d", KeySize, len(k))
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		sk := sealingKey{aead: aead}
		id, _ := hex.DecodeString(masterKeyID(k)) // hex this package wrote from a valid key
		copy(sk.id[:], id)
		b.keys = append(b.keys, sk)
	}
	b.primary = b.keys[0]
	return b, nil
}

// Tag is the prefix of every value sealed by the primary key; a value
// without it needs sealing again (ReSeal).
func (b *Box) Tag() []byte {
	return append([]byte{Marker}, b.primary.id[:]...)
}

// Seal returns Marker || key id || nonce || ciphertext.
func (b *Box) Seal(plaintext, additional []byte) ([]byte, error) {
	n := b.primary.aead.NonceSize()
	out := make([]byte, tagSize+n, tagSize+n+len(plaintext)+b.primary.aead.Overhead())
	out[0] = Marker
	copy(out[1:tagSize], b.primary.id[:])
	nonce := out[tagSize:]
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.primary.aead.Seal(out, nonce, plaintext, additional), nil
}

// Open reverses Seal with whichever key sealed the value; it fails if the
// data, the additional data or the keys differ from those used to seal.
func (b *Box) Open(sealed, additional []byte) ([]byte, error) {
	if len(sealed) > tagSize && sealed[0] == Marker {
		for _, k := range b.keys {
			if [8]byte(sealed[1:tagSize]) == k.id {
				if p, err := k.open(sealed[tagSize:], additional); err == nil {
					return p, nil
				}
			}
		}
	}
	// Sealed before key ids: nonce and ciphertext, by any key.
	for _, k := range b.keys {
		if p, err := k.open(sealed, additional); err == nil {
			return p, nil
		}
	}
	return nil, errors.New("sealed value does not open with the master key (or any previous one)")
}

func (k sealingKey) open(sealed, additional []byte) ([]byte, error) {
	n := k.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed secret too short")
	}
	return k.aead.Open(nil, sealed[:n], sealed[n:], additional)
}

// OpenStored reads a stored column that is sealed, or plaintext written
// before it was sealed (empty, or never starting with Marker).
func (b *Box) OpenStored(stored, additional []byte) ([]byte, error) {
	if len(stored) == 0 || stored[0] != Marker {
		return stored, nil
	}
	return b.Open(stored, additional)
}

// Fingerprint identifies a master key without revealing it: id
// names it in messages and check proves a key is the same, both HMAC-SHA256
// of fixed labels under the key.
func Fingerprint(masterKey []byte) (id, check string) {
	sum := func(label string) string {
		m := hmac.New(sha256.New, masterKey)
		m.Write([]byte(label))
		return hex.EncodeToString(m.Sum(nil))
	}
	return sum("payline master key id")[:16], sum("payline master key check")
}

func masterKeyID(masterKey []byte) string {
	id, _ := Fingerprint(masterKey)
	return id
}
