package graph

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vikstrous/dataloadgen"

	"payline/domain"
)

// loaders batch every edge that fans out. They are made per response (a
// subscription gets fresh ones for each event), so a cache never outlives
// the response that filled it, and they are bound to the caller's tenant.
type loaders struct {
	platforms  *dataloadgen.Loader[string, domain.Platform]
	accounts   *dataloadgen.Loader[string, domain.Account]
	linkTokens *dataloadgen.Loader[string, domain.LinkToken]
	products   *dataloadgen.Loader[productKey, *domain.StoredProduct]
	// Pages of a parent's children, keyed by parent and page arguments.
	endUserAccounts   *dataloadgen.Loader[pageKey, domain.Page[domain.Account]]
	accountJobs       *dataloadgen.Loader[pageKey, domain.Page[domain.Job]]
	accountPaystubs   *dataloadgen.Loader[pageKey, domain.Page[domain.Paystub]]
	accountShifts     *dataloadgen.Loader[pageKey, domain.Page[domain.Record]]
	accountTaxForms   *dataloadgen.Loader[pageKey, domain.Page[domain.Record]]
	endUserDocuments  *dataloadgen.Loader[pageKey, domain.Page[domain.Record]] // extra: the document type
	endUsers          *dataloadgen.Loader[string, domain.EndUser]
	earningsStreams   *dataloadgen.Loader[string, domain.EarningsStream]
	voie, voe         *dataloadgen.Loader[string, *domain.VerificationReport] // nil: no payroll data yet
	webhookDeliveries *dataloadgen.Loader[pageKey, domain.Page[domain.Delivery]]
}

type productKey struct{ account, product string }

// pageArgs are a nested connection's arguments; extra holds any filter,
// encoded, so the key stays comparable.
type pageArgs struct {
	conn  connArgs
	extra string
}

// connArgs are a connection's paging arguments in a comparable form, so
// that children asking for the same page batch together whichever way
// they read.
type connArgs struct {
	first, last   optionalInt
	after, before string
}

// optionalInt is an Int argument and whether it was given.
type optionalInt struct {
	given bool
	n     int
}

func optInt(p *int) optionalInt {
	if p == nil {
		return optionalInt{}
	}
	return optionalInt{true, *p}
}

func (o optionalInt) ptr() *int {
	if !o.given {
		return nil
	}
	return &o.n
}

// connectionArgs reads a connection field's first, after, last and before.
func connectionArgs(first *int, after *string, last *int, before *string) connArgs {
	return connArgs{first: optInt(first), after: deref(after), last: optInt(last), before: deref(before)}
}

// request validates the arguments for the named list (domain.ConnectionArgs).
func (a connArgs) request(list string) (domain.PageRequest, error) {
	return domain.ConnectionArgs{First: a.first.ptr(), Last: a.last.ptr(), After: &a.after, Before: &a.before}.PageRequest(list)
}

// backward reports whether the arguments read the list from its end.
func (a connArgs) backward() bool { return a.last.given || a.before != "" }

type pageKey struct {
	parent string
	args   pageArgs
}

type loadersKey struct{}

// DefaultBatchWait is how long a loader waits for more keys after the
// first (Resolver.BatchWait overrides it). Connection resolvers also queue
// their children's keys at once (see preload), so batches rarely depend on
// it; a resolver goroutine scheduled later than the wait on a loaded
// machine costs one more batch, never a wrong answer.
const DefaultBatchWait = 250 * time.Microsecond

