// Package storage implements the domain's stores with sqlx on PostgreSQL
// (lib/pq) and SQLite (modernc, the embedded default). One set of
// repositories serves both: queries are portable SQL with ? placeholders
// rebound by sqlx, and the few differences live in Dialect. Schemas are
// goose migrations, one folder per dialect, kept in step by a test; River's
// own tables are migrated alongside.
//
// Row structs with db tags stay private here; converters map them to
// domain types, and driver errors become domain.ErrNoRows or
// domain.ErrDuplicate at this boundary.
package storage
