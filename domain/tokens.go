package domain

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// RandomBytes returns n bytes from the operating system's secure source.
// It is the one place Payline mints secrets, tokens, passwords and
// instance suffixes, so none of them is ever made from a read that
// failed: the error is returned, never dropped (crypto/rand.Read does not
// fail on the platforms Go supports today, but a minter that assumes so
// is the one that hands out zeros the day it does).
func RandomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("read %d random bytes: %w", n, err)
	}
	return b, nil
}

// RandomHex returns n random bytes (RandomBytes) as lower-case hex.
func RandomHex(n int) (string, error) {
	b, err := RandomBytes(n)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