func withLoaders(ctx context.Context, r *Resolver) context.Context {
	sc := scope(ctx)
	batchWait := cmp.Or(r.BatchWait, DefaultBatchWait)
	opt := dataloadgen.WithWait(batchWait)
	l := &loaders{platforms: dataloadgen.NewLoader(r.Directory.PlatformsByID, opt)}
	if r.AccountService != nil {
		l.accounts = dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]domain.Account, []error) {
			return r.AccountService.AccountsByID(ctx, sc, ids)
		}, opt)
		l.endUserAccounts = pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Account], error) {
			p, err := a.request(domain.ListAccounts)
			if err != nil {
				return nil, err
			}
			return r.AccountService.AccountsOfEndUsers(ctx, sc, parents, p)
		})
	}
	if r.ProductService != nil {
		l.products = dataloadgen.NewMappedLoader(func(ctx context.Context, keys []productKey) (map[productKey]*domain.StoredProduct, error) {
			return loadProducts(ctx, r.ProductService, sc, keys)
		}, opt)
		l.accountPaystubs = pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Paystub], error) {
			p, err := a.request(domain.ListPaystubs)
			if err != nil {
				return nil, err
			}
			return r.ProductService.PaystubsOfAccounts(ctx, sc, parents, a.extra, p)
		})
		records := func(kind, product string) *dataloadgen.Loader[pageKey, domain.Page[domain.Record]] {
			return pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Record], error) {
				p, err := a.request(kind)
				if err != nil {
					return nil, err
				}
				return r.ProductService.RecordsOfAccounts(ctx, sc, parents, kind, product, p)
			})
		}
		l.accountShifts = records(domain.RecordShift, domain.ProductShifts)
		l.accountTaxForms = records(domain.RecordTaxForm, domain.ProductTaxForms)
	}
	if r.AccountJobService != nil {
		l.accountJobs = pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Job], error) {
			p, err := a.request(domain.ListJobs)
			if err != nil {
				return nil, err
			}
			var f domain.JobFilter
			if a.extra != "" {
				if err := json.Unmarshal([]byte(a.extra), &f); err != nil {
					return nil, err
				}
			}
			return r.AccountJobService.JobsOfAccounts(ctx, sc, parents, f, p)
		})
	}
	if r.DocumentService != nil {
		l.endUserDocuments = pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Record], error) {
			p, err := a.request(domain.RecordDocument)
			if err != nil {
				return nil, err
			}
			return r.DocumentService.DocumentsOfEndUsers(ctx, sc, parents, a.extra, p)
		})
	}
	if r.EndUserService != nil {
		l.endUsers = dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]domain.EndUser, []error) {
			return r.EndUserService.EndUsersByID(ctx, sc, ids)
		}, opt)
		l.earningsStreams = dataloadgen.NewMappedLoader(func(ctx context.Context, ids []string) (map[string]domain.EarningsStream, error) {
			return r.EndUserService.EarningsStreams(ctx, sc, ids)
		}, opt)
	}
	if r.Reporter != nil {
		reports := func(reportType string) *dataloadgen.Loader[string, *domain.VerificationReport] {
			return dataloadgen.NewMappedLoader(func(ctx context.Context, ids []string) (map[string]*domain.VerificationReport, error) {
				found, err := r.Reporter.VerificationReports(ctx, sc, ids, reportType)
				if err != nil {
					return nil, err
				}
				out := make(map[string]*domain.VerificationReport, len(ids))
				for _, id := range ids {
					if rep, ok := found[id]; ok {
						out[id] = &rep
					} else {
						out[id] = nil
					}
				}
				return out, nil
			}, opt)
		}
		l.voie, l.voe = reports(domain.ReportVOIE), reports(domain.ReportVOE)
	}
	if r.LinkService != nil {
		l.linkTokens = dataloadgen.NewLoader(func(ctx context.Context, ids []string) ([]domain.LinkToken, []error) {
			return r.LinkService.LinkTokensByID(ctx, sc, ids)
		}, opt)
	}
	if r.WebhookService != nil {
		l.webhookDeliveries = pageLoader(batchWait, func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[domain.Delivery], error) {
			p, err := a.request(domain.ListDeliveries)
			if err != nil {
				return nil, err
			}
			return r.WebhookService.DeliveriesOfWebhooks(ctx, sc, parents, p)
		})
	}
	return context.WithValue(ctx, loadersKey{}, l)
}

func (a pageArgs) request(list string) (domain.PageRequest, error) { return a.conn.request(list) }

