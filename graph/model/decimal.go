package model

import (
	"encoding/json"
	"io"
	"strconv"

	"payline/domain"
)

// Decimal is the Decimal scalar: a number kept as its digits, so amounts
// reach domain.ParseDollars exactly as the caller wrote them.
type Decimal domain.Number

// UnmarshalGQL takes a string ("19.99") or a JSON number from variables.
// A float literal written in the query text has already been turned into
// a float64 by the parser, which is what money must never pass through, so
// it is refused with what to write instead.
func (d *Decimal) UnmarshalGQL(v any) error {
	switch x := v.(type) {
	case string:
		*d = Decimal(x)
	case json.Number:
		*d = Decimal(x.String())
	case int64:
		*d = Decimal(strconv.FormatInt(x, 10))
	case int:
		*d = Decimal(strconv.Itoa(x))
	default:
		return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
			"write decimal amounts as strings, such as \"19.99\", or pass them in variables: a float literal has lost its digits")
	}
	return nil
}

// MarshalGQL writes the digits as a JSON string.
func (d Decimal) MarshalGQL(w io.Writer) {
	b, _ := json.Marshal(string(d))
	_, _ = w.Write(b)
}

// Number is the literal for the domain, nil when absent.
func (d *Decimal) Number() *domain.Number { return (*domain.Number)(d) }
