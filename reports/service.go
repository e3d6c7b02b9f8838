package reports

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/sync/singleflight"

	"payline/domain"
)

// formatVersion changes whenever assembly or rendering changes what a
// report holds, so stored reports are rebuilt once after an upgrade.
const formatVersion = "reports/5" // 2: annual basis, earnings by type, employer details and sources; 3: projections by type, trends, flags, consent, FCRA notice; 4: source types, employments from uploaded paystubs, excluded documents; 5: uploaded W-2s, reviews, set-aside documents and sanity doubts as points to review, provenance in the notice

// reportProducts are the products a verification report reads.
var reportProducts = []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome, domain.ProductPaystubs, domain.ProductTaxForms}

// Service builds, stores and links reports and documents; it implements
// domain.Reporter.
type Service struct {
	tx        domain.Transactor
	dir       Directory
	customers Customers
	links     *Signer
	clock     domain.Clock
	// builds lets one build of an end user's report run at a time in this
	// process; callers that arrive meanwhile share its result. Across
	// instances, LockReport and the version check in build do the same.
	builds singleflight.Group
	// disputeContact is whom a report's FCRA notice names ("" for the
	// default).
	disputeContact string
	// disputes reads the end user's open disputes, which a report notes
	// (nil: none are read).
	disputes OpenDisputes
}

// WithDisputeContact sets whom a report's Fair Credit Reporting Act notice
// tells the consumer to contact to dispute its data (the operator's
// --dispute-contact); "" keeps DefaultDisputeContact.
func (s *Service) WithDisputeContact(contact string) *Service {
	s.disputeContact = contact
	return s
}

// NewService wires the reports use cases.
func NewService(tx domain.Transactor, dir Directory, customers Customers, links *Signer, clock domain.Clock) *Service {
	return &Service{tx: tx, dir: dir, customers: customers, links: links, clock: clock}
}

// Customers names a report's requester: domain.KeyService is one; nil
// names none.
type Customers interface {
	CustomerName(ctx context.Context, id string) (string, error)
}

// Directory names a report's sources: the payroll platform each account
// was read from and its employer's EIN. domain.DirectoryService is one;
// nil names nothing.
type Directory interface {
	Platform(ctx context.Context, id string) (domain.Platform, error)
	Employer(ctx context.Context, id string) (domain.Employer, error)
}

// name fills a source's platform name and employer EIN from the
// directory; a platform or employer it lacks leaves them empty.
func (s *Service) name(ctx context.Context, src *Source) error {
	if s.dir == nil {
		return nil
	}
	notFound := func(err error) bool {
		var e *domain.Error
		return errors.As(err, &e) && (e.Kind == domain.KindNotFound || e.Kind == domain.KindInvalid)
	}
	if src.Account.PlatformID != "" {
		p, err := s.dir.Platform(ctx, src.Account.PlatformID)
		switch {
		case err == nil:
			src.PlatformName = p.Name
		case !notFound(err):
			return err
		}
	}
	if src.Account.EmployerID != "" {
		e, err := s.dir.Employer(ctx, src.Account.EmployerID)
		switch {
		case err == nil:
			src.EIN = e.EIN
		case !notFound(err):
			return err
		}
	}
	return nil
}

var _ domain.Reporter = (*Service)(nil)

