package sandbox_test

import (
	"encoding/json"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
)

// BenchmarkPaystubCodec writes and reads 100 paystubs the ways Payline
// does: one stub at a time as the store does (store-*), and a page at a
// time as the protocol and REST lists do (page-*).
func BenchmarkPaystubCodec(b *testing.B) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	p := sandbox.NewPerson(domain.Account{ID: "0195f0a0-0000-7000-8000-000000000001", CustomerID: "c", EndUserID: "e", EmployerName: "Acme"})
	stubs := p.Paystubs(now.AddDate(-4, 0, 0), now, now)
	if len(stubs) < 100 {
		b.Fatalf("%d stubs", len(stubs))
	}
	page := stubs[:100]
	raw, err := json.Marshal(page)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([][]byte, len(page))
	for i, s := range page {
		rows[i], _ = json.Marshal(s)
	}
	b.Run("store-encode", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			for _, s := range page {
				if _, err := domain.EncodePaystub(s); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("store-decode", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			for _, r := range rows {
				if _, err := domain.DecodePaystub(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("page-encode", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := json.Marshal(domain.PaystubsJSON(page)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("page-decode", func(b *testing.B) {
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := domain.DecodePaystubs(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
}
