package reports_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"payline/domain"
	"payline/reports"
)

// TestDocumentSources: a sandbox account's paystubs, uploaded as
// documents, give the VOIE the same annual incomes and paystubs as the
// account itself (one code computes both), under a documents source; a
// suspected upload is left out and named.
func TestDocumentSources(t *testing.T) {
	payroll := goldenSources()[0]
	stubs := payroll.Paystubs[len(payroll.Paystubs)-6:]
	docs := docRecords(t)
	sources, excluded, updated := reports.WithDocuments(nil, time.Time{}, docs)
	if len(sources) != 1 || len(sources[0].Paystubs) != 5 || !updated.Equal(goldenNow) {
		t.Fatalf("%d sources, updated %v", len(sources), updated)
	}
	if len(excluded) != 1 || excluded[0].DocumentID != "doc-0" || excluded[0].Reason != domain.ExcludedSuspected {
		t.Errorf("excluded %+v", excluded)
	}
	fromDocs := reports.Assemble(domain.ReportVOIE, "r", sources, updated, goldenNow, excluded...)
	// A paystub read from a file carries no reimbursements (the reader's
	// contract has none): the payroll figures without them are the same.
	payroll.Paystubs, payroll.W2s = nil, nil // no W-2 was uploaded
	for _, p := range stubs[1:] {
		p.TotalReimbursements = domain.USD(0)
		payroll.Paystubs = append(payroll.Paystubs, p)
	}
	fromPayroll := reports.Assemble(domain.ReportVOIE, "r", []reports.Source{payroll}, updated, goldenNow)
	e := fromDocs.Employments[0]
	if e.Source.Type != domain.SourceDocuments || len(e.Source.DocumentIDs) != 5 || e.Source.Notice == "" || e.AccountID != "" {
		t.Errorf("source %+v, account %q", e.Source, e.AccountID)
	}
	if diff := cmp.Diff(fromPayroll.Employments[0].Income.AnnualIncomes, e.Income.AnnualIncomes); diff != "" {
		t.Errorf("annual incomes from documents differ from payroll's (-payroll +documents):\n%s", diff)
	}
	if got, want := e.Income.Paystubs[0].GrossPayAmount, fromPayroll.Employments[0].Income.Paystubs[0].GrossPayAmount; got != want {
		t.Errorf("latest paystub's gross %v, payroll's %v", got, want)
	}
	// Every page's footer says where the figures come from: the uploaded
	// paystubs alone, or both sources beside each other.
	pdf, err := reports.RenderVerification(fromDocs, sources)
	if err != nil {
		t.Fatal(err)
	}
	text := oneLine(textOf(t, pdf))
	if !strings.Contains(text, "Figures are as read from paystubs the end user uploaded, not confirmed with the employer") ||
		strings.Contains(text, "as reported by the payroll platforms") {
		t.Errorf("a report from documents alone: its footer does not say the figures were read from uploads:\n%s", text)
	}
	both := append([]reports.Source{goldenSources()[0]}, sources...)
	pdf, err = reports.RenderVerification(reports.Assemble(domain.ReportVOIE, "r", both, updated, goldenNow), both)
	if err != nil {
		t.Fatal(err)
	}
	if text := oneLine(textOf(t, pdf)); !strings.Contains(text, "as reported by the payroll platforms named or read from paystubs the end user uploaded (not confirmed with the employer;") {
		t.Errorf("a report from both sources: its footer names only one:\n%s", text)
	}
}

// oneLine is text with every run of white space one space.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }

// docRecords are the golden current account's last six paystubs as
// uploaded documents, as a reader would have read them; the first is
// suspected.
func docRecords(t *testing.T) []domain.Record {
	t.Helper()
	stubs := goldenSources()[0].Paystubs
	stubs = stubs[len(stubs)-6:]
	var docs []domain.Record
	for i, p := range stubs {
		cents := func(m domain.Money) *int64 { return &m.Amount }
		read := domain.ReadPaystub{DocumentType: domain.DocumentPaystub, EmployerName: p.EmployerName, PayDate: p.PayDate.String(),
			PayPeriodStart: p.PayPeriodStart.String(), PayPeriodEnd: p.PayPeriodEnd.String(), GrossPayAmount: cents(p.GrossPayAmount),
			NetPayAmount: cents(p.NetPayAmount), GrossPayYTD: cents(p.GrossPayYTD), NetPayYTD: cents(p.NetPayYTD),
			TotalTaxes: cents(p.TotalTaxes), TotalDeductions: cents(p.TotalDeductions),
			Earnings: p.Earnings, Taxes: p.Taxes, Deductions: p.Deductions, Currency: "USD"}
		fraud := domain.DocumentFraud{Status: domain.FraudNotSuspected}
		if i == 0 {
			fraud = domain.DocumentFraud{Status: domain.FraudSuspected, Reasons: []domain.FraudReason{{Code: domain.FraudFiguresReused, Message: "m"}}}
		}
		docs = append(docs, domain.Record{ID: fmt.Sprintf("doc-%d", i), Kind: domain.RecordDocument, EndUserID: "golden-user",
			DocumentType: domain.DocumentPaystub, CreatedAt: goldenNow,
			Document: &domain.DocumentBody{DocumentType: domain.DocumentPaystub, ParsedData: domain.ParsedDocument{Paystub: &read}, Fraud: fraud}})
	}
	return docs
}

// TestDataVersionOfUploads: a report is rebuilt when what it reads of the
// uploads changes (a new W-2, a person's review of a stub), and not for
// documents it does not read (a direct deposit form, a platform's W-2),
// whichever path read them.
func TestDataVersionOfUploads(t *testing.T) {
	docs := goldenUploads()
	base := reports.DataVersion(domain.ReportVOIE, nil, docs)
	accountID := "0195f0a0-0000-7000-8000-000000000001"
	form := domain.Record{ID: "form", Kind: domain.RecordDocument, DocumentType: domain.DocumentDepositForm,
		Document: &domain.DocumentBody{DocumentType: domain.DocumentDepositForm, AccountID: &accountID}}
	platformW2 := uploadedW2("platform-w2", "2025", "Sycamore Publishing Inc", "", cents(1), cents(1))
	platformW2.Document.AccountID = &accountID
	if v := reports.DataVersion(domain.ReportVOIE, nil, append(slices.Clone(docs), form, platformW2)); v != base {
		t.Errorf("a deposit form and a platform's W-2 changed the data version")
	}
	reversed := slices.Clone(docs)
	slices.Reverse(reversed)
	if reports.DataVersion(domain.ReportVOIE, nil, reversed) != base {
		t.Errorf("the order the documents were read in changed the data version")
	}
	if reports.DataVersion(domain.ReportVOIE, nil, docs[:len(docs)-1]) == base {
		t.Errorf("an uploaded W-2 left the data version as it was")
	}
	reviewedDocs := slices.Clone(docs)
	body := *reviewedDocs[1].Document
	body.Review = reviewed(domain.ReviewAccepted)
	reviewedDocs[1].Document = &body
	if reports.DataVersion(domain.ReportVOIE, nil, reviewedDocs) == base {
		t.Errorf("a reviewer's acceptance left the data version as it was: the report would not count the stub")
	}
}