// VerificationReport implements domain.Reporter. The report is rebuilt
// only when its data version (the accounts and when each of their
// products last changed) moved since it was stored; a rebuild renders the
// PDF, stores both and writes <type>_report.refreshed in one transaction.
func (s *Service) VerificationReport(ctx context.Context, sc domain.Scope, endUserID, reportType string, req domain.ReportRequest) (domain.VerificationReport, error) {
	if reportType != domain.ReportVOIE && reportType != domain.ReportVOE {
		return domain.VerificationReport{}, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "report_type: must be voie or voe, got %q", reportType)
	}
	if err := req.Check(); err != nil {
		return domain.VerificationReport{}, err
	}
	accounts, docs, err := endUserData(ctx, s.tx.Accounts(), s.tx.Records(), sc, endUserID, reportType)
	if err != nil {
		return domain.VerificationReport{}, err
	}
	open, err := s.openDisputes(ctx, sc, endUserID)
	if err != nil {
		return domain.VerificationReport{}, err
	}
	version := withDisputes(dataVersion(reportType, accounts, docs), open[endUserID])
	for attempt := 0; ; attempt++ {
		stored, err := s.tx.Reports().Report(ctx, sc, endUserID, reportType)
		switch {
		case err == nil && stored.DataVersion == version:
			r, err := s.linked(sc, stored)
			if err != nil {
				return r, err
			}
			if req.Empty() || (req.TrackingID == r.TrackingID && req.Purpose == r.Purpose) {
				return s.withVersions(ctx, sc, endUserID, r)
			}
			// The same data asked for under another tracking id or purpose:
			// a version of its own, which prints them.
		case err != nil && !errors.Is(err, domain.ErrNoRows):
			return domain.VerificationReport{}, err
		}
		id := stored.ID
		if id == "" {
			id = domain.NewID()
		}
		key := strings.Join([]string{sc.CustomerID, string(sc.Mode), endUserID, reportType, version, req.TrackingID, req.Purpose}, "\x00")
		r, err, _ := s.builds.Do(key, func() (any, error) {
			// The build outlives a caller that goes away: others share it.
			return s.build(context.WithoutCancel(ctx), sc, endUserID, reportType, id, version, stored.Version+1, req, accounts, docs, open[endUserID])
		})
		if errors.Is(err, errBuildRaced) && attempt < 3 {
			continue // another instance built a version meanwhile: build the next
		}
		if err != nil {
			return domain.VerificationReport{}, err
		}
		return s.withVersions(ctx, sc, endUserID, r.(domain.VerificationReport))
	}
}

// withVersions adds the report's earlier builds still kept, each with a
// fresh link to its own PDF.
func (s *Service) withVersions(ctx context.Context, sc domain.Scope, endUserID string, r domain.VerificationReport) (domain.VerificationReport, error) {
	all, err := s.tx.Reports().ReportVersions(ctx, sc, []string{endUserID}, r.ReportType)
	if err != nil {
		return r, err
	}
	s.addVersions(&r, all[endUserID])
	return r, nil
}

// addVersions lists the builds other than the report's own, newest first.
func (s *Service) addVersions(r *domain.VerificationReport, versions []domain.ReportVersion) {
	r.Versions = []domain.ReportVersionLink{}
	for _, v := range versions {
		if v.Version == r.Version {
			continue
		}
		built := domain.VerificationReport{ID: r.ID, Version: v.Version}
		r.Versions = append(r.Versions, domain.ReportVersionLink{Version: v.Version, Reference: built.Reference(),
			RefreshedAt: domain.Timestamp(v.RefreshedAt), Document: s.links.Link(v.DocumentID)})
	}
}

