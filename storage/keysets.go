package storage

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// keyset is the order of one paginated list: rows sorted by (column, id),
// newest or oldest first, and the cursor that resumes it. Every list's
// sort key is chosen in the declarations below and written and read only
// by these methods, so a cursor always means the same thing to the query
// that made it and the one that takes it back.
type keyset[T any] struct {
	list   string
	column string
	desc   bool
	byTime bool             // column is a timestamp: keys are RFC 3339 with nanoseconds
	key    func(T) keyValue // the row's value of column, and its id
}

// keyValue is a row's sort value (a time.Time when byTime, else a string)
// and id.
type keyValue struct {
	sort any
	id   string
}

var (
	employersByName    = keyset[domain.Employer]{list: domain.ListEmployers, column: "name", key: func(e domain.Employer) keyValue { return keyValue{e.Name, e.ID} }}
	platformsByName    = keyset[domain.Platform]{list: domain.ListPlatforms, column: "name", key: func(p domain.Platform) keyValue { return keyValue{p.Name, p.ID} }}
	accountsNewest     = keyset[domain.Account]{list: domain.ListAccounts, column: "created_at", desc: true, byTime: true, key: func(a domain.Account) keyValue { return keyValue{a.CreatedAt, a.ID} }}
	webhooksOldest     = keyset[domain.Webhook]{list: domain.ListWebhooks, column: "created_at", byTime: true, key: func(w domain.Webhook) keyValue { return keyValue{w.CreatedAt, w.ID} }}
	deliveriesNewest   = keyset[domain.Delivery]{list: domain.ListDeliveries, column: "created_at", desc: true, byTime: true, key: func(d domain.Delivery) keyValue { return keyValue{d.CreatedAt, d.ID} }}
	paystubsNewest     = keyset[domain.Paystub]{list: domain.ListPaystubs, column: "pay_date", desc: true, key: func(s domain.Paystub) keyValue { return keyValue{s.PayDate.String(), s.ID} }}
	jobsCompletedFirst = keyset[domain.Job]{list: domain.ListJobs, column: "completed_at", desc: true, byTime: true, key: func(j domain.Job) keyValue { return keyValue{*j.Timestamp, j.ID} }}
	// jobsCreatedFirst lists jobs that may not have run yet (Link's view).
	jobsCreatedFirst = keyset[domain.Job]{list: domain.ListJobs, column: "created_at", desc: true, byTime: true, key: func(j domain.Job) keyValue { return keyValue{j.CreatedAt, j.ID} }}
	endUsersByID     = keyset[domain.EndUser]{list: domain.ListEndUsers, column: "end_user_id", key: func(e domain.EndUser) keyValue { return keyValue{e.ID, e.ID} }}
)

// recordsNewest orders records of one kind (tax forms, shifts, documents)
// by their sort key; each kind is its own list.
func recordsNewest(kind string) keyset[domain.Record] {
	return keyset[domain.Record]{list: kind, column: "sort_key", desc: true, key: func(r domain.Record) keyValue { return keyValue{r.SortKey, r.ID} }}
}

// from adds the condition that resumes the list after the cursor, or
// before it when the page is read backward.
func (k keyset[T]) from(q *sqlBuilder, p domain.PageRequest) error {
	c := p.Cursor
	if c == nil {
		return nil
	}
	var v any = c.Key
	if k.byTime {
		at, err := domain.ParseTimestamp(c.Key)
		if err != nil {
			return domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "cursor: not a cursor issued by this list")
		}
		v = at
	}
	op := ">"
	if k.desc != p.Backward {
		op = "<"
	}
	q.where("("+k.column+" "+op+" ? OR ("+k.column+" = ? AND id "+op+" ?))", v, v, c.ID)
	return nil
}

// order is the ORDER BY that goes with from: the list's order, or its
// reverse for a page read backward (whose rows page then turns round).
func (k keyset[T]) order(backward bool) string {
	if k.desc != backward {
		return k.column + ` DESC, id DESC`
	}
	return k.column + `, id`
}

