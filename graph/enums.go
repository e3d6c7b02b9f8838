package graph

import (
	"strings"

	"payline/domain"
	"payline/graph/model"
)

// The enums of closed sets REST spells as strings: each value is REST's
// spelling with the characters a GraphQL name may not hold replaced
// (account.added is account_added, 2025-07-08 is v2025_07_08), and these
// functions are the one mapping between the two.

// webhookEvent is the enum value of an event name.
func webhookEvent(name string) model.WebhookEvent {
	return model.WebhookEvent(strings.ReplaceAll(name, ".", "_"))
}

// eventName is REST's name of an event enum value: the event whose
// name webhookEvent turns into it, or "" for none.
func eventName(e model.WebhookEvent) string {
	for _, name := range domain.EventNames() {
		if webhookEvent(name) == e {
			return name
		}
	}
	return ""
}

func webhookEvents(names []string) []model.WebhookEvent {
	out := make([]model.WebhookEvent, len(names))
	for i, n := range names {
		out[i] = webhookEvent(n)
	}
	return out
}

func eventNames(events []model.WebhookEvent) []string {
	if events == nil {
		return nil
	}
	out := make([]string, len(events))
	for i, e := range events {
		out[i] = eventName(e)
	}
	return out
}

// webhookVersion is the enum value of an API version.
func webhookVersion(v string) model.WebhookVersion {
	return model.WebhookVersion("v" + strings.ReplaceAll(v, "-", "_"))
}

// versionName is REST's spelling of a version enum value.
func versionName(v model.WebhookVersion) string {
	return strings.ReplaceAll(strings.TrimPrefix(string(v), "v"), "_", "-")
}

func jobNames(jobs []domain.JobType) []string {
	if jobs == nil {
		return nil
	}
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = string(j)
	}
	return out
}
