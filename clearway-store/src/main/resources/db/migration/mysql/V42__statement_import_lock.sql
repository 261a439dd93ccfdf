-- The imports of one (account, day) run one at a time: each import transaction first writes this
-- row (INSERT ... ON DUPLICATE KEY UPDATE), whose row lock it holds until it commits or rolls back,
-- as PostgreSQL's transaction-scoped advisory lock does. The MySQL family has no lock of that
-- scope: GET_LOCK belongs to the session and would outlive a rolled-back import on a pooled
-- connection. One row per account-day ever imported; `imports` counts the attempts.
CREATE TABLE statement_import_lock (
  account_ref    VARCHAR(128)  NOT NULL,
  statement_day  DATE          NOT NULL,
  imports        BIGINT        NOT NULL DEFAULT 1,
  PRIMARY KEY (account_ref, statement_day)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
