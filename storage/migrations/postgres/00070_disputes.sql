-- +goose Up
-- Disputes (issue 50, item 4; docs/disputes.md): a person disputes an
-- item Payline holds about them at one customer. The clocks are columns
-- (received_at, due_at 30 or 45 days on, notice_due_at 5 business days
-- on, furnisher_notified_at when the source acknowledged, overdue_at when
-- dispute.overdue was raised) so lists and the overdue sweep read them by
-- index; body is JSON without the person's words: the item, the notice's
-- record, each step with who and when, the outcome and its reason.
-- sealed_detail holds the person's note, their document's id and any new
-- information, sealed and bound to the dispute. version counts writes: an
-- update names the version it read (domain.DisputeStore).
CREATE TABLE disputes (
    id                    TEXT PRIMARY KEY,
    customer_id           TEXT NOT NULL REFERENCES customers (id),
    mode                  TEXT NOT NULL,
    end_user_id           TEXT NOT NULL,
    status                TEXT NOT NULL,
    item_type             TEXT NOT NULL,
    account_id            TEXT,
    body                  TEXT NOT NULL,
    sealed_detail         BYTEA NOT NULL,
    received_at           TIMESTAMPTZ NOT NULL,
    due_at                TIMESTAMPTZ NOT NULL,
    notice_status         TEXT NOT NULL,
    notice_due_at         TIMESTAMPTZ NOT NULL,
    furnisher_notified_at TIMESTAMPTZ,
    overdue_at            TIMESTAMPTZ,
    resolved_at           TIMESTAMPTZ,
    updated_at            TIMESTAMPTZ NOT NULL,
    version               INTEGER NOT NULL
);
CREATE INDEX disputes_tenant ON disputes (customer_id, mode, received_at, id);
CREATE INDEX disputes_end_user ON disputes (customer_id, mode, end_user_id, received_at);
-- The overdue sweep reads unresolved disputes by due time.
CREATE INDEX disputes_due ON disputes (status, due_at);

-- +goose Down
DROP TABLE disputes;
