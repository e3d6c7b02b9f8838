package rest

import (
	"fmt"
	"strings"
	"testing"

	"payline/domain"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestGraphQLMutationPayloads: a mutation's refusal of its input (a bad
// field, an unknown id) comes back in the payload's userErrors, with the
// input field's path and REST's code, and no top-level error; the
// deprecated names refuse the same input with a top-level error as they
// always did; a failure of the request itself (a viewer's mutation) is
// still a top-level error. clientMutationId comes back as sent.
func TestGraphQLMutationPayloads(t *testing.T) {
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		const fields = `userErrors { field message code } clientMutationId`

		// An invalid webhook URL.
		r := f.gql(`mutation { webhookCreate(input: {url: "http://example.com/hook", enabledEvents: [account_added], version: v2025_07_08,
			clientMutationId: "c-1"}) { webhook { id } `+fields+` } }`, nil)
		if len(r.Errors) > 0 {
			t.Fatalf("an invalid URL answered a top-level error: %s", r.raw)
		}
		p := at(r.Data, "webhookCreate")
		if errs := at(p, "userErrors").([]any); len(errs) != 1 || fmt.Sprint(at(errs[0], "field")) != "[input url]" ||
			at(errs[0], "code") != domain.CodeInvalidFields || !strings.Contains(at(errs[0], "message").(string), "https://") ||
			at(p, "webhook") != nil || at(p, "clientMutationId") != "c-1" {
			t.Errorf("an invalid URL: %s", r.raw)
		}
		if n := len(f.get("/v1/webhooks").list(t)); n != 0 {
			t.Errorf("a refused webhook was stored: %d webhooks", n)
		}
		// The deprecated name refuses it at the top level, as before.
		if old := f.gql(`mutation { createWebhook(input: {url: "http://example.com/hook", enabledEvents: ["account.added"], version: "2025-07-08"}) { id } }`, nil); old.code(t) != domain.CodeInvalidFields {
			t.Errorf("createWebhook with an invalid URL: %s", old.raw)
		}

		// Several problems: one user error each, missing fields as MISSING_FIELDS.
		r = f.gql(`mutation ($in: LinkTokenCreateInput!) { linkTokenCreate(input: $in) { token linkToken { id } `+fields+` } }`,
			map[string]any{"in": map[string]any{"orgName": "A", "endUserId": "pay", "requiredJobs": []string{"direct_deposit_switch"},
				"allocation": map[string]any{"type": "amount", "value": "19.999", "targets": []map[string]any{
					{"type": "checking", "accountNumber": "123456789", "routingNumber": goodRouting}}}}})
		if len(r.Errors) > 0 {
			t.Fatalf("an invalid link token answered a top-level error: %s", r.raw)
		}
		got := map[string]string{}
		for _, e := range at(r.Data, "linkTokenCreate", "userErrors").([]any) {
			got[fmt.Sprint(at(e, "field"))] = at(e, "code").(string)
		}
		if got["[input orgName]"] != domain.CodeInvalidFields || got["[input allocation value]"] != domain.CodeInvalidFields ||
			at(r.Data, "linkTokenCreate", "token") != nil {
			t.Errorf("an invalid link token: %s", r.raw)
		}

		// Unknown ids name the id's field.
		unknown := domain.NewID()
		for _, c := range []struct{ mutation, code string }{
			{`webhookUpdate(input: {id: $id, status: paused}) { webhook { id } ` + fields + ` }`, domain.CodeWebhookNotFound},
			{`webhookDelete(input: {id: $id}) { deletedWebhookId ` + fields + ` }`, domain.CodeWebhookNotFound},
			{`accountDisconnect(input: {id: $id}) { account { id } ` + fields + ` }`, domain.CodeAccountNotFound},
			{`accountMonitoringDisable(input: {id: $id}) { account { id } ` + fields + ` }`, domain.CodeAccountNotFound},
		} {
			r := f.gql(`mutation ($id: ID!) { m: `+c.mutation+` }`, map[string]any{"id": unknown})
			if len(r.Errors) > 0 || at(r.Data, "m", "userErrors", 0, "code") != c.code ||
				fmt.Sprint(at(r.Data, "m", "userErrors", 0, "field")) != "[input id]" {
				t.Errorf("%s for an unknown id: %s", c.mutation, r.raw)
			}
		}
		r = f.gql(`mutation { verificationReportRefresh(input: {endUserId: "nobody", type: voie}) { report { id } `+fields+` } }`, nil)
		if len(r.Errors) > 0 || fmt.Sprint(at(r.Data, "verificationReportRefresh", "userErrors", 0, "field")) != "[input endUserId]" {
			t.Errorf("a report of an unknown end user: %s", r.raw)
		}

		// A viewer's mutation is refused as a request, before any payload.
		f.addMember("acme", "looker@acme.test", domain.RoleViewer)
		status, res := f.gqlRaw(t, queryBody(`mutation { webhookDelete(input: {id: "`+unknown+`"}) { deletedWebhookId }}`),
			"x-api-secret", "", "Cookie", f.dashboardCookie("looker@acme.test"))
		if status != 403 || !strings.Contains(res.raw, "ROLE_FORBIDDEN") {
			t.Errorf("a viewer's mutation: %d %s", status, res.raw)
		}
	})
}
