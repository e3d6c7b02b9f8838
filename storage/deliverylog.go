package storage

import (
	"context"
	"strings"

	"payline/domain"
)

// loggedDelivery is one attempt to write outside a transaction.
type loggedDelivery struct {
	sc      domain.Scope
	d       domain.Delivery
	excerpt []byte // sealed
}

// maxLoggedPerInsert keeps an insert's parameters (14 a row) well under
// both databases' limits.
const maxLoggedPerInsert = 500

// newDeliveryLog writes webhook delivery attempts outside a transaction
// with group commit: under load, fifty workers share one INSERT and one
// commit instead of fifty, and each still returns only once its own row
// is committed, so nothing is acknowledged that is not written.
func newDeliveryLog(db *DB) *grouped[loggedDelivery, struct{}] {
	return &grouped[loggedDelivery, struct{}]{max: maxLoggedPerInsert, life: db.life, run: func(ctx context.Context, batch []loggedDelivery) ([]struct{}, error) {
		var sql strings.Builder
		sql.WriteString(`INSERT INTO webhook_deliveries (customer_id, mode, ` + deliveryColumns + `) VALUES `)
		args := make([]any, 0, 14*len(batch))
		for i, it := range batch {
			if i > 0 {
				sql.WriteString(", ")
			}
			sql.WriteString(deliveryPlaceholders)
			args = append(args, deliveryValues(it.sc, it.d, it.excerpt)...)
		}
		if _, err := db.ExecContext(ctx, db.Rebind(sql.String()), args...); err != nil {
			return nil, translate(err)
		}
		return make([]struct{}, len(batch)), nil
	}}
}

// deliveryPlaceholders is one row of deliveryValues.
const deliveryPlaceholders = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

// deliveryValues are a delivery's row, in deliveryColumns' order after
// customer_id and mode.
func deliveryValues(sc domain.Scope, d domain.Delivery, sealedExcerpt []byte) []any {
	var status *int
	if d.StatusCode != 0 {
		status = &d.StatusCode
	}
	return []any{sc.CustomerID, string(sc.Mode),
		d.ID, d.WebhookID, d.EventID, d.EventName, d.Attempt, status, d.Latency.Microseconds(), d.Error, sealedExcerpt, d.Outcome, d.NextAttempt, d.CreatedAt}
}
