package secretbox_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"payline/internal/secretbox"
)

func TestSecretBoxRejectsOtherKeysAndTampering(t *testing.T) {
	a, _ := secretbox.New(bytes.Repeat([]byte{1}, 32))
	b, _ := secretbox.New(bytes.Repeat([]byte{2}, 32))
	sealed, err := a.Seal([]byte("s3cret"), []byte("id"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Open(sealed, []byte("id")); err == nil {
		t.Error("opened with another master key")
	}
	sealed[len(sealed)-1] ^= 1
	if _, err := a.Open(sealed, []byte("id")); err == nil {
		t.Error("opened a tampered ciphertext")
	}
	if _, err := secretbox.New([]byte("short")); err == nil {
		t.Error("accepted a short master key")
	}
	if _, err := a.Open([]byte{1, 2}, nil); err == nil || errors.Is(err, nil) {
		t.Error("opened a truncated ciphertext")
	}
}

// BenchmarkSecretBox is the cost of sealing people's data at rest: one
// seal and one open of a paystub-sized value (1.5 KB) and of an account's
// connection (a few bytes).
func BenchmarkSecretBox(b *testing.B) {
	box, err := secretbox.New(bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32))
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{8, 1536} {
		plain := bytes.Repeat([]byte("x"), size)
		sealed, _ := box.Seal(plain, []byte("paystubs\x00id"))
		b.Run(fmt.Sprintf("seal/bytes=%d", size), func(b *testing.B) {
			for b.Loop() {
				if _, err := box.Seal(plain, []byte("paystubs\x00id")); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("open/bytes=%d", size), func(b *testing.B) {
			for b.Loop() {
				if _, err := box.Open(sealed, []byte("paystubs\x00id")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
