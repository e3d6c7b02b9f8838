package domain

import "github.com/google/uuid"

// NewID returns a time-ordered UUIDv7, which keeps primary-key indexes
// append-mostly on both databases.
func NewID() string { return uuid.Must(uuid.NewV7()).String() }

// ValidID reports whether s is a UUID in its canonical 36-character form.
func ValidID(s string) bool {
	if len(s) != 36 {
		return false
	}
	_, err := uuid.Parse(s)
	return err == nil
}

// CheckID validates an id taken from a path or body, naming the field.
func CheckID(field, s string) error {
	if !ValidID(s) {
		return Errorf(KindInvalid, CodeInvalidFields, "%s: %q is not a UUID", field, s)
	}
	return nil
}
