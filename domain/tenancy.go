package domain

import "fmt"

// Mode is one of the three environments of the spec. A process serves one
// mode and an API key is valid only in the mode it was created for.
type Mode string

// The modes of the spec.
const (
	ModeSandbox     Mode = "sandbox"
	ModeDevelopment Mode = "development"
	ModeProduction  Mode = "production"
)

// ParseMode validates a mode name.
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case ModeSandbox, ModeDevelopment, ModeProduction:
		return m, nil
	}
	return "", fmt.Errorf("mode %q is not one of sandbox, development, production", s)
}

// Scope is the tenant a request acts for: one customer in one mode. Every
// store method over tenant-owned rows takes a Scope first, so a query that
// forgets the tenant cannot be written.
type Scope struct {
	CustomerID string
	Mode       Mode
}

// sandboxOnly is the one check of the sandbox helpers: outside the
// sandbox they answer as if they did not exist.
func sandboxOnly(sc Scope) error {
	if sc.Mode != ModeSandbox {
		return Errorf(KindNotFound, CodeNotSandbox, "sandbox helpers exist only in the sandbox mode")
	}
	return nil
}
