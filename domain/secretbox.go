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

// SecretBox encrypts secrets that must be recoverable (API secrets sign
// webhook deliveries) with AES-256-GCM under the master key. The caller
// binds each ciphertext to its row with additional data, so a ciphertext
// copied to another row does not decrypt.
type SecretBox struct {
	aead cipher.AEAD
}

// NewSecretBox takes a 32-byte master key.
func NewSecretBox(masterKey []byte) (*SecretBox, error) {
	if len(masterKey) != MasterKeySize {
		return nil, fmt.Errorf("master key must be %d bytes, got %d", MasterKeySize, len(masterKey))
	}
	block, err := aes.NewCipher(masterKey)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &SecretBox{aead: aead}, nil
}

// Seal returns nonce || ciphertext.
func (b *SecretBox) Seal(plaintext, additional []byte) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return b.aead.Seal(nonce, nonce, plaintext, additional), nil
}

// Open reverses Seal; it fails if the data, the additional data or the
// master key differ from those used to seal.
func (b *SecretBox) Open(sealed, additional []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed secret too short")
	}
	return b.aead.Open(nil, sealed[:n], sealed[n:], additional)
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
