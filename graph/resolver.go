// Package graph is Payline's GraphQL adapter (gqlgen). Resolvers are thin:
// they call the same domain services as the REST handlers, and list-to-item
// edges go through per-request dataloaders so the number of SQL statements
// of a query does not grow with its fan-out.
package graph

//go:generate go tool gqlgen generate

import "payline/domain"

// Resolver is the one hand-written injection point of the schema.
type Resolver struct {
	Directory *domain.DirectoryService
}
