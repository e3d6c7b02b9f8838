package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"payline/domain"
)

// DirectoryStore implements domain.DirectoryStore. The directory is
// reference data shared by every tenant, so its methods take no scope.
type DirectoryStore struct{ db *DB }

// NewDirectoryStore returns the directory store of db.
func NewDirectoryStore(db *DB) *DirectoryStore { return &DirectoryStore{db: db} }

// limitsRow holds the switch-limit columns employers and platforms share.
type limitsRow struct {
	SupportedJobs             string `db:"supported_jobs"`
	AmountSupported           bool   `db:"amount_supported"`
	FractionalAmountSupported bool   `db:"fractional_amount_supported"`
	MinAmount                 *int64 `db:"min_amount"`
	MaxAmount                 *int64 `db:"max_amount"`
	PercentageSupported       bool   `db:"percentage_supported"`
	MinPercentage             int    `db:"min_percentage"`
	MaxPercentage             int    `db:"max_percentage"`
}

const limitsColumns = `supported_jobs, amount_supported, fractional_amount_supported, min_amount, max_amount,
	percentage_supported, min_percentage, max_percentage`

func (r limitsRow) domain(decodeJobs bool) ([]domain.JobType, domain.SwitchLimits, error) {
	var jobs []domain.JobType
	if decodeJobs {
		if err := json.Unmarshal([]byte(r.SupportedJobs), &jobs); err != nil {
			return nil, domain.SwitchLimits{}, fmt.Errorf("supported_jobs column: %w", err)
		}
	}
	return jobs, domain.SwitchLimits{
		AmountSupported: r.AmountSupported, FractionalAmountSupported: r.FractionalAmountSupported,
		MinAmount: r.MinAmount, MaxAmount: r.MaxAmount, PercentageSupported: r.PercentageSupported,
		MinPercentage: r.MinPercentage, MaxPercentage: r.MaxPercentage,
	}, nil
}

func limitsValues(jobs []domain.JobType, l domain.SwitchLimits) []any {
	if jobs == nil {
		jobs = []domain.JobType{}
	}
	j, _ := json.Marshal(jobs) // a slice of strings always marshals
	return []any{string(j), l.AmountSupported, l.FractionalAmountSupported, l.MinAmount, l.MaxAmount,
		l.PercentageSupported, l.MinPercentage, l.MaxPercentage}
}

type employerRow struct {
	ID          string    `db:"id"`
	Name        string    `db:"name"`
	EIN         *string   `db:"ein"`         // null for a relayed upstream's employer
	PlatformID  *string   `db:"platform_id"` // likewise
	LastUpdated time.Time `db:"last_updated"`
	LogoURL     *string   `db:"logo_url"`
	limitsRow
}

const employerColumns = `id, name, ein, platform_id, last_updated, logo_url, ` + limitsColumns

func (r employerRow) domain() (domain.Employer, error) { return r.toDomain(true) }

// toDomain converts the row; without decodeJobs it leaves SupportedJobs
// for the caller, who has them already (employersSnapshot).
func (r employerRow) toDomain(decodeJobs bool) (domain.Employer, error) {
	jobs, lim, err := r.limitsRow.domain(decodeJobs)
	e := domain.Employer{
		ID: r.ID, Name: r.Name, EIN: deref(r.EIN), PlatformID: deref(r.PlatformID), LastUpdated: r.LastUpdated.UTC(),
		LogoURL: deref(r.LogoURL), SupportedJobs: jobs, SwitchLimits: lim,
	}
	return e, err
}

type platformRow struct {
	ID                 string    `db:"id"`
	Name               string    `db:"name"`
	DisplayName        string    `db:"display_name"`
	Type               string    `db:"type"`
	ESP                bool      `db:"esp"`
	Partnership        bool      `db:"partnership"`
	LastUpdated        time.Time `db:"last_updated"`
	LogoURL            *string   `db:"logo_url"`
	MerchantCategories string    `db:"merchant_categories"`
	MerchantCategory   *string   `db:"merchant_category"`
	limitsRow
}

const platformColumns = `id, name, display_name, type, esp, partnership, last_updated, logo_url,
	merchant_categories, merchant_category, ` + limitsColumns

