-- Late charges: a charge that lands on an order already ended without payment (PAY_FAIL, CLOSED)
-- is refunded, never revived. A suspicion is a durable row with its own state machine, one per
-- flow: written in the callback's transaction or by the sweep, claimed with a lease, asked again
-- with backoff, and ended by the wallet's own answer (no charge; a confirmed charge's LATE_CHARGE
-- refund order) or handed to a person (MANUAL) once its retry budget is spent.
CREATE TABLE late_charge_check (
  id               BIGSERIAL    PRIMARY KEY,
  flow_id          BIGINT       NOT NULL REFERENCES pay_flow (id),
  merchant_id      VARCHAR(64)  NOT NULL,
  trade_order_no   VARCHAR(96)  NOT NULL,
  source           VARCHAR(16)  NOT NULL,
  status           VARCHAR(20)  NOT NULL,
  version          BIGINT       NOT NULL DEFAULT 0,
  next_check_time  TIMESTAMPTZ  NOT NULL,
  retry_count      INT          NOT NULL DEFAULT 0,
  last_result      VARCHAR(32)  NULL,
  last_error_code  VARCHAR(64)  NULL,
  refund_id        BIGINT       NULL,
  lease_owner      VARCHAR(96)  NULL,
  created_at       TIMESTAMPTZ  NOT NULL,
  updated_at       TIMESTAMPTZ  NOT NULL,
  -- Duplicated callbacks and the sweep find the flow's existing check instead of a second one.
  CONSTRAINT uk_late_charge_flow UNIQUE (flow_id),
  CONSTRAINT ck_late_charge_source CHECK (source IN ('CALLBACK', 'SWEEP')),
  CONSTRAINT ck_late_charge_status CHECK (status IN
    ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL', 'NO_CHARGE', 'REFUND_REQUESTED', 'NOT_APPLICABLE')),
  -- refund_id names the LATE_CHARGE refund order (key late-charge-{flow_id}); no foreign key, as
  -- for the history tables: refund orders are never deleted, and the key would cost a lookup.
  CONSTRAINT ck_late_charge_refund CHECK (status <> 'REFUND_REQUESTED' OR refund_id IS NOT NULL)
);

-- The late-charge scanner's index: non-terminal rows only, so its size follows the open checks.
CREATE INDEX idx_late_charge_scan ON late_charge_check (status, next_check_time, id)
  WHERE status IN ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL');

-- The database's half of LateChargeTransitions: a terminal status never changes, only the legal
-- edges are accepted, a transition bumps the version by one, identity is frozen, a refund order
-- once recorded is never replaced, and rows are never deleted.
CREATE FUNCTION late_charge_check_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'late_charge_check %: rows are never deleted', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.flow_id <> OLD.flow_id OR NEW.trade_order_no <> OLD.trade_order_no
     OR NEW.merchant_id <> OLD.merchant_id
     OR NEW.source <> OLD.source OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'late_charge_check %: identity is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.refund_id IS NOT NULL AND NEW.refund_id IS DISTINCT FROM OLD.refund_id THEN
    RAISE EXCEPTION 'late_charge_check %: the refund order cannot change', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status IN ('NO_CHARGE', 'REFUND_REQUESTED', 'NOT_APPLICABLE') THEN
    RAISE EXCEPTION 'late_charge_check %: terminal status % cannot change', OLD.id, OLD.status
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF NOT ((OLD.status = 'PENDING'
             AND NEW.status IN ('CHARGE_CONFIRMED', 'NO_CHARGE', 'MANUAL', 'NOT_APPLICABLE'))
         OR (OLD.status = 'MANUAL'
             AND NEW.status IN ('CHARGE_CONFIRMED', 'NO_CHARGE', 'NOT_APPLICABLE'))
         OR (OLD.status = 'CHARGE_CONFIRMED'
             AND NEW.status IN ('REFUND_REQUESTED', 'MANUAL', 'NOT_APPLICABLE'))) THEN
      RAISE EXCEPTION 'late_charge_check %: illegal transition % -> %',
        OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      RAISE EXCEPTION 'late_charge_check %: a transition must bump the version by one', OLD.id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_late_charge_check_guard BEFORE UPDATE OR DELETE ON late_charge_check
  FOR EACH ROW EXECUTE FUNCTION late_charge_check_guard();

-- The sweep's memory, one row per stage (its age after the end, in milliseconds): the last ended
-- flow it queried at that stage, and the lease of the sweeper working on it. A restarted process
-- continues from here; two processes never sweep one stage at once.
CREATE TABLE late_charge_sweep (
  stage_age_ms     BIGINT       PRIMARY KEY CHECK (stage_age_ms > 0),
  cursor_ended_at  TIMESTAMPTZ  NOT NULL,
  cursor_flow_id   BIGINT       NOT NULL,
  lease_owner      VARCHAR(96)  NULL,
  lease_until      TIMESTAMPTZ  NULL,
  updated_at       TIMESTAMPTZ  NOT NULL
);

-- Flows that ended without payment, in the order they ended (updated_at is when a flow entered its
-- status; terminal rows never move again). Partial: the sweep reads only these.
CREATE INDEX idx_pay_flow_ended_unpaid ON pay_flow (updated_at, id)
  WHERE status IN ('PAY_FAIL', 'CLOSED');
