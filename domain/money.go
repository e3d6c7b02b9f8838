package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Money is an amount in the minor units of a currency (cents for USD).
// Amounts are integers from the moment they are parsed to the moment they
// are shown; nothing on the way is a float.
// Its JSON is the spec's money object, {"amount": minor units, "currency"}.
type Money struct {
	Amount   int64  `json:"amount"`   // minor units
	Currency string `json:"currency"` // ISO 4217
}

// CurrencyUSD is the currency of every amount the API takes in dollars.
const CurrencyUSD = "USD"

// USD is an amount of US cents.
func USD(cents int64) Money { return Money{Amount: cents, Currency: CurrencyUSD} }

// MaxDollarAmount is the largest dollar amount a caller may send, in
// cents: $1,000,000.00. A larger paycheck split or payment is refused as
// a typo rather than passed to a payroll platform.
const MaxDollarAmount = 1_000_000_00

// Decimal is the amount in major units with exactly two decimals, as a
// JSON number literal: USD(1999) is "19.99", USD(2500) is "25.00".
func (m Money) Decimal() string {
	sign, a := "", m.Amount
	if a < 0 {
		sign, a = "-", -a
	}
	return fmt.Sprintf("%s%d.%02d", sign, a/100, a%100)
}

// Formatted is the amount as people read it: "$1,234.56" for USD, the
// currency code before the figure otherwise.
func (m Money) Formatted() string {
	sign, a := "", m.Amount
	if a < 0 {
		sign, a = "-", -a
	}
	whole := strconv.FormatInt(a/100, 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	symbol := "$"
	if m.Currency != CurrencyUSD {
		symbol = m.Currency + " "
	}
	return fmt.Sprintf("%s%s%s.%02d", sign, symbol, b.String(), a%100)
}

// Number is a JSON number exactly as the caller wrote it. Amounts and
// percentages are read from the literal, so 19.99 stays 1999 cents.
type Number string

// MarshalJSON writes the literal as a JSON number (null when empty).
func (n Number) MarshalJSON() ([]byte, error) {
	if n == "" {
		return []byte("null"), nil
	}
	return []byte(n), nil
}

// UnmarshalJSON keeps a JSON number's literal; null leaves it empty.
func (n *Number) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = ""
		return nil
	}
	var num json.Number
	if err := json.Unmarshal(b, &num); err != nil || len(b) == 0 || b[0] == '"' {
		return fmt.Errorf("not a number: %.20s", b)
	}
	*n = Number(num)
	return nil
}

// DecimalPlaces says how many digits an amount may have after the point.
type DecimalPlaces int

const (
	// UpToTwoPlaces takes 19, 19.9 and 19.99.
	UpToTwoPlaces DecimalPlaces = iota
	// ExactlyTwoPlaces takes only 19.99 and 19.00 (the spec's legacy amount).
	ExactlyTwoPlaces
)

// errors of decimal parsing; callers prefix the field name.
var (
	errNotDecimal = errors.New("must be a plain decimal number such as 19.99")
	errExponent   = errors.New("must be written without an exponent, such as 100.00 rather than 1e2")
	errNegative   = errors.New("must be positive")
	errTooLarge   = errors.New("too large")
)

// parseHundredths reads a decimal literal into hundredths: "19.99" is
// 1999, "19.9" 1990, "19" 1900. It refuses signs, exponents, more than two
// decimals and more than max hundredths, each with the reason.
func parseHundredths(lit Number, places DecimalPlaces, max int64) (int64, error) {
	s := string(lit)
	switch {
	case s == "":
		return 0, errNotDecimal
	case s[0] == '-':
		return 0, errNegative
	case strings.ContainsAny(s, "eE"):
		return 0, errExponent
	}
	whole, frac, hasPoint := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (hasPoint && (frac == "" || !allDigits(frac))) ||
		(len(whole) > 1 && whole[0] == '0') {
		return 0, errNotDecimal
	}
	switch {
	case len(frac) > 2:
		return 0, fmt.Errorf("must have at most two decimal places, got %s", s)
	case places == ExactlyTwoPlaces && len(frac) != 2:
		return 0, fmt.Errorf("must have exactly two decimal places, such as %s.00, got %s", whole, s)
	}
	// Past this many digits the value is over every bound we take; checking
	// length first also keeps ParseInt from overflowing.
	if len(strings.TrimLeft(whole, "0")) > 15 {
		return 0, errTooLarge
	}
	w, _ := strconv.ParseInt(whole, 10, 64)
	f, _ := strconv.ParseInt(frac+strings.Repeat("0", 2-len(frac)), 10, 64)
	v := w*100 + f
	if v > max {
		return 0, errTooLarge
	}
	return v, nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ParseDollars reads a positive dollar amount from its JSON literal into
// cents, up to MaxDollarAmount. The error says what to fix, without the
// field name.
func ParseDollars(lit Number, places DecimalPlaces) (Money, error) {
	v, err := parseHundredths(lit, places, MaxDollarAmount)
	switch {
	case errors.Is(err, errTooLarge):
		return Money{}, fmt.Errorf("must be at most %s", USD(MaxDollarAmount).Decimal())
	case err != nil:
		return Money{}, err
	case v == 0:
		return Money{}, errNegative
	}
	return USD(v), nil
}

// ParsePercentage reads a whole percentage from 1 to 100 from its JSON
// literal. Percentages are whole, as the platforms' min_percentage and
// max_percentage are; "50", "50.0" and "50.00" are all 50, while "50.5",
// "1e1" and "-5" are refused.
func ParsePercentage(lit Number) (int, error) {
	v, err := parseHundredths(lit, UpToTwoPlaces, 100_00)
	switch {
	case errors.Is(err, errNegative), errors.Is(err, errTooLarge), err == nil && (v < 100 || v%100 != 0):
		return 0, fmt.Errorf("must be a whole percentage from 1 to 100, got %s", lit)
	case err != nil:
		return 0, err
	}
	return int(v / 100), nil
}
