-- The flow in two tables, as on PostgreSQL: pay_flow_fact holds the write-once facts of an attempt
-- (goal, attempt, order numbers, amount, currency, deadline, merchant), written at creation and
-- indexed for every lookup; pay_flow_state the narrow mutable state (status, version, due time,
-- lease, retry count, review state), whose indexes on the way of a transition are its primary key
-- and the due index. The view pay_flow joins them with the columns of the former table.
--
-- The MySQL family has no INSTEAD OF trigger: the view is for reading, and the stores write the two
-- tables, in one transaction. (MySQL lets an UPDATE through a join view change the columns of one
-- of its tables, with that table's guards, but refuses one that ends an attempt unpaid, since the
-- state's trigger then writes the facts the statement reads; an INSERT or a DELETE that would reach
-- both tables is refused.)

RENAME TABLE pay_flow TO pay_flow_fact;
DROP TRIGGER trg_pay_flow_guard;
DROP TRIGGER trg_pay_flow_no_delete;
-- MySQL 8 names CHECK constraints per schema: the state's take the names the facts give up.
ALTER TABLE pay_flow_fact DROP CONSTRAINT ck_status;
ALTER TABLE pay_flow_fact DROP CONSTRAINT ck_review;

CREATE TABLE pay_flow_state (
  id                  BIGINT       NOT NULL PRIMARY KEY,
  status              VARCHAR(24)  NOT NULL,
  version             BIGINT       NOT NULL DEFAULT 0,
  next_retry_time     DATETIME(6)  NOT NULL,
  retry_count         INT          NOT NULL DEFAULT 0,
  last_error_code     VARCHAR(64)  NULL,
  channel_request_id  VARCHAR(128) NULL,
  review_state        VARCHAR(16)  NOT NULL DEFAULT 'NONE',
  review_reason       VARCHAR(160) NULL,
  lease_owner         VARCHAR(96)  NULL,
  updated_at          DATETIME(6)  NOT NULL,
  cancel_requested_at DATETIME(6)  NULL,
  CONSTRAINT ck_status CHECK (status IN
    ('WAIT_PAY','PAYING','PAY_FAIL','PAYED','BIZ_SUCCESS','REFUNDING','REFUNDED','CLOSED')),
  CONSTRAINT ck_review CHECK (review_state IN ('NONE','ESCALATED','FROZEN')),
  CONSTRAINT fk_pay_flow_state_fact FOREIGN KEY (id) REFERENCES pay_flow_fact (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

INSERT INTO pay_flow_state (id, status, version, next_retry_time, retry_count, last_error_code,
       channel_request_id, review_state, review_reason, lease_owner, updated_at,
       cancel_requested_at)
SELECT id, status, version, next_retry_time, retry_count, last_error_code, channel_request_id,
       review_state, review_reason, lease_owner, updated_at, cancel_requested_at
  FROM pay_flow_fact;

-- "At most one live attempt of a goal" needs the status, which is not a fact: the fact keeps a
-- flag, true at creation and set false once, by the database itself, when the attempt enters
-- PAY_FAIL or CLOSED (the only statuses after which a new attempt may start). live_attempt is 1
-- while it is live and NULL after: under uk_live_attempt, NULLs never collide.
ALTER TABLE pay_flow_fact DROP INDEX uk_live_attempt;
ALTER TABLE pay_flow_fact DROP COLUMN live_attempt;
ALTER TABLE pay_flow_fact ADD COLUMN live BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE pay_flow_fact SET live = FALSE WHERE status IN ('PAY_FAIL', 'CLOSED');
ALTER TABLE pay_flow_fact ADD COLUMN live_attempt TINYINT GENERATED ALWAYS AS
  (CASE WHEN live THEN 1 ELSE NULL END) STORED;
ALTER TABLE pay_flow_fact ADD CONSTRAINT uk_live_attempt
  UNIQUE (merchant_id, user_id, scene, biz_key, live_attempt);

DROP INDEX idx_scan ON pay_flow_fact;
DROP INDEX idx_pay_flow_review ON pay_flow_fact;
DROP INDEX idx_pay_flow_review_merchant ON pay_flow_fact;
DROP INDEX idx_pay_flow_ended ON pay_flow_fact;
DROP INDEX idx_pay_flow_paid_scene ON pay_flow_fact;
DROP INDEX idx_pay_flow_archivable ON pay_flow_fact;
ALTER TABLE pay_flow_fact DROP COLUMN status, DROP COLUMN version, DROP COLUMN next_retry_time,
  DROP COLUMN retry_count, DROP COLUMN last_error_code, DROP COLUMN channel_request_id,
  DROP COLUMN review_state, DROP COLUMN review_reason, DROP COLUMN lease_owner,
  DROP COLUMN updated_at, DROP COLUMN cancel_requested_at;

-- The state's indexes: full indexes (no partial ones here), the filtered status leading.
CREATE INDEX idx_scan ON pay_flow_state (status, next_retry_time, id);
CREATE INDEX idx_pay_flow_ended ON pay_flow_state (status, updated_at, id);
CREATE INDEX idx_pay_flow_archivable ON pay_flow_state (updated_at, id);
CREATE INDEX idx_pay_flow_review ON pay_flow_state (review_state, id);
-- Batch refund proposals: paid flows in id order (the merchant and scene are read from the facts).
CREATE INDEX idx_pay_flow_paid ON pay_flow_state (status, id);
CREATE INDEX idx_pay_flow_scene ON pay_flow_fact (merchant_id, scene, id);

DELIMITER $$
-- The facts never change, except: order numbers are written once where missing, and live goes
-- false once, when the state has ended without payment.
CREATE TRIGGER trg_pay_flow_fact_guard BEFORE UPDATE ON pay_flow_fact FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.id <> OLD.id OR NEW.user_id <> OLD.user_id OR NEW.scene <> OLD.scene
     OR NEW.biz_key <> OLD.biz_key OR NEW.attempt_no <> OLD.attempt_no
     OR NEW.amount <> OLD.amount OR NEW.currency <> OLD.currency
     OR NEW.biz_deadline_time <> OLD.biz_deadline_time OR NEW.channel <> OLD.channel
     OR NEW.created_at <> OLD.created_at THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': identity and amount are frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.merchant_id <=> OLD.merchant_id) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': the owning merchant is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF (OLD.trade_order_no IS NOT NULL AND NOT (NEW.trade_order_no <=> OLD.trade_order_no))
     OR (OLD.refund_order_no IS NOT NULL AND NOT (NEW.refund_order_no <=> OLD.refund_order_no)) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': order numbers are frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.live <=> OLD.live) AND (NEW.live OR NOT EXISTS (
       SELECT 1 FROM pay_flow_state WHERE id = OLD.id AND status IN ('PAY_FAIL', 'CLOSED'))) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': an attempt stops being live only by ending unpaid');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

