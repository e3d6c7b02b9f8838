package rest

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/storage"
	"payline/storage/storagetest"
)

// TestReportAnalysisStored: on both databases, a VOIE built from
// accounts Link connected carries each employment's consent (when, and
// the consent text's version), the FCRA notice, the projection by type
// with its total repeated as projected_annual_income, the trends, each
// paystub split by type, and the flags: user_pay_gap raises PAY_GAP,
// user_declining DECLINING_INCOME, a user_good person none (an empty
// list); the stored report, served again without a rebuild, says the same.
func TestReportAnalysisStored(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		for _, c := range []struct {
			endUser, user string
			flags         []string
		}{
			{"analysis-gap", sandbox.UserPayGap, []string{domain.FlagPayGap}},
			{"analysis-declining", sandbox.UserDeclining, []string{domain.FlagDecliningIncome}},
			{"analysis-clean", sandbox.UserGood, []string{}},
		} {
			before := time.Now().UTC().Add(-time.Minute)
			f.connectAs(c.endUser, p, c.user, reportJobs...)
			first := f.get("/v1/end_users/" + c.endUser + "/verification_reports/voie").data(t)
			var codes []string
			for _, fl := range first["flags"].([]any) {
				fl := fl.(map[string]any)
				codes = append(codes, fl["code"].(string))
				if fl["message"] == "" || fl["employment"] == "" {
					t.Errorf("%s: flag %v", c.endUser, fl)
				}
			}
			slices.Sort(codes)
			if strings.Join(codes, ",") != strings.Join(c.flags, ",") {
				t.Errorf("%s: flags %v, want %v", c.endUser, first["flags"], c.flags)
			}
			notice := first["fcra_notice"].(map[string]any)
			if !strings.Contains(notice["text"].(string), "Fair Credit Reporting Act") || notice["dispute_contact"] == "" {
				t.Errorf("%s: notice %v", c.endUser, notice)
			}
			e := first["employments"].([]any)[0].(map[string]any)
			consent, _ := e["consent"].(map[string]any)
			given, err := time.Parse(time.RFC3339, consent["given_at"].(string))
			if consent["text_version"] != domain.ConsentTextVersion || err != nil || given.Before(before) {
				t.Errorf("%s: consent %v", c.endUser, consent)
			}
			in := e["income"].(map[string]any)
			pi := in["projected_income"].(map[string]any)
			sum := pi["base"].(float64) + pi["overtime"].(float64) + pi["bonus"].(float64) + pi["commission"].(float64)
			if pi["total"] != sum || in["projected_annual_income"] != sum || pi["basis"].(map[string]any)["base"] == "" {
				t.Errorf("%s: projected %v, annual %v", c.endUser, pi, in["projected_annual_income"])
			}
			if in["trends"].(map[string]any)["overtime"].(map[string]any)["trend"] == "" {
				t.Errorf("%s: trends %v", c.endUser, in["trends"])
			}
			for _, s := range in["paystubs"].([]any) {
				s := s.(map[string]any)
				by := s["earnings_by_type"].(map[string]any)
				if by["base"].(float64)+by["overtime"].(float64)+by["bonus"].(float64)+by["commission"].(float64)+by["other"].(float64) != s["gross_pay_amount"] {
					t.Errorf("%s: paystub %s split %v, gross %v", c.endUser, s["pay_date"], by, s["gross_pay_amount"])
				}
			}
			again := f.get("/v1/end_users/" + c.endUser + "/verification_reports/voie").data(t)
			for _, m := range []map[string]any{first, again} {
				delete(m, "document")
				delete(m, "versions")
			}
			a, _ := json.Marshal(first)
			b, _ := json.Marshal(again)
			if string(a) != string(b) {
				t.Errorf("%s: the stored report differs from the one built:\n%s\n%s", c.endUser, a, b)
			}
		}
	})
}

// TestLinkRecordsConsent: Link's session names the consent text it shows
// and a login sends it back; a version Link never showed is refused; a
// token that skips the intro (and so the consent) screen records none,
// and the report says so with a null consent.
func TestLinkRecordsConsent(t *testing.T) {
	p := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		_, token := f.createToken(`{"org_name": "Acme", "end_user_id": "consent-user", "required_jobs": ["identity"]}`)
		if status, s := f.linkAPI("GET", "session", token, ""); status != 200 || s["consent_text_version"] != domain.ConsentTextVersion {
			t.Fatalf("session %d %v", status, s)
		}
		login := `{"platform_id": "` + p.ID + `", "username": "user_good", "password": "pass_good", "consent_text_version": "%s"}`
		if status, body := f.linkAPI("POST", "login", token, strings.Replace(login, "%s", "made-up", 1)); status != 400 ||
			!strings.Contains(string(mustJSON(t, body)), "consent_text_version") {
			t.Errorf("an unknown consent text: %d %v", status, body)
		}

		tokenID, token := f.createToken(`{"org_name": "Acme", "end_user_id": "no-consent-user", "skip_intro_screen": true, "required_jobs": ["` +
			strings.Join(reportJobs, `", "`) + `"]}`)
		if status, body := f.linkAPI("POST", "login", token, strings.Replace(login, "%s", "", 1)); status != 200 {
			t.Fatalf("login %d %v", status, body)
		}
		f.waitJobs(tokenID, len(reportJobs))
		e := f.get("/v1/end_users/no-consent-user/verification_reports/voie").data(t)["employments"].([]any)[0].(map[string]any)
		if c, ok := e["consent"]; !ok || c != nil {
			t.Errorf("a token that skipped the consent screen: consent %v", c)
		}
	})
}
