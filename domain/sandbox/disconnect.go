package sandbox

import (
	"context"

	"payline/domain"
)

// DisconnectSource implements domain.SourceDisconnecter: the sandbox is
// the source, and holds nothing of the person's outside the account
// Payline keeps, so the connection ends with the account's.
func (Connector) DisconnectSource(context.Context, domain.Account) (string, error) {
	return "the sandbox payroll platform ended its connection to your account", nil
}

var _ domain.SourceDisconnecter = Connector{}