func (r platformRow) domain() (domain.Platform, error) {
	jobs, lim, err := r.limitsRow.domain(true)
	if err != nil {
		return domain.Platform{}, err
	}
	p := domain.Platform{
		ID: r.ID, Name: r.Name, DisplayName: r.DisplayName, Type: domain.PlatformType(r.Type),
		ESP: r.ESP, Partnership: r.Partnership, LastUpdated: r.LastUpdated.UTC(), LogoURL: deref(r.LogoURL),
		MerchantCategory: deref(r.MerchantCategory), SupportedJobs: jobs, SwitchLimits: lim,
	}
	if err := json.Unmarshal([]byte(r.MerchantCategories), &p.MerchantCategories); err != nil {
		return domain.Platform{}, fmt.Errorf("merchant_categories column: %w", err)
	}
	return p, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ListEmployers pages employers by (name, id).
func (s *DirectoryStore) ListEmployers(ctx context.Context, f domain.EmployerFilter, p domain.PageRequest) (domain.Page[domain.Employer], error) {
	q := sqlBuilder{}
	if f.UpdatedAfter != nil {
		q.where("last_updated > ?", *f.UpdatedAfter)
	}
	return selectPage(ctx, s.db, employersByName, `SELECT `+employerColumns+` FROM employers`, q, p, employerRow.domain)
}

// Employer returns one employer by id.
func (s *DirectoryStore) Employer(ctx context.Context, id string) (domain.Employer, error) {
	return s.employerWhere(ctx, "id = ?", id)
}

// EmployersByID loads many employers in one query.
func (s *DirectoryStore) EmployersByID(ctx context.Context, ids []string) ([]domain.Employer, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query, args, err := sqlx.In(`SELECT `+employerColumns+` FROM employers WHERE id IN (?)`, ids)
	if err != nil {
		return nil, err
	}
	var rows []employerRow
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(query), args...); err != nil {
		return nil, translate(err)
	}
	return convertAll(rows, employerRow.domain)
}

// EmployerByEIN returns the employer with the EIN.
func (s *DirectoryStore) EmployerByEIN(ctx context.Context, ein string) (domain.Employer, error) {
	return s.employerWhere(ctx, "ein = ?", ein)
}

