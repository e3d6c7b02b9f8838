-- +goose Up
-- Verification reports: one per end user and type, rebuilt when the data
-- version changes. body is the report's JSON without its download link.
CREATE TABLE verification_reports (
    customer_id  TEXT NOT NULL REFERENCES customers (id),
    mode         TEXT NOT NULL,
    end_user_id  TEXT NOT NULL,
    report_type  TEXT NOT NULL,
    id           TEXT NOT NULL,
    data_version TEXT NOT NULL,
    document_id  TEXT NOT NULL,
    refreshed_at TIMESTAMPTZ NOT NULL,
    body         TEXT NOT NULL,
    PRIMARY KEY (customer_id, mode, end_user_id, report_type)
);

-- Rendered documents (reports, W-2s, direct deposit forms), fetched by id
-- through signed download links.
CREATE TABLE files (
    id           TEXT PRIMARY KEY,
    customer_id  TEXT NOT NULL REFERENCES customers (id),
    mode         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    body         BYTEA NOT NULL
);

-- +goose Down
DROP TABLE files;
DROP TABLE verification_reports;
