package domain

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"
)

// checkEndUserID says whether id can name an end user: 1 to 255
// characters of text, no control or bidi characters (INVALID_FIELDS).
func checkEndUserID(id string) error {
	if id == "" || len(id) > 255 || !storable(id) {
		return Errorf(KindInvalid, CodeInvalidFields, "end_user_id: must be 1 to 255 characters of text")
	}
	return CheckIDText("end_user_id", id)
}

// EndUserAccounts returns every account of an end user, newest first.
// Errors: INVALID_FIELDS for an id that is not 1 to 255 characters of
// text, END_USER_NOT_FOUND when the scope has no account for it.
func EndUserAccounts(ctx context.Context, accounts AccountStore, sc Scope, endUserID string) ([]Account, error) {
	if err := checkEndUserID(endUserID); err != nil {
		return nil, err
	}
	var all []Account
	p := PageRequest{Limit: MaxPageLimit}
	for {
		page, err := accounts.FindAccounts(ctx, sc, AccountFilter{EndUserID: endUserID}, p)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Items...)
		if page.Next == nil {
			break
		}
		p.Cursor = page.Next
	}
	if len(all) == 0 {
		return nil, Errorf(KindNotFound, CodeEndUserNotFound, "no accounts for end_user_id %q", endUserID)
	}
	return all, nil
}

// Payout is an expected payout of the earnings stream.
type Payout struct {
	Status  string `json:"status"`
	PayDate string `json:"pay_date"`
	// NetPay is what the payout brings: the sum of its earnings' net pay.
	NetPay   Money           `json:"net_pay"`
	Earnings []PayoutEarning `json:"earnings"`
}

// PayoutEarning is one account's expected net pay on a pay date.
type PayoutEarning struct {
	Date            string  `json:"date"`
	ConfidenceScore float64 `json:"confidence_score"`
	NetPay          Money   `json:"net_pay"`
}

// EarningsStream is the end user's next payouts, estimated from the
// stored paystubs of their connected accounts: the next three pay dates
// of each account's schedule, at the average of its last three net pays.
// Confidence falls with the horizon and with the spread of recent pay.
// Disconnected accounts stop contributing.
type EarningsStream struct {
	Payouts     []Payout
	RefreshedAt time.Time
	UpdatedAt   time.Time
}

// earningsStream is the estimate for one end user's connected accounts,
// given each account's newest paystubs.
func earningsStream(accounts []Account, stubsOf map[string]Page[Paystub]) EarningsStream {
	var out EarningsStream
	byDate := map[string]*Payout{}
	for _, a := range accounts {
		stubs := stubsOf[a.ID].Items // newest first
		earnings := accountPayouts(stubs)
		if earnings == nil {
			continue
		}
		if t := a.DataRefreshedAt[ProductPaystubs]; t.After(out.RefreshedAt) {
			out.RefreshedAt = t
		}
		if t := a.DataUpdatedAt[ProductPaystubs]; t.After(out.UpdatedAt) {
			out.UpdatedAt = t
		}
		for _, e := range earnings {
			p := byDate[e.Date]
			if p == nil {
				p = &Payout{Status: "estimated", PayDate: e.Date}
				byDate[e.Date] = p
			}
			p.Earnings = append(p.Earnings, e)
			p.NetPay = Money{Amount: p.NetPay.Amount + e.NetPay.Amount, Currency: e.NetPay.Currency}
		}
	}
	for _, p := range byDate {
		out.Payouts = append(out.Payouts, *p)
	}
	slices.SortFunc(out.Payouts, func(a, b Payout) int { return strings.Compare(a.PayDate, b.PayDate) })
	return out
}

// payoutPaystubs is how many of an account's newest paystubs its
// estimated payouts are computed from.
const payoutPaystubs = 4

// accountPayouts is one account's share of the estimate, from its newest
// paystubs (newest first): its next three pay dates on the schedule of
// the last two, at the average of its last three net pays. Fewer than two
// paystubs estimate nothing (nil).
func accountPayouts(stubs []Paystub) []PayoutEarning {
	if len(stubs) < 2 {
		return nil
	}
	last, prev := stubs[0].PayDateTime(), stubs[1].PayDateTime()
	interval := last.Sub(prev)
	recent := stubs[:min(3, len(stubs))]
	var sum int64
	for _, st := range recent {
		sum += st.NetPayAmount.Amount
	}
	n := int64(len(recent))
	mean := (sum + n/2) / n // cents, rounded half up
	// The spread is a statistic, not money: floats are fine here.
	var variance float64
	for _, st := range recent {
		variance += math.Pow(float64(st.NetPayAmount.Amount-mean), 2)
	}
	spread := 0.3
	if mean > 0 {
		spread = math.Min(math.Sqrt(variance/float64(n))/float64(mean), 0.3)
	}
	out := make([]PayoutEarning, 0, 3)
	for k := 1; k <= 3; k++ {
		date := last.Add(time.Duration(k) * interval).Format(time.DateOnly)
		score := math.Round((0.95-0.05*float64(k-1)-spread)*100) / 100
		out = append(out, PayoutEarning{Date: date, ConfidenceScore: score, NetPay: Money{Amount: mean, Currency: stubs[0].Currency}})
	}
	return out
}

// storedPayouts is an account's share of the estimate as its stored
// paystubs make it now (inside tx, for a change to compare with).
func storedPayouts(ctx context.Context, tx Tx, sc Scope, accountID string) ([]PayoutEarning, error) {
	stubs, err := tx.Data().PaystubsOfAccounts(ctx, sc, []string{accountID}, "", PageRequest{Limit: payoutPaystubs})
	if err != nil {
		return nil, err
	}
	return accountPayouts(stubs[accountID].Items), nil
}

