package graph

import (
	"context"
	"strings"

	"payline/domain"
	"payline/graph/model"
)

// MaxNodeIDs bounds nodes(ids:), as GitHub caps it at 100 and Shopify
// at 250; each id is priced as one node (setComplexity).
const MaxNodeIDs = 100

// endUserPrefix starts an end user's global id. Every other object's id
// is a UUID Payline (or the directory) made, unique across types; an
// end_user_id is the customer's own string and may be any UUID, so its
// global id says what it is, and node(id:) is never ambiguous.
const endUserPrefix = "EndUser:"

func endUserNodeID(endUserID string) string { return endUserPrefix + endUserID }

// nodes finds the caller's objects by id, in the order asked, nil where
// none: one query per type of object whatever the number of ids, each
// asking only for the ids no earlier type had, so unknown ids cost the
// same few statements as known ones. Errors: INVALID_FIELDS over
// MaxNodeIDs.
func (r *Resolver) nodes(ctx context.Context, ids []string) ([]model.Node, error) {
	if len(ids) > MaxNodeIDs {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields,
			"ids: at most %d ids at once, got %d; ask in several operations", MaxNodeIDs, len(ids))
	}
	sc := scope(ctx)
	found := map[string]model.Node{}
	var uuids, endUsers []string
	for _, id := range ids {
		if _, seen := found[id]; seen {
			continue
		}
		found[id] = nil
		if eu, ok := strings.CutPrefix(id, endUserPrefix); ok {
			endUsers = append(endUsers, eu)
		} else if domain.ValidID(id) {
			uuids = append(uuids, id)
		}
	}
	for _, kind := range r.nodeKinds(sc) {
		if len(uuids) == 0 {
			break
		}
		got, err := kind(ctx, uuids)
		if err != nil {
			return nil, err
		}
		var rest []string
		for _, id := range uuids {
			if n, ok := got[id]; ok {
				found[id] = n
			} else {
				rest = append(rest, id)
			}
		}
		uuids = rest
	}
	if len(endUsers) > 0 && r.EndUserService != nil {
		users, errs := r.EndUserService.EndUsersByID(ctx, sc, endUsers)
		if err := firstError(errs); err != nil {
			return nil, err
		}
		for i, id := range endUsers {
			if errs[i] == nil {
				found[endUserNodeID(id)] = &users[i]
			}
		}
	}
	out := make([]model.Node, len(ids))
	for i, id := range ids {
		out[i] = found[id]
	}
	return out, nil
}

// nodeKind reads objects of one type by id: those it has, keyed by id.
type nodeKind func(ctx context.Context, ids []string) (map[string]model.Node, error)

// nodeKinds are the UUID types in the order node(id:) tries them: the
// tenant's own objects, then the shared directory.
func (r *Resolver) nodeKinds(sc domain.Scope) []nodeKind {
	var kinds []nodeKind
	if s := r.AccountService; s != nil {
		kinds = append(kinds, kindOf(func(ctx context.Context, ids []string) ([]domain.Account, []error) {
			return s.AccountsByID(ctx, sc, ids)
		}, ptr))
	}
	if s := r.AccountJobService; s != nil {
		kinds = append(kinds, kindOf(func(ctx context.Context, ids []string) ([]domain.Job, []error) { return s.JobsByID(ctx, sc, ids) }, ptr))
	}
	if s := r.ProductService; s != nil {
		kinds = append(kinds, kindOf(func(ctx context.Context, ids []string) ([]domain.Paystub, []error) {
			return s.PaystubsByID(ctx, sc, ids)
		}, ptr))
	}
	if s := r.DocumentService; s != nil {
		kinds = append(kinds, kindOf(func(ctx context.Context, ids []string) ([]domain.Record, []error) {
			return s.DocumentsByID(ctx, sc, ids)
		},
			func(rec domain.Record) (model.Node, error) { return documentOf(rec) }))
	}
	if s := r.LinkService; s != nil {
		kinds = append(kinds,
			kindOf(func(ctx context.Context, ids []string) ([]domain.LinkToken, []error) {
				return s.LinkTokensByID(ctx, sc, ids)
			}, ptr))
	}
	if s := r.WebhookService; s != nil {
		kinds = append(kinds,
			kindOf(func(ctx context.Context, ids []string) ([]domain.Webhook, []error) {
				return s.WebhooksByID(ctx, sc, ids)
			}, ptr))
	}
	if s := r.Directory; s != nil {
		kinds = append(kinds, kindOf(s.EmployersByID, ptr), kindOf(s.PlatformsByID, ptr))
	}
	return kinds
}

// kindOf adapts a batch read, which answers in key order with a
// not-found error where it has nothing, to a nodeKind.
func kindOf[T any](load func(ctx context.Context, ids []string) ([]T, []error), node func(T) (model.Node, error)) nodeKind {
	return func(ctx context.Context, ids []string) (map[string]model.Node, error) {
		items, errs := load(ctx, ids)
		if err := firstError(errs); err != nil {
			return nil, err
		}
		out := map[string]model.Node{}
		for i, id := range ids {
			if errs[i] != nil {
				continue
			}
			n, err := node(items[i])
			if err != nil {
				return nil, err
			}
			out[id] = n
		}
		return out, nil
	}
}

// firstError is the first error of a batch that is not a not-found.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil && !domain.IsKind(err, domain.KindNotFound) {
			return err
		}
	}
	return nil
}

// ptr makes a node of a value whose pointer implements model.Node.
func ptr[T any, P interface {
	*T
	model.Node
}](v T) (model.Node, error) {
	return P(&v), nil
}
