-- Retention and archiving. Terminal flows older than the configured age move, with their history,
-- to archive tables of the same columns, in small batches (one short transaction each); the hot
-- tables keep only what is alive or recent, so the scanner and the payment path pay nothing for
-- the archive. Reads by id, goal, order number and business key fall back to the archive.

CREATE TABLE pay_flow_archive (LIKE pay_flow INCLUDING DEFAULTS);
ALTER TABLE pay_flow_archive ADD CONSTRAINT pk_pay_flow_archive PRIMARY KEY (id);
-- Order numbers are derived from ids and ids come from the sequence of pay_flow, never reused:
-- a number is unique across both tables. The archive keeps its own unique key as a check.
ALTER TABLE pay_flow_archive ADD CONSTRAINT uk_archive_trade_order_no UNIQUE (trade_order_no);
-- Creation reads the goal's attempts in both tables (the next attempt_no, a done goal's answer).
CREATE INDEX idx_archive_goal ON pay_flow_archive (merchant_id, user_id, scene, biz_key, attempt_no);
-- GET /v1/payment-flows?bizKey=: one merchant's attempts of a business key, newest first.
CREATE INDEX idx_archive_biz_key ON pay_flow_archive (merchant_id, biz_key, id);

CREATE TABLE pay_flow_history_archive (LIKE pay_flow_history INCLUDING DEFAULTS);
ALTER TABLE pay_flow_history_archive ADD CONSTRAINT pk_pay_flow_history_archive PRIMARY KEY (id);
CREATE INDEX idx_archive_history_flow ON pay_flow_history_archive (flow_id, id);

-- Archived rows are as frozen as terminal rows: no update, no delete.
CREATE FUNCTION archive_guard() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION '%: archived rows never change', TG_TABLE_NAME USING ERRCODE = 'check_violation';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER trg_pay_flow_archive_guard BEFORE UPDATE OR DELETE ON pay_flow_archive
  FOR EACH ROW EXECUTE FUNCTION archive_guard();
CREATE TRIGGER trg_pay_flow_history_archive_guard BEFORE UPDATE OR DELETE ON pay_flow_history_archive
  FOR EACH ROW EXECUTE FUNCTION archive_guard();

-- The archiver's candidates: terminal flows in the order they ended (updated_at is when a flow
-- entered its status; terminal rows never move again).
CREATE INDEX idx_pay_flow_archivable ON pay_flow (updated_at, id)
  WHERE status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED');

-- The guard of pay_flow, unchanged except for DELETE: a row may leave the hot table only when it
-- is terminal and the deleting transaction is the archiver's, which says so with
-- SET LOCAL clearway.archiving = 'on' and copies the row to pay_flow_archive in the same
-- statement. Anyone else's DELETE, and any DELETE of a live row, is refused as before.
CREATE OR REPLACE FUNCTION pay_flow_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF coalesce(current_setting('clearway.archiving', true), '') = 'on'
       AND OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED') THEN
      RETURN OLD;
    END IF;
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

-- Idempotency records expire after completion: the purge reads DONE rows by completion time.
CREATE INDEX idx_idempotency_done ON idempotency_key (updated_at) WHERE state = 'DONE';
-- Published outbox events are purged by age.
CREATE INDEX idx_outbox_published ON outbox_event (published_at) WHERE published_at IS NOT NULL;
CREATE INDEX idx_callback_inbox_received ON callback_inbox (received_at);
CREATE INDEX idx_webhook_inbox_done ON channel_webhook_inbox (done_at) WHERE done_at IS NOT NULL;

-- The retention job's lease: one node runs the purges and the archiver at a time.
CREATE TABLE retention_lease (
  name         VARCHAR(32)  PRIMARY KEY,
  lease_owner  VARCHAR(96)  NULL,
  lease_until  TIMESTAMPTZ  NULL,
  last_run_at  TIMESTAMPTZ  NULL
);
INSERT INTO retention_lease (name) VALUES ('retention');
