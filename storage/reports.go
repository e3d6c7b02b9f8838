package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

func (s stores) Reports() domain.ReportStore { return s }

type reportRow struct {
	ID          string    `db:"id"`
	Version     int       `db:"version"`
	EndUserID   string    `db:"end_user_id"`
	Type        string    `db:"report_type"`
	DataVersion string    `db:"data_version"`
	DocumentID  string    `db:"document_id"`
	RefreshedAt time.Time `db:"refreshed_at"`
	Body        []byte    `db:"body"`
}

func (s stores) Report(ctx context.Context, sc domain.Scope, endUserID, reportType string) (domain.StoredReport, error) {
	var r reportRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, version, end_user_id, report_type, data_version, document_id, refreshed_at, body
		FROM verification_reports WHERE customer_id = ? AND mode = ? AND end_user_id = ? AND report_type = ?`),
		sc.CustomerID, string(sc.Mode), endUserID, reportType); err != nil {
		return domain.StoredReport{}, translate(err)
	}
	body, err := s.seal.open(r.Body, "verification_reports", sc.CustomerID, string(sc.Mode), r.EndUserID, r.Type)
	if err != nil {
		return domain.StoredReport{}, err
	}
	return storedReport(r, body)
}

func (s stores) ReportsOf(ctx context.Context, sc domain.Scope, endUserIDs []string, reportType string) (map[string]domain.StoredReport, error) {
	out := map[string]domain.StoredReport{}
	if len(endUserIDs) == 0 {
		return out, nil
	}
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND report_type = ?", sc.CustomerID, string(sc.Mode), reportType)
	if err := byIDs(&q, "end_user_id", endUserIDs); err != nil {
		return nil, err
	}
	var rows []reportRow
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT id, version, end_user_id, report_type, data_version, document_id, refreshed_at, body
		FROM verification_reports`+q.clause()), q.args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		body, err := s.seal.open(r.Body, "verification_reports", sc.CustomerID, string(sc.Mode), r.EndUserID, r.Type)
		if err != nil {
			return nil, err
		}
		if out[r.EndUserID], err = storedReport(r, body); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s stores) LockReport(ctx context.Context, sc domain.Scope, endUserID, reportType string) error {
	if s.q.DriverName() != "postgres" {
		return nil // SQLite: the write transaction already holds the database
	}
	_, err := s.q.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`,
		"verification_report/"+sc.CustomerID+"/"+string(sc.Mode)+"/"+reportType+"/"+endUserID) // PostgreSQL text holds no NUL
	return translate(err)
}

func (s stores) DocumentAnyTenant(ctx context.Context, id string) (domain.Record, domain.Scope, error) {
	var r struct {
		recordRow
		CustomerID string `db:"customer_id"`
		Mode       string `db:"mode"`
	}
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT customer_id, mode, `+recordColumns+` FROM account_records
		WHERE id = ? AND kind = ?`), id, domain.RecordDocument); err != nil {
		return domain.Record{}, domain.Scope{}, translate(err)
	}
	rec, err := s.record(r.recordRow)
	return rec, domain.Scope{CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode)}, err
}

func (s stores) FilesExist(ctx context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	q := sqlBuilder{}
	if err := byIDs(&q, "id", ids); err != nil {
		return nil, err
	}
	var found []string
	if err := sqlx.SelectContext(ctx, s.q, &found, s.q.Rebind(`SELECT id FROM files`+q.clause()), q.args...); err != nil {
		return nil, translate(err)
	}
	for _, id := range found {
		out[id] = true
	}
	return out, nil
}

// storedReport reads a report row whose body is unsealed.
func storedReport(r reportRow, body []byte) (domain.StoredReport, error) {
	out := domain.StoredReport{ID: r.ID, Version: r.Version, EndUserID: r.EndUserID, Type: r.Type, DataVersion: r.DataVersion,
		DocumentID: r.DocumentID, RefreshedAt: r.RefreshedAt.UTC()}
	if err := json.Unmarshal(body, &out.Report); err != nil {
		return domain.StoredReport{}, fmt.Errorf("%s report of %s: %w", r.Type, r.EndUserID, err)
	}
	return out, nil
}

