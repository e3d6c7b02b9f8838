package graph

import (
	"context"

	"payline/domain"
	"payline/graph/model"
)

// The writes behind both spellings of each mutation: the payload-typed
// one (webhookCreate, ...) reports the input's refusals in userErrors,
// the deprecated verb-first one (createWebhook, ...) as a top-level error,
// and both run the code below.

func (r *mutationResolver) createLinkToken(ctx context.Context, in domain.LinkTokenRequest) (*model.CreatedLinkToken, error) {
	t, value, err := r.LinkService.CreateLinkToken(ctx, scope(ctx), in, domain.LatestVersion)
	if err != nil {
		return nil, err
	}
	return &model.CreatedLinkToken{LinkToken: &t, Token: value}, nil
}

func (r *mutationResolver) createWebhook(ctx context.Context, in domain.WebhookInput) (*domain.Webhook, error) {
	key, err := r.signingKey(ctx)
	if err != nil {
		return nil, err
	}
	w, err := r.WebhookService.Create(ctx, key, in)
	if err != nil {
		return nil, err
	}
	return &w, nil
}

func (r *mutationResolver) updateWebhook(ctx context.Context, id string, in domain.WebhookInput) (*domain.Webhook, error) {
	w, err := r.WebhookService.Update(ctx, scope(ctx), id, in)
	if err != nil {
		return nil, err
	}
	return &w, nil
}

func (r *mutationResolver) deleteWebhook(ctx context.Context, id string) error {
	return r.WebhookService.Delete(ctx, scope(ctx), id)
}

func (r *mutationResolver) sendTestEvent(ctx context.Context, webhookID string) (*domain.Delivery, error) {
	d, err := r.WebhookService.SendTest(ctx, scope(ctx), webhookID)
	if err != nil {
		return nil, err
	}
	return &d, nil
}

func (r *mutationResolver) disconnectAccount(ctx context.Context, id string) (*domain.Account, error) {
	if err := r.AccountService.Disconnect(ctx, scope(ctx), id); err != nil {
		return nil, err
	}
	a, err := r.AccountService.Account(ctx, scope(ctx), id)
	return &a, err
}

func (r *mutationResolver) disableMonitoring(ctx context.Context, id string) (*domain.Account, error) {
	if err := r.AccountService.DisableMonitoring(ctx, scope(ctx), id); err != nil {
		return nil, err
	}
	a, err := r.AccountService.Account(ctx, scope(ctx), id)
	return &a, err
}

func (r *mutationResolver) refreshVerificationReport(ctx context.Context, endUserID, reportType string, req domain.ReportRequest) (*domain.VerificationReport, error) {
	rep, err := r.Reporter.VerificationReport(ctx, scope(ctx), endUserID, reportType, req)
	if err != nil {
		return nil, err
	}
	return &rep, nil
}

// webhookInput is the domain's form of a webhook's settings; status nil
// leaves it as it is.
func webhookInput(url *string, events []string, version *string, status *domain.WebhookStatus) domain.WebhookInput {
	in := domain.WebhookInput{URL: url, EnabledEvents: events, Version: version}
	if status != nil {
		s := string(*status)
		in.Status = &s
	}
	return in
}

// linkTokenCreateRequest is the domain's form of linkTokenCreate's input.
func linkTokenCreateRequest(in model.LinkTokenCreateInput) domain.LinkTokenRequest {
	return linkTokenRequest(model.CreateLinkTokenInput{OrgName: in.OrgName, EndUserID: in.EndUserID, Solution: in.Solution,
		Features: jobNames(in.Features), RequiredJobs: jobNames(in.RequiredJobs), Allocation: in.Allocation,
		EmployerID: in.EmployerID, PlatformID: in.PlatformID, AccountID: in.AccountID, SkipIntroScreen: in.SkipIntroScreen,
		DisableDirectDepositSplitting: in.DisableDirectDepositSplitting, Language: in.Language, PlatformMatching: in.PlatformMatching})
}
