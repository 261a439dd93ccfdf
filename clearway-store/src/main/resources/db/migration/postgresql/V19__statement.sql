-- The PSPs' daily statements, imported as they were delivered. A file is one (account, day) import:
-- its SHA-256 and every raw line are kept unchanged and never updated. A newer valid file of the
-- same account and day supersedes the one in force (status SUPERSEDED, superseded_by the newer id);
-- both stay on record. A refused file (hash not the announced one, or a malformed line) is recorded
-- with the line number and reason, and none of its lines are stored.
CREATE TABLE statement_file (
  id              BIGSERIAL     PRIMARY KEY,
  account_ref     VARCHAR(128)  NOT NULL,
  statement_day   DATE          NOT NULL,
  format          VARCHAR(32)   NOT NULL,
  sha256          CHAR(64)      NOT NULL,
  expected_hash   VARCHAR(128)  NULL,
  status          VARCHAR(16)   NOT NULL CHECK (status IN ('IMPORTED', 'REFUSED', 'SUPERSEDED')),
  superseded_by   BIGINT        NULL REFERENCES statement_file (id) DEFERRABLE INITIALLY DEFERRED,
  line_count      BIGINT        NOT NULL DEFAULT 0,
  refused_reason  VARCHAR(500)  NULL,
  refused_line    BIGINT        NULL,
  imported_at     TIMESTAMPTZ   NOT NULL,
  CHECK ((status = 'SUPERSEDED') = (superseded_by IS NOT NULL)),
  CHECK ((status = 'REFUSED') = (refused_reason IS NOT NULL))
);

-- At most one file in force per account and day.
CREATE UNIQUE INDEX statement_file_in_force
  ON statement_file (account_ref, statement_day) WHERE status = 'IMPORTED';
-- Re-importing the same bytes answers the file on record.
CREATE INDEX statement_file_by_hash ON statement_file (account_ref, statement_day, sha256);

-- Every physical line of an imported file, raw text unchanged. Header and summary lines have no
-- kind; a line that records money has its parsed columns (amount and fee in minor units, the amount
-- signed as the merchant's balance moves).
CREATE TABLE statement_line (
  file_id          BIGINT        NOT NULL REFERENCES statement_file (id),
  line_no          BIGINT        NOT NULL,
  raw              TEXT          NOT NULL,
  kind             VARCHAR(16)   NULL CHECK (kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT', 'FEE')),
  trade_order_no   VARCHAR(128)  NULL,
  refund_order_no  VARCHAR(128)  NULL,
  attempt_key      VARCHAR(128)  NULL,
  psp_reference    VARCHAR(128)  NULL,
  amount           BIGINT        NULL,
  fee              BIGINT        NULL,
  currency         VARCHAR(8)    NULL,
  at               TIMESTAMPTZ   NULL,
  PRIMARY KEY (file_id, line_no)
);

CREATE INDEX statement_line_trade ON statement_line (trade_order_no) WHERE trade_order_no IS NOT NULL;
