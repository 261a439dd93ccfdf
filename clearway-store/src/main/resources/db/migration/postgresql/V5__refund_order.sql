-- After-sales refunds (issue 4, seed 004 section 6, seed 000 section 8): one row per refund a
-- merchant asked for on a BIZ_SUCCESS flow, with its own state machine. They are the only way money
-- goes back after BIZ_SUCCESS; the compensation refund of pay_flow (r_ + trade) is untouched.
CREATE TABLE refund_order (
  id                 BIGSERIAL    PRIMARY KEY,
  flow_id            BIGINT       NOT NULL REFERENCES pay_flow (id),
  seq                INT          NOT NULL CHECK (seq >= 1),
  trade_order_no     VARCHAR(96)  NOT NULL,
  refund_no          VARCHAR(120) NOT NULL,
  amount             BIGINT       NOT NULL CHECK (amount > 0),
  currency           CHAR(3)      NOT NULL,
  reason             VARCHAR(200) NOT NULL,
  requested_by       VARCHAR(64)  NOT NULL,
  idem_key           VARCHAR(255) NOT NULL,
  request_hash       CHAR(64)     NOT NULL,
  status             VARCHAR(16)  NOT NULL,
  version            BIGINT       NOT NULL DEFAULT 0,
  next_retry_time    TIMESTAMPTZ  NOT NULL,
  retry_count        INT          NOT NULL DEFAULT 0,
  last_error_code    VARCHAR(64)  NULL,
  channel_request_id VARCHAR(128) NULL,
  lease_owner        VARCHAR(96)  NULL,
  created_at         TIMESTAMPTZ  NOT NULL,
  updated_at         TIMESTAMPTZ  NOT NULL,
  CONSTRAINT uk_refund_flow_seq UNIQUE (flow_id, seq),
  CONSTRAINT uk_refund_no UNIQUE (refund_no),
  -- Deterministic: a_ + trade + _ + seq. It can never equal the compensation refund number
  -- r_ + trade (another prefix), so an after-sales refund never shares a number with it.
  CONSTRAINT ck_refund_no CHECK (refund_no = 'a_' || trade_order_no || '_' || seq),
  -- Idempotency of POST /v1/payment-flows/{id}/refunds: one refund per (merchant, key).
  CONSTRAINT uk_refund_idem UNIQUE (requested_by, idem_key),
  CONSTRAINT ck_refund_status CHECK (status IN
    ('PENDING', 'PROCESSING', 'SUCCESS', 'FAIL', 'ABNORMAL', 'CLOSED'))
);

-- The refund scanner's index: non-terminal rows only, so its size follows the unfinished work.
CREATE INDEX idx_refund_scan ON refund_order (status, next_retry_time, id)
  WHERE status IN ('PENDING', 'PROCESSING', 'ABNORMAL');

-- GET /v1/payment-flows/{id}/refunds and the sum of a flow's refunds at creation use
-- uk_refund_flow_seq (flow_id leads it); no further index.

-- Every transition, appended by the statement that moves the refund (a data-modifying CTE), and
-- the creation row in the creating transaction. No foreign key, as for pay_flow_history.
CREATE TABLE refund_order_history (
  id              BIGSERIAL    PRIMARY KEY,
  refund_id       BIGINT       NOT NULL,
  flow_id         BIGINT       NOT NULL,
  refund_no       VARCHAR(120) NOT NULL,
  from_status     VARCHAR(16)  NULL,
  to_status       VARCHAR(16)  NOT NULL,
  version         BIGINT       NOT NULL,
  trigger_source  VARCHAR(16)  NOT NULL,
  request_id      VARCHAR(128) NULL,
  result_class    VARCHAR(32)  NULL,
  error_code      VARCHAR(64)  NULL,
  elapsed_ms      BIGINT       NOT NULL DEFAULT 0,
  created_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_refund_history_refund ON refund_order_history (refund_id, id);

-- The database's half of RefundTransitions: a terminal status never changes, only the legal edges
-- are accepted, a transition bumps the version by one, identity and money are frozen, and rows are
-- never deleted.
CREATE FUNCTION refund_order_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'refund_order %: rows are never deleted', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.flow_id <> OLD.flow_id OR NEW.seq <> OLD.seq OR NEW.trade_order_no <> OLD.trade_order_no
     OR NEW.refund_no <> OLD.refund_no OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.reason <> OLD.reason
     OR NEW.requested_by <> OLD.requested_by OR NEW.idem_key <> OLD.idem_key
     OR NEW.request_hash <> OLD.request_hash OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'refund_order %: identity and amount are frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF OLD.status IN ('SUCCESS', 'FAIL', 'CLOSED') THEN
      RAISE EXCEPTION 'refund_order %: terminal status % cannot change to %',
        OLD.id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
    END IF;
    IF NOT ((OLD.status = 'PENDING' AND NEW.status IN ('PROCESSING', 'CLOSED'))
         OR (OLD.status = 'PROCESSING' AND NEW.status IN ('SUCCESS', 'FAIL', 'ABNORMAL'))
         OR (OLD.status = 'ABNORMAL' AND NEW.status IN ('SUCCESS', 'FAIL'))) THEN
      RAISE EXCEPTION 'refund_order %: illegal transition % -> %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      RAISE EXCEPTION 'refund_order %: a transition must bump the version by one', OLD.id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_refund_order_guard BEFORE UPDATE OR DELETE ON refund_order
  FOR EACH ROW EXECUTE FUNCTION refund_order_guard();