// orderLimit is the ORDER BY and LIMIT that go with from; the query
// fetches one row more than the page to know whether another follows.
func (k keyset[T]) orderLimit(backward bool) string {
	return ` ORDER BY ` + k.order(backward) + ` LIMIT ?`
}

// page trims the rows to the page and makes its cursors.
func (k keyset[T]) page(rows []T, p domain.PageRequest) domain.Page[T] {
	key := func(row T) (string, string) {
		v := k.key(row)
		if t, ok := v.sort.(time.Time); ok {
			return t.Format(time.RFC3339Nano), v.id
		}
		return v.sort.(string), v.id
	}
	if p.Backward {
		return domain.PageBackwardOf(k.list, rows, p.Limit, key)
	}
	return domain.PageOf(k.list, rows, p.Limit, key)
}

// selectPage runs selectFrom ("SELECT columns FROM table") with q's
// conditions and the cursor's, converts the rows and returns the page.
func selectPage[R, T any](ctx context.Context, db sqlx.ExtContext, k keyset[T], selectFrom string, q sqlBuilder,
	p domain.PageRequest, convert func(R) (T, error)) (domain.Page[T], error) {
	if err := k.from(&q, p); err != nil {
		return domain.Page[T]{}, err
	}
	var rows []R
	if err := sqlx.SelectContext(ctx, db, &rows, db.Rebind(selectFrom+q.clause()+k.orderLimit(p.Backward)), append(q.args, p.Limit+1)...); err != nil {
		return domain.Page[T]{}, translate(err)
	}
	items, err := convertAll(rows, convert)
	if err != nil {
		return domain.Page[T]{}, err
	}
	return k.page(items, p), nil
}

// selectPagesBy is selectPage for many parents at once: one query pages
// the rows of every parent (parentColumn IN ...) with a window function,
// so a GraphQL query asking for each account's last five jobs costs one
// statement however many accounts it lists. The cursor, when given,
// applies to every parent, as a nested connection's `after` or `before`
// does; a backward page reads each parent's rows from the end.
func selectPagesBy[R, T any](ctx context.Context, db sqlx.ExtContext, k keyset[T], table, columns, parentColumn string,
	parents []string, q sqlBuilder, p domain.PageRequest, convert func(R) (T, error), parentOf func(T) string) (map[string]domain.Page[T], error) {
	out := map[string]domain.Page[T]{}
	if len(parents) == 0 {
		return out, nil
	}
	in, args, err := sqlx.In(parentColumn+" IN (?)", parents)
	if err != nil {
		return nil, err
	}
	q.where(in, args...)
	if err := k.from(&q, p); err != nil {
		return nil, err
	}
	order := k.order(p.Backward)
	query := `SELECT ` + columns + ` FROM (SELECT ` + columns + `, ROW_NUMBER() OVER (PARTITION BY ` + parentColumn +
		` ORDER BY ` + order + `) AS row_in_parent FROM ` + table + q.clause() + `) ranked WHERE row_in_parent <= ? ORDER BY ` +
		parentColumn + `, ` + order
	var rows []R
	if err := sqlx.SelectContext(ctx, db, &rows, db.Rebind(query), append(q.args, p.Limit+1)...); err != nil {
		return nil, translate(err)
	}
	items, err := convertAll(rows, convert)
	if err != nil {
		return nil, err
	}
	grouped := map[string][]T{}
	for _, it := range items {
		grouped[parentOf(it)] = append(grouped[parentOf(it)], it)
	}
	for parent, rows := range grouped {
		out[parent] = k.page(rows, p)
	}
	return out, nil
}

// byIDs is the condition and arguments of "column IN (ids)".
func byIDs(q *sqlBuilder, column string, ids []string) error {
	in, args, err := sqlx.In(column+" IN (?)", ids)
	if err != nil {
		return err
	}
	q.where(in, args...)
	return nil
}
