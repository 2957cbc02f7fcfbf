-- One row per completion event: a job that ended (acked, dead, cancelled) as the scripts recorded it. A job id can
-- end more than once (a dead letter requeued, an id scheduled again after its idempotency window), so the event's
-- own identity (topic, shard, stream entry id) is the key that makes a redelivered event upsert to the same row.
CREATE TABLE hourglass_job_history (
    seq           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic         TEXT        NOT NULL,
    shard         INTEGER     NOT NULL,
    event_id      TEXT        NOT NULL,
    job_id        TEXT        NOT NULL,
    outcome       TEXT        NOT NULL,
    attempts      INTEGER     NOT NULL,
    max_attempts  INTEGER     NOT NULL,
    due_at        TIMESTAMPTZ NOT NULL,
    completed_at  TIMESTAMPTZ NOT NULL,
    last_error    TEXT,
    callback_url  TEXT,
    payload       BYTEA,
    payload_bytes INTEGER     NOT NULL,
    CONSTRAINT hourglass_job_history_event UNIQUE (topic, shard, event_id)
);

-- "What happened to job X?"
CREATE INDEX hourglass_job_history_by_id ON hourglass_job_history (job_id);
-- A topic's history over time, newest first, paged by (completed_at, seq).
CREATE INDEX hourglass_job_history_by_topic_time ON hourglass_job_history (topic, completed_at, seq);
-- Every topic over time, and retention's deletes of the oldest rows.
CREATE INDEX hourglass_job_history_by_time ON hourglass_job_history (completed_at, seq);
-- Failures in a time range: the few rows that did not end acked.
CREATE INDEX hourglass_job_history_failures ON hourglass_job_history (completed_at, seq) WHERE outcome <> 'ACKED';