// VerificationReports implements domain.Reporter: the end users'
// accounts and stored reports in one query each, a fresh link for every
// current report, and VerificationReport for those whose data changed
// (which rebuilds them). End users without payroll data are absent.
func (s *Service) VerificationReports(ctx context.Context, sc domain.Scope, endUserIDs []string, reportType string) (map[string]domain.VerificationReport, error) {
	if reportType != domain.ReportVOIE && reportType != domain.ReportVOE {
		return nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "report_type: must be voie or voe, got %q", reportType)
	}
	pages, err := s.tx.Accounts().AccountsOfEndUsers(ctx, sc, endUserIDs, domain.PageRequest{Limit: domain.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	stored, err := s.tx.Reports().ReportsOf(ctx, sc, endUserIDs, reportType)
	if err != nil {
		return nil, err
	}
	versions, err := s.tx.Reports().ReportVersions(ctx, sc, endUserIDs, reportType)
	if err != nil {
		return nil, err
	}
	// Every document of theirs, of which a report reads the uploaded
	// paystubs and W-2s (reportDocuments), as VerificationReport does.
	docPages, err := s.tx.Records().DocumentsOfEndUsers(ctx, sc, "", endUserIDs, domain.PageRequest{Limit: domain.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	open, err := s.openDisputes(ctx, sc, endUserIDs...)
	if err != nil {
		return nil, err
	}
	out := map[string]domain.VerificationReport{}
	for _, id := range endUserIDs {
		page, docs := pages[id], docPages[id]
		uploads := reportDocuments(docs.Items)
		if len(page.Items) == 0 && len(uploads) == 0 {
			continue // no accounts and no uploads: no end user to report on
		}
		if st, ok := stored[id]; ok && page.Next == nil && docs.Next == nil && st.DataVersion == withDisputes(dataVersion(reportType, page.Items, uploads), open[id]) {
			r, err := s.linked(sc, st)
			if err != nil {
				return nil, err
			}
			s.addVersions(&r, versions[id])
			out[id] = r
			continue
		}
		r, err := s.VerificationReport(ctx, sc, id, reportType, domain.ReportRequest{})
		if domain.IsKind(err, domain.KindNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[id] = r
	}
	return out, nil
}

// DocumentLinks implements domain.Reporter: links only; a list never
// renders or stores anything (Download renders a W-2 on its first fetch).
func (s *Service) DocumentLinks(ctx context.Context, sc domain.Scope, docs []domain.Record) []domain.DocumentLink {
	out := make([]domain.DocumentLink, len(docs))
	for i, d := range docs {
		out[i] = s.links.Link(d.ID)
	}
	return out
}

// linked is a stored report as served: its JSON with a fresh link to its
// PDF.
func (s *Service) linked(sc domain.Scope, st domain.StoredReport) (domain.VerificationReport, error) {
	r := st.Report
	link := s.links.Link(st.DocumentID)
	r.Document = &link
	r.Version = max(st.Version, 1)
	return r, nil
}

// NotStored is the reference of a report rendered without being stored:
// it has no id anyone could look up, and says so where the id would be.
const NotStored = "not stored"

// Render assembles and renders an end user's report from the stored data
// without storing it or emitting events, for `payline reports render`;
// its reference reads NotStored, never a stored report's id. The render
// is audited (report.rendered). Errors: those of VerificationReport.
func (s *Service) Render(ctx context.Context, sc domain.Scope, endUserID, reportType string) (domain.VerificationReport, []byte, error) {
	if reportType != domain.ReportVOIE && reportType != domain.ReportVOE {
		return domain.VerificationReport{}, nil, domain.Errorf(domain.KindInvalid, domain.CodeInvalidFields, "report_type: must be voie or voe, got %q", reportType)
	}
	accounts, docs, err := endUserData(ctx, s.tx.Accounts(), s.tx.Records(), sc, endUserID, reportType)
	if err != nil {
		return domain.VerificationReport{}, nil, err
	}
	open, err := s.openDisputes(ctx, sc, endUserID)
	if err != nil {
		return domain.VerificationReport{}, nil, err
	}
	r, pdf, err := s.render(ctx, sc, endUserID, reportType, NotStored, 0, domain.ReportRequest{}, accounts, docs, open[endUserID])
	if err != nil {
		return r, nil, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
		return tx.Audit().AppendAudit(ctx, domain.NewAudit(ctx, sc, domain.ActorOf(ctx), domain.AuditReportRendered, endUserID+"/"+reportType, s.clock.Now()))
	})
	return r, pdf, err
}

func (s *Service) render(ctx context.Context, sc domain.Scope, endUserID, reportType, id string, build int, req domain.ReportRequest, accounts []domain.Account, docs []domain.Record, open []domain.Dispute) (domain.VerificationReport, []byte, error) {
	sources, updated, err := s.sources(ctx, sc, accounts)
	if err != nil {
		return domain.VerificationReport{}, nil, err
	}
	sources, setAside, updated := withDocuments(sources, updated, docs)
	if updated.IsZero() {
		return domain.VerificationReport{}, nil, domain.Errorf(domain.KindNotFound, domain.CodeProductNotFound,
			"end user %q has no payroll data yet: a %s report reads the identity, employment, income and paystubs jobs; ask for them in required_jobs when creating the link token",
			endUserID, strings.ToUpper(reportType))
	}
	r := Assemble(reportType, id, sources, updated, s.clock.Now(), setAside...)
	r.Version, r.TrackingID, r.Purpose = build, req.TrackingID, req.Purpose
	r.FCRANotice = NewFCRANotice(s.disputeContact, sources)
	r.Flags = append(r.Flags, disputeFlags(sources, open)...)
	if s.customers != nil {
		name, err := s.customers.CustomerName(ctx, sc.CustomerID)
		if err != nil && !errors.Is(err, domain.ErrNoRows) {
			return domain.VerificationReport{}, nil, err
		}
		r.Requester = name
	}
	pdf, err := RenderVerification(r, sources, open...)
	if err != nil {
		return domain.VerificationReport{}, nil, fmt.Errorf("render %s report: %w", reportType, err)
	}
	return r, pdf, nil
}

// errBuildRaced is a build whose version number another build took
// meanwhile (with other data): it is made again under the next number.
var errBuildRaced = errors.New("another build of the report took this version")

func (s *Service) build(ctx context.Context, sc domain.Scope, endUserID, reportType, id, version string, build int, req domain.ReportRequest, accounts []domain.Account, docs []domain.Record, open []domain.Dispute) (domain.VerificationReport, error) {
	r, pdf, err := s.render(ctx, sc, endUserID, reportType, id, build, req, accounts, docs, open)
	if err != nil {
		return domain.VerificationReport{}, err
	}
	now, updated := time.Time(r.RefreshedAt), time.Time(r.UpdatedAt)
	file := newFile(reportType, fmt.Sprintf("%s-%s-%s.pdf", reportType, safeName(endUserID), now.Format(time.DateOnly)), now, pdf)
	var current *domain.StoredReport
	err = s.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
		// One builder at a time; a report another instance stored for the
		// data as it is now stands, and this render is dropped (no second
		// PDF, no second event). The version is read again under the
		// lock: a report built from newer data than this render's is not
		// replaced by it.
		if err := tx.Reports().LockReport(ctx, sc, endUserID, reportType); err != nil {
			return err
		}
		accounts, docs, err := endUserData(ctx, tx.Accounts(), tx.Records(), sc, endUserID, reportType)
		if err != nil {
			return err
		}
		cur, err := tx.Reports().Report(ctx, sc, endUserID, reportType)
		if err == nil && cur.DataVersion == withDisputes(dataVersion(reportType, accounts, docs), open) && cur.Version >= build {
			current = &cur // another build of this data got there first
			return nil
		}
		if err != nil && !errors.Is(err, domain.ErrNoRows) {
			return err
		}
		if cur.Version != build-1 {
			return errBuildRaced // its PDF names a version that is not next
		}
		if err := tx.Reports().PutFile(ctx, sc, file); err != nil {
			return err
		}
		if err := tx.Reports().PutReport(ctx, sc, domain.StoredReport{ID: id, Version: build, EndUserID: endUserID, Type: reportType,
			DataVersion: version, DocumentID: file.ID, RefreshedAt: now, Report: r}); err != nil {
			return err
		}
		if err := tx.Audit().AppendAudit(ctx, domain.NewAudit(ctx, sc, domain.ActorOf(ctx), domain.AuditReportBuilt, file.ID, now)); err != nil {
			return err
		}
		return domain.PublishEvent(ctx, tx, sc, reportType+"_report.refreshed", now, map[string]any{
			"report_id": id, "end_user_id": endUserID, "report_type": reportType, "document_id": file.ID,
			"refreshed_at": domain.APITime(now), "updated_at": domain.APITime(updated),
		})
	})
	if err != nil {
		return domain.VerificationReport{}, err
	}
	if current != nil {
		return s.linked(sc, *current)
	}
	link := s.links.Link(file.ID)
	r.Document = &link
	return r, nil
}

// sources reads what each account has of the report's products, and when
// any of it last changed (zero when no account has any).
func (s *Service) sources(ctx context.Context, sc domain.Scope, accounts []domain.Account) ([]Source, time.Time, error) {
	var updated time.Time
	out := make([]Source, 0, len(accounts))
	for _, a := range accounts {
		src := Source{Account: a}
		if err := s.name(ctx, &src); err != nil {
			return nil, time.Time{}, err
		}
		for _, product := range []string{domain.ProductIdentity, domain.ProductEmployment, domain.ProductIncome} {
			p, err := s.tx.Data().Product(ctx, sc, a.ID, product)
			if errors.Is(err, domain.ErrNoRows) {
				continue
			}
			if err != nil {
				return nil, time.Time{}, err
			}
			src.Identity, src.Employment, src.Income = cmp.Or(p.Identity, src.Identity), cmp.Or(p.Employment, src.Employment), cmp.Or(p.Income, src.Income)
		}
		for page := (domain.PageRequest{Limit: domain.MaxPageLimit}); ; {
			stubs, err := s.tx.Data().FindPaystubs(ctx, sc, a.ID, "", page)
			if err != nil {
				return nil, time.Time{}, err
			}
			src.Paystubs = append(src.Paystubs, stubs.Items...)
			if stubs.Next == nil {
				break
			}
			page.Cursor = stubs.Next
		}
		if src.Identity == nil && src.Employment == nil && src.Income == nil && len(src.Paystubs) == 0 {
			continue // an account none of whose report jobs has run yet
		}
		if err := s.addW2s(ctx, sc, &src); err != nil {
			return nil, time.Time{}, err
		}
		for _, p := range reportProducts {
			if t := a.DataUpdatedAt[p]; t.After(updated) {
				updated = t
			}
		}
		out = append(out, src)
	}
	ids := make([]string, len(out))
	for i, src := range out {
		ids[i] = src.Account.ID
	}
	consents, err := s.tx.Accounts().Consents(ctx, sc, ids)
	if err != nil {
		return nil, time.Time{}, err
	}
	for i := range out {
		if c, ok := consents[out[i].Account.ID]; ok {
			out[i].Consent = &c
		}
	}
	return out, updated, nil
}

// dataVersion identifies what a report would be built from: the format,
// the type, each account with when each report product last changed
// (data_updated_at moves only when the data does), and the uploaded
// paystubs and W-2s with their reviews.
func dataVersion(reportType string, accounts []domain.Account, docs []domain.Record) string {
	accounts = slices.Clone(accounts)
	slices.SortFunc(accounts, func(a, b domain.Account) int { return strings.Compare(a.ID, b.ID) })
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", formatVersion, reportType)
	for _, a := range accounts {
		fmt.Fprintf(h, "%s %s", a.ID, a.EmployerName)
		for _, p := range reportProducts {
			fmt.Fprintf(h, " %s=%s", p, a.DataUpdatedAt[p].UTC().Format(time.RFC3339Nano))
		}
		h.Write([]byte{'\n'})
	}
	writeDocumentsVersion(h, docs)
	return hex.EncodeToString(h.Sum(nil))
}

// newFile wraps a rendered PDF.
func newFile(kind, name string, created time.Time, pdf []byte) domain.File {
	sum := sha256.Sum256(pdf)
	return domain.File{ID: domain.NewID(), Kind: kind, Filename: name, ContentType: "application/pdf",
		SHA256: hex.EncodeToString(sum[:]), CreatedAt: created, Body: pdf}
}

// safeName keeps the letters and digits of any script, '-', '_' and '.',
// and writes anything else (path separators, spaces, controls) as '_'.
// The download's header gives clients an ASCII form too.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}

// DocumentLink implements domain.Reporter: a fresh link, reading and
// rendering nothing, as DocumentLinks does for a list (batch reads of
// documents by id call this one per document). A W-2 is rendered from its
// parsed data on its first download; a direct deposit form was rendered
// when it was made.
func (s *Service) DocumentLink(_ context.Context, sc domain.Scope, doc domain.Record) (domain.DocumentLink, error) {
	return s.links.Link(doc.ID), nil
}

func (s *Service) renderW2(ctx context.Context, sc domain.Scope, doc domain.Record) error {
	if doc.Document == nil || doc.Document.ParsedData.W2 == nil {
		return fmt.Errorf("w2 document %s: no W-2 read", doc.ID)
	}
	w2 := *doc.Document.ParsedData.W2
	pdf, err := RenderW2(doc.ID, w2, doc.CreatedAt)
	if err != nil {
		return err
	}
	f := newFile(domain.DocumentW2, fmt.Sprintf("w2-%s-%s.pdf", w2.TaxYear, safeName(doc.EndUserID)), doc.CreatedAt, pdf)
	f.ID = doc.ID
	return s.tx.Reports().PutFile(ctx, sc, f)
}

// Download implements domain.Reporter. The link is checked before
// anything is read, so a bad one is refused alike (and as fast) whether
// or not the document exists; a good link to a document that is gone
// (retention) gets the same 403. Each download is audited.
func (s *Service) Download(ctx context.Context, id, expires, signature string) (domain.File, error) {
	if !domain.ValidID(id) {
		return domain.File{}, s.links.Check(id, "", "")
	}
	if err := s.links.Check(id, expires, signature); err != nil {
		return domain.File{}, err
	}
	f, err := s.tx.Reports().File(ctx, id)
	if errors.Is(err, domain.ErrNoRows) {
		f, err = s.firstDownload(ctx, id)
	}
	if errors.Is(err, domain.ErrNoRows) {
		return domain.File{}, s.links.Check(id, "", "")
	}
	if err != nil {
		return domain.File{}, err
	}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
		return tx.Audit().AppendAudit(ctx, domain.NewAudit(ctx, f.Scope(), "link", domain.AuditDocumentDownload, id, s.clock.Now()))
	})
	return f, err
}

