package reports

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"payline/domain"
)

// OpenDisputes reads end users' unresolved disputes, so a report built
// while one is open says so next to the item (storage's stores are one).
type OpenDisputes interface {
	// OpenDisputesOfEndUsers lists each end user's unresolved disputes in
	// one query, by end user; those without any are absent.
	OpenDisputesOfEndUsers(ctx context.Context, sc domain.Scope, endUserIDs []string) (map[string][]domain.Dispute, error)
}

// WithDisputes makes reports note the end user's open disputes (nil: no
// dispute is read).
func (s *Service) WithDisputes(d OpenDisputes) *Service {
	s.disputes = d
	return s
}

// openDisputes reads the end users' open disputes (none without a
// reader).
func (s *Service) openDisputes(ctx context.Context, sc domain.Scope, endUserIDs ...string) (map[string][]domain.Dispute, error) {
	if s.disputes == nil {
		return nil, nil
	}
	return s.disputes.OpenDisputesOfEndUsers(ctx, sc, endUserIDs)
}

// withDisputes is a report's data version with its open disputes: a
// dispute opened or resolved makes the next request rebuild the report,
// and a report with none keeps the version it always had.
func withDisputes(version string, open []domain.Dispute) string {
	if len(open) == 0 {
		return version
	}
	ids := make([]string, len(open))
	for i, d := range open {
		ids[i] = d.ID
	}
	slices.Sort(ids)
	h := sha256.Sum256([]byte(version + "\ndisputes " + strings.Join(ids, " ")))
	return hex.EncodeToString(h[:])
}

// disputedPaystubs are the open disputes of paystubs, by paystub id.
func disputedPaystubs(open []domain.Dispute) map[string]domain.Dispute {
	out := map[string]domain.Dispute{}
	for _, d := range open {
		if d.Item.Type == domain.DisputedPaystub {
			out[d.Item.ID] = d
		}
	}
	return out
}

// disputedEmployment is the open dispute of an account's employment, if
// any.
func disputedEmployment(open []domain.Dispute, accountID string) (domain.Dispute, bool) {
	for _, d := range open {
		if d.Item.Type == domain.DisputedEmployment && d.Item.AccountID == accountID {
			return d, true
		}
	}
	return domain.Dispute{}, false
}

// disputedFieldWords names a disputed field in words ("net pay").
func disputedFieldWords(field string) string {
	return strings.ReplaceAll(strings.TrimSuffix(field, "_amount"), "_", " ")
}

// disputeClock says when a dispute was received and when it is due.
func disputeClock(d domain.Dispute) string {
	return fmt.Sprintf("received %s, reinvestigation due %s", day(d.ReceivedAt.Format(time.DateOnly)), day(d.DueAt.Format(time.DateOnly)))
}

// disputeFlags are the points to review an open dispute raises, one per
// dispute, in the order they were received: what the person disputes,
// and its clock. The report decides nothing about it.
func disputeFlags(sources []Source, open []domain.Dispute) []domain.ReportFlag {
	stubs := map[string]domain.Paystub{}
	for _, s := range sources {
		for _, p := range s.Paystubs {
			stubs[p.ID] = p
		}
	}
	var out []domain.ReportFlag
	for _, d := range open {
		what := "an item"
		switch d.Item.Type {
		case domain.DisputedPaystub:
			what = "a paystub"
			if p, ok := stubs[d.Item.ID]; ok {
				what = "the paystub paid " + day(p.PayDate.String())
			}
			if d.Item.Field != "" {
				what = "the " + disputedFieldWords(d.Item.Field) + " of " + what
			}
		case domain.DisputedEmployment:
			what = "this employment"
		case domain.DisputedReportField:
			what = "the report's " + disputedFieldWords(d.Item.Field)
		case domain.DisputedDocument:
			what = "an uploaded document's " + orDash(disputedFieldWords(d.Item.Field))
		}
		out = append(out, domain.ReportFlag{Code: domain.FlagItemDisputed, Employment: d.Item.AccountID,
			Message: fmt.Sprintf("The person disputes %s (%s). Until the dispute is resolved, the figure stands as the source reported it.",
				what, disputeClock(d))})
	}
	return out
}

// disputeMarks prefix the paystub table's dispute notes with the mark
// their rows carry.
func disputeMarks(notes []string) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = "† " + n
	}
	return out
}

// orDefault is s, or def when s is empty.
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
