package graph

import (
	"math"
	"testing"

	"payline/domain"
)

// TestConnectionCostSaturates: a page size beyond the maximum is priced
// at the maximum, and a product past the int range saturates instead of
// wrapping negative (which gqlgen ignores).
func TestConnectionCostSaturates(t *testing.T) {
	huge := math.MaxInt32
	if got := connectionCost(math.MaxInt/2, &huge); got != math.MaxInt {
		t.Errorf("a connection of huge items costs %d, want saturated at %d", got, math.MaxInt)
	}
	if got, want := connectionCost(3, nil, &huge), 2+3*domain.MaxPageLimit; got != want {
		t.Errorf("last: 2³¹-1 priced %d, want %d (the page maximum)", got, want)
	}
	if got := saturatingAdd(math.MaxInt-1, 5); got != math.MaxInt {
		t.Errorf("saturatingAdd overflowed to %d", got)
	}
}
