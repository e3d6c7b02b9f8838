package rest

import (
	"testing"

	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestPaystubLines: GET /paystubs and /paystubs/{id} carry the vendor's
// taxes[], deductions[] and time_off[]; the lines add up to total_taxes and
// total_deductions, to the cent, on both databases.
func TestPaystubLines(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		acct := f.connectAs("lines", p, sandbox.UserGood, "paystubs")
		stubs := f.get("/v1/accounts/" + acct + "/paystubs?limit=10").list(t)
		if len(stubs) == 0 {
			t.Fatal("no paystubs")
		}
		sum := func(lines any) (total float64, n int) {
			for _, l := range lines.([]any) {
				total += l.(map[string]any)["amount"].(float64)
				n++
			}
			return total, n
		}
		for _, s := range stubs {
			taxes, nt := sum(s["taxes"])
			deductions, nd := sum(s["deductions"])
			if nt == 0 || taxes != s["total_taxes"] || deductions != s["total_deductions"] || len(s["time_off"].([]any)) != 0 {
				t.Errorf("paystub %s: taxes %v (%d lines) vs %v, deductions %v (%d lines) vs %v, time_off %v", s["id"],
					taxes, nt, s["total_taxes"], deductions, nd, s["total_deductions"], s["time_off"])
			}
		}
		one := f.get("/v1/accounts/" + acct + "/paystubs/" + stubs[0]["id"].(string)).data(t)
		if _, n := sum(one["taxes"]); n == 0 || one["deductions"] == nil {
			t.Errorf("GET /paystubs/{id} %v", one)
		}
	})
}
