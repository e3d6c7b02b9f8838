package graph

import (
	"context"
	"slices"
	"strconv"
	"time"

	"payline/domain"
	"payline/graph/model"
)

// The review queue's GraphQL shapes: a document's review, where its
// fields were read, and the fields a reviewer corrects, each with the
// reasons that name it, all mapped from the document's record.

// reviewOf is a document's review in GraphQL's shape, nil when none.
func reviewOf(r *domain.DocumentReview) *model.DocumentReview {
	if r == nil {
		return nil
	}
	out := &model.DocumentReview{Status: model.DocumentReviewStatus(r.Status), ReviewerID: optional(r.ReviewerID),
		Basis: optional(r.Basis), Note: optional(r.Note), Corrections: make([]*model.FieldCorrection, len(r.Corrections))}
	if r.Outcome != "" {
		o := model.DocumentReviewOutcome(r.Outcome)
		out.Outcome = &o
	}
	if r.ReviewedAt != nil {
		at := time.Time(*r.ReviewedAt)
		out.ReviewedAt = &at
	}
	for i, c := range r.Corrections {
		out.Corrections[i] = &model.FieldCorrection{Field: c.Field, Before: c.Before, After: c.After}
	}
	return out
}

func readingOf(r domain.FieldReading) *model.FieldReading {
	return &model.FieldReading{Field: r.Field, Page: r.Page, Box: r.Box[:], Confidence: r.Confidence, Source: r.Source}
}

// readingsOf are where a document's fields were read, never nil.
func readingsOf(rs []domain.FieldReading) []*model.FieldReading {
	out := make([]*model.FieldReading, len(rs))
	for i, r := range rs {
		out[i] = readingOf(r)
	}
	return out
}

// fieldsOf are the fields a reviewer may correct on an uploaded document,
// each with what was read, the reasons that name it and where it was
// read (the surest reading when there are several); none for a document
// Payline made.
func fieldsOf(b *domain.DocumentBody) []*model.DocumentField {
	out := []*model.DocumentField{}
	if b.AccountID != nil {
		return out
	}
	for _, f := range domain.DocumentFields(b.DocumentType, b.ParsedData) {
		field := &model.DocumentField{Name: f.Name, Kind: f.Kind, Value: optional(f.Value), Reasons: []*domain.FraudReason{}}
		for i, r := range b.Fraud.Reasons {
			if slices.Contains(r.Fields, f.Name) {
				field.Reasons = append(field.Reasons, &b.Fraud.Reasons[i])
			}
		}
		for _, r := range b.Readings {
			if r.Field == f.Name && (field.Reading == nil || r.Confidence > field.Reading.Confidence) {
				field.Reading = readingOf(r)
			}
		}
		out = append(out, field)
	}
	return out
}

// reviewStatus is the queue filter's status: required when none is
// given, either ("") when both are.
func reviewStatus(f *model.DocumentReviewFilter) string {
	if f == nil || len(f.Statuses) == 0 {
		return domain.ReviewRequired
	}
	status := string(f.Statuses[0])
	for _, s := range f.Statuses[1:] {
		if string(s) != status {
			return ""
		}
	}
	return status
}

// pointAtCorrections makes a refusal of a correction name the input
// element that made it: ["input", "corrections", "netPayAmount"], the
// domain's corrections.net_pay_amount, becomes ["input", "corrections",
// "0", "value"] when the first correction names net_pay_amount.
func pointAtCorrections(refused []*model.UserError, corrections []*model.DocumentFieldCorrectionInput) {
	for _, e := range refused {
		if len(e.Field) != 3 || e.Field[0] != "input" || e.Field[1] != "corrections" {
			continue
		}
		for i, c := range corrections {
			if camel(c.Field) == e.Field[2] {
				e.Field = []string{"input", "corrections", strconv.Itoa(i), "value"}
				break
			}
		}
	}
}

// submitReview records a member's review: the session names the member,
// so an API secret, which names none, is refused.
func (r *mutationResolver) submitReview(ctx context.Context, in model.DocumentReviewSubmitInput) (*model.Document, error) {
	sess, ok := domain.SessionFrom(ctx)
	if !ok {
		return nil, domain.Errorf(domain.KindUnauthorized, domain.CodeMissingAdminToken,
			"a review is made by a workspace member: sign in (the dashboard, or POST /v1/admin/token and send Authorization: Bearer <token>); an API secret names no member")
	}
	review := domain.ReviewInput{Outcome: string(in.Outcome), Note: deref(in.Note)}
	if len(in.Corrections) > 0 {
		review.Corrections = make(map[string]string, len(in.Corrections))
		for _, c := range in.Corrections {
			review.Corrections[c.Field] = deref(c.Value)
		}
	}
	rec, err := r.DocumentReviewService.Review(ctx, sess, "", in.DocumentID, review)
	if err != nil {
		return nil, err
	}
	return documentOf(rec)
}
