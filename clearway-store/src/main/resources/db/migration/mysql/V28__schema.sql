-- The whole schema for the MySQL family (MariaDB 10.11 and MySQL 8), as the PostgreSQL migrations
-- V1 to V28 leave it, with every guarantee held by the database. It starts at version 28, the
-- PostgreSQL schema's version it equals, so that a later change takes the same version number in
-- both folders. Where the two databases differ, docs/mysql.md says how this file does it:
--   * every table is utf8mb4 with the binary collation: keys, order numbers and idempotency keys
--     compare byte for byte, as in PostgreSQL (the default collations ignore case and accents);
--   * times are DATETIME(6) in UTC (the pool pins the session time zone);
--   * a partial unique index becomes a unique index over a generated column that is NULL for the
--     rows the index leaves out (NULLs never collide in a unique index);
--   * a partial index becomes a full index on the same columns;
--   * a guard trigger refuses with SIGNAL SQLSTATE '23514' (PostgreSQL's check_violation), one
--     trigger per event (BEFORE UPDATE, BEFORE DELETE), and fires on every update (no UPDATE OF).

-- The payment flow: one row per attempt of a business goal.
CREATE TABLE pay_flow (
  id                  BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  merchant_id         VARCHAR(64)  NOT NULL DEFAULT 'default',
  user_id             BIGINT       NOT NULL,
  scene               VARCHAR(32)  NOT NULL,
  biz_key             VARCHAR(160) NOT NULL,
  attempt_no          INT          NOT NULL,
  channel             VARCHAR(32)  NOT NULL DEFAULT 'wallet',
  trade_order_no      VARCHAR(96)  NULL,
  refund_order_no     VARCHAR(96)  NULL,
  status              VARCHAR(24)  NOT NULL,
  version             BIGINT       NOT NULL DEFAULT 0,
  amount              BIGINT       NOT NULL,
  currency            CHAR(3)      NOT NULL,
  biz_deadline_time   DATETIME(6)  NOT NULL,
  next_retry_time     DATETIME(6)  NOT NULL,
  retry_count         INT          NOT NULL DEFAULT 0,
  last_error_code     VARCHAR(64)  NULL,
  channel_request_id  VARCHAR(128) NULL,
  review_state        VARCHAR(16)  NOT NULL DEFAULT 'NONE',
  review_reason       VARCHAR(160) NULL,
  lease_owner         VARCHAR(96)  NULL,
  created_at          DATETIME(6)  NOT NULL,
  updated_at          DATETIME(6)  NOT NULL,
  cancel_requested_at DATETIME(6)  NULL,
  -- 1 while the attempt has not definitely failed, NULL after PAY_FAIL or CLOSED: under
  -- uk_live_attempt, at most one attempt of a goal that has not definitely failed.
  live_attempt        TINYINT GENERATED ALWAYS AS
                        (CASE WHEN status IN ('PAY_FAIL', 'CLOSED') THEN NULL ELSE 1 END) STORED,
  CONSTRAINT uk_trade_order_no UNIQUE (trade_order_no),
  CONSTRAINT ck_attempt_no CHECK (attempt_no >= 1),
  CONSTRAINT ck_amount CHECK (amount > 0),
  -- The compensation refund number is derived from the trade number; with uk_trade_order_no this
  -- makes it unique too.
  CONSTRAINT ck_refund_order_no CHECK (refund_order_no = CONCAT('r_', trade_order_no)),
  CONSTRAINT uk_biz_attempt UNIQUE (merchant_id, user_id, scene, biz_key, attempt_no),
  CONSTRAINT uk_live_attempt UNIQUE (merchant_id, user_id, scene, biz_key, live_attempt),
  CONSTRAINT ck_status CHECK (status IN
    ('WAIT_PAY','PAYING','PAY_FAIL','PAYED','BIZ_SUCCESS','REFUNDING','REFUNDED','CLOSED')),
  CONSTRAINT ck_review CHECK (review_state IN ('NONE','ESCALATED','FROZEN'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE INDEX idx_scan ON pay_flow (status, next_retry_time, id);
CREATE INDEX idx_pay_flow_biz_key ON pay_flow (merchant_id, biz_key, id);
CREATE INDEX idx_pay_flow_review ON pay_flow (review_state, id);
CREATE INDEX idx_pay_flow_review_merchant ON pay_flow (review_state, merchant_id, id);
CREATE INDEX idx_pay_flow_ended ON pay_flow (status, updated_at, id);
CREATE INDEX idx_pay_flow_paid_scene ON pay_flow (merchant_id, scene, status, id);

-- Every transition, appended in the same transaction as the state write.
CREATE TABLE pay_flow_history (
  id               BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
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
  created_at       DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_history_flow ON pay_flow_history (flow_id, id);
CREATE INDEX idx_history_payed ON pay_flow_history (to_status, created_at);

-- The database's half of the transition table: a terminal status never changes, identity, owner,
-- money and order numbers are frozen, only the legal edges are accepted, a transition bumps the
-- version by one, and a cancel request once recorded (only before the charge is known) stays.
DELIMITER $$
CREATE TRIGGER trg_pay_flow_guard BEFORE UPDATE ON pay_flow FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.user_id <> OLD.user_id OR NEW.scene <> OLD.scene OR NEW.biz_key <> OLD.biz_key
     OR NEW.attempt_no <> OLD.attempt_no OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.biz_deadline_time <> OLD.biz_deadline_time THEN
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

-- A row leaves the hot table only when it is terminal and the deleting session is the archiver's,
-- which says so with SET @clearway_archiving = 'on' (a session variable: MySQL has no
-- transaction-local setting) and copies the row to pay_flow_archive in the same transaction.
CREATE TRIGGER trg_pay_flow_no_delete BEFORE DELETE ON pay_flow FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NOT (COALESCE(@clearway_archiving, '') = 'on'
          AND OLD.status IN ('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED')) THEN
    SET msg = CONCAT('pay_flow ', OLD.id, ': rows are never deleted');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$
DELIMITER ;

-- Idempotency of the payment API: one row per (merchant, Idempotency-Key).
CREATE TABLE idempotency_key (
  merchant_id   VARCHAR(64)  NOT NULL,
  idem_key      VARCHAR(255) NOT NULL,
  request_hash  CHAR(64)     NOT NULL,
  state         VARCHAR(16)  NOT NULL,
  flow_id       BIGINT       NULL,
  locked_until  DATETIME(6)  NOT NULL,
  created_at    DATETIME(6)  NOT NULL,
  updated_at    DATETIME(6)  NOT NULL,
  CONSTRAINT pk_idempotency_key PRIMARY KEY (merchant_id, idem_key),
  CONSTRAINT ck_idempotency_state CHECK (state IN ('IN_FLIGHT', 'DONE')),
  CONSTRAINT ck_idempotency_done CHECK (state <> 'DONE' OR flow_id IS NOT NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_idempotency_done ON idempotency_key (state, updated_at);

-- Verified callbacks, stored before they are acknowledged; the key deduplicates by event id.
CREATE TABLE callback_inbox (
  channel          VARCHAR(32)  NOT NULL,
  event_id         VARCHAR(128) NOT NULL,
  event_type       VARCHAR(64)  NOT NULL,
  trade_order_no   VARCHAR(96)  NULL,
  refund_order_no  VARCHAR(96)  NULL,
  flow_id          BIGINT       NULL,
  outcome          VARCHAR(32)  NOT NULL,
  payload_sha256   CHAR(64)     NOT NULL,
  received_at      DATETIME(6)  NOT NULL,
  merchant_id      VARCHAR(64)  NULL,
  CONSTRAINT pk_callback_inbox PRIMARY KEY (channel, event_id),
  CONSTRAINT ck_callback_outcome CHECK (outcome IN ('ACCEPTED', 'UNKNOWN_ORDER'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_callback_inbox_received ON callback_inbox (received_at);

-- After-sales (and late-charge) refunds, with their own state machine.
CREATE TABLE refund_order (
  id                 BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  flow_id            BIGINT       NOT NULL,
  seq                INT          NOT NULL,
  trade_order_no     VARCHAR(96)  NOT NULL,
  refund_no          VARCHAR(120) NOT NULL,
  amount             BIGINT       NOT NULL,
  currency           CHAR(3)      NOT NULL,
  reason             VARCHAR(200) NOT NULL,
  requested_by       VARCHAR(64)  NOT NULL,
  idem_key           VARCHAR(255) NOT NULL,
  request_hash       CHAR(64)     NOT NULL,
  status             VARCHAR(16)  NOT NULL,
  version            BIGINT       NOT NULL DEFAULT 0,
  next_retry_time    DATETIME(6)  NOT NULL,
  retry_count        INT          NOT NULL DEFAULT 0,
  last_error_code    VARCHAR(64)  NULL,
  channel_request_id VARCHAR(128) NULL,
  lease_owner        VARCHAR(96)  NULL,
  created_at         DATETIME(6)  NOT NULL,
  updated_at         DATETIME(6)  NOT NULL,
  kind               VARCHAR(16)  NOT NULL DEFAULT 'AFTER_SALE',
  merchant_id        VARCHAR(64)  NOT NULL DEFAULT 'default',
  CONSTRAINT fk_refund_flow FOREIGN KEY (flow_id) REFERENCES pay_flow (id),
  CONSTRAINT ck_refund_seq CHECK (seq >= 1),
  CONSTRAINT ck_refund_amount CHECK (amount > 0),
  CONSTRAINT uk_refund_flow_seq UNIQUE (flow_id, seq),
  CONSTRAINT uk_refund_no UNIQUE (refund_no),
  -- Deterministic: a_ + trade + _ + seq, never the compensation refund number r_ + trade.
  CONSTRAINT ck_refund_no CHECK (refund_no = CONCAT('a_', trade_order_no, '_', seq)),
  CONSTRAINT uk_refund_idem UNIQUE (requested_by, idem_key),
  CONSTRAINT ck_refund_status CHECK (status IN
    ('PENDING', 'PROCESSING', 'SUCCESS', 'FAIL', 'ABNORMAL', 'CLOSED')),
  CONSTRAINT ck_refund_kind CHECK (kind IN ('AFTER_SALE', 'LATE_CHARGE'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_refund_scan ON refund_order (status, next_retry_time, id);
CREATE INDEX idx_refund_abnormal ON refund_order (status, id);
CREATE INDEX idx_refund_abnormal_merchant ON refund_order (status, merchant_id, id);
CREATE INDEX idx_refund_succeeded ON refund_order (status, updated_at);

CREATE TABLE refund_order_history (
  id              BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
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
  created_at      DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_refund_history_refund ON refund_order_history (refund_id, id);

DELIMITER $$
CREATE TRIGGER trg_refund_order_guard BEFORE UPDATE ON refund_order FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.flow_id <> OLD.flow_id OR NEW.seq <> OLD.seq OR NEW.trade_order_no <> OLD.trade_order_no
     OR NEW.refund_no <> OLD.refund_no OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.reason <> OLD.reason
     OR NEW.requested_by <> OLD.requested_by OR NEW.idem_key <> OLD.idem_key
     OR NEW.request_hash <> OLD.request_hash OR NEW.created_at <> OLD.created_at THEN
    SET msg = CONCAT('refund_order ', OLD.id, ': identity and amount are frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.merchant_id <=> OLD.merchant_id) THEN
    SET msg = CONCAT('refund_order ', OLD.id, ': the owning merchant is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.status <=> OLD.status) THEN
    IF OLD.status IN ('SUCCESS', 'FAIL', 'CLOSED') THEN
      SET msg = CONCAT('refund_order ', OLD.id, ': terminal status ', OLD.status,
                       ' cannot change to ', NEW.status);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NOT ((OLD.status = 'PENDING' AND NEW.status IN ('PROCESSING', 'CLOSED'))
         OR (OLD.status = 'PROCESSING' AND NEW.status IN ('SUCCESS', 'FAIL', 'ABNORMAL'))
         OR (OLD.status = 'ABNORMAL' AND NEW.status IN ('SUCCESS', 'FAIL'))) THEN
      SET msg = CONCAT('refund_order ', OLD.id, ': illegal transition ', OLD.status, ' -> ',
                       NEW.status);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      SET msg = CONCAT('refund_order ', OLD.id, ': a transition must bump the version by one');
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
  END IF;
END$$

CREATE TRIGGER trg_refund_order_no_delete BEFORE DELETE ON refund_order FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('refund_order ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$
DELIMITER ;

-- Manual commands (maker/checker) for every case that waits for a person, and their audit.
CREATE TABLE manual_command (
  id                BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  flow_id           BIGINT        NULL,
  kind              VARCHAR(32)   NOT NULL,
  expected_status   VARCHAR(24)   NOT NULL,
  expected_version  BIGINT        NOT NULL,
  operator_id       VARCHAR(64)   NOT NULL,
  ticket            VARCHAR(64)   NOT NULL,
  reason            VARCHAR(500)  NOT NULL,
  evidence          VARCHAR(2000) NOT NULL,
  state             VARCHAR(16)   NOT NULL,
  approver_id       VARCHAR(64)   NULL,
  result            VARCHAR(200)  NULL,
  created_at        DATETIME(6)   NOT NULL,
  decided_at        DATETIME(6)   NULL,
  target_kind       VARCHAR(16)   NOT NULL DEFAULT 'FLOW',
  target_id         BIGINT        NOT NULL,
  -- 1 while the command is PROPOSED: under uk_command_open, one open proposal per target.
  open_proposal     TINYINT GENERATED ALWAYS AS
                      (CASE WHEN state = 'PROPOSED' THEN 1 ELSE NULL END) STORED,
  CONSTRAINT ck_command_kind CHECK (kind IN (
    'CONFIRM_BIZ_SUCCESS', 'FORCE_REFUND', 'RESUME', 'CONFIRM_PAID', 'CONFIRM_NOT_PAID',
    'CLOSE_UNPAID', 'CONFIRM_FLOW_REFUNDED',
    'RETRY_REFUND', 'CONFIRM_REFUNDED', 'CLOSE_REFUND',
    'CONFIRM_ATTEMPT_SUCCEEDED', 'CONFIRM_ATTEMPT_FAILED',
    'REFUND_CHARGE', 'KEEP_CHARGE', 'HAND_TO_FINANCE')),
  CONSTRAINT ck_command_state CHECK (state IN ('PROPOSED', 'APPLIED', 'REJECTED', 'FAILED')),
  -- Maker/checker held by the database: nobody approves their own proposal.
  CONSTRAINT ck_command_two_people CHECK (approver_id IS NULL OR approver_id <> operator_id),
  CONSTRAINT ck_command_target CHECK (
    target_kind IN ('FLOW', 'REFUND_ORDER', 'ATTEMPT', 'COMPENSATION')
    AND (target_kind <> 'FLOW' OR flow_id = target_id)),
  CONSTRAINT uk_command_open UNIQUE (target_kind, target_id, open_proposal)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_command_flow ON manual_command (flow_id, id);
CREATE INDEX idx_command_target ON manual_command (target_kind, target_id, id);
CREATE INDEX idx_command_open ON manual_command (state, id);

CREATE TABLE manual_audit (
  id          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  command_id  BIGINT       NOT NULL,
  flow_id     BIGINT       NULL,
  actor_id    VARCHAR(64)  NOT NULL,
  role        VARCHAR(16)  NOT NULL,
  action      VARCHAR(16)  NOT NULL,
  detail      VARCHAR(500) NULL,
  at          DATETIME(6)  NOT NULL,
  target_kind VARCHAR(16)  NOT NULL DEFAULT 'FLOW',
  target_id   BIGINT       NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_audit_flow ON manual_audit (flow_id, id);
CREATE INDEX idx_audit_target ON manual_audit (target_kind, target_id, id);

-- Transactional outbox: a domain event for every transition other systems must hear about.
CREATE TABLE outbox_event (
  id            BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  event_id      VARCHAR(96)  NOT NULL,
  event_type    VARCHAR(48)  NOT NULL,
  aggregate_id  BIGINT       NOT NULL,
  payload       MEDIUMTEXT   NOT NULL,
  created_at    DATETIME(6)  NOT NULL,
  lease_until   DATETIME(6)  NULL,
  attempts      INT          NOT NULL DEFAULT 0,
  published_at  DATETIME(6)  NULL,
  merchant_id   VARCHAR(64)  NULL,
  CONSTRAINT uk_outbox_event_id UNIQUE (event_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_outbox_pending ON outbox_event (published_at, id);

-- Payment channels: accounts, the payment order of one trade order number, its attempts across
-- PSPs, provider evidence, attempt history, recovery tasks, compensations and channel refunds.
CREATE TABLE channel_account (
  id              BIGINT       NOT NULL PRIMARY KEY,
  channel         VARCHAR(32)  NOT NULL,
  account_ref     VARCHAR(64)  NOT NULL,
  failure_domain  VARCHAR(64)  NOT NULL,
  payment_methods VARCHAR(128) NOT NULL,
  priority        INT          NOT NULL,
  enabled         BOOLEAN      NOT NULL DEFAULT TRUE,
  CONSTRAINT uk_channel_account UNIQUE (channel, account_ref)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE payment_order (
  trade_order_no  VARCHAR(64)  NOT NULL PRIMARY KEY,
  amount          BIGINT       NOT NULL,
  currency        VARCHAR(3)   NOT NULL,
  payment_method  VARCHAR(32)  NOT NULL,
  status          VARCHAR(16)  NOT NULL,
  closed_reason   VARCHAR(64)  NULL,
  created_at      DATETIME(6)  NOT NULL,
  updated_at      DATETIME(6)  NOT NULL,
  CONSTRAINT ck_payment_order_amount CHECK (amount >= 0),
  CONSTRAINT ck_payment_order_status CHECK (status IN ('OPEN', 'CLOSED'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The ids of payment_attempt: MySQL 8 has no sequences (MariaDB has), so one AUTO_INCREMENT row
-- per id drawn stands in for payment_attempt_seq.
CREATE TABLE payment_attempt_seq (
  id  BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY
) ENGINE=InnoDB;

CREATE TABLE payment_attempt (
  id                        BIGINT       NOT NULL PRIMARY KEY,
  trade_order_no            VARCHAR(64)  NOT NULL,
  seq                       INT          NOT NULL,
  channel_account_id        BIGINT       NOT NULL,
  origin                    VARCHAR(16)  NOT NULL,
  previous_attempt_id       BIGINT       NULL,
  excluded_domains          VARCHAR(256) NULL,
  provider_idempotency_key  VARCHAR(64)  NOT NULL,
  create_request_hash       CHAR(64)     NOT NULL,
  provider_payment_id       VARCHAR(128) NULL,
  status                    VARCHAR(16)  NOT NULL,
  result_certainty          VARCHAR(24)  NOT NULL,
  error_code                VARCHAR(64)  NULL,
  failover_eligible         BOOLEAN      NOT NULL DEFAULT FALSE,
  customer_action_pending   BOOLEAN      NOT NULL DEFAULT FALSE,
  amount                    BIGINT       NOT NULL,
  currency                  VARCHAR(3)   NOT NULL,
  payment_method            VARCHAR(32)  NOT NULL,
  replay_count              INT          NOT NULL DEFAULT 0,
  version                   BIGINT       NOT NULL DEFAULT 0,
  created_at                DATETIME(6)  NOT NULL,
  updated_at                DATETIME(6)  NOT NULL,
  sub_merchant              VARCHAR(32)  NULL,
  payer_ref                 VARCHAR(128) NULL,
  -- 1 while the attempt is CREATED, PENDING or UNKNOWN: under uk_attempt_live, at most one live
  -- attempt per order (the database half of the failover guard).
  live_attempt              TINYINT GENERATED ALWAYS AS
                              (CASE WHEN status IN ('CREATED', 'PENDING', 'UNKNOWN') THEN 1
                                    ELSE NULL END) STORED,
  CONSTRAINT fk_attempt_order FOREIGN KEY (trade_order_no) REFERENCES payment_order (trade_order_no),
  CONSTRAINT fk_attempt_account FOREIGN KEY (channel_account_id) REFERENCES channel_account (id),
  CONSTRAINT fk_attempt_previous FOREIGN KEY (previous_attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT ck_attempt_seq CHECK (seq > 0),
  CONSTRAINT ck_attempt_origin CHECK (origin IN ('INITIAL', 'BUSINESS_RETRY', 'FAILOVER')),
  CONSTRAINT ck_attempt_status CHECK (status IN ('CREATED', 'PENDING', 'UNKNOWN', 'SUCCEEDED', 'FAILED')),
  CONSTRAINT ck_attempt_amount CHECK (amount > 0),
  CONSTRAINT uk_attempt_provider_key UNIQUE (channel_account_id, provider_idempotency_key),
  CONSTRAINT uk_attempt_seq UNIQUE (trade_order_no, seq),
  CONSTRAINT uk_attempt_live UNIQUE (trade_order_no, live_attempt),
  CONSTRAINT ck_failover_has_previous CHECK (origin = 'INITIAL' OR previous_attempt_id IS NOT NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_attempt_created ON payment_attempt (created_at, id);
CREATE INDEX idx_attempt_provider_key ON payment_attempt (provider_idempotency_key);
CREATE INDEX idx_attempt_succeeded ON payment_attempt (channel_account_id, status, updated_at);

-- Terminal attempts never change; identity, amount, key and party never change; versions only grow.
DELIMITER $$
CREATE TRIGGER trg_payment_attempt_guard BEFORE UPDATE ON payment_attempt FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF OLD.status IN ('SUCCEEDED', 'FAILED') THEN
    SET msg = CONCAT('attempt ', OLD.id, ' is final (', OLD.status, ')');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NEW.trade_order_no <> OLD.trade_order_no OR NEW.channel_account_id <> OLD.channel_account_id
     OR NEW.provider_idempotency_key <> OLD.provider_idempotency_key
     OR NEW.create_request_hash <> OLD.create_request_hash OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.origin <> OLD.origin
     OR NOT (NEW.sub_merchant <=> OLD.sub_merchant)
     OR NOT (NEW.payer_ref <=> OLD.payer_ref) THEN
    SET msg = CONCAT('attempt ', OLD.id, ' identity is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    SET msg = CONCAT('attempt ', OLD.id, ' update without version + 1');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

CREATE TRIGGER trg_payment_attempt_no_delete BEFORE DELETE ON payment_attempt FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'payment_attempt rows are never deleted';
END$$
DELIMITER ;

CREATE TABLE provider_evidence (
  id                  BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  attempt_id          BIGINT       NOT NULL,
  task_id             BIGINT       NULL,
  source              VARCHAR(16)  NOT NULL,
  operation           VARCHAR(32)  NOT NULL,
  certainty           VARCHAR(24)  NOT NULL,
  provider_status     VARCHAR(48)  NULL,
  provider_object_id  VARCHAR(128) NULL,
  error_code          VARCHAR(64)  NULL,
  request_id          VARCHAR(128) NULL,
  raw_sha256          CHAR(64)     NULL,
  policy_version      VARCHAR(64)  NULL,
  observed_at         DATETIME(6)  NOT NULL,
  CONSTRAINT fk_evidence_attempt FOREIGN KEY (attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT ck_evidence_source CHECK
    (source IN ('RESPONSE', 'CALLBACK', 'QUERY', 'RECONCILIATION', 'MANUAL'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_evidence_attempt ON provider_evidence (attempt_id, id);

CREATE TABLE payment_attempt_history (
  id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  attempt_id   BIGINT       NOT NULL,
  version      BIGINT       NOT NULL,
  from_status  VARCHAR(16)  NULL,
  to_status    VARCHAR(16)  NOT NULL,
  certainty    VARCHAR(24)  NOT NULL,
  source       VARCHAR(16)  NOT NULL,
  evidence_id  BIGINT       NULL,
  at           DATETIME(6)  NOT NULL,
  CONSTRAINT uk_attempt_history UNIQUE (attempt_id, version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE recovery_task (
  id                  BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  attempt_id          BIGINT       NOT NULL,
  channel_account_id  BIGINT       NOT NULL,
  status              VARCHAR(16)  NOT NULL,
  strategy            VARCHAR(32)  NOT NULL,
  due_at              DATETIME(6)  NOT NULL,
  attempt_count       INT          NOT NULL DEFAULT 0,
  lease_owner         VARCHAR(96)  NULL,
  lease_until         DATETIME(6)  NULL,
  policy_version      VARCHAR(64)  NOT NULL,
  evidence_id         BIGINT       NULL,
  last_error          VARCHAR(64)  NULL,
  version             BIGINT       NOT NULL DEFAULT 0,
  created_at          DATETIME(6)  NOT NULL,
  updated_at          DATETIME(6)  NOT NULL,
  -- One recovery task per attempt, whoever creates it.
  CONSTRAINT uk_recovery_task_attempt UNIQUE (attempt_id),
  CONSTRAINT fk_recovery_task_attempt FOREIGN KEY (attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT ck_recovery_task_status CHECK (status IN ('READY', 'LEASED', 'RESOLVED', 'MANUAL'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_recovery_due ON recovery_task (status, due_at, id);
CREATE INDEX idx_recovery_task_ops ON recovery_task (due_at, id);

-- An attempt charged at its PSP although recorded FAILED: the charge is refunded.
CREATE TABLE attempt_compensation (
  attempt_id      BIGINT       NOT NULL PRIMARY KEY,
  trade_order_no  VARCHAR(64)  NOT NULL,
  refund_no       VARCHAR(64)  NOT NULL,
  amount          BIGINT       NOT NULL,
  status          VARCHAR(16)  NOT NULL,
  reason          VARCHAR(64)  NOT NULL,
  last_error      VARCHAR(64)  NULL,
  due_at          DATETIME(6)  NOT NULL,
  tries           INT          NOT NULL DEFAULT 0,
  version         BIGINT       NOT NULL DEFAULT 0,
  created_at      DATETIME(6)  NOT NULL,
  updated_at      DATETIME(6)  NOT NULL,
  CONSTRAINT fk_compensation_attempt FOREIGN KEY (attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT uk_compensation_refund_no UNIQUE (refund_no),
  CONSTRAINT ck_compensation_amount CHECK (amount > 0),
  CONSTRAINT attempt_compensation_status_check
    CHECK (status IN ('PENDING', 'REFUNDED', 'MANUAL', 'KEPT', 'FINANCE'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_compensation_due ON attempt_compensation (status, due_at);

-- A settled compensation never changes again.
DELIMITER $$
CREATE TRIGGER trg_attempt_compensation_guard BEFORE UPDATE ON attempt_compensation FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF OLD.status IN ('REFUNDED', 'KEPT', 'FINANCE') AND NOT (NEW.status <=> OLD.status) THEN
    SET msg = CONCAT('compensation ', OLD.attempt_id, ': settled status ', OLD.status,
                     ' cannot change to ', NEW.status);
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$
DELIMITER ;

CREATE TABLE channel_refund (
  refund_order_no     VARCHAR(64)  NOT NULL PRIMARY KEY,
  attempt_id          BIGINT       NOT NULL,
  provider_refund_no  VARCHAR(64)  NOT NULL,
  generation          INT          NOT NULL DEFAULT 1,
  amount              BIGINT       NOT NULL,
  created_at          DATETIME(6)  NOT NULL,
  updated_at          DATETIME(6)  NOT NULL,
  CONSTRAINT fk_channel_refund_attempt FOREIGN KEY (attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT uk_channel_refund_provider_no UNIQUE (provider_refund_no),
  CONSTRAINT ck_channel_refund_amount CHECK (amount > 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Webhook deliveries, claimed before any work and marked done after it.
CREATE TABLE channel_webhook_inbox (
  channel             VARCHAR(32)  NOT NULL,
  event_id            VARCHAR(128) NOT NULL,
  received_at         DATETIME(6)  NOT NULL,
  done_at             DATETIME(6)  NULL,
  channel_account_id  BIGINT       NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_account_id, event_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_webhook_inbox_done ON channel_webhook_inbox (done_at);

-- Versioned recovery policies; a version's body never changes once stored.
CREATE TABLE recovery_policy (
  version          VARCHAR(64)  NOT NULL PRIMARY KEY,
  body             MEDIUMTEXT   NOT NULL,
  body_sha256      CHAR(64)     NOT NULL,
  status           VARCHAR(16)  NOT NULL,
  rollout_percent  INT          NOT NULL DEFAULT 0,
  problems         MEDIUMTEXT   NULL,
  dry_run_report   MEDIUMTEXT   NULL,
  previous_active  VARCHAR(64)  NULL,
  created_by       VARCHAR(64)  NOT NULL,
  created_at       DATETIME(6)  NOT NULL,
  updated_at       DATETIME(6)  NOT NULL,
  row_version      BIGINT       NOT NULL DEFAULT 0,
  -- The status of an ACTIVE or CANDIDATE version, NULL otherwise: under uk_policy_live, at most
  -- one ACTIVE and at most one CANDIDATE version.
  live_status      VARCHAR(16) GENERATED ALWAYS AS
                     (CASE WHEN status IN ('ACTIVE', 'CANDIDATE') THEN status ELSE NULL END) STORED,
  CONSTRAINT ck_policy_version CHECK (CHAR_LENGTH(version) BETWEEN 1 AND 64),
  CONSTRAINT ck_policy_status CHECK (status IN ('DRAFT', 'VALIDATED', 'REJECTED', 'CANDIDATE',
                                                'ACTIVE', 'RETIRED', 'ROLLED_BACK')),
  CONSTRAINT ck_policy_percent CHECK (rollout_percent BETWEEN 0 AND 100),
  CONSTRAINT uk_policy_live UNIQUE (live_status)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_policy_created ON recovery_policy (created_at, version);

CREATE TABLE recovery_policy_event (
  id       BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  version  VARCHAR(64)   NOT NULL,
  action   VARCHAR(24)   NOT NULL,
  actor    VARCHAR(64)   NOT NULL,
  reason   VARCHAR(500)  NULL,
  at       DATETIME(6)   NOT NULL,
  detail   VARCHAR(1000) NULL,
  CONSTRAINT fk_policy_event_version FOREIGN KEY (version) REFERENCES recovery_policy (version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_policy_event_version ON recovery_policy_event (version, id);

-- Late charges: one durable check per flow that ended without payment.
CREATE TABLE late_charge_check (
  id               BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  flow_id          BIGINT       NOT NULL,
  merchant_id      VARCHAR(64)  NOT NULL,
  trade_order_no   VARCHAR(96)  NOT NULL,
  source           VARCHAR(16)  NOT NULL,
  status           VARCHAR(20)  NOT NULL,
  version          BIGINT       NOT NULL DEFAULT 0,
  next_check_time  DATETIME(6)  NOT NULL,
  retry_count      INT          NOT NULL DEFAULT 0,
  last_result      VARCHAR(32)  NULL,
  last_error_code  VARCHAR(64)  NULL,
  refund_id        BIGINT       NULL,
  lease_owner      VARCHAR(96)  NULL,
  created_at       DATETIME(6)  NOT NULL,
  updated_at       DATETIME(6)  NOT NULL,
  CONSTRAINT fk_late_charge_flow FOREIGN KEY (flow_id) REFERENCES pay_flow (id),
  CONSTRAINT uk_late_charge_flow UNIQUE (flow_id),
  CONSTRAINT ck_late_charge_source CHECK (source IN ('CALLBACK', 'SWEEP')),
  CONSTRAINT ck_late_charge_status CHECK (status IN
    ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL', 'NO_CHARGE', 'REFUND_REQUESTED', 'NOT_APPLICABLE')),
  CONSTRAINT ck_late_charge_refund CHECK (status <> 'REFUND_REQUESTED' OR refund_id IS NOT NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_late_charge_scan ON late_charge_check (status, next_check_time, id);
CREATE INDEX idx_late_charge_manual ON late_charge_check (status, id);

DELIMITER $$
CREATE TRIGGER trg_late_charge_check_guard BEFORE UPDATE ON late_charge_check FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.flow_id <> OLD.flow_id OR NEW.trade_order_no <> OLD.trade_order_no
     OR NEW.merchant_id <> OLD.merchant_id
     OR NEW.source <> OLD.source OR NEW.created_at <> OLD.created_at THEN
    SET msg = CONCAT('late_charge_check ', OLD.id, ': identity is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF OLD.refund_id IS NOT NULL AND NOT (NEW.refund_id <=> OLD.refund_id) THEN
    SET msg = CONCAT('late_charge_check ', OLD.id, ': the refund order cannot change');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF OLD.status IN ('NO_CHARGE', 'REFUND_REQUESTED', 'NOT_APPLICABLE') THEN
    SET msg = CONCAT('late_charge_check ', OLD.id, ': terminal status ', OLD.status,
                     ' cannot change');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.status <=> OLD.status) THEN
    IF NOT ((OLD.status = 'PENDING'
             AND NEW.status IN ('CHARGE_CONFIRMED', 'NO_CHARGE', 'MANUAL', 'NOT_APPLICABLE'))
         OR (OLD.status = 'MANUAL'
             AND NEW.status IN ('CHARGE_CONFIRMED', 'NO_CHARGE', 'NOT_APPLICABLE'))
         OR (OLD.status = 'CHARGE_CONFIRMED'
             AND NEW.status IN ('REFUND_REQUESTED', 'MANUAL', 'NOT_APPLICABLE'))) THEN
      SET msg = CONCAT('late_charge_check ', OLD.id, ': illegal transition ', OLD.status, ' -> ',
                       NEW.status);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NEW.version <> OLD.version + 1 THEN
      SET msg = CONCAT('late_charge_check ', OLD.id, ': a transition must bump the version by one');
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
  END IF;
END$$

CREATE TRIGGER trg_late_charge_check_no_delete BEFORE DELETE ON late_charge_check FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('late_charge_check ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$
DELIMITER ;

CREATE TABLE late_charge_sweep (
  stage_age_ms     BIGINT       NOT NULL PRIMARY KEY,
  cursor_ended_at  DATETIME(6)  NOT NULL,
  cursor_flow_id   BIGINT       NOT NULL,
  lease_owner      VARCHAR(96)  NULL,
  lease_until      DATETIME(6)  NULL,
  updated_at       DATETIME(6)  NOT NULL,
  CONSTRAINT ck_sweep_stage CHECK (stage_age_ms > 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The intake switch and its audit.
CREATE TABLE intake_switch (
  id          SMALLINT     NOT NULL PRIMARY KEY,
  `open`      BOOLEAN      NOT NULL,
  reason      VARCHAR(500) NULL,
  changed_by  VARCHAR(64)  NULL,
  changed_at  DATETIME(6)  NULL,
  CONSTRAINT ck_intake_switch_one CHECK (id = 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO intake_switch (id, `open`) VALUES (1, TRUE);

CREATE TABLE intake_audit (
  id          BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  `open`      BOOLEAN      NOT NULL,
  reason      VARCHAR(500) NULL,
  changed_by  VARCHAR(64)  NOT NULL,
  changed_at  DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The PSPs' daily statements, imported as delivered; at most one file in force per account-day.
CREATE TABLE statement_file (
  id              BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_ref     VARCHAR(128)  NOT NULL,
  statement_day   DATE          NOT NULL,
  format          VARCHAR(32)   NOT NULL,
  sha256          CHAR(64)      NOT NULL,
  expected_hash   VARCHAR(128)  NULL,
  status          VARCHAR(16)   NOT NULL,
  superseded_by   BIGINT        NULL,
  line_count      BIGINT        NOT NULL DEFAULT 0,
  refused_reason  VARCHAR(500)  NULL,
  refused_line    BIGINT        NULL,
  imported_at     DATETIME(6)   NOT NULL,
  -- 1 while the file is IMPORTED: under statement_file_in_force, one file in force per day.
  in_force        TINYINT GENERATED ALWAYS AS
                    (CASE WHEN status = 'IMPORTED' THEN 1 ELSE NULL END) STORED,
  -- Not deferrable (MySQL checks a foreign key at once): the newer file is inserted before the
  -- older one is marked superseded by it.
  CONSTRAINT fk_statement_file_superseded FOREIGN KEY (superseded_by) REFERENCES statement_file (id),
  CONSTRAINT ck_statement_file_status CHECK (status IN ('IMPORTED', 'REFUSED', 'SUPERSEDED')),
  CONSTRAINT ck_statement_file_superseded CHECK ((status = 'SUPERSEDED') = (superseded_by IS NOT NULL)),
  CONSTRAINT ck_statement_file_refused CHECK ((status = 'REFUSED') = (refused_reason IS NOT NULL)),
  CONSTRAINT statement_file_in_force UNIQUE (account_ref, statement_day, in_force)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX statement_file_by_hash ON statement_file (account_ref, statement_day, sha256);

-- Every physical line of an imported file, raw text unchanged (no foreign key to its file, as in
-- PostgreSQL: lines are written only in their file's import transaction).
CREATE TABLE statement_line (
  file_id          BIGINT        NOT NULL,
  line_no          BIGINT        NOT NULL,
  raw              TEXT          NOT NULL,
  kind             VARCHAR(16)   NULL,
  trade_order_no   VARCHAR(128)  NULL,
  refund_order_no  VARCHAR(128)  NULL,
  attempt_key      VARCHAR(128)  NULL,
  psp_reference    VARCHAR(128)  NULL,
  amount           BIGINT        NULL,
  fee              BIGINT        NULL,
  currency         VARCHAR(8)    NULL,
  at               DATETIME(6)   NULL,
  PRIMARY KEY (file_id, line_no),
  CONSTRAINT ck_statement_line_kind CHECK (kind IN ('CHARGE', 'REFUND', 'ADJUSTMENT', 'FEE'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX statement_line_trade ON statement_line (trade_order_no);
CREATE INDEX statement_line_attempt ON statement_line (attempt_key);
CREATE INDEX statement_line_refund ON statement_line (refund_order_no);

-- Reconciliation: runs, differences with their history, and each payment's settlement status.
CREATE TABLE recon_run (
  id               BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_ref      VARCHAR(128)  NOT NULL,
  statement_day    DATE          NOT NULL,
  file_id          BIGINT        NULL,
  status           VARCHAR(16)   NOT NULL,
  lease_owner      VARCHAR(96)   NULL,
  lease_until      DATETIME(6)   NULL,
  -- LINES is a reserved word in the MySQL family: statements quote it.
  `lines`          BIGINT        NOT NULL DEFAULT 0,
  differences      BIGINT        NOT NULL DEFAULT 0,
  new_differences  BIGINT        NOT NULL DEFAULT 0,
  auto_repaired    BIGINT        NOT NULL DEFAULT 0,
  tickets          BIGINT        NOT NULL DEFAULT 0,
  error            VARCHAR(500)  NULL,
  started_at       DATETIME(6)   NOT NULL,
  finished_at      DATETIME(6)   NULL,
  version          BIGINT        NOT NULL DEFAULT 0,
  -- 1 while the run is RUNNING: under uk_recon_run_running, one running run per account-day.
  running          TINYINT GENERATED ALWAYS AS
                     (CASE WHEN status = 'RUNNING' THEN 1 ELSE NULL END) STORED,
  CONSTRAINT ck_recon_run_status CHECK (status IN ('RUNNING', 'DONE', 'FAILED')),
  CONSTRAINT ck_recon_run_finished CHECK ((status = 'RUNNING') = (finished_at IS NULL)),
  CONSTRAINT ck_recon_run_error CHECK (status <> 'FAILED' OR error IS NOT NULL),
  CONSTRAINT uk_recon_run_running UNIQUE (account_ref, statement_day, running)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_recon_run_account ON recon_run (account_ref, id);

DELIMITER $$
CREATE TRIGGER trg_recon_run_guard BEFORE UPDATE ON recon_run FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF OLD.status IN ('DONE', 'FAILED') THEN
    SET msg = CONCAT('recon_run ', OLD.id, ': ', OLD.status, ' is final');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NEW.account_ref <> OLD.account_ref OR NEW.statement_day <> OLD.statement_day
     OR NEW.started_at <> OLD.started_at THEN
    SET msg = CONCAT('recon_run ', OLD.id, ': the account-day is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    SET msg = CONCAT('recon_run ', OLD.id, ': an update must bump the version by one');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

CREATE TRIGGER trg_recon_run_no_delete BEFORE DELETE ON recon_run FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('recon_run ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$
DELIMITER ;

CREATE TABLE recon_difference (
  id                 BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  account_ref        VARCHAR(128)  NOT NULL,
  statement_day      DATE          NOT NULL,
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
  confidence         VARCHAR(16)   NOT NULL,
  state              VARCHAR(16)   NOT NULL,
  repair_kind        VARCHAR(32)   NOT NULL,
  detail             VARCHAR(500)  NOT NULL,
  must_confirm       VARCHAR(300)  NOT NULL,
  evidence           MEDIUMTEXT    NOT NULL,
  actionable_at      DATETIME(6)   NOT NULL,
  lease_owner        VARCHAR(96)   NULL,
  lease_until        DATETIME(6)   NULL,
  run_id             BIGINT        NOT NULL,
  last_run_id        BIGINT        NOT NULL,
  version            BIGINT        NOT NULL DEFAULT 0,
  created_at         DATETIME(6)   NOT NULL,
  updated_at         DATETIME(6)   NOT NULL,
  CONSTRAINT ck_recon_difference_confidence CHECK (confidence IN ('CONFIRMED', 'SUGGESTED', 'NONE')),
  CONSTRAINT ck_recon_difference_state
    CHECK (state IN ('OPEN', 'AUTO_REPAIRING', 'NEEDS_PERSON', 'RESOLVED')),
  CONSTRAINT uk_recon_difference UNIQUE (account_ref, kind, identity)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_recon_difference_due ON recon_difference (state, actionable_at, id);
CREATE INDEX idx_recon_difference_state ON recon_difference (state, kind, id);
CREATE INDEX idx_recon_difference_trade ON recon_difference (trade_order_no);

CREATE TABLE recon_difference_history (
  id             BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  difference_id  BIGINT        NOT NULL,
  version        BIGINT        NOT NULL,
  from_state     VARCHAR(16)   NULL,
  to_state       VARCHAR(16)   NOT NULL,
  actor          VARCHAR(96)   NOT NULL,
  detail         VARCHAR(500)  NULL,
  at             DATETIME(6)   NOT NULL,
  CONSTRAINT uk_recon_difference_history UNIQUE (difference_id, version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

DELIMITER $$
CREATE TRIGGER trg_recon_difference_guard BEFORE UPDATE ON recon_difference FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF OLD.state = 'RESOLVED' THEN
    SET msg = CONCAT('recon_difference ', OLD.id, ': RESOLVED is final');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NEW.account_ref <> OLD.account_ref OR NEW.statement_day <> OLD.statement_day
     OR NEW.kind <> OLD.kind OR NEW.identity <> OLD.identity
     OR NOT (NEW.trade_order_no <=> OLD.trade_order_no)
     OR NOT (NEW.refund_order_no <=> OLD.refund_order_no)
     OR NOT (NEW.flow_id <=> OLD.flow_id)
     OR NOT (NEW.statement_file_id <=> OLD.statement_file_id)
     OR NOT (NEW.statement_line_no <=> OLD.statement_line_no)
     OR NOT (NEW.statement_amount <=> OLD.statement_amount)
     OR NOT (NEW.local_amount <=> OLD.local_amount)
     OR NOT (NEW.currency <=> OLD.currency)
     OR NEW.confidence <> OLD.confidence OR NEW.repair_kind <> OLD.repair_kind
     OR NEW.must_confirm <> OLD.must_confirm OR NEW.evidence <> OLD.evidence
     OR NEW.run_id <> OLD.run_id OR NEW.created_at <> OLD.created_at THEN
    SET msg = CONCAT('recon_difference ', OLD.id, ': what was found is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.state <=> OLD.state) THEN
    IF NOT ((OLD.state = 'OPEN' AND NEW.state IN ('AUTO_REPAIRING', 'NEEDS_PERSON', 'RESOLVED'))
         OR (OLD.state = 'AUTO_REPAIRING' AND NEW.state IN ('RESOLVED', 'NEEDS_PERSON'))
         OR (OLD.state = 'NEEDS_PERSON' AND NEW.state = 'RESOLVED')) THEN
      SET msg = CONCAT('recon_difference ', OLD.id, ': illegal move ', OLD.state, ' -> ',
                       NEW.state);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    SET msg = CONCAT('recon_difference ', OLD.id, ': an update must bump the version by one');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

CREATE TRIGGER trg_recon_difference_no_delete BEFORE DELETE ON recon_difference FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('recon_difference ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$
DELIMITER ;

CREATE TABLE payment_settlement (
  trade_order_no     VARCHAR(128)  NOT NULL PRIMARY KEY,
  status             VARCHAR(16)   NOT NULL,
  difference_id      BIGINT        NULL,
  statement_file_id  BIGINT        NULL,
  statement_line_no  BIGINT        NULL,
  version            BIGINT        NOT NULL DEFAULT 0,
  updated_at         DATETIME(6)   NOT NULL,
  CONSTRAINT ck_payment_settlement_status CHECK (status IN ('UNSETTLED', 'SETTLED', 'MISMATCH'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE payment_settlement_history (
  id                 BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  trade_order_no     VARCHAR(128)  NOT NULL,
  version            BIGINT        NOT NULL,
  from_status        VARCHAR(16)   NULL,
  to_status          VARCHAR(16)   NOT NULL,
  difference_id      BIGINT        NULL,
  statement_file_id  BIGINT        NULL,
  statement_line_no  BIGINT        NULL,
  at                 DATETIME(6)   NOT NULL,
  CONSTRAINT uk_payment_settlement_history UNIQUE (trade_order_no, version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

DELIMITER $$
CREATE TRIGGER trg_payment_settlement_history_no_update BEFORE UPDATE ON payment_settlement_history
  FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'payment_settlement_history is append-only';
END$$

CREATE TRIGGER trg_payment_settlement_history_no_delete BEFORE DELETE ON payment_settlement_history
  FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'payment_settlement_history is append-only';
END$$
DELIMITER ;

-- Difference tickets resolved by maker/checker, and their append-only audit.
CREATE TABLE recon_command (
  id                BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  difference_id     BIGINT        NOT NULL,
  kind              VARCHAR(32)   NOT NULL,
  expected_version  BIGINT        NOT NULL,
  operator_id       VARCHAR(64)   NOT NULL,
  ticket            VARCHAR(64)   NOT NULL,
  reason            VARCHAR(500)  NOT NULL,
  evidence          VARCHAR(2000) NOT NULL,
  state             VARCHAR(16)   NOT NULL,
  approver_id       VARCHAR(64)   NULL,
  result            VARCHAR(200)  NULL,
  created_at        DATETIME(6)   NOT NULL,
  decided_at        DATETIME(6)   NULL,
  open_proposal     TINYINT GENERATED ALWAYS AS
                      (CASE WHEN state = 'PROPOSED' THEN 1 ELSE NULL END) STORED,
  CONSTRAINT ck_recon_command_kind
    CHECK (kind IN ('RESOLVE_REPAIRED_OUTSIDE', 'ACCEPT_DIFFERENCE')),
  CONSTRAINT ck_recon_command_state CHECK (state IN ('PROPOSED', 'APPLIED', 'REJECTED', 'FAILED')),
  CONSTRAINT ck_recon_command_two_people CHECK (approver_id IS NULL OR approver_id <> operator_id),
  CONSTRAINT ck_recon_command_decided CHECK ((state = 'PROPOSED') = (decided_at IS NULL)),
  CONSTRAINT uk_recon_command_open UNIQUE (difference_id, open_proposal)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_recon_command_difference ON recon_command (difference_id, id);

CREATE TABLE recon_audit (
  id             BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  command_id     BIGINT       NOT NULL,
  difference_id  BIGINT       NOT NULL,
  actor_id       VARCHAR(64)  NOT NULL,
  role           VARCHAR(16)  NOT NULL,
  action         VARCHAR(16)  NOT NULL,
  detail         VARCHAR(500) NULL,
  at             DATETIME(6)  NOT NULL,
  CONSTRAINT fk_recon_audit_command FOREIGN KEY (command_id) REFERENCES recon_command (id),
  CONSTRAINT ck_recon_audit_action CHECK (action IN ('PROPOSE', 'APPROVE', 'REJECT', 'FAIL'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_recon_audit_difference ON recon_audit (difference_id, id);

DELIMITER $$
CREATE TRIGGER recon_audit_no_update BEFORE UPDATE ON recon_audit FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'recon_audit is append-only';
END$$

CREATE TRIGGER recon_audit_no_delete BEFORE DELETE ON recon_audit FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'recon_audit is append-only';
END$$
DELIMITER ;

-- The gray migration's switch and its audit.
CREATE TABLE migration_switch (
  id           SMALLINT     NOT NULL PRIMARY KEY,
  rolled_back  BOOLEAN      NOT NULL,
  reason       VARCHAR(500) NULL,
  changed_by   VARCHAR(64)  NULL,
  changed_at   DATETIME(6)  NULL,
  CONSTRAINT ck_migration_switch_one CHECK (id = 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO migration_switch (id, rolled_back) VALUES (1, FALSE);

CREATE TABLE migration_audit (
  id           BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  rolled_back  BOOLEAN      NOT NULL,
  reason       VARCHAR(500) NULL,
  changed_by   VARCHAR(64)  NOT NULL,
  changed_at   DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Batch refunds: proposed, approved by another person, run by a leased runner.
CREATE TABLE refund_batch (
  id                BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  merchant_id       VARCHAR(64)   NOT NULL,
  scene             VARCHAR(32)   NOT NULL,
  paid_from         DATETIME(6)   NULL,
  paid_to           DATETIME(6)   NULL,
  -- A JSON array of business keys (MySQL has no array type).
  biz_keys          JSON          NULL,
  state             VARCHAR(16)   NOT NULL,
  version           BIGINT        NOT NULL DEFAULT 0,
  proposer_id       VARCHAR(64)   NOT NULL,
  approver_id       VARCHAR(64)   NULL,
  ticket            VARCHAR(64)   NOT NULL,
  reason            VARCHAR(500)  NOT NULL,
  decision_note     VARCHAR(500)  NULL,
  lease_owner       VARCHAR(128)  NULL,
  due_at            DATETIME(6)   NOT NULL,
  cursor_item_id    BIGINT        NOT NULL DEFAULT 0,
  total_items       INT           NOT NULL,
  refunded          INT           NOT NULL DEFAULT 0,
  already_refunded  INT           NOT NULL DEFAULT 0,
  failed            INT           NOT NULL DEFAULT 0,
  needs_person      INT           NOT NULL DEFAULT 0,
  created_at        DATETIME(6)   NOT NULL,
  decided_at        DATETIME(6)   NULL,
  finished_at       DATETIME(6)   NULL,
  updated_at        DATETIME(6)   NOT NULL,
  -- 1 while the batch has not ended: under uk_refund_batch_open, one open batch per scene.
  open_batch        TINYINT GENERATED ALWAYS AS
                      (CASE WHEN state IN ('PROPOSED', 'APPROVED', 'RUNNING', 'PAUSED') THEN 1
                            ELSE NULL END) STORED,
  CONSTRAINT ck_refund_batch_state CHECK (state IN
    ('PROPOSED', 'APPROVED', 'RUNNING', 'PAUSED', 'DONE', 'REJECTED', 'CANCELLED')),
  CONSTRAINT ck_refund_batch_two_people CHECK (approver_id IS NULL OR approver_id <> proposer_id),
  CONSTRAINT ck_refund_batch_window CHECK (paid_from IS NULL OR paid_to IS NULL OR paid_from < paid_to),
  CONSTRAINT uk_refund_batch_open UNIQUE (merchant_id, scene, open_batch)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_refund_batch_due ON refund_batch (state, due_at, id);

CREATE TABLE refund_batch_item (
  id           BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  batch_id     BIGINT        NOT NULL,
  flow_id      BIGINT        NOT NULL,
  account_id   BIGINT        NOT NULL,
  amount       BIGINT        NOT NULL,
  outcome      VARCHAR(16)   NOT NULL,
  refund_id    BIGINT        NULL,
  detail       VARCHAR(200)  NULL,
  updated_at   DATETIME(6)   NOT NULL,
  CONSTRAINT fk_refund_batch_item_batch FOREIGN KEY (batch_id) REFERENCES refund_batch (id),
  CONSTRAINT fk_refund_batch_item_flow FOREIGN KEY (flow_id) REFERENCES pay_flow (id),
  CONSTRAINT fk_refund_batch_item_refund FOREIGN KEY (refund_id) REFERENCES refund_order (id),
  CONSTRAINT ck_refund_batch_item_amount CHECK (amount > 0),
  CONSTRAINT uk_refund_batch_item UNIQUE (batch_id, flow_id),
  CONSTRAINT ck_refund_batch_item_outcome CHECK (outcome IN
    ('PENDING', 'ORDERED', 'REFUNDED', 'ALREADY_REFUNDED', 'FAILED', 'NEEDS_PERSON')),
  CONSTRAINT ck_refund_batch_item_order CHECK (outcome <> 'ORDERED' OR refund_id IS NOT NULL)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_refund_batch_item_open ON refund_batch_item (batch_id, outcome, id);
CREATE INDEX idx_refund_batch_item_flow ON refund_batch_item (flow_id, id);

DELIMITER $$
CREATE TRIGGER trg_refund_batch_guard BEFORE UPDATE ON refund_batch FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.merchant_id <> OLD.merchant_id OR NEW.scene <> OLD.scene
     OR NEW.proposer_id <> OLD.proposer_id THEN
    SET msg = CONCAT('refund_batch ', OLD.id, ': scope and proposer are frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.state <=> OLD.state) THEN
    IF OLD.state IN ('DONE', 'REJECTED', 'CANCELLED') THEN
      SET msg = CONCAT('refund_batch ', OLD.id, ': terminal state ', OLD.state, ' cannot change');
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
    IF NOT ((OLD.state = 'PROPOSED' AND NEW.state IN ('APPROVED', 'REJECTED', 'CANCELLED'))
         OR (OLD.state = 'APPROVED' AND NEW.state IN ('RUNNING', 'PAUSED'))
         OR (OLD.state = 'RUNNING' AND NEW.state IN ('PAUSED', 'DONE'))
         OR (OLD.state = 'PAUSED' AND NEW.state IN ('RUNNING', 'CANCELLED'))) THEN
      SET msg = CONCAT('refund_batch ', OLD.id, ': illegal transition ', OLD.state, ' -> ',
                       NEW.state);
      SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
    END IF;
  END IF;
END$$

CREATE TRIGGER trg_refund_batch_no_delete BEFORE DELETE ON refund_batch FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('refund_batch ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$

CREATE TRIGGER trg_refund_batch_item_guard BEFORE UPDATE ON refund_batch_item FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  IF NEW.flow_id <> OLD.flow_id OR NEW.batch_id <> OLD.batch_id OR NEW.amount <> OLD.amount THEN
    SET msg = CONCAT('refund_batch_item ', OLD.id, ': identity is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF NOT (NEW.outcome <=> OLD.outcome)
     AND NOT (OLD.outcome = 'PENDING' OR (OLD.outcome = 'ORDERED' AND NEW.outcome <> 'PENDING')) THEN
    SET msg = CONCAT('refund_batch_item ', OLD.id, ': outcome ', OLD.outcome, ' is final');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
  IF OLD.refund_id IS NOT NULL AND NOT (NEW.refund_id <=> OLD.refund_id) THEN
    SET msg = CONCAT('refund_batch_item ', OLD.id, ': refund order is frozen');
    SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
  END IF;
END$$

CREATE TRIGGER trg_refund_batch_item_no_delete BEFORE DELETE ON refund_batch_item FOR EACH ROW
BEGIN
  DECLARE msg VARCHAR(255);
  SET msg = CONCAT('refund_batch_item ', OLD.id, ': rows are never deleted');
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = msg;
END$$
DELIMITER ;

CREATE TABLE refund_batch_audit (
  id         BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
  batch_id   BIGINT       NOT NULL,
  actor_id   VARCHAR(128) NOT NULL,
  role       VARCHAR(16)  NOT NULL,
  action     VARCHAR(16)  NOT NULL,
  detail     VARCHAR(500) NULL,
  at         DATETIME(6)  NOT NULL,
  CONSTRAINT fk_refund_batch_audit_batch FOREIGN KEY (batch_id) REFERENCES refund_batch (id),
  CONSTRAINT ck_refund_batch_audit_action CHECK (action IN
    ('PROPOSE', 'APPROVE', 'REJECT', 'PAUSE', 'RESUME', 'CANCEL', 'DONE'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_refund_batch_audit_batch ON refund_batch_audit (batch_id, id);

DELIMITER $$
CREATE TRIGGER refund_batch_audit_no_update BEFORE UPDATE ON refund_batch_audit FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'refund_batch_audit is append-only';
END$$

CREATE TRIGGER refund_batch_audit_no_delete BEFORE DELETE ON refund_batch_audit FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'refund_batch_audit is append-only';
END$$
DELIMITER ;

-- Payment details: the client action of an attempt, merchants' channels, the chosen method.
CREATE TABLE payment_attempt_action (
  attempt_id  BIGINT       NOT NULL PRIMARY KEY,
  kind        VARCHAR(32)  NOT NULL,
  fields      MEDIUMTEXT   NOT NULL,
  created_at  DATETIME(6)  NOT NULL,
  CONSTRAINT fk_attempt_action_attempt FOREIGN KEY (attempt_id) REFERENCES payment_attempt (id),
  CONSTRAINT ck_attempt_action_kind
    CHECK (kind IN ('WECHAT_NATIVE', 'WECHAT_JSAPI', 'STRIPE_NEXT_ACTION'))
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE merchant_channel (
  merchant_id         VARCHAR(64)  NOT NULL,
  channel_account_id  BIGINT       NOT NULL,
  sub_merchant        VARCHAR(32)  NULL,
  payment_methods     VARCHAR(128) NOT NULL,
  min_amount          BIGINT       NULL,
  max_amount          BIGINT       NULL,
  enabled             BOOLEAN      NOT NULL DEFAULT TRUE,
  PRIMARY KEY (merchant_id, channel_account_id),
  CONSTRAINT fk_merchant_channel_account FOREIGN KEY (channel_account_id)
    REFERENCES channel_account (id),
  CONSTRAINT ck_merchant_channel_min CHECK (min_amount IS NULL OR min_amount > 0),
  CONSTRAINT ck_merchant_channel_max CHECK (max_amount IS NULL OR max_amount > 0),
  CONSTRAINT ck_merchant_channel_limits
    CHECK (min_amount IS NULL OR max_amount IS NULL OR min_amount <= max_amount)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE payment_method_choice (
  merchant_id  VARCHAR(64)   NOT NULL,
  user_id      BIGINT        NOT NULL,
  scene        VARCHAR(32)   NOT NULL,
  biz_key      VARCHAR(160)  NOT NULL,
  method       VARCHAR(32)   NOT NULL,
  token        VARCHAR(64)   NULL,
  payer_ref    VARCHAR(128)  NULL,
  chosen_at    DATETIME(6)   NOT NULL,
  PRIMARY KEY (merchant_id, user_id, scene, biz_key)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Retention: terminal flows and their history move to archive tables of the same columns.
CREATE TABLE pay_flow_archive (
  id                  BIGINT       NOT NULL PRIMARY KEY,
  merchant_id         VARCHAR(64)  NOT NULL DEFAULT 'default',
  user_id             BIGINT       NOT NULL,
  scene               VARCHAR(32)  NOT NULL,
  biz_key             VARCHAR(160) NOT NULL,
  attempt_no          INT          NOT NULL,
  channel             VARCHAR(32)  NOT NULL DEFAULT 'wallet',
  trade_order_no      VARCHAR(96)  NULL,
  refund_order_no     VARCHAR(96)  NULL,
  status              VARCHAR(24)  NOT NULL,
  version             BIGINT       NOT NULL DEFAULT 0,
  amount              BIGINT       NOT NULL,
  currency            CHAR(3)      NOT NULL,
  biz_deadline_time   DATETIME(6)  NOT NULL,
  next_retry_time     DATETIME(6)  NOT NULL,
  retry_count         INT          NOT NULL DEFAULT 0,
  last_error_code     VARCHAR(64)  NULL,
  channel_request_id  VARCHAR(128) NULL,
  review_state        VARCHAR(16)  NOT NULL DEFAULT 'NONE',
  review_reason       VARCHAR(160) NULL,
  lease_owner         VARCHAR(96)  NULL,
  created_at          DATETIME(6)  NOT NULL,
  updated_at          DATETIME(6)  NOT NULL,
  cancel_requested_at DATETIME(6)  NULL,
  CONSTRAINT uk_archive_trade_order_no UNIQUE (trade_order_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_archive_goal ON pay_flow_archive (merchant_id, user_id, scene, biz_key, attempt_no);
CREATE INDEX idx_archive_biz_key ON pay_flow_archive (merchant_id, biz_key, id);

CREATE TABLE pay_flow_history_archive (
  id               BIGINT       NOT NULL PRIMARY KEY,
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
  created_at       DATETIME(6)  NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
CREATE INDEX idx_archive_history_flow ON pay_flow_history_archive (flow_id, id);
CREATE INDEX idx_pay_flow_archivable ON pay_flow (updated_at, id);

-- Archived rows are as frozen as terminal rows: no update, no delete.
DELIMITER $$
CREATE TRIGGER trg_pay_flow_archive_no_update BEFORE UPDATE ON pay_flow_archive FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'pay_flow_archive: archived rows never change';
END$$

CREATE TRIGGER trg_pay_flow_archive_no_delete BEFORE DELETE ON pay_flow_archive FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'pay_flow_archive: archived rows never change';
END$$

CREATE TRIGGER trg_pay_flow_history_archive_no_update BEFORE UPDATE ON pay_flow_history_archive
  FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'pay_flow_history_archive: archived rows never change';
END$$

CREATE TRIGGER trg_pay_flow_history_archive_no_delete BEFORE DELETE ON pay_flow_history_archive
  FOR EACH ROW
BEGIN
  SIGNAL SQLSTATE '23514' SET MESSAGE_TEXT = 'pay_flow_history_archive: archived rows never change';
END$$
DELIMITER ;

-- The retention job's lease: one node runs the purges and the archiver at a time.
CREATE TABLE retention_lease (
  name         VARCHAR(32)  NOT NULL PRIMARY KEY,
  lease_owner  VARCHAR(96)  NULL,
  lease_until  DATETIME(6)  NULL,
  last_run_at  DATETIME(6)  NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
INSERT INTO retention_lease (name) VALUES ('retention');
