-- The payment flow: one row per attempt of a business goal (seed 000 section 2).
CREATE TABLE pay_flow (
  id                 BIGSERIAL    PRIMARY KEY,
  user_id            BIGINT       NOT NULL,
  scene              VARCHAR(32)  NOT NULL,
  biz_key            VARCHAR(160) NOT NULL,
  attempt_no         INT          NOT NULL CHECK (attempt_no >= 1),
  channel            VARCHAR(32)  NOT NULL DEFAULT 'wallet',
  trade_order_no     VARCHAR(96)  NULL,
  refund_order_no    VARCHAR(96)  NULL,
  status             VARCHAR(24)  NOT NULL,
  version            BIGINT       NOT NULL DEFAULT 0,
  amount             BIGINT       NOT NULL CHECK (amount > 0),
  currency           CHAR(3)      NOT NULL,
  biz_deadline_time  TIMESTAMPTZ  NOT NULL,
  next_retry_time    TIMESTAMPTZ  NOT NULL,
  retry_count        INT          NOT NULL DEFAULT 0,
  last_error_code    VARCHAR(64)  NULL,
  channel_request_id VARCHAR(128) NULL,
  review_state       VARCHAR(16)  NOT NULL DEFAULT 'NONE',
  review_reason      VARCHAR(160) NULL,
  lease_owner        VARCHAR(96)  NULL,
  created_at         TIMESTAMPTZ  NOT NULL,
  updated_at         TIMESTAMPTZ  NOT NULL,
  CONSTRAINT uk_trade_order_no UNIQUE (trade_order_no),
  -- The compensation refund number is derived from the trade number; with uk_trade_order_no this
  -- makes it unique too, without a sixth index to maintain on every transition.
  CONSTRAINT ck_refund_order_no CHECK (refund_order_no = 'r_' || trade_order_no),
  CONSTRAINT uk_biz_attempt UNIQUE (user_id, scene, biz_key, attempt_no),
  CONSTRAINT ck_status CHECK (status IN
    ('WAIT_PAY','PAYING','PAY_FAIL','PAYED','BIZ_SUCCESS','REFUNDING','REFUNDED','CLOSED')),
  CONSTRAINT ck_review CHECK (review_state IN ('NONE','ESCALATED','FROZEN'))
);

-- At most one attempt of a goal that has not definitely failed: a new attempt is possible only
-- after PAY_FAIL or CLOSED. This is the database's half of "no two live attempts".
CREATE UNIQUE INDEX uk_live_attempt ON pay_flow (user_id, scene, biz_key)
  WHERE status NOT IN ('PAY_FAIL', 'CLOSED');

-- The scanner's index: (status, next_retry_time, id) over non-terminal, non-frozen rows only, so
-- its size follows the unfinished work and not the table.
CREATE INDEX idx_scan ON pay_flow (status, next_retry_time, id)
  WHERE status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') AND review_state <> 'FROZEN';

-- Every transition, appended in the same transaction (the same statement) as the state write.
-- No foreign key: rows are only ever written by the statement that moves their flow, and flows
-- are never deleted (see the guard trigger); the key would cost a lookup and a row lock per write.
CREATE TABLE pay_flow_history (
  id               BIGSERIAL    PRIMARY KEY,
  flow_id          BIGINT       NOT NULL,
  biz_key          VARCHAR(160) NOT NULL,
  attempt_no       INT          NOT NULL,
  trade_order_no   VARCHAR(96)  NULL,
  refund_order_no  VARCHAR(96)  NULL,
  from_status      VARCHAR(24)  NULL,
  to_status        VARCHAR(24)  NOT NULL,
  version          BIGINT       NOT NULL,
  trigger_source   VARCHAR(16)  NOT NULL,
  request_id       VARCHAR(128) NULL,
  result_class     VARCHAR(32)  NULL,
  error_code       VARCHAR(64)  NULL,
  elapsed_ms       BIGINT       NOT NULL DEFAULT 0,
  created_at       TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_history_flow ON pay_flow_history (flow_id, id);

-- The database's half of the transition table: a terminal status never changes, identity and
-- money columns are frozen, and only the legal edges are accepted.
CREATE FUNCTION pay_flow_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'pay_flow %: rows are never deleted', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.user_id <> OLD.user_id OR NEW.scene <> OLD.scene OR NEW.biz_key <> OLD.biz_key
     OR NEW.attempt_no <> OLD.attempt_no OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.biz_deadline_time <> OLD.biz_deadline_time THEN
    RAISE EXCEPTION 'pay_flow %: identity and amount are frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF (OLD.trade_order_no IS NOT NULL AND NEW.trade_order_no IS DISTINCT FROM OLD.trade_order_no)
     OR (OLD.refund_order_no IS NOT NULL AND NEW.refund_order_no IS DISTINCT FROM OLD.refund_order_no) THEN
    RAISE EXCEPTION 'pay_flow %: order numbers are frozen', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    IF OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED') THEN
      RAISE EXCEPTION 'pay_flow %: terminal status % cannot change to %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    IF NOT ((OLD.status = 'WAIT_PAY' AND NEW.status IN ('PAYING', 'CLOSED'))
         OR (OLD.status = 'PAYING' AND NEW.status IN ('PAYED', 'PAY_FAIL'))
         OR (OLD.status = 'PAYED' AND NEW.status IN ('BIZ_SUCCESS', 'REFUNDING'))
         OR (OLD.status = 'REFUNDING' AND NEW.status = 'REFUNDED')) THEN
      RAISE EXCEPTION 'pay_flow %: illegal transition % -> %', OLD.id, OLD.status, NEW.status
        USING ERRCODE = 'check_violation';
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      RAISE EXCEPTION 'pay_flow %: a transition must bump the version by one', OLD.id
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_pay_flow_guard BEFORE UPDATE OR DELETE ON pay_flow
  FOR EACH ROW EXECUTE FUNCTION pay_flow_guard();
