CREATE TABLE IF NOT EXISTS meeting (
  id          VARCHAR(64)  PRIMARY KEY,
  title       VARCHAR(200) NOT NULL,
  starts_at   TIMESTAMP(3) WITH TIME ZONE NOT NULL,
  ends_at     TIMESTAMP(3) WITH TIME ZONE NOT NULL,
  status      VARCHAR(16)  NOT NULL,
  started_at  TIMESTAMP(3) WITH TIME ZONE,
  finished_at TIMESTAMP(3) WITH TIME ZONE
);

-- One row per reminder sent; the key makes a redelivered reminder job a no-op, while a moved meeting (a new start)
-- gets its own reminder.
CREATE TABLE IF NOT EXISTS reminder (
  meeting_id VARCHAR(64) NOT NULL REFERENCES meeting (id),
  starts_at  TIMESTAMP(3) WITH TIME ZONE NOT NULL,
  sent_at    TIMESTAMP(3) WITH TIME ZONE NOT NULL,
  PRIMARY KEY (meeting_id, starts_at)
);