// BillNavigatorActions are the actions PUT bill_navigator/status takes.
var BillNavigatorActions = []string{"deactivate"}

// EndUser returns one of the scope's end users: one with accounts, or one
// who only uploaded documents in Link (no accounts, first seen at their
// first upload; AccountStore.EndUsersByID holds the rule). Errors:
// INVALID_FIELDS, END_USER_NOT_FOUND.
func (s *EndUserService) EndUser(ctx context.Context, sc Scope, id string) (EndUser, error) {
	if err := checkEndUserID(id); err != nil {
		return EndUser{}, err
	}
	users, errs := s.EndUsersByID(ctx, sc, []string{id})
	return users[0], errs[0]
}

// EndUsers pages the scope's end users by id: those with accounts and
// those who only uploaded documents in Link.
func (s *EndUserService) EndUsers(ctx context.Context, sc Scope, p PageRequest) (Page[EndUser], error) {
	return s.tx.Accounts().FindEndUsers(ctx, sc, p)
}

// EndUsersByID loads end users for a batch read: an id with neither an
// account nor an uploaded document is END_USER_NOT_FOUND in its slot.
func (s *EndUserService) EndUsersByID(ctx context.Context, sc Scope, ids []string) ([]EndUser, []error) {
	found, err := s.tx.Accounts().EndUsersByID(ctx, sc, ids)
	if err != nil {
		return failAll[EndUser](len(ids), err)
	}
	return inOrder(ids, found, func(u EndUser) string { return u.ID }, func(id string) error {
		return Errorf(KindNotFound, CodeEndUserNotFound, "no end user with id %q", id)
	})
}

// checkEndUser returns the end user's accounts, or END_USER_NOT_FOUND when
// this customer has none for that id.
func (s *EndUserService) checkEndUser(ctx context.Context, sc Scope, endUserID string, connectedOnly bool) ([]Account, error) {
	all, err := EndUserAccounts(ctx, s.tx.Accounts(), sc, endUserID)
	if err != nil {
		return nil, err
	}
	if connectedOnly {
		all = slices.DeleteFunc(all, func(a Account) bool { return !a.Connected })
	}
	return all, nil
}

// EarningsStream estimates the end user's payouts, oldest pay date first.
func (s *EndUserService) EarningsStream(ctx context.Context, sc Scope, endUserID string) (EarningsStream, error) {
	accounts, err := s.checkEndUser(ctx, sc, endUserID, true)
	if err != nil {
		return EarningsStream{}, err
	}
	streams, err := s.estimate(ctx, sc, map[string][]Account{endUserID: accounts})
	return streams[endUserID], err
}

// EarningsStreams estimates the payouts of many end users at once, in
// three statements for any number (one more per end user with more than
// MaxPageLimit accounts). End users the scope lacks get an empty stream.
func (s *EndUserService) EarningsStreams(ctx context.Context, sc Scope, endUserIDs []string) (map[string]EarningsStream, error) {
	pages, err := s.tx.Accounts().AccountsOfEndUsers(ctx, sc, endUserIDs, PageRequest{Limit: MaxPageLimit})
	if err != nil {
		return nil, err
	}
	byUser := map[string][]Account{}
	for id, page := range pages {
		all := page.Items
		if page.Next != nil {
			if all, err = EndUserAccounts(ctx, s.tx.Accounts(), sc, id); err != nil {
				return nil, err
			}
		}
		byUser[id] = slices.DeleteFunc(slices.Clone(all), func(a Account) bool { return !a.Connected })
	}
	return s.estimate(ctx, sc, byUser)
}

// estimate computes each end user's stream from the last four paystubs
// of each of their connected accounts, read in one statement.
func (s *EndUserService) estimate(ctx context.Context, sc Scope, byUser map[string][]Account) (map[string]EarningsStream, error) {
	var ids []string
	for _, accounts := range byUser {
		for _, a := range accounts {
			ids = append(ids, a.ID)
		}
	}
	stubs, err := s.tx.Data().PaystubsOfAccounts(ctx, sc, ids, "", PageRequest{Limit: payoutPaystubs})
	if err != nil {
		return nil, err
	}
	out := make(map[string]EarningsStream, len(byUser))
	for user, accounts := range byUser {
		out[user] = earningsStream(accounts, stubs)
	}
	return out, nil
}

// SetBillNavigatorStatus records the end user's bill navigator action.
// Errors: MISSING_FIELDS, INVALID_FIELDS, END_USER_NOT_FOUND.
func (s *EndUserService) SetBillNavigatorStatus(ctx context.Context, sc Scope, endUserID, action, reason string) error {
	var p Problems
	if action == "" {
		p.Missing("action")
	} else if !slices.Contains(BillNavigatorActions, action) {
		p.Invalid("action", "must be deactivate, got %q", action)
	}
	if len(reason) > 500 {
		p.Invalid("reason", "must be at most 500 characters")
	}
	if err := p.Err(); err != nil {
		return err
	}
	if _, err := s.checkEndUser(ctx, sc, endUserID, false); err != nil {
		return err
	}
	if err := s.relay.SetBillNavigatorStatus(ctx, UpstreamEndUser(sc.CustomerID, endUserID), action, reason); err != nil {
		return err
	}
	return s.tx.Records().SetBillNavigatorStatus(ctx, sc, endUserID, action+"d", reason, s.clock.Now())
}