func (s stores) PutReport(ctx context.Context, sc domain.Scope, r domain.StoredReport) error {
	plain, err := json.Marshal(r.Report)
	if err != nil {
		return err
	}
	body, err := s.seal.seal(plain, "verification_reports", sc.CustomerID, string(sc.Mode), r.EndUserID, r.Type)
	if err != nil {
		return err
	}
	version := max(r.Version, 1)
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO verification_reports
		(customer_id, mode, end_user_id, report_type, id, version, data_version, document_id, refreshed_at, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (customer_id, mode, end_user_id, report_type) DO UPDATE SET id = excluded.id, version = excluded.version,
		data_version = excluded.data_version, document_id = excluded.document_id, refreshed_at = excluded.refreshed_at, body = excluded.body`),
		sc.CustomerID, string(sc.Mode), r.EndUserID, r.Type, r.ID, version, r.DataVersion, r.DocumentID, r.RefreshedAt, body)
	if err != nil {
		return translate(err)
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO report_versions
		(customer_id, mode, end_user_id, report_type, version, document_id, refreshed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (customer_id, mode, end_user_id, report_type, version) DO NOTHING`),
		sc.CustomerID, string(sc.Mode), r.EndUserID, r.Type, version, r.DocumentID, r.RefreshedAt)
	return translate(err)
}

func (s stores) ReportVersions(ctx context.Context, sc domain.Scope, endUserIDs []string, reportType string) (map[string][]domain.ReportVersion, error) {
	out := map[string][]domain.ReportVersion{}
	if len(endUserIDs) == 0 {
		return out, nil
	}
	q := sqlBuilder{}
	q.where("customer_id = ? AND mode = ? AND report_type = ?", sc.CustomerID, string(sc.Mode), reportType)
	if err := byIDs(&q, "end_user_id", endUserIDs); err != nil {
		return nil, err
	}
	var rows []struct {
		EndUserID   string    `db:"end_user_id"`
		Version     int       `db:"version"`
		DocumentID  string    `db:"document_id"`
		RefreshedAt time.Time `db:"refreshed_at"`
	}
	if err := sqlx.SelectContext(ctx, s.q, &rows, s.q.Rebind(`SELECT end_user_id, version, document_id, refreshed_at
		FROM report_versions`+q.clause()+` ORDER BY end_user_id, version DESC`), q.args...); err != nil {
		return nil, translate(err)
	}
	for _, r := range rows {
		out[r.EndUserID] = append(out[r.EndUserID], domain.ReportVersion{Version: r.Version, DocumentID: r.DocumentID, RefreshedAt: r.RefreshedAt.UTC()})
	}
	return out, nil
}

type fileRow struct {
	ID          string    `db:"id"`
	CustomerID  string    `db:"customer_id"`
	Mode        string    `db:"mode"`
	Kind        string    `db:"kind"`
	Filename    string    `db:"filename"`
	ContentType string    `db:"content_type"`
	SHA256      string    `db:"sha256"`
	CreatedAt   time.Time `db:"created_at"`
	Body        []byte    `db:"body"`
}

func (s stores) PutFile(ctx context.Context, sc domain.Scope, f domain.File) error {
	body, err := s.seal.seal(f.Body, "files", f.ID)
	if err != nil {
		return err
	}
	_, err = s.q.ExecContext(ctx, s.q.Rebind(`INSERT INTO files (id, customer_id, mode, kind, filename, content_type, sha256, created_at, body)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
		f.ID, sc.CustomerID, string(sc.Mode), f.Kind, f.Filename, f.ContentType, f.SHA256, f.CreatedAt, body)
	return translate(err)
}

func (s stores) File(ctx context.Context, id string) (domain.File, error) {
	return s.file(ctx, id, "body")
}

func (s stores) FileInfo(ctx context.Context, id string) (domain.File, error) {
	return s.file(ctx, id, "NULL AS body")
}

func (s stores) file(ctx context.Context, id, body string) (domain.File, error) {
	var r fileRow
	if err := sqlx.GetContext(ctx, s.q, &r, s.q.Rebind(`SELECT id, customer_id, mode, kind, filename, content_type, sha256, created_at, `+body+`
		FROM files WHERE id = ?`), id); err != nil {
		return domain.File{}, translate(err)
	}
	f := domain.File{ID: r.ID, CustomerID: r.CustomerID, Mode: domain.Mode(r.Mode), Kind: r.Kind, Filename: r.Filename,
		ContentType: r.ContentType, SHA256: r.SHA256, CreatedAt: r.CreatedAt.UTC()}
	if r.Body != nil {
		b, err := s.seal.open(r.Body, "files", r.ID)
		if err != nil {
			return domain.File{}, err
		}
		f.Body = b
	}
	return f, nil
}
