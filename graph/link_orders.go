package graph

import (
	"slices"

	"payline/domain"
	"payline/graph/model"
)

// orders is the Link order service; the fields that reach it check
// ordersServed first.
func (r *Resolver) orders() *domain.LinkOrderService { return r.LinkOrderService }

// ordersServed refuses the Link order fields on a server built without
// the service (a test's, a tool's).
func (r *Resolver) ordersServed() error {
	if r.LinkOrderService == nil {
		return domain.Errorf(domain.KindNotFound, domain.CodeRouteNotFound, "this server sends no Link orders")
	}
	return nil
}

// linkOrderRequest is the domain's form of linkOrderCreate's input: the
// link token's fields as linkTokenCreate takes them, and the order's.
func linkOrderRequest(in model.LinkOrderCreateInput) domain.LinkOrderRequest {
	link := linkTokenRequest(model.CreateLinkTokenInput{OrgName: in.OrgName, EndUserID: &in.EndUserID, Solution: in.Solution,
		Features: jobNames(in.Features), RequiredJobs: jobNames(in.RequiredJobs), Allocation: in.Allocation,
		EmployerID: in.EmployerID, PlatformID: in.PlatformID, Language: in.Language})
	return domain.LinkOrderRequest{Link: link, Email: deref(in.Email), Phone: deref(in.Phone), SMSConsent: deref(in.SmsConsent),
		ExpiresInHours: in.ExpiresInHours, Reminders: in.Reminders, TimeZone: deref(in.TimeZone)}
}

// orderInputPaths points REST's delivery.email and delivery.phone at
// the input's own email and phone.
func orderInputPaths(errs []*model.UserError) []*model.UserError {
	for _, e := range errs {
		if i := slices.Index(e.Field, "delivery"); i >= 0 {
			e.Field = slices.Delete(slices.Clone(e.Field), i, i+1)
		}
	}
	return errs
}
