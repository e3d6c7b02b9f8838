package storage

import (
	"context"

	"payline/domain"
)

// AppendAudit adds an entry to the audit log, in the stores' transaction.
func (s stores) AppendAudit(ctx context.Context, e domain.AuditEntry) error {
	return appendAudit(ctx, s.q, e)
}

// AuditLog lists the scope's entries, newest first.
func (s stores) AuditLog(ctx context.Context, sc domain.Scope, limit int) ([]domain.AuditEntry, error) {
	return auditLog(ctx, s.q, sc, limit)
}
