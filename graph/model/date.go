package model

import (
	"fmt"
	"io"
	"strconv"

	"github.com/99designs/gqlgen/graphql"

	"payline/domain"
)

// MarshalDate writes a domain.Date as the Date scalar, YYYY-MM-DD: the
// Date scalar's fields of the domain's types bind here (gqlgen.yml), the
// other Date fields to plain strings.
func MarshalDate(d domain.Date) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(d.String())) })
}

// UnmarshalDate reads a Date argument into a domain.Date, refusing text
// that is not a date.
func UnmarshalDate(v any) (domain.Date, error) {
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("a Date is a string, YYYY-MM-DD; got %T", v)
	}
	return domain.ParseDate(s)
}