func (s *DirectoryStore) employerWhere(ctx context.Context, cond string, arg any) (domain.Employer, error) {
	var r employerRow
	if err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT `+employerColumns+` FROM employers WHERE `+cond), arg); err != nil {
		return domain.Employer{}, translate(err)
	}
	return r.domain()
}

// ListPlatforms pages platforms by (name, id).
func (s *DirectoryStore) ListPlatforms(ctx context.Context, f domain.PlatformFilter, p domain.PageRequest) (domain.Page[domain.Platform], error) {
	q := sqlBuilder{}
	if !f.IncludeESPs {
		q.where("esp = ?", false)
	}
	if f.Type != "" {
		q.where("type = ?", string(f.Type))
	}
	if f.UpdatedAfter != nil {
		q.where("last_updated > ?", *f.UpdatedAfter)
	}
	return selectPage(ctx, s.db, platformsByName, `SELECT `+platformColumns+` FROM platforms`, q, p, platformRow.domain)
}

// Platform returns one platform by id.
func (s *DirectoryStore) Platform(ctx context.Context, id string) (domain.Platform, error) {
	var r platformRow
	if err := s.db.GetContext(ctx, &r, s.db.Rebind(`SELECT `+platformColumns+` FROM platforms WHERE id = ?`), id); err != nil {
		return domain.Platform{}, translate(err)
	}
	return r.domain()
}

// PlatformsByID loads many platforms in one query.
func (s *DirectoryStore) PlatformsByID(ctx context.Context, ids []string) ([]domain.Platform, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	query, args, err := sqlx.In(`SELECT `+platformColumns+` FROM platforms WHERE id IN (?)`, ids)
	if err != nil {
		return nil, err
	}
	var rows []platformRow
	if err := s.db.SelectContext(ctx, &rows, s.db.Rebind(query), args...); err != nil {
		return nil, translate(err)
	}
	return convertAll(rows, platformRow.domain)
}

// Snapshot reads the whole directory.
func (s *DirectoryStore) Snapshot(ctx context.Context) ([]domain.Employer, []domain.Platform, error) {
	var prow []platformRow
	if err := s.db.SelectContext(ctx, &prow, `SELECT `+platformColumns+` FROM platforms ORDER BY id`); err != nil {
		return nil, nil, translate(err)
	}
	platforms, err := convertAll(prow, platformRow.domain)
	if err != nil {
		return nil, nil, err
	}
	employers, err := s.employersSnapshot(ctx)
	return employers, platforms, err
}

// employersSnapshot reads every employer a row at a time into a slice
// sized by a count first, so the rows are never all held twice (as rows,
// then as employers), and shares what many employers have alike: one
// slice per distinct set of supported jobs and one string per platform
// id. With 50,000 employers this keeps a start's peak heap near what the
// index keeps. The shared slices are clipped (an append copies) and
// nothing changes an employer's jobs in place.
func (s *DirectoryStore) employersSnapshot(ctx context.Context) ([]domain.Employer, error) {
	var n int
	if err := s.db.GetContext(ctx, &n, `SELECT COUNT(*) FROM employers`); err != nil {
		return nil, translate(err)
	}
	rows, err := s.db.QueryxContext(ctx, `SELECT `+employerColumns+` FROM employers ORDER BY id`)
	if err != nil {
		return nil, translate(err)
	}
	defer rows.Close()
	out := make([]domain.Employer, 0, n)
	jobSets := map[string][]domain.JobType{}
	platformIDs := map[string]string{}
	for rows.Next() {
		var r employerRow
		if err := rows.StructScan(&r); err != nil {
			return nil, translate(err)
		}
		jobs, ok := jobSets[r.SupportedJobs]
		e, err := r.toDomain(!ok)
		if err != nil {
			return nil, err
		}
		if ok {
			e.SupportedJobs = jobs
		} else {
			e.SupportedJobs = slices.Clip(e.SupportedJobs)
			jobSets[r.SupportedJobs] = e.SupportedJobs
		}
		if id, ok := platformIDs[e.PlatformID]; ok {
			e.PlatformID = id
		} else {
			platformIDs[e.PlatformID] = e.PlatformID
		}
		out = append(out, e)
	}
	return out, translate(rows.Err())
}

// Revision reads the directory revision.
func (s *DirectoryStore) Revision(ctx context.Context) (int64, error) {
	var rev int64
	err := s.db.GetContext(ctx, &rev, `SELECT revision FROM directory_revision WHERE id = 1`)
	return rev, translate(err)
}

// upsertBatch rows per INSERT keeps every statement under both engines'
// bound-parameter limits.
const upsertBatch = 400

// UpsertDirectory writes platforms then employers in one transaction, in
// multi-row batches, and bumps the revision.
func (s *DirectoryStore) UpsertDirectory(ctx context.Context, platforms []domain.Platform, employers []domain.Employer) error {
	return s.db.inTx(ctx, func(ctx context.Context, tx *sqlx.Tx) error {
		pcols := strings.Split(strings.ReplaceAll(platformColumns, "\n\t", " "), ", ")
		for start := 0; start < len(platforms); start += upsertBatch {
			batch := platforms[start:min(start+upsertBatch, len(platforms))]
			var args []any
			for _, p := range batch {
				cats := p.MerchantCategories
				if cats == nil {
					cats = []string{}
				}
				c, _ := json.Marshal(cats)
				args = append(args, p.ID, p.Name, p.DisplayName, string(p.Type), p.ESP, p.Partnership, p.LastUpdated.UTC(),
					nullable(p.LogoURL), string(c), nullable(p.MerchantCategory))
				args = append(args, limitsValues(p.SupportedJobs, p.SwitchLimits)...)
			}
			if err := upsert(ctx, tx, "platforms", pcols, nil, len(batch), args); err != nil {
				return err
			}
		}
		ecols := strings.Split(strings.ReplaceAll(employerColumns, "\n\t", " "), ", ")
		for start := 0; start < len(employers); start += upsertBatch {
			batch := employers[start:min(start+upsertBatch, len(employers))]
			var args []any
			for _, e := range batch {
				args = append(args, e.ID, e.Name, nullable(e.EIN), nullable(e.PlatformID), e.LastUpdated.UTC(), nullable(e.LogoURL))
				args = append(args, limitsValues(e.SupportedJobs, e.SwitchLimits)...)
			}
			// An upstream's employer has no EIN or platform: one known here
			// stays.
			if err := upsert(ctx, tx, "employers", ecols, []string{"ein", "platform_id"}, len(batch), args); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE directory_revision SET revision = revision + 1 WHERE id = 1`); err != nil {
			return translate(err)
		}
		return notifyInvalidate(ctx, tx, s.db.Dialect, "directory")
	})
}

// upsert writes n rows of cols (the first being the id) into table,
// updating every other column of rows that already exist; a column of
// keep keeps its value where the new row's is null.
func upsert(ctx context.Context, tx *sqlx.Tx, table string, cols, keep []string, n int, args []any) error {
	for i := range cols {
		cols[i] = strings.TrimSpace(cols[i])
	}
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	values := strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
	sets := make([]string, 0, len(cols)-1)
	for _, c := range cols[1:] {
		if slices.Contains(keep, c) {
			sets = append(sets, c+" = COALESCE(excluded."+c+", "+table+"."+c+")")
		} else {
			sets = append(sets, c+" = excluded."+c)
		}
	}
	query := "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES " + values +
		" ON CONFLICT (" + cols[0] + ") DO UPDATE SET " + strings.Join(sets, ", ")
	_, err := tx.ExecContext(ctx, tx.Rebind(query), args...)
	return translate(err)
}

func convertAll[R, T any](rows []R, conv func(R) (T, error)) ([]T, error) {
	out := make([]T, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = conv(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sqlBuilder accumulates AND-ed WHERE conditions and their arguments.
type sqlBuilder struct {
	conds []string
	args  []any
}

func (b *sqlBuilder) where(cond string, args ...any) {
	b.conds = append(b.conds, cond)
	b.args = append(b.args, args...)
}

func (b *sqlBuilder) clause() string {
	if len(b.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(b.conds, " AND ")
}