// pageLoader batches pages of children per parent: keys with the same
// arguments are fetched together in one query.
func pageLoader[T any](wait time.Duration, fetch func(ctx context.Context, parents []string, a pageArgs) (map[string]domain.Page[T], error)) *dataloadgen.Loader[pageKey, domain.Page[T]] {
	return dataloadgen.NewLoader(func(ctx context.Context, keys []pageKey) ([]domain.Page[T], []error) {
		out, errs := make([]domain.Page[T], len(keys)), make([]error, len(keys))
		groups := map[pageArgs][]int{}
		for i, k := range keys {
			groups[k.args] = append(groups[k.args], i)
		}
		for args, idx := range groups {
			parents := make([]string, len(idx))
			for j, i := range idx {
				parents[j] = keys[i].parent
			}
			pages, err := fetch(ctx, parents, args)
			for _, i := range idx {
				out[i], errs[i] = pages[keys[i].parent], err
			}
		}
		return out, errs
	}, dataloadgen.WithWait(wait))
}

func loadProducts(ctx context.Context, products *domain.ProductService, sc domain.Scope, keys []productKey) (map[productKey]*domain.StoredProduct, error) {
	byProduct := map[string][]string{}
	for _, k := range keys {
		byProduct[k.product] = append(byProduct[k.product], k.account)
	}
	out := map[productKey]*domain.StoredProduct{}
	for product, ids := range byProduct {
		found, err := products.ProductsOfAccounts(ctx, sc, ids, product)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			if p, ok := found[id]; ok {
				out[productKey{id, product}] = &p
			} else {
				out[productKey{id, product}] = nil
			}
		}
	}
	return out, nil
}

func loadersFrom(ctx context.Context) *loaders {
	return ctx.Value(loadersKey{}).(*loaders)
}

// scope is the tenant of the authenticated caller: the API key's, or the
// signed-in member's.
func scope(ctx context.Context) domain.Scope { return domain.ScopeFrom(ctx) }

// collected finds the field at path below the field being resolved, e.g.
// collected(ctx, "edges", "node", "platform"), or nil when the query does
// not ask for it.
func collected(ctx context.Context, path ...string) *graphql.CollectedField {
	op := graphql.GetOperationContext(ctx)
	fields := graphql.CollectFieldsCtx(ctx, nil)
	for i, name := range path {
		var next *graphql.CollectedField
		for j := range fields {
			if fields[j].Name == name {
				next = &fields[j]
				break
			}
		}
		if next == nil {
			return nil
		}
		if i == len(path)-1 {
			return next
		}
		fields = graphql.CollectFields(op, next.Selections, nil)
	}
	return nil
}

// intArg reads an integer argument as the parser or the variables give it.
func intArg(v any, def int) int {
	switch x := v.(type) {
	case int:
		return x
	case int64:
		return int(x)
	case json.Number:
		n, err := strconv.Atoi(string(x))
		if err == nil {
			return n
		}
	case float64:
		return int(x)
	}
	return def
}

func stringArg(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if s, ok := v.(*string); ok && s != nil {
		return *s
	}
	return ""
}

// argsOf reads first, after, last and before of a collected connection
// field, as its resolver will see them.
func argsOf(ctx context.Context, f *graphql.CollectedField) pageArgs {
	m := f.ArgumentMap(graphql.GetOperationContext(ctx).Variables)
	size := func(name string) optionalInt {
		if m[name] == nil {
			return optionalInt{}
		}
		return optionalInt{true, intArg(m[name], 0)}
	}
	return pageArgs{conn: connArgs{first: size("first"), after: stringArg(m["after"]), last: size("last"), before: stringArg(m["before"])}}
}

