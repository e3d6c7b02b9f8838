package rest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestLegacyTokenJobs: GET /v1/link_tokens/{id}/jobs answers a bare array
// of the token's finished jobs in the legacy shape (params.amount in
// cents), marked deprecated with a link to GET /v1/jobs, on both
// databases; an unknown or another customer's token is 404.
func TestLegacyTokenJobs(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "legacy", "required_jobs": ["direct_deposit_switch", "paystubs"],
			"allocation": {"targets": [{"type": "checking", "account_number": "123456789", "routing_number": "` + goodRouting + `"}]}}`)
		f.linkSession(sessionBody(token, p.ID, sandbox.UserGood, `, "allocation": {"action": "partial_switch", "type": "amount", "value": 19.99}`)).data(t)
		f.waitJobs(tokenID, 2)

		res := f.get("/v1/link_tokens/" + tokenID + "/jobs")
		if res.status != 200 || !strings.HasPrefix(strings.TrimSpace(string(res.raw)), "[") {
			t.Fatalf("%d %s", res.status, res.raw)
		}
		var jobs []map[string]any
		if err := json.Unmarshal(res.raw, &jobs); err != nil || len(jobs) != 2 {
			t.Fatalf("jobs %s: %v", res.raw, err)
		}
		byName := map[string]map[string]any{}
		for _, j := range jobs {
			byName[j["name"].(string)] = j
			if j["outcome"] != "success" || j["link_token_id"] != tokenID || j["error_code"] != nil || j["error_type"] != nil {
				t.Errorf("job %v", j)
			}
		}
		if params := byName["direct_deposit_switch"]["params"].(map[string]any); params["amount"] != float64(1999) {
			t.Errorf("switch params %v, want amount 1999 cents", params)
		}
		if params := byName["paystubs"]["params"].(map[string]any); params["amount"] != nil {
			t.Errorf("paystubs params %v, want amount null", params)
		}
		if res.header.Get("Deprecation") != "@1700611200" ||
			res.header.Get("Link") != `</v1/jobs?link_token_id=`+tokenID+`>; rel="successor-version"` {
			t.Errorf("headers %v", res.header)
		}
		// The current API says the same jobs, in its own shape.
		if current := f.get("/v1/jobs?link_token_id=" + tokenID).list(t); len(current) != 2 || current[0]["params"].(map[string]any)["amount"] != nil {
			t.Errorf("GET /v1/jobs %v", current)
		}

		f.get("/v1/link_tokens/"+domain.NewID()+"/jobs").wantError(t, http.StatusNotFound, "RECORD_NOT_FOUND", domain.CodeLinkTokenNotFound)
		f.get("/v1/link_tokens/nope/jobs").wantError(t, http.StatusBadRequest, typeInvalid, domain.CodeInvalidFields)
		other, err := f.keys.CreateKey(t.Context(), "globex", domain.ModeSandbox)
		if err != nil {
			t.Fatal(err)
		}
		f.get("/v1/link_tokens/"+tokenID+"/jobs", "x-api-secret", other.Secret).wantError(t, http.StatusNotFound, "RECORD_NOT_FOUND", domain.CodeLinkTokenNotFound)
	})
}
