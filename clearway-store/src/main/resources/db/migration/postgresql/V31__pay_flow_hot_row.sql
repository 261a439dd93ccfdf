-- A cheaper hot row. A transition used to be a non-HOT update of the whole 24-column flow row
-- through a dozen indexes. The flow is now two tables: pay_flow_fact, the write-once facts of an
-- attempt (goal, attempt, order numbers, amount, currency, deadline, merchant), written at
-- creation and indexed for every lookup; and pay_flow_state, the narrow mutable state (status,
-- version, due time, lease, retry count, review state), whose only indexes on the way of a
-- transition are its primary key and the partial due index. The view pay_flow joins them with the
-- columns of the former table in their former order, for readers and for rare writers.

ALTER TABLE pay_flow RENAME TO pay_flow_fact;
DROP TRIGGER trg_pay_flow_guard ON pay_flow_fact;
DROP TRIGGER trg_pay_flow_cancel_guard ON pay_flow_fact;

CREATE TABLE pay_flow_state (
  id                  BIGINT       PRIMARY KEY,
  status              VARCHAR(24)  NOT NULL,
  version             BIGINT       NOT NULL DEFAULT 0,
  next_retry_time     TIMESTAMPTZ  NOT NULL,
  retry_count         INT          NOT NULL DEFAULT 0,
  last_error_code     VARCHAR(64)  NULL,
  channel_request_id  VARCHAR(128) NULL,
  review_state        VARCHAR(16)  NOT NULL DEFAULT 'NONE',
  review_reason       VARCHAR(160) NULL,
  lease_owner         VARCHAR(96)  NULL,
  updated_at          TIMESTAMPTZ  NOT NULL,
  cancel_requested_at TIMESTAMPTZ  NULL,
  CONSTRAINT ck_status CHECK (status IN
    ('WAIT_PAY','PAYING','PAY_FAIL','PAYED','BIZ_SUCCESS','REFUNDING','REFUNDED','CLOSED')),
  CONSTRAINT ck_review CHECK (review_state IN ('NONE','ESCALATED','FROZEN'))
) WITH (fillfactor = 80);

INSERT INTO pay_flow_state (id, status, version, next_retry_time, retry_count, last_error_code,
       channel_request_id, review_state, review_reason, lease_owner, updated_at,
       cancel_requested_at)
SELECT id, status, version, next_retry_time, retry_count, last_error_code, channel_request_id,
       review_state, review_reason, lease_owner, updated_at, cancel_requested_at
  FROM pay_flow_fact;

-- "At most one live attempt of a goal" needs the status, which is not a fact: the fact keeps a
-- flag, true at creation and set false once, by the database itself, when the attempt enters
-- PAY_FAIL or CLOSED (the only statuses after which a new attempt may start).
ALTER TABLE pay_flow_fact ADD COLUMN live BOOLEAN NOT NULL DEFAULT true;
UPDATE pay_flow_fact SET live = false WHERE status IN ('PAY_FAIL', 'CLOSED');

DROP INDEX uk_live_attempt;
DROP INDEX idx_scan;
DROP INDEX idx_pay_flow_archivable;
DROP INDEX idx_pay_flow_ended_unpaid;
DROP INDEX idx_pay_flow_paid_scene;
DROP INDEX idx_pay_flow_review;
DROP INDEX idx_pay_flow_review_queue;
DROP INDEX idx_pay_flow_review_merchant;
ALTER TABLE pay_flow_fact DROP CONSTRAINT ck_status, DROP CONSTRAINT ck_review,
  DROP COLUMN status, DROP COLUMN version, DROP COLUMN next_retry_time, DROP COLUMN retry_count,
  DROP COLUMN last_error_code, DROP COLUMN channel_request_id, DROP COLUMN review_state,
  DROP COLUMN review_reason, DROP COLUMN lease_owner, DROP COLUMN updated_at,
  DROP COLUMN cancel_requested_at;

CREATE UNIQUE INDEX uk_live_attempt ON pay_flow_fact (merchant_id, user_id, scene, biz_key)
  WHERE live;
ALTER TABLE pay_flow_state ADD CONSTRAINT fk_pay_flow_state_fact
  FOREIGN KEY (id) REFERENCES pay_flow_fact (id);

-- The state's indexes. Only the first two are written by a transition between open statuses; the
-- partial ones take an entry when a flow ends or is escalated.
CREATE INDEX idx_scan ON pay_flow_state (status, next_retry_time, id)
  WHERE status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') AND review_state <> 'FROZEN';
CREATE INDEX idx_pay_flow_archivable ON pay_flow_state (updated_at, id)
  WHERE status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED');
CREATE INDEX idx_pay_flow_ended_unpaid ON pay_flow_state (updated_at, id)
  WHERE status IN ('PAY_FAIL', 'CLOSED');
