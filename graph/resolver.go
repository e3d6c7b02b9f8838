// Package graph is Payline's GraphQL adapter (gqlgen). Resolvers are thin:
// they call the same domain services as the REST handlers, and every edge
// that fans out goes through per-request dataloaders, so the number of SQL
// statements of a query does not grow with its fan-out.
package graph

//go:generate go tool gqlgen generate
//go:generate go run ./internal/printschema ../docs/schema.graphql

import (
	"log/slog"

	"payline/domain"
)

// Resolver is the one hand-written injection point of the schema.
type Resolver struct {
	Directory      *domain.DirectoryService
	AccountService *domain.AccountService
	LinkService    *domain.LinkService
	WebhookService *domain.WebhookService
	Reporter       domain.Reporter
	// Logger receives unexpected errors with the request id.
	Logger *slog.Logger
}
