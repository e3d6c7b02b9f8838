package client

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The API writes dollar amounts as JSON numbers with up to two decimals
// (19.99, 2500.00). The generated types hold them as json.Number, the
// literal itself, so no amount passes through a float; Dollars and Cents
// convert between that and integer cents.

// Dollars is cents written as the API reads an amount: 1999 is 19.99.
func Dollars(cents int64) json.Number {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return json.Number(fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100))
}

// Cents reads an amount the API wrote (19.99, 25, 0.5) as integer cents,
// from its text. More than two decimals or an exponent is an error.
func Cents(n json.Number) (int64, error) {
	s := string(n)
	neg := strings.HasPrefix(s, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(s, "-"), ".")
	if whole == "" || len(frac) > 2 || strings.ContainsAny(whole+frac, "+-eE") {
		return 0, fmt.Errorf("payline: %q is not an amount with at most two decimals", s)
	}
	frac += strings.Repeat("0", 2-len(frac))
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("payline: %q is not an amount: %w", s, err)
	}
	f, err := strconv.ParseUint(frac, 10, 8)
	if err != nil || w > (1<<63-1-99)/100 {
		return 0, fmt.Errorf("payline: %q is not an amount with at most two decimals", s)
	}
	c := w*100 + int64(f)
	if neg {
		c = -c
	}
	return c, nil
}