CREATE INDEX idx_pay_flow_review_queue ON pay_flow_state (id) WHERE review_state <> 'NONE';
-- Batch refund proposals: paid flows in id order (the merchant and scene are read from the facts).
CREATE INDEX idx_pay_flow_paid ON pay_flow_state (id) WHERE status = 'BIZ_SUCCESS';

-- The facts never change, except: order numbers are written once where missing, and live goes
-- false once, when the state has ended without payment. A fact leaves only with its state, for
-- the archive.
CREATE OR REPLACE FUNCTION pay_flow_fact_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF coalesce(current_setting('clearway.archiving', true), '') = 'on'
       AND NOT EXISTS (SELECT 1 FROM pay_flow_state WHERE id = OLD.id) THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'pay_flow %: rows are never deleted', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.scene <> OLD.scene
     OR NEW.biz_key <> OLD.biz_key OR NEW.attempt_no <> OLD.attempt_no
     OR NEW.amount <> OLD.amount OR NEW.currency <> OLD.currency
     OR NEW.biz_deadline_time <> OLD.biz_deadline_time OR NEW.channel <> OLD.channel
     OR NEW.created_at <> OLD.created_at THEN
    RAISE EXCEPTION 'pay_flow %: identity and amount are frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF (OLD.trade_order_no IS NOT NULL AND NEW.trade_order_no IS DISTINCT FROM OLD.trade_order_no)
     OR (OLD.refund_order_no IS NOT NULL AND NEW.refund_order_no IS DISTINCT FROM OLD.refund_order_no) THEN
    RAISE EXCEPTION 'pay_flow %: order numbers are frozen', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.live IS DISTINCT FROM OLD.live AND (NEW.live OR NOT EXISTS (
       SELECT 1 FROM pay_flow_state WHERE id = OLD.id AND status IN ('PAY_FAIL', 'CLOSED'))) THEN
    RAISE EXCEPTION 'pay_flow %: an attempt stops being live only by ending unpaid', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
DROP FUNCTION pay_flow_guard();

CREATE TRIGGER trg_pay_flow_fact_guard BEFORE UPDATE OR DELETE ON pay_flow_fact
  FOR EACH ROW EXECUTE FUNCTION pay_flow_fact_guard();

-- The transition table, checked only when the status changes (a claim or a reschedule pays
-- nothing): a terminal status never changes, only the legal edges, each bumping the version by one.
CREATE FUNCTION pay_flow_state_guard() RETURNS trigger AS $$
BEGIN
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
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_pay_flow_state_guard BEFORE UPDATE ON pay_flow_state
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION pay_flow_state_guard();

-- The id of a state row is its fact's and never changes.
CREATE FUNCTION pay_flow_state_id_guard() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'pay_flow %: identity and amount are frozen', OLD.id
    USING ERRCODE = 'check_violation';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER trg_pay_flow_state_id_guard BEFORE UPDATE OF id ON pay_flow_state
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION pay_flow_state_id_guard();