// preloadAccounts queues, in one batch per edge, what the query will ask
// of a list of accounts below path (e.g. "edges", "node"): platforms, link
// tokens, products, jobs and paystubs. The children's resolvers then find
// their values already loading, so a page of fifty accounts costs the same
// statements as a page of one.
func preloadAccounts(ctx context.Context, accounts []domain.Account, path ...string) {
	if len(accounts) == 0 {
		return
	}
	l := loadersFrom(ctx)
	at := func(name string) *graphql.CollectedField { return collected(ctx, append(path, name)...) }
	if at("platform") != nil {
		ids := make([]string, len(accounts))
		for i, a := range accounts {
			ids[i] = a.PlatformID
		}
		l.platforms.LoadAllThunk(ctx, ids)
	}
	if at("linkToken") != nil && l.linkTokens != nil {
		ids := make([]string, len(accounts))
		for i, a := range accounts {
			ids[i] = a.LinkTokenID
		}
		l.linkTokens.LoadAllThunk(ctx, ids)
	}
	for field, product := range map[string]string{"identity": domain.ProductIdentity, "employment": domain.ProductEmployment,
		"income": domain.ProductIncome, "directDepositAllocations": domain.ProductAllocations} {
		if at(field) == nil {
			continue
		}
		keys := make([]productKey, len(accounts))
		for i, a := range accounts {
			keys[i] = productKey{a.ID, product}
		}
		l.products.LoadAllThunk(ctx, keys)
	}
	if f := at("jobs"); f != nil {
		args := argsOf(ctx, f)
		if f.ArgumentMap(graphql.GetOperationContext(ctx).Variables)["filter"] == nil {
			l.accountJobs.LoadAllThunk(ctx, pageKeys(accounts, args))
		}
	}
	if f := at("paystubs"); f != nil {
		args := argsOf(ctx, f)
		args.extra = stringArg(f.ArgumentMap(graphql.GetOperationContext(ctx).Variables)["fromPayDate"])
		l.accountPaystubs.LoadAllThunk(ctx, pageKeys(accounts, args))
	}
	if f := at("shifts"); f != nil {
		l.accountShifts.LoadAllThunk(ctx, pageKeys(accounts, argsOf(ctx, f)))
	}
	if f := at("taxForms"); f != nil {
		l.accountTaxForms.LoadAllThunk(ctx, pageKeys(accounts, argsOf(ctx, f)))
	}
	if at("endUser") != nil {
		ids := make([]string, len(accounts))
		for i, a := range accounts {
			ids[i] = a.EndUserID
		}
		preloadEndUsers(ctx, ids, append(slices.Clone(path), "endUser")...)
	}
}

// preloadEndUsers queues, in one batch per field, what the query will ask
// of the end users with these ids below path: documents, payouts, and
// (through the reports' loaders) verification reports.
func preloadEndUsers(ctx context.Context, ids []string, path ...string) {
	if len(ids) == 0 {
		return
	}
	l := loadersFrom(ctx)
	at := func(name string) *graphql.CollectedField { return collected(ctx, append(slices.Clone(path), name)...) }
	if at("firstConnectedAt") != nil {
		l.endUsers.LoadAllThunk(ctx, ids)
	}
	if f := at("documents"); f != nil {
		args := argsOf(ctx, f)
		args.extra = stringArg(f.ArgumentMap(graphql.GetOperationContext(ctx).Variables)["type"])
		keys := make([]pageKey, len(ids))
		for i, id := range ids {
			keys[i] = pageKey{id, args}
		}
		l.endUserDocuments.LoadAllThunk(ctx, keys)
	}
	if at("earningsStreamPayouts") != nil {
		l.earningsStreams.LoadAllThunk(ctx, ids)
	}
	if at("voie") != nil && l.voie != nil {
		l.voie.LoadAllThunk(ctx, ids)
	}
	if at("voe") != nil && l.voe != nil {
		l.voe.LoadAllThunk(ctx, ids)
	}
}

func pageKeys(accounts []domain.Account, args pageArgs) []pageKey {
	keys := make([]pageKey, len(accounts))
	for i, a := range accounts {
		keys[i] = pageKey{a.ID, args}
	}
	return keys
}

// preloadPlatforms queues the platforms of a page of employers as one
// batch when the query will ask for them.
func preloadPlatforms(ctx context.Context, employers []domain.Employer) {
	if collected(ctx, "edges", "node", "platform") == nil && collected(ctx, "nodes", "platform") == nil {
		return
	}
	ids := make([]string, 0, len(employers))
	for _, e := range employers {
		if e.PlatformID != "" {
			ids = append(ids, e.PlatformID)
		}
	}
	loadersFrom(ctx).platforms.LoadAllThunk(ctx, ids)
}

// jobFilterKey encodes a job filter for a loader key.
func jobFilterKey(f domain.JobFilter) string {
	if f.JobTypes == nil && f.Outcome == "" && f.AccountID == "" && f.LinkTokenID == "" && f.From == nil && f.To == nil {
		return ""
	}
	b, err := json.Marshal(f)
	if err != nil {
		panic(fmt.Sprintf("encode job filter: %v", err))
	}
	return string(b)
}
