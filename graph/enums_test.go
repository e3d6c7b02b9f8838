package graph

import (
	"slices"
	"testing"

	"payline/domain"
	"payline/graph/model"
)

// TestEnumsMatchTheDomainsSets: every event a webhook may enable, every
// webhook version, report type, permissible purpose and delivery outcome
// is a value of its enum and maps back to REST's spelling, and each enum
// has no value the domain lacks.
func TestEnumsMatchTheDomainsSets(t *testing.T) {
	check := func(name string, domainSet []string, enumSet []string, toEnum func(string) string, fromEnum func(string) string) {
		t.Helper()
		var mapped []string
		for _, v := range domainSet {
			e := toEnum(v)
			if !slices.Contains(enumSet, e) {
				t.Errorf("%s: %q has no enum value (%q)", name, v, e)
			}
			if back := fromEnum(e); back != v {
				t.Errorf("%s: %q maps to %q and back to %q", name, v, e, back)
			}
			mapped = append(mapped, e)
		}
		for _, e := range enumSet {
			if !slices.Contains(mapped, e) {
				t.Errorf("%s: the enum value %s is not in the domain's set", name, e)
			}
		}
	}
	same := func(s string) string { return s }
	check("WebhookEvent", domain.EventNames(), texts(model.AllWebhookEvent),
		func(s string) string { return string(webhookEvent(s)) }, func(s string) string { return eventName(model.WebhookEvent(s)) })
	check("WebhookVersion", domain.WebhookVersions(), texts(model.AllWebhookVersion),
		func(s string) string { return string(webhookVersion(s)) }, func(s string) string { return versionName(model.WebhookVersion(s)) })
	check("ReportType", []string{domain.ReportVOIE, domain.ReportVOE}, texts(model.AllReportType), same, same)
	check("PermissiblePurpose", domain.ReportPurposes, texts(model.AllPermissiblePurpose), same, same)
	check("DeliveryOutcome", []string{domain.DeliveryDelivered, domain.DeliveryRetrying, domain.DeliveryFailed, domain.DeliverySkipped},
		texts(model.AllDeliveryOutcome), same, same)
}

func texts[E ~string](values []E) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