-- A fact leaves only with its state, for the archive (the archiving session says so with
-- SET @clearway_archiving = 'on'; MySQL has no transaction-local setting).
CREATE TRIGGER trg_pay_flow_fact_no_delete BEFORE DELETE ON pay_flow_fact FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NOT (COALESCE(@clearway_archiving, '') = 'on'
          AND NOT EXISTS (SELECT 1 FROM pay_flow_state WHERE id = OLD.id)) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': rows are never deleted');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

-- The transition table: a terminal status never changes, only the legal edges, each bumping the
-- version by one; the id never changes; a cancel request once recorded (only before the charge is
-- known) stays.
CREATE TRIGGER trg_pay_flow_state_guard BEFORE UPDATE ON pay_flow_state FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.id <> OLD.id THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': identity and amount are frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.status <=> OLD.status) THEN
    IF OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED') THEN
      SET msg = CONCAT('pay_flow ', OLD.id, ': terminal status ', OLD.status,
                       ' cannot change to ', NEW.status);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NOT ((OLD.status = 'WAIT_PAY' AND NEW.status IN ('PAYING', 'CLOSED'))
         OR (OLD.status = 'PAYING' AND NEW.status IN ('PAYED', 'PAY_FAIL'))
         OR (OLD.status = 'PAYED' AND NEW.status IN ('BIZ_SUCCESS', 'REFUNDING'))
         OR (OLD.status = 'REFUNDING' AND NEW.status = 'REFUNDED')) THEN
      SET msg = CONCAT('pay_flow ', OLD.id, ': illegal transition ', OLD.status, ' -> ', NEW.status);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      SET msg = CONCAT('pay_flow ', OLD.id, ': a transition must bump the version by one');
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
  END IF;
  IF OLD.cancel_requested_at IS NOT NULL
     AND NOT (NEW.cancel_requested_at <=> OLD.cancel_requested_at) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': a cancel request cannot be withdrawn');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF OLD.cancel_requested_at IS NULL AND NEW.cancel_requested_at IS NOT NULL
     AND OLD.status NOT IN ('WAIT_PAY', 'PAYING') THEN
    SET msg = CONCAT('pay_flow ', OLD.id,
                     ': cancel is only recorded before the charge is known (status ', OLD.status, ')');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

-- An attempt that ends unpaid stops being live, in the same statement.
CREATE TRIGGER trg_pay_flow_state_ended AFTER UPDATE ON pay_flow_state FOR EACH ROW
BEGIN
  IF NEW.status IN ('PAY_FAIL', 'CLOSED') AND NOT (OLD.status <=> NEW.status) THEN
    UPDATE pay_flow_fact SET live = FALSE WHERE id = NEW.id AND live;
  END IF;
END$$

-- Rows leave only for the archive: terminal, in the archiving session.
CREATE TRIGGER trg_pay_flow_state_no_delete BEFORE DELETE ON pay_flow_state FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NOT (COALESCE(@clearway_archiving, '') = 'on'
          AND OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED')) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': rows are never deleted');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$
DELIMITER ;

-- The flow as one row, in the former table's columns and order (pay_flow_archive keeps that shape).
CREATE SQL SECURITY INVOKER VIEW pay_flow AS
SELECT f.id, f.merchant_id, f.user_id, f.scene, f.biz_key, f.attempt_no, f.channel,
       f.trade_order_no, f.refund_order_no, s.status, s.version, f.amount, f.currency,
       f.biz_deadline_time, s.next_retry_time, s.retry_count, s.last_error_code,
       s.channel_request_id, s.review_state, s.review_reason, s.lease_owner, f.created_at,
       s.updated_at, s.cancel_requested_at
  FROM pay_flow_fact f JOIN pay_flow_state s ON s.id = f.id;
