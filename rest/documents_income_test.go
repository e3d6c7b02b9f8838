package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"payline/domain"
	"payline/domain/sandbox"
	"payline/reports"
	"payline/storage"
	"payline/storage/storagetest"
)

// documentStubs are an end user's last four paystubs of one employer, as
// Payline renders them, and a forged fifth: the fourth's figures under
// the next pay date.
func documentStubs(t *testing.T) ([]domain.Paystub, domain.Paystub, []uploadFile) {
	t.Helper()
	a := domain.Account{ID: "0195f0a0-0000-7000-8000-0000000000ab", CustomerID: "c", EndUserID: "u", EmployerName: "Sycamore Publishing Inc"}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	all := sandbox.NewPerson(a).Paystubs(now.AddDate(0, -4, 0), now, now)
	stubs := all[len(all)-4:]
	last := stubs[len(stubs)-1]
	gap := last.PayDateTime().Sub(stubs[len(stubs)-2].PayDateTime())
	shift := func(d domain.Date) domain.Date { return domain.Date(d.Time().Add(gap).Format(time.DateOnly)) }
	forged := last
	forged.ID, forged.PayDate, forged.PayPeriodStart, forged.PayPeriodEnd = "forged", shift(last.PayDate), shift(last.PayPeriodStart), shift(last.PayPeriodEnd)
	var files []uploadFile
	for i, p := range append(slices.Clone(stubs), forged) {
		pdf, err := reports.RenderPaystub(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, uploadFile{fmt.Sprintf("stub-%d.pdf", i+1), pdf})
	}
	return stubs, forged, files
}

