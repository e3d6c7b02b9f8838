package domain_test

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"payline/domain"
)

// dollarLiteral writes cents as whole.ff, the way a caller would.
func dollarLiteral(buf []byte, cents int64) []byte {
	buf = strconv.AppendInt(buf[:0], cents/100, 10)
	buf = append(buf, '.', byte('0'+cents%100/10), byte('0'+cents%10))
	return buf
}

// everyCentEnv runs TestParseDollarsEveryCent over all 10^8 values (about
// 40 s); without it the test checks a sample, and FuzzParseDollars
// explores the rest.
const everyCentEnv = "PAYLINE_EVERY_CENT"

// TestParseDollarsEveryCent checks that two-decimal literals from 0.01 to
// 1,000,000.00 map to their exact cent counts, also in their one- and
// no-decimal forms where they exist. With PAYLINE_EVERY_CENT=1 it checks
// every value; otherwise a sample that would catch what a float-based
// parser gets wrong: every cent of the first $1,000 (each fraction .00 to
// .99 many times over), the values either side of each power of ten and
// of the maximum, and 200,000 values drawn at random (the seed is logged,
// so a failure can be replayed with PAYLINE_EVERY_CENT_SEED).
func TestParseDollarsEveryCent(t *testing.T) {
	if os.Getenv(everyCentEnv) == "1" {
		for cents := int64(1); cents <= domain.MaxDollarAmount; cents++ {
			checkDollarLiteral(t, cents)
		}
	} else {
		for cents := int64(1); cents <= 100_000; cents++ {
			checkDollarLiteral(t, cents)
		}
		for p := int64(10); p <= domain.MaxDollarAmount; p *= 10 {
			for d := int64(-101); d <= 101; d++ {
				if c := p + d; c >= 1 && c <= domain.MaxDollarAmount {
					checkDollarLiteral(t, c)
				}
			}
		}
		for c := int64(domain.MaxDollarAmount - 1000); c <= domain.MaxDollarAmount; c++ {
			checkDollarLiteral(t, c)
		}
		seed := uint64(time.Now().UnixNano())
		if s, err := strconv.ParseUint(os.Getenv(everyCentEnv+"_SEED"), 10, 64); err == nil {
			seed = s
		}
		t.Logf("random sample seed %d (%s=1 checks every value)", seed, everyCentEnv)
		rng := rand.New(rand.NewPCG(seed, seed))
		for range 200_000 {
			checkDollarLiteral(t, 1+rng.Int64N(domain.MaxDollarAmount))
		}
	}
	// The values the float code refused.
	for lit, cents := range map[string]int64{"19.99": 1999, "4.35": 435, "1.15": 115, "0.29": 29, "1000000.00": 100_000_000} {
		if m, err := domain.ParseDollars(domain.Number(lit), domain.ExactlyTwoPlaces); err != nil || m.Amount != cents {
			t.Errorf("%s: %+v, %v; want %d cents", lit, m, err, cents)
		}
	}
}

// checkDollarLiteral parses cents written as whole.ff (both decimal
// rules), whole.f when the last digit is 0 and whole when both are. It
// does not call t.Helper: 10^8 calls of it would double the exhaustive
// run, and its messages name the literal.
func checkDollarLiteral(t *testing.T, cents int64) {
	var arr [24]byte
	buf := dollarLiteral(arr[:0], cents)
	for _, places := range []domain.DecimalPlaces{domain.UpToTwoPlaces, domain.ExactlyTwoPlaces} {
		m, err := domain.ParseDollars(domain.Number(buf), places)
		if err != nil || m.Amount != cents || m.Currency != "USD" {
			t.Fatalf("%s: %+v, %v; want %d cents", buf, m, err, cents)
		}
	}
	if cents%10 == 0 { // 19.9
		short := domain.Number(buf[:len(buf)-1])
		if m, err := domain.ParseDollars(short, domain.UpToTwoPlaces); err != nil || m.Amount != cents {
			t.Fatalf("%s: %+v, %v; want %d cents", short, m, err, cents)
		}
		if _, err := domain.ParseDollars(short, domain.ExactlyTwoPlaces); err == nil {
			t.Fatalf("%s was taken where exactly two decimals are required", short)
		}
	}
	if cents%100 == 0 { // 19
		whole := domain.Number(buf[:len(buf)-3])
		if m, err := domain.ParseDollars(whole, domain.UpToTwoPlaces); err != nil || m.Amount != cents {
			t.Fatalf("%s: %+v, %v; want %d cents", whole, m, err, cents)
		}
	}
}

