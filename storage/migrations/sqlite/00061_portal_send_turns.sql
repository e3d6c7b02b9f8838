-- +goose Up
-- When the person's page last sent each kind of message (a receipt, a
-- fresh link) to an end user: one of each every two minutes, taken by one
-- conditional upsert so two requests in the same instant cannot both
-- send. sent_unix_ns is an integer so both databases compare it alike.
CREATE TABLE portal_send_turns (
    customer_id  TEXT NOT NULL,
    mode         TEXT NOT NULL,
    end_user_id  TEXT NOT NULL,
    kind         TEXT NOT NULL,
    sent_unix_ns BIGINT NOT NULL,
    PRIMARY KEY (customer_id, mode, end_user_id, kind)
);

-- +goose Down
DROP TABLE portal_send_turns;
