-- Reconciliation: the runs of each (account, statement day), the differences they found with both
-- sides' evidence and their state history, and each payment's settlement status, which only
-- reconciliation writes and which is kept apart from pay_flow (a later statement may change it; the
-- flow's own history is never touched).

-- One run of one account-day, held by a lease so that one node runs it. A RUNNING run whose lease
-- expired (a dead node) is taken over by the next start; DONE and FAILED are final.
CREATE TABLE recon_run (
  id               BIGSERIAL     PRIMARY KEY,
  account_ref      VARCHAR(128)  NOT NULL,
  statement_day    DATE          NOT NULL,
  -- The statement file in force that the run read; null when none was imported.
  file_id          BIGINT        NULL,
  status           VARCHAR(16)   NOT NULL CHECK (status IN ('RUNNING', 'DONE', 'FAILED')),
  lease_owner      VARCHAR(96)   NULL,
  lease_until      TIMESTAMPTZ   NULL,
  lines            BIGINT        NOT NULL DEFAULT 0,
  differences      BIGINT        NOT NULL DEFAULT 0,
  new_differences  BIGINT        NOT NULL DEFAULT 0,
  auto_repaired    BIGINT        NOT NULL DEFAULT 0,
  tickets          BIGINT        NOT NULL DEFAULT 0,
  error            VARCHAR(500)  NULL,
  started_at       TIMESTAMPTZ   NOT NULL,
  finished_at      TIMESTAMPTZ   NULL,
  version          BIGINT        NOT NULL DEFAULT 0,
  CONSTRAINT ck_recon_run_finished CHECK ((status = 'RUNNING') = (finished_at IS NULL)),
  CONSTRAINT ck_recon_run_error CHECK (status <> 'FAILED' OR error IS NOT NULL)
);

-- At most one RUNNING run per account-day, held by the database.
CREATE UNIQUE INDEX uk_recon_run_running ON recon_run (account_ref, statement_day)
  WHERE status = 'RUNNING';
-- The latest run of each account (and the runs of one account, newest first).
CREATE INDEX idx_recon_run_account ON recon_run (account_ref, id);

-- A run's end is final: DONE and FAILED never change, a RUNNING run only ends or changes hands,
-- the account-day and the start are frozen, every update bumps the version by one.
CREATE FUNCTION recon_run_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'recon_run %: rows are never deleted', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status IN ('DONE', 'FAILED') THEN
    RAISE EXCEPTION 'recon_run %: % is final', OLD.id, OLD.status USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.account_ref <> OLD.account_ref OR NEW.statement_day <> OLD.statement_day
     OR NEW.started_at <> OLD.started_at THEN
    RAISE EXCEPTION 'recon_run %: the account-day is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'recon_run %: an update must bump the version by one', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_recon_run_guard BEFORE UPDATE OR DELETE ON recon_run
  FOR EACH ROW EXECUTE FUNCTION recon_run_guard();

-- A difference, found once per (account, class, identity) whatever the number of runs that see it
-- again. The identity is the stable key it is about: a trade order no, a refund order no, or for a
-- statement line no local row knows, the line's own references. The evidence is the JSON of both
-- sides as they were found (the statement line's fields, the local rows' status, version and
-- amount, what the business said); it never holds a secret and is never changed.
CREATE TABLE recon_difference (
  id                 BIGSERIAL     PRIMARY KEY,
  account_ref        VARCHAR(128)  NOT NULL,
  statement_day      DATE          NOT NULL,
  -- DifferenceClass and RepairKind codes.
  kind               VARCHAR(40)   NOT NULL,
  identity           VARCHAR(400)  NOT NULL,
  trade_order_no     VARCHAR(128)  NULL,
  refund_order_no    VARCHAR(128)  NULL,
  flow_id            BIGINT        NULL,
  statement_file_id  BIGINT        NULL,
  statement_line_no  BIGINT        NULL,
  statement_amount   BIGINT        NULL,
  local_amount       BIGINT        NULL,
  currency           VARCHAR(8)    NULL,
  confidence         VARCHAR(16)   NOT NULL CHECK (confidence IN ('CONFIRMED', 'SUGGESTED', 'NONE')),
  state              VARCHAR(16)   NOT NULL
                     CHECK (state IN ('OPEN', 'AUTO_REPAIRING', 'NEEDS_PERSON', 'RESOLVED')),
  repair_kind        VARCHAR(32)   NOT NULL,
  detail             VARCHAR(500)  NOT NULL,
  must_confirm       VARCHAR(300)  NOT NULL,
  evidence           TEXT          NOT NULL,
  actionable_at      TIMESTAMPTZ   NOT NULL,
  lease_owner        VARCHAR(96)   NULL,
  lease_until        TIMESTAMPTZ   NULL,
  -- The run that found it first, and the latest run that saw it again.
  run_id             BIGINT        NOT NULL,
  last_run_id        BIGINT        NOT NULL,
  version            BIGINT        NOT NULL DEFAULT 0,
  created_at         TIMESTAMPTZ   NOT NULL,
  updated_at         TIMESTAMPTZ   NOT NULL,
  CONSTRAINT uk_recon_difference UNIQUE (account_ref, kind, identity)
);

-- The repair pass's index: only the differences it may still act on, in due order.
CREATE INDEX idx_recon_difference_due ON recon_difference (actionable_at, id)
  WHERE state IN ('OPEN', 'AUTO_REPAIRING');
-- Differences by state and class (the console, /ops/reconciliation, the metrics), newest first.
CREATE INDEX idx_recon_difference_state ON recon_difference (state, kind, id);
-- The differences of one payment.
CREATE INDEX idx_recon_difference_trade ON recon_difference (trade_order_no)
  WHERE trade_order_no IS NOT NULL;

-- Every state move, written in the move's transaction; the creation is version 0 (from null).
CREATE TABLE recon_difference_history (
  id             BIGSERIAL     PRIMARY KEY,
  difference_id  BIGINT        NOT NULL,
  version        BIGINT        NOT NULL,
  from_state     VARCHAR(16)   NULL,
  to_state       VARCHAR(16)   NOT NULL,
  actor          VARCHAR(96)   NOT NULL,
  detail         VARCHAR(500)  NULL,
  at             TIMESTAMPTZ   NOT NULL,
  CONSTRAINT uk_recon_difference_history UNIQUE (difference_id, version)
);

-- The database's half of DifferenceState: RESOLVED is final, only the legal edges are accepted
-- (OPEN -> AUTO_REPAIRING | NEEDS_PERSON | RESOLVED, AUTO_REPAIRING -> RESOLVED | NEEDS_PERSON,
-- NEEDS_PERSON -> RESOLVED), what was found and its evidence are frozen, every update bumps the
-- version by one, and rows are never deleted.
CREATE FUNCTION recon_difference_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'recon_difference %: rows are never deleted', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.state = 'RESOLVED' THEN
    RAISE EXCEPTION 'recon_difference %: RESOLVED is final', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.account_ref <> OLD.account_ref OR NEW.statement_day <> OLD.statement_day
     OR NEW.kind <> OLD.kind OR NEW.identity <> OLD.identity
     OR NEW.trade_order_no IS DISTINCT FROM OLD.trade_order_no
     OR NEW.refund_order_no IS DISTINCT FROM OLD.refund_order_no
     OR NEW.flow_id IS DISTINCT FROM OLD.flow_id
     OR NEW.statement_file_id IS DISTINCT FROM OLD.statement_file_id
     OR NEW.statement_line_no IS DISTINCT FROM OLD.statement_line_no
     OR NEW.statement_amount IS DISTINCT FROM OLD.statement_amount
     OR NEW.local_amount IS DISTINCT FROM OLD.local_amount
     OR NEW.currency IS DISTINCT FROM OLD.currency
     OR NEW.confidence <> OLD.confidence OR NEW.repair_kind <> OLD.repair_kind
     OR NEW.must_confirm <> OLD.must_confirm OR NEW.evidence <> OLD.evidence
     OR NEW.run_id <> OLD.run_id OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'recon_difference %: what was found is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.state IS DISTINCT FROM OLD.state THEN
    IF NOT ((OLD.state = 'OPEN' AND NEW.state IN ('AUTO_REPAIRING', 'NEEDS_PERSON', 'RESOLVED'))
         OR (OLD.state = 'AUTO_REPAIRING' AND NEW.state IN ('RESOLVED', 'NEEDS_PERSON'))
         OR (OLD.state = 'NEEDS_PERSON' AND NEW.state = 'RESOLVED')) THEN
      RAISE EXCEPTION 'recon_difference %: illegal move % -> %', OLD.id, OLD.state, NEW.state
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'recon_difference %: an update must bump the version by one', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_recon_difference_guard BEFORE UPDATE OR DELETE ON recon_difference
  FOR EACH ROW EXECUTE FUNCTION recon_difference_guard();

-- The settlement status of each payment (by trade order no): UNSETTLED until its charge is on a
-- statement, SETTLED when it agrees, MISMATCH with the difference that says why. Written only by
-- reconciliation, only when the status changes, each change with its history row.
CREATE TABLE payment_settlement (
  trade_order_no     VARCHAR(128)  PRIMARY KEY,
  status             VARCHAR(16)   NOT NULL CHECK (status IN ('UNSETTLED', 'SETTLED', 'MISMATCH')),
  difference_id      BIGINT        NULL,
  statement_file_id  BIGINT        NULL,
  statement_line_no  BIGINT        NULL,
  version            BIGINT        NOT NULL DEFAULT 0,
  updated_at         TIMESTAMPTZ   NOT NULL
);

CREATE TABLE payment_settlement_history (
  id                 BIGSERIAL     PRIMARY KEY,
  trade_order_no     VARCHAR(128)  NOT NULL,
  version            BIGINT        NOT NULL,
  from_status        VARCHAR(16)   NULL,
  to_status          VARCHAR(16)   NOT NULL,
  difference_id      BIGINT        NULL,
  statement_file_id  BIGINT        NULL,
  statement_line_no  BIGINT        NULL,
  at                 TIMESTAMPTZ   NOT NULL,
  CONSTRAINT uk_payment_settlement_history UNIQUE (trade_order_no, version)
);

-- The settlement history is append-only.
CREATE FUNCTION payment_settlement_history_guard() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'payment_settlement_history is append-only' USING ERRCODE = 'check_violation';
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_payment_settlement_history_guard
  BEFORE UPDATE OR DELETE ON payment_settlement_history
  FOR EACH ROW EXECUTE FUNCTION payment_settlement_history_guard();

-- The lookups of matching, one indexed read each: statement lines by attempt key and by refund
-- order no (by trade order no exists since V19), attempts by the key the PSP echoes.
CREATE INDEX statement_line_attempt ON statement_line (attempt_key) WHERE attempt_key IS NOT NULL;
CREATE INDEX statement_line_refund ON statement_line (refund_order_no)
  WHERE refund_order_no IS NOT NULL;
CREATE INDEX idx_attempt_provider_key ON payment_attempt (provider_idempotency_key);

-- The local side of one account-day, read by charge time: an attempt's SUCCEEDED is final, so its
-- updated_at is when it was charged; a flow paid without the channel layer was charged when it
-- entered PAYED (its history row); a refund order's SUCCESS is final, so its updated_at is when the
-- money went back. Partial: only those rows.
CREATE INDEX idx_attempt_succeeded ON payment_attempt (channel_account_id, updated_at)
  WHERE status = 'SUCCEEDED';
CREATE INDEX idx_history_payed ON pay_flow_history (created_at) WHERE to_status = 'PAYED';
CREATE INDEX idx_refund_succeeded ON refund_order (updated_at) WHERE status = 'SUCCESS';
