-- Versioned recovery policies (issue 5, seed 001 section 8). A version's body never changes once
-- stored and stays loadable for ever: recovery tasks pin the version they started with. Status
-- changes are compare-and-set on row_version and commit with their audit event.
CREATE TABLE recovery_policy (
  version          TEXT         PRIMARY KEY,
  body             TEXT         NOT NULL,
  body_sha256      CHAR(64)     NOT NULL,
  status           TEXT         NOT NULL,
  rollout_percent  INT          NOT NULL DEFAULT 0,
  problems         TEXT         NULL,
  dry_run_report   TEXT         NULL,
  -- For a version that has been ACTIVE: the version ACTIVE before it, its last known good.
  previous_active  TEXT         NULL,
  created_by       VARCHAR(64)  NOT NULL,
  created_at       TIMESTAMPTZ  NOT NULL,
  updated_at       TIMESTAMPTZ  NOT NULL,
  row_version      BIGINT       NOT NULL DEFAULT 0,
  CONSTRAINT ck_policy_version CHECK (length(version) BETWEEN 1 AND 64),
  CONSTRAINT ck_policy_status CHECK (status IN ('DRAFT', 'VALIDATED', 'REJECTED', 'CANDIDATE',
                                                'ACTIVE', 'RETIRED', 'ROLLED_BACK')),
  CONSTRAINT ck_policy_percent CHECK (rollout_percent BETWEEN 0 AND 100)
);
-- At most one ACTIVE and at most one CANDIDATE version, held by the database.
CREATE UNIQUE INDEX uk_policy_live ON recovery_policy (status)
  WHERE status IN ('ACTIVE', 'CANDIDATE');

-- Who did what to which version, when and why; append-only.
CREATE TABLE recovery_policy_event (
  id       BIGSERIAL     PRIMARY KEY,
  version  TEXT          NOT NULL REFERENCES recovery_policy (version),
  action   VARCHAR(24)   NOT NULL,
  actor    VARCHAR(64)   NOT NULL,
  reason   VARCHAR(500)  NULL,
  at       TIMESTAMPTZ   NOT NULL,
  detail   VARCHAR(1000) NULL
);
CREATE INDEX idx_policy_event_version ON recovery_policy_event (version, id);
