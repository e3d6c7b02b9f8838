package domain

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

// MasterKeySize is the length of the AES-256 master key in bytes.
const MasterKeySize = 32

// SealedMarker is the first byte of everything SecretBox seals, followed
// by the sealing key's 8-byte id. Plaintext stored before sealing (JSON,
// PDFs) never starts with it.
const SealedMarker = 0x01

// tagSize is the marker and the key id.
const tagSize = 1 + 8

// SecretBox seals people's data and recoverable secrets with AES-256-GCM
// under the master key. The caller binds each ciphertext to its row with
// additional data, so a ciphertext copied to another row does not open.
//
// A box is a key ring: it seals with its primary key and opens with any of
// its keys, so a database moves to a new master key while it serves
// (payline keys rotate-master). A sealed value is SealedMarker, the key's
// id, the nonce and the ciphertext; values sealed before key ids (nonce and
// ciphertext only) are opened by trying each key.
type SecretBox struct {
	primary sealingKey
	keys    []sealingKey // primary first
}

type sealingKey struct {
	id   [8]byte
	aead cipher.AEAD
}

// NewSecretBox takes the 32-byte primary master key and any previous
// ones that still open older values.
func NewSecretBox(masterKey []byte, previous ...[]byte) (*SecretBox, error) {
	b := &SecretBox{}
	for _, k := range append([][]byte{masterKey}, previous...) {
		if len(k) != MasterKeySize {
			return nil, fmt.Errorf("master key must be %d bytes, got %d", MasterKeySize, len(k))
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
func (b *SecretBox) Tag() []byte {
	return append([]byte{SealedMarker}, b.primary.id[:]...)
}

// Seal returns SealedMarker || key id || nonce || ciphertext.
func (b *SecretBox) Seal(plaintext, additional []byte) ([]byte, error) {
	n := b.primary.aead.NonceSize()
	out := make([]byte, tagSize+n, tagSize+n+len(plaintext)+b.primary.aead.Overhead())
	out[0] = SealedMarker
	copy(out[1:tagSize], b.primary.id[:])
	nonce := out[tagSize:]
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.primary.aead.Seal(out, nonce, plaintext, additional), nil
}

// Open reverses Seal with whichever key sealed the value; it fails if the
// data, the additional data or the keys differ from those used to seal.
func (b *SecretBox) Open(sealed, additional []byte) ([]byte, error) {
	if len(sealed) > tagSize && sealed[0] == SealedMarker {
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
// before it was sealed (empty, or never starting with SealedMarker).
func (b *SecretBox) OpenStored(stored, additional []byte) ([]byte, error) {
	if len(stored) == 0 || stored[0] != SealedMarker {
		return stored, nil
	}
	return b.Open(stored, additional)
}

// MasterKeyFingerprint identifies a master key without revealing it: id
// names it in messages and check proves a key is the same, both HMAC-SHA256
// of fixed labels under the key.
func MasterKeyFingerprint(masterKey []byte) (id, check string) {
	sum := func(label string) string {
		m := hmac.New(sha256.New, masterKey)
		m.Write([]byte(label))
		return hex.EncodeToString(m.Sum(nil))
	}
	return sum("payline master key id")[:16], sum("payline master key check")
}

func masterKeyID(masterKey []byte) string {
	id, _ := MasterKeyFingerprint(masterKey)
	return id
}
