-- Jobs due beyond the horizon of a namespace with a cold tier. A row is a job request as the producer resolved it (id,
-- due time, every option), durable on commit; the feeder moves it into Redis before it comes within the horizon and
-- deletes it once Redis accepted it. One database may serve several namespaces.
CREATE TABLE hourglass_cold_jobs (
    namespace             TEXT        NOT NULL,
    topic                 TEXT        NOT NULL,
    id                    TEXT        NOT NULL,
    due_at                TIMESTAMPTZ NOT NULL,
    payload               BYTEA       NOT NULL,
    max_attempts          INTEGER     NOT NULL,
    lease_ms              BIGINT      NOT NULL,
    backoff               TEXT        NOT NULL,
    callback_url          TEXT,
    failure_callback_url  TEXT,
    idempotency_window_ms BIGINT      NOT NULL,
    -- At most one of the two: an absolute expiry, or one counted from the due time (kept relative, as asked).
    expires_at            TIMESTAMPTZ,
    ttl_ms                BIGINT,
    on_expiry             TEXT        NOT NULL,
    priority              INTEGER     NOT NULL DEFAULT 0,
    -- The job's own cap on one callback request, ms; null for the dispatcher's timeout.
    dispatch_deadline_ms  BIGINT,
    stored_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- Why Redis refused the job when the feeder moved it (this process's limits, an expiry before the due time); the
    -- feeder passes over such a row until a reschedule or a replacing schedule clears this.
    last_error            TEXT,
    PRIMARY KEY (namespace, topic, id)
);

-- The feeder's scan (the earliest due jobs of a namespace) and its lag (the earliest of all).
CREATE INDEX hourglass_cold_jobs_due ON hourglass_cold_jobs (namespace, due_at);