// TestDocumentsToVOIE is issue 40's end-to-end test on both databases: an
// end user who cannot log in previews (the forged one as any other) and
// uploads four paystubs of Payline's layout and a forged fifth through
// Link; each one's figures
// are in parsed_data to the cent, the forged one is suspected with the
// reason FIGURES_REUSED, every document has its documents.parsed event,
// and the VOIE is built from the four valid ones, as an employment whose
// source is those documents, naming the forged one as left out. Once the
// end user also connects a payroll account, the VOIE mixes both sources.
func TestDocumentsToVOIE(t *testing.T) {
	stubs, forged, files := documentStubs(t)
	payroll := switchPlatform(t)
	storagetest.Dialects(t, storagetest.Seeded, func(t *testing.T, db *storage.DB) {
		f := newFixture(t, db)
		f.get("/v1/end_users/doc-only/verification_reports/voie").wantError(t, 404, "RECORD_NOT_FOUND", domain.CodeEndUserNotFound)
		_, token := f.createToken(`{"org_name": "Acme Bank", "end_user_id": "doc-only", "required_jobs": ["paystubs"]}`)

		status, preview := f.uploadTo("uploads/preview", token, "paystub", files...)
		if status != 200 {
			t.Fatalf("preview: %d %v", status, preview)
		}
		shown := preview["files"].([]any)
		for i, s := range shown {
			file := s.(map[string]any)
			if file["read"] != true || file["name"] != files[i].name {
				t.Errorf("preview of %s: %v", files[i].name, file)
			}
		}
		// The forged fifth previews as the honest first does: the preview
		// is no oracle for the forgery checks, which run on upload.
		if first, fifth := shown[0].(map[string]any), shown[4].(map[string]any); first["net_pay"] != stubs[0].NetPayAmount.Formatted() ||
			first["note"] != fifth["note"] {
			t.Errorf("previews: %v and %v", first, fifth)
		}
		if n := f.countEvents("documents.added"); n != 0 {
			t.Fatalf("the preview stored %d documents", n)
		}

		if status, out := f.upload(token, "paystub", files...); status != 200 || out["submitted"] != float64(5) {
			t.Fatalf("upload: %d %v", status, out)
		}
		docs := f.get("/v1/end_users/doc-only/documents").list(t)
		byName := map[string]map[string]any{}
		for _, d := range docs {
			byName[d["file_name"].(string)] = d
		}
		var validIDs []string
		for i, p := range append(slices.Clone(stubs), forged) {
			d := byName[files[i].name]
			pd, _ := d["parsed_data"].(map[string]any)
			for field, want := range map[string]any{"employer_name": p.EmployerName, "pay_date": p.PayDate.String(),
				"pay_period_start": p.PayPeriodStart.String(), "pay_period_end": p.PayPeriodEnd.String(),
				"gross_pay_amount": float64(p.GrossPayAmount.Amount), "net_pay_amount": float64(p.NetPayAmount.Amount),
				"gross_pay_ytd": float64(p.GrossPayYTD.Amount), "net_pay_ytd": float64(p.NetPayYTD.Amount)} {
				if pd[field] != want {
					t.Errorf("%s: parsed_data.%s = %v, want %v", files[i].name, field, pd[field], want)
				}
			}
			fraud := d["fraud"].(map[string]any)
			if i < len(stubs) {
				validIDs = append(validIDs, d["id"].(string))
				if fraud["status"] != "not_suspected" {
					t.Errorf("%s: fraud %v, want not_suspected", files[i].name, fraud)
				}
				continue
			}
			reasons, _ := fraud["reasons"].([]any)
			var codes []string
			for _, r := range reasons {
				codes = append(codes, r.(map[string]any)["code"].(string))
			}
			if fraud["status"] != "suspected" || !slices.Contains(codes, domain.FraudFiguresReused) {
				t.Errorf("the forged stub: fraud %v, want suspected with %s", fraud, domain.FraudFiguresReused)
			}
		}
		slices.Sort(validIDs)

		parsed := f.eventPayloads(domain.EventDocumentsParsed)
		if len(parsed) != 5 {
			t.Fatalf("%d documents.parsed events, want 5", len(parsed))
		}
		for _, p := range parsed {
			if p["document_id"] == byName["stub-5.pdf"]["id"] {
				if fraud := p["fraud"].(map[string]any); fraud["status"] != "suspected" || len(fraud["reasons"].([]any)) == 0 {
					t.Errorf("the forged stub's documents.parsed: %v", p)
				}
			}
			if pd, ok := p["parsed_data"].(map[string]any); !ok || pd["gross_pay_amount"] == nil {
				t.Errorf("documents.parsed without what was read: %v", p)
			}
		}

		voie := f.get("/v1/end_users/doc-only/verification_reports/voie").data(t)
		emps := voie["employments"].([]any)
		if len(emps) != 1 {
			t.Fatalf("%d employments, want 1 from the documents", len(emps))
		}
		e := emps[0].(map[string]any)
		src := e["source"].(map[string]any)
		var ids []string
		for _, id := range src["document_ids"].([]any) {
			ids = append(ids, id.(string))
		}
		if src["type"] != "documents" || strings.Join(ids, ",") != strings.Join(validIDs, ",") || !strings.Contains(src["notice"].(string), "the end user supplied as files") {
			t.Errorf("source %v, want documents %v", src, validIDs)
		}
		in := e["income"].(map[string]any)
		if in["pay_frequency"] != "weekly" {
			t.Errorf("pay_frequency %v, want weekly (the sandbox's stubs' periods are a week long)", in["pay_frequency"])
		}
		last := stubs[len(stubs)-1]
		latest := in["paystubs"].([]any)[0].(map[string]any)
		if latest["pay_date"] != last.PayDate.String() || latest["net_pay_amount"] != float64(last.NetPayAmount.Amount) {
			t.Errorf("latest paystub %v, want %s's", latest, last.PayDate)
		}
		year := in["annual_incomes"].([]any)[0].(map[string]any)
		if year["gross_pay_ytd"] != float64(last.GrossPayYTD.Amount) || year["paystub_count"] != float64(4) {
			t.Errorf("annual income %v, want the last stub's year to date %d over 4 paystubs", year, last.GrossPayYTD.Amount)
		}
		excluded := voie["excluded_documents"].([]any)
		if len(excluded) != 1 || excluded[0].(map[string]any)["document_id"] != byName["stub-5.pdf"]["id"] || excluded[0].(map[string]any)["reason"] != "suspected" {
			t.Errorf("excluded_documents %v, want the forged stub", excluded)
		}
		// What it is built from, said truthfully: uploads, no account, no
		// hire date (months null, not 0); the forged stub a point to
		// review that says what the file shows, and accuses no one.
		if text := voie["fcra_notice"].(map[string]any)["text"].(string); strings.Contains(text, "copied from your payroll account") ||
			!strings.Contains(text, "read from the paystubs you uploaded and were not confirmed with your employer") {
			t.Errorf("FCRA notice of a report from uploads: %s", text)
		}
		if c := voie["completeness"].(map[string]any); c["identity_source_account_id"] != "" || e["employment_duration_months"] != nil {
			t.Errorf("completeness %v, months %v: want no account as the identity's source, and months unknown", c, e["employment_duration_months"])
		}
		var setAside []string
		for _, fl := range voie["flags"].([]any) {
			fl := fl.(map[string]any)
			if fl["code"] == domain.FlagDocumentSetAside && fmt.Sprint(fl["document_ids"]) == fmt.Sprint([]any{byName["stub-5.pdf"]["id"]}) {
				setAside = append(setAside, fl["message"].(string))
			}
		}
		if len(setAside) != 1 || !strings.Contains(setAside[0], "set aside: ") || !strings.Contains(setAside[0], "its figures are those of another uploaded paystub under another date") ||
			strings.Contains(strings.ToLower(setAside[0]), "suspect") {
			t.Errorf("the forged stub's point to review: %v", setAside)
		}

		// Both sources: the payroll account's employment beside the
		// documents', each saying where it came from.
		account := f.connectAs("doc-only", payroll, sandbox.UserGood, reportJobs...)
		mixed := f.get("/v1/end_users/doc-only/verification_reports/voie").data(t)
		sources := map[string]string{}
		for _, e := range mixed["employments"].([]any) {
			e := e.(map[string]any)
			sources[e["source"].(map[string]any)["type"].(string)] = e["account_id"].(string)
		}
		if len(sources) != 2 || sources["payroll"] != account || sources["documents"] != "" {
			t.Errorf("mixed sources %v, want payroll (account %s) and documents", sources, account)
		}
		if text := mixed["fcra_notice"].(map[string]any)["text"].(string); !strings.Contains(text,
			"copied from your payroll account or read from the paystubs you uploaded, which were not confirmed with your employer (each employment says which)") {
			t.Errorf("FCRA notice of a report from both sources: %s", text)
		}
		if c := mixed["completeness"].(map[string]any); c["identity_source_account_id"] != account || c["identity_source_document_id"] != nil {
			t.Errorf("completeness %v: want the account as the identity's source", c)
		}
	})
}

// eventPayloads are the payloads of the fixture's events of a name.
func (f *fixture) eventPayloads(name string) []map[string]any {
	f.t.Helper()
	events, err := storage.NewTransactor(f.db, nil).ListEvents(context.Background(), f.key.Scope())
	if err != nil {
		f.t.Fatal(err)
	}
	var out []map[string]any
	for _, e := range events {
		if e.Name != name {
			continue
		}
		var p map[string]any
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