func TestParseDollarsRefuses(t *testing.T) {
	for _, tc := range []struct {
		lit, why string
	}{
		{"19.999", "at most two decimal places"},
		{"150.125", "at most two decimal places"},
		{"1.500", "at most two decimal places"},
		{"-1.00", "positive"},
		{"-0.01", "positive"},
		{"0", "positive"},
		{"0.00", "positive"},
		{"1e2", "exponent"},
		{"1E2", "exponent"},
		{"1.5e-1", "exponent"},
		{"1000000.01", "at most 1000000.00"},
		{"99999999999999999999999999", "at most 1000000.00"},
		{"01.00", "plain decimal"},
		{".50", "plain decimal"},
		{"5.", "plain decimal"},
		{"", "plain decimal"},
		{`"19.99"`, "plain decimal"},
		{"19,99", "plain decimal"},
		{"NaN", "plain decimal"},
		{"Infinity", "plain decimal"},
	} {
		_, err := domain.ParseDollars(domain.Number(tc.lit), domain.UpToTwoPlaces)
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%q: %v, want an error saying %q", tc.lit, err, tc.why)
		}
	}
	if _, err := domain.ParseDollars("19.9", domain.ExactlyTwoPlaces); err == nil || !strings.Contains(err.Error(), "exactly two decimal places") {
		t.Errorf("19.9 with exactly two places: %v", err)
	}
	if _, err := domain.ParseDollars("19", domain.ExactlyTwoPlaces); err == nil {
		t.Error("19 taken where exactly two decimals are required")
	}
}

func TestParsePercentage(t *testing.T) {
	for lit, want := range map[string]int{"1": 1, "50": 50, "50.0": 50, "50.00": 50, "100": 100} {
		if got, err := domain.ParsePercentage(domain.Number(lit)); err != nil || got != want {
			t.Errorf("%s: %d, %v; want %d", lit, got, err, want)
		}
	}
	for _, lit := range []string{"0", "0.5", "50.5", "100.01", "101", "-5", "1e1", "50.001", ""} {
		if got, err := domain.ParsePercentage(domain.Number(lit)); err == nil {
			t.Errorf("%q taken as %d%%", lit, got)
		}
	}
}

func TestMoneyFormats(t *testing.T) {
	for _, tc := range []struct {
		m                  domain.Money
		decimal, formatted string
	}{
		{domain.USD(1999), "19.99", "$19.99"},
		{domain.USD(250000), "2500.00", "$2,500.00"},
		{domain.USD(100_000_000), "1000000.00", "$1,000,000.00"},
		{domain.USD(5), "0.05", "$0.05"},
		{domain.USD(0), "0.00", "$0.00"},
		{domain.USD(-123456), "-1234.56", "-$1,234.56"},
		{domain.Money{Amount: 1000, Currency: "EUR"}, "10.00", "EUR 10.00"},
	} {
		if got := tc.m.Decimal(); got != tc.decimal {
			t.Errorf("%+v.Decimal() = %s, want %s", tc.m, got, tc.decimal)
		}
		if got := tc.m.Formatted(); got != tc.formatted {
			t.Errorf("%+v.Formatted() = %s, want %s", tc.m, got, tc.formatted)
		}
	}
}

// plainDecimal is the grammar ParseDollars takes, written independently.
var plainDecimal = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$`)

// FuzzParseDollars: whatever the literal, ParseDollars never panics; it
// takes exactly the plain decimals with at most two places from 0.01 to
// 1,000,000.00, and what it takes writes back to the same value.
func FuzzParseDollars(f *testing.F) {
	for _, seed := range []string{"19.99", "0.01", "1000000.00", "1000000.01", "150.125", "-1", "1e2", "0", "00.1", `"5"`, "9223372036854775807.99"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, lit string) {
		m, err := domain.ParseDollars(domain.Number(lit), domain.UpToTwoPlaces)
		if !plainDecimal.MatchString(lit) {
			if err == nil {
				t.Fatalf("%q taken as %d cents", lit, m.Amount)
			}
			return
		}
		whole, frac, _ := strings.Cut(lit, ".")
		frac += strings.Repeat("0", 2-len(frac))
		cents, overflow := int64(0), len(strings.TrimLeft(whole, "0")) > 12
		if !overflow {
			w, _ := strconv.ParseInt(whole, 10, 64)
			fr, _ := strconv.ParseInt(frac, 10, 64)
			cents = w*100 + fr
		}
		inRange := !overflow && cents >= 1 && cents <= domain.MaxDollarAmount
		if inRange != (err == nil) {
			t.Fatalf("%q: in range %v but error %v", lit, inRange, err)
		}
		if err == nil {
			if m.Amount != cents {
				t.Fatalf("%q: %d cents, want %d", lit, m.Amount, cents)
			}
			back, err := domain.ParseDollars(domain.Number(m.Decimal()), domain.ExactlyTwoPlaces)
			if err != nil || back != m {
				t.Fatalf("%q: %s does not parse back: %+v, %v", lit, m.Decimal(), back, err)
			}
		}
	})
}
