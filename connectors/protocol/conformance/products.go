package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"payline/connectors/protocol"
	"payline/domain"
)

// maxProblems bounds the distinct problems reported for one product: past
// it, the count of the rest is.
const maxProblems = 50

// products reads every page of each product the platform lists and
// validates each against the product's schema (protocol.ValidatePage);
// a product it does not list is skipped.
func (k *platformKit) products(ctx context.Context, good string) {
	at := k.at.as(k.users.Good)
	for _, product := range products {
		s := "products: " + product
		if !slices.Contains(k.at.platform.Products, product) {
			k.skip(s, k.at, "not among the products its capabilities list")
			continue
		}
		if good == "" {
			k.fail(s, at, "no connection: the good login failed")
			continue
		}
		k.product(ctx, s, at, product, good)
	}
}

// product checks one product: its pages, their shape and their data.
func (k *platformKit) product(ctx context.Context, s string, at tried, product, good string) {
	now := time.Now().UTC()
	req := protocol.FetchRequest{Product: product, Account: k.account(good), Since: now.Add(-domain.PaystubHistory), Now: now}
	pages, items := 0, 0
	found := &problems{where: k.at.label + " · " + product}
	for {
		a := k.signed(ctx, http.MethodPost, protocol.PathFetch, req)
		var page protocol.FetchResponse
		if a.err != nil || a.status != 200 || json.Unmarshal(a.body, &page) != nil || len(page.Data) == 0 || string(page.Data) == "null" {
			k.fail(s, at, "page %d: want 200 with data and next_cursor, got %s", pages+1, a)
			return
		}
		if !bytes.Contains(a.body, []byte(`"next_cursor"`)) {
			k.fail(s, at, "page %d has no next_cursor (null on the last page)", pages+1)
			return
		}
		pages++
		n, err := count(product, page.Data)
		if err != nil {
			k.fail(s, at, "page %d: %v", pages, err)
			return
		}
		for _, p := range protocol.ValidatePage(product, page.Data) {
			if p.Item >= 0 {
				p.Item += items // the item's place in the whole product, not in its page
			}
			found.add(p)
		}
		items += n
		if page.NextCursor == nil {
			break
		}
		if *page.NextCursor == "" || *page.NextCursor == req.Cursor || pages > 1000 {
			k.fail(s, at, "page %d: next_cursor %q does not move on", pages, *page.NextCursor)
			return
		}
		req.Cursor = *page.NextCursor
	}
	if found.total > 0 {
		k.record(s, at, Failed, found.summary(items, pages), found.lines())
		return
	}
	k.pass(s, at, fmt.Sprintf("%d %s over %d %s, each valid", items, plural(items, "item", "items"), pages, plural(pages, "page", "pages")))
}

// count checks one page's shape (an object for the single products, a
// list of objects otherwise) and returns the items it holds.
func count(product string, data json.RawMessage) (int, error) {
	switch product {
	case domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome:
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
			return 0, fmt.Errorf("data is not an object: %.80s", data)
		}
		return 1, nil
	}
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return 0, fmt.Errorf("data is not a list of objects: %.80s", data)
	}
	return len(items), nil
}

// problems gathers a product's problems. The same problem in many items
// (every paystub without a currency) is said once, at its first item,
// with how many more items have it.
type problems struct {
	where string // "platform · product"
	total int
	order []string // distinct problems (field and what is wrong), as first seen
	first map[string]domain.FieldProblem
	more  map[string]int
}

func (ps *problems) add(p domain.FieldProblem) {
	ps.total++
	key := p.Field + "\x00" + p.Problem
	if ps.first == nil {
		ps.first, ps.more = map[string]domain.FieldProblem{}, map[string]int{}
	}
	if _, seen := ps.first[key]; seen {
		ps.more[key]++
		return
	}
	ps.first[key] = p
	ps.order = append(ps.order, key)
}

// lines are the problems, each "platform · product · item n · field:
// what is wrong (got X)".
func (ps *problems) lines() []string {
	var out []string
	for i, key := range ps.order {
		if i == maxProblems {
			out = append(out, fmt.Sprintf("%s: and %d more problems", ps.where, len(ps.order)-maxProblems))
			break
		}
		line := Problem(ps.where, ps.first[key])
		if n := ps.more[key]; n > 0 {
			line += fmt.Sprintf("; the same in %d more %s", n, plural(n, "item", "items"))
		}
		out = append(out, line)
	}
	return out
}

func (ps *problems) summary(items, pages int) string {
	return fmt.Sprintf("%d %s in %d %s over %d %s, the first: %s", ps.total, plural(ps.total, "problem", "problems"),
		items, plural(items, "item", "items"), pages, plural(pages, "page", "pages"),
		strings.TrimPrefix(Problem("", ps.first[ps.order[0]]), " · "))
}

// Problem words one problem in a product's data: "where · item n · field:
// what is wrong (got X)", without "item n" for an object product
// (Item -1) and without "(got X)" for a missing value.
func Problem(where string, p domain.FieldProblem) string {
	var b strings.Builder
	b.WriteString(where)
	if p.Item >= 0 {
		fmt.Fprintf(&b, " · item %d", p.Item)
	}
	field := p.Field
	if field == "" {
		field = "data"
	}
	fmt.Fprintf(&b, " · %s: %s", field, p.Problem)
	if p.Got != "" {
		fmt.Fprintf(&b, " (got %s)", p.Got)
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