// firstDownload makes the file of a W-2 whose PDF is not made yet:
// listing documents renders nothing, so its first download renders and
// stores it (once; PutFile keeps the first of two racing renders).
// ErrNoRows for any other document without a file.
func (s *Service) firstDownload(ctx context.Context, id string) (domain.File, error) {
	doc, sc, err := s.tx.Reports().DocumentAnyTenant(ctx, id)
	if err == nil && doc.DocumentType != domain.DocumentW2 {
		err = domain.ErrNoRows
	}
	if err != nil {
		return domain.File{}, err
	}
	if err := s.renderW2(ctx, sc, doc); err != nil {
		return domain.File{}, err
	}
	return s.tx.Reports().File(ctx, id)
}

// DepositForm implements domain.Reporter.
func (s *Service) DepositForm(ctx context.Context, sc domain.Scope, f domain.DepositForm) (domain.DocumentLink, error) {
	pdf, err := RenderDepositForm(f)
	if err != nil {
		return domain.DocumentLink{}, err
	}
	file := newFile(domain.DocumentDepositForm, fmt.Sprintf("direct-deposit-form-%s.pdf", f.CreatedAt.Format(time.DateOnly)), f.CreatedAt, pdf)
	file.ID = f.ID
	masked := "XXXXXX" + f.Target.LastFour
	accountID := f.AccountID
	body := &domain.DocumentBody{DocumentType: domain.DocumentDepositForm, AccountID: &accountID,
		ParsedData: domain.ParsedDocument{DepositForm: &domain.DepositFormData{DocumentType: domain.DocumentDepositForm,
			EmployeeName: f.EmployeeName, EmployerName: f.EmployerName, AccountName: f.Target.Name, AccountType: f.Target.Type,
			MaskedAccountNumber: masked, RoutingNumber: f.Target.RoutingNumber, Params: f.Params}},
		Warnings: []domain.DocumentWarning{}, Fraud: domain.DocumentFraud{Status: "not_suspected"}}
	rec := domain.Record{ID: f.ID, Kind: domain.RecordDocument, AccountID: f.AccountID, EndUserID: f.EndUserID,
		DocumentType: domain.DocumentDepositForm, SortKey: f.CreatedAt.Format(time.RFC3339Nano), CreatedAt: f.CreatedAt, Document: body}
	err = s.tx.InTx(ctx, func(ctx context.Context, tx domain.Tx) error {
		added, err := tx.Records().PutRecords(ctx, sc, []domain.Record{rec})
		if err != nil || added == 0 {
			return err // made before: nothing new
		}
		if err := tx.Reports().PutFile(ctx, sc, file); err != nil {
			return err
		}
		return domain.PublishEvent(ctx, tx, sc, "documents.added", f.CreatedAt, map[string]any{
			"document_id": f.ID, "document_type": domain.DocumentDepositForm, "end_user_id": f.EndUserID, "account_id": f.AccountID,
		})
	})
	if err != nil {
		return domain.DocumentLink{}, err
	}
	return s.links.Link(f.ID), nil
}

// addW2s reads the account's W-2s (its tax forms), by tax year.
func (s *Service) addW2s(ctx context.Context, sc domain.Scope, src *Source) error {
	pages, err := s.tx.Records().RecordsOfAccounts(ctx, sc, domain.RecordTaxForm, []string{src.Account.ID}, domain.PageRequest{Limit: domain.MaxPageLimit})
	if err != nil {
		return err
	}
	for _, r := range pages[src.Account.ID].Items {
		form := r.TaxForm
		if form == nil || domain.TaxFormType(form.FormType) != "W-2" {
			continue
		}
		if src.W2s == nil {
			src.W2s = map[string]domain.W2{}
		}
		src.W2s[form.Year] = form.ParsedData
	}
	return nil
}
