-- +goose Up
-- Every build of a verification report is a version with its own number
-- and PDF: the current one stays in verification_reports, and every
-- build, current included, is listed here until retention drops it, so an
-- underwriter can cite and fetch the one they read.
ALTER TABLE verification_reports ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE report_versions (
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    end_user_id  TEXT NOT NULL,
    report_type  TEXT NOT NULL,
    version      INTEGER NOT NULL,
    document_id  TEXT NOT NULL,
    refreshed_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (customer_id, mode, end_user_id, report_type, version)
);
CREATE INDEX report_versions_refreshed ON report_versions (refreshed_at);
INSERT INTO report_versions (customer_id, mode, end_user_id, report_type, version, document_id, refreshed_at)
    SELECT customer_id, mode, end_user_id, report_type, 1, document_id, refreshed_at FROM verification_reports;

-- +goose Down
DROP TABLE report_versions;
ALTER TABLE verification_reports DROP COLUMN version;
