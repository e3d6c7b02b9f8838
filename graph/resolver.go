// Package graph is Payline's GraphQL adapter (gqlgen). Resolvers are thin:
// they call the same domain services as the REST handlers, and every edge
// that fans out goes through per-request dataloaders, so the number of SQL
// statements of a query does not grow with its fan-out.
package graph

//go:generate go tool gqlgen generate
//go:generate go run ./internal/printschema ../docs/schema.graphql

import (
	"context"
	"log/slog"
	"time"

	"payline/domain"
)

// Resolver is the one hand-written injection point of the schema.
type Resolver struct {
	Directory      *domain.DirectoryService
	AccountService *domain.AccountService
	// The account's concepts, each its own service
	// (domain.NewAccountService wires them together).
	AccountJobService *domain.AccountJobService
	ProductService    *domain.ProductService
	DocumentService   *domain.DocumentService
	EndUserService    *domain.EndUserService
	OverviewService   *domain.OverviewService
	WatchService      *domain.WatchService
	LinkService       *domain.LinkService
	WebhookService    *domain.WebhookService
	// DocumentReviewService keeps the queue of uploaded documents a
	// person reviews.
	DocumentReviewService *domain.DocumentReviewService
	Reporter              domain.Reporter
	// Keys finds the key that signs webhooks a signed-in member creates.
	Keys *domain.KeyService
	// BatchWait is how long a dataloader waits for more keys
	// (DefaultBatchWait when zero).
	BatchWait time.Duration
	// Logger receives unexpected errors with the request id.
	Logger *slog.Logger

	// OutboxService lists the sandbox's kept messages.
	OutboxService *domain.OutboxService
	// LinkOrderService sends Link to people (nil: the link order fields
	// answer that this server sends none).
	LinkOrderService *domain.LinkOrderService
	// DisputeService keeps people's disputes (nil: the dispute fields
	// answer that this server keeps none).
	DisputeService *domain.DisputeService
}

// signingKey is the key a new webhook is signed with; KeyService decides.
func (r *Resolver) signingKey(ctx context.Context) (domain.APIKey, error) {
	if r.Keys == nil {
		if k, ok := domain.APIKeyFrom(ctx); ok {
			return k, nil
		}
		return domain.APIKey{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "webhooks are signed with an API key's secret; this server has no key service")
	}
	return r.Keys.SigningKey(ctx, scope(ctx))
}