-- An attempt that ends unpaid stops being live, in the same statement.
CREATE FUNCTION pay_flow_state_ended() RETURNS trigger AS $$
BEGIN
  UPDATE pay_flow_fact SET live = false WHERE id = NEW.id AND live;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER trg_pay_flow_state_ended AFTER UPDATE ON pay_flow_state
  FOR EACH ROW WHEN (NEW.status IN ('PAY_FAIL', 'CLOSED') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION pay_flow_state_ended();

-- Rows leave only for the archive: terminal, in the archiver's transaction.
CREATE FUNCTION pay_flow_state_delete_guard() RETURNS trigger AS $$
BEGIN
  IF coalesce(current_setting('clearway.archiving', true), '') = 'on'
     AND OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED') THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'pay_flow %: rows are never deleted', OLD.id USING ERRCODE = 'check_violation';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER trg_pay_flow_state_delete_guard BEFORE DELETE ON pay_flow_state
  FOR EACH ROW EXECUTE FUNCTION pay_flow_state_delete_guard();

CREATE TRIGGER trg_pay_flow_cancel_guard BEFORE UPDATE OF cancel_requested_at ON pay_flow_state
  FOR EACH ROW EXECUTE FUNCTION pay_flow_cancel_guard();

-- The flow as one row, in the former table's columns and order (pay_flow_archive keeps that shape).
CREATE VIEW pay_flow AS
SELECT f.id, f.user_id, f.scene, f.biz_key, f.attempt_no, f.channel, f.trade_order_no,
       f.refund_order_no, s.status, s.version, f.amount, f.currency, f.biz_deadline_time,
       s.next_retry_time, s.retry_count, s.last_error_code, s.channel_request_id, s.review_state,
       s.review_reason, s.lease_owner, f.created_at, s.updated_at, s.cancel_requested_at,
       f.merchant_id
  FROM pay_flow_fact f JOIN pay_flow_state s ON s.id = f.id;
ALTER VIEW pay_flow ALTER COLUMN id SET DEFAULT nextval('pay_flow_id_seq');
ALTER VIEW pay_flow ALTER COLUMN channel SET DEFAULT 'wallet';
ALTER VIEW pay_flow ALTER COLUMN version SET DEFAULT 0;
ALTER VIEW pay_flow ALTER COLUMN retry_count SET DEFAULT 0;
ALTER VIEW pay_flow ALTER COLUMN review_state SET DEFAULT 'NONE';
ALTER VIEW pay_flow ALTER COLUMN merchant_id SET DEFAULT 'default';

-- Writes through the view reach the two tables, where every guard above applies. An update is
-- optimistic: it applies only if the state still holds what the statement read (else 0 rows).
CREATE FUNCTION pay_flow_view_write() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO pay_flow_fact (id, user_id, scene, biz_key, attempt_no, channel, trade_order_no,
           refund_order_no, amount, currency, biz_deadline_time, created_at, merchant_id, live)
    VALUES (NEW.id, NEW.user_id, NEW.scene, NEW.biz_key, NEW.attempt_no, NEW.channel,
            NEW.trade_order_no, NEW.refund_order_no, NEW.amount, NEW.currency,
            NEW.biz_deadline_time, NEW.created_at, NEW.merchant_id,
            NEW.status NOT IN ('PAY_FAIL', 'CLOSED'));
    INSERT INTO pay_flow_state (id, status, version, next_retry_time, retry_count,
           last_error_code, channel_request_id, review_state, review_reason, lease_owner,
           updated_at, cancel_requested_at)
    VALUES (NEW.id, NEW.status, NEW.version, NEW.next_retry_time, NEW.retry_count,
            NEW.last_error_code, NEW.channel_request_id, NEW.review_state, NEW.review_reason,
            NEW.lease_owner, NEW.updated_at, NEW.cancel_requested_at);
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    DELETE FROM pay_flow_state WHERE id = OLD.id;
    DELETE FROM pay_flow_fact WHERE id = OLD.id;
    RETURN OLD;
  END IF;
  IF (NEW.id, NEW.user_id, NEW.scene, NEW.biz_key, NEW.attempt_no, NEW.channel,
      NEW.trade_order_no, NEW.refund_order_no, NEW.amount, NEW.currency, NEW.biz_deadline_time,
      NEW.created_at, NEW.merchant_id)
     IS DISTINCT FROM
     (OLD.id, OLD.user_id, OLD.scene, OLD.biz_key, OLD.attempt_no, OLD.channel,
      OLD.trade_order_no, OLD.refund_order_no, OLD.amount, OLD.currency, OLD.biz_deadline_time,
      OLD.created_at, OLD.merchant_id) THEN
    UPDATE pay_flow_fact
       SET id = NEW.id, user_id = NEW.user_id, scene = NEW.scene, biz_key = NEW.biz_key,
           attempt_no = NEW.attempt_no, channel = NEW.channel,
           trade_order_no = NEW.trade_order_no, refund_order_no = NEW.refund_order_no,
           amount = NEW.amount, currency = NEW.currency,
           biz_deadline_time = NEW.biz_deadline_time, created_at = NEW.created_at,
           merchant_id = NEW.merchant_id
     WHERE id = OLD.id;
  END IF;
  UPDATE pay_flow_state
     SET status = NEW.status, version = NEW.version, next_retry_time = NEW.next_retry_time,
         retry_count = NEW.retry_count, last_error_code = NEW.last_error_code,
         channel_request_id = NEW.channel_request_id, review_state = NEW.review_state,
         review_reason = NEW.review_reason, lease_owner = NEW.lease_owner,
         updated_at = NEW.updated_at, cancel_requested_at = NEW.cancel_requested_at
   WHERE id = OLD.id AND status = OLD.status AND version = OLD.version
     AND (next_retry_time, retry_count, last_error_code, channel_request_id, review_state,
          review_reason, lease_owner, updated_at, cancel_requested_at)
         IS NOT DISTINCT FROM
         (OLD.next_retry_time, OLD.retry_count, OLD.last_error_code, OLD.channel_request_id,
          OLD.review_state, OLD.review_reason, OLD.lease_owner, OLD.updated_at,
          OLD.cancel_requested_at);
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

-- The functions that reach the other table find it in the schema they were created in, whatever
-- the caller's search_path (a schema other than the default one works as the default one does).
ALTER FUNCTION pay_flow_fact_guard() SET search_path FROM CURRENT;
ALTER FUNCTION pay_flow_state_ended() SET search_path FROM CURRENT;
ALTER FUNCTION pay_flow_view_write() SET search_path FROM CURRENT;

CREATE TRIGGER trg_pay_flow_view_write INSTEAD OF INSERT OR UPDATE OR DELETE ON pay_flow
  FOR EACH ROW EXECUTE FUNCTION pay_flow_view_write();
