-- Payment channels (issue 5, seed 001): channel accounts, the payment order of one trade order
-- number, its attempts across PSPs, provider evidence, attempt history, recovery tasks and the
-- compensation of attempts charged although recorded as failed.

CREATE TABLE channel_account (
  id              BIGINT       PRIMARY KEY,
  channel         VARCHAR(32)  NOT NULL,
  account_ref     VARCHAR(64)  NOT NULL,
  -- Failover excludes the whole failure domain of a failed attempt (a PSP, a region).
  failure_domain  VARCHAR(64)  NOT NULL,
  payment_methods VARCHAR(128) NOT NULL,
  priority        INT          NOT NULL,
  enabled         BOOLEAN      NOT NULL DEFAULT TRUE,
  CONSTRAINT uk_channel_account UNIQUE (channel, account_ref)
);

-- One payment order per trade order number: what the flow engine calls "the wallet order".
CREATE TABLE payment_order (
  trade_order_no  VARCHAR(64)  PRIMARY KEY,
  -- 0 only for an order closed before any charge request reached the channel layer.
  amount          BIGINT       NOT NULL CHECK (amount >= 0),
  currency        VARCHAR(3)   NOT NULL,
  payment_method  VARCHAR(32)  NOT NULL,
  status          VARCHAR(16)  NOT NULL CHECK (status IN ('OPEN', 'CLOSED')),
  closed_reason   VARCHAR(64),
  created_at      TIMESTAMPTZ  NOT NULL,
  updated_at      TIMESTAMPTZ  NOT NULL
);

CREATE SEQUENCE payment_attempt_seq;

CREATE TABLE payment_attempt (
  id                        BIGINT       PRIMARY KEY,
  trade_order_no            VARCHAR(64)  NOT NULL REFERENCES payment_order (trade_order_no),
  seq                       INT          NOT NULL CHECK (seq > 0),
  channel_account_id        BIGINT       NOT NULL REFERENCES channel_account (id),
  -- The three kinds of "again" (seed 001 section 2): a transport replay is not a new attempt
  -- (replay_count grows); a business retry and a failover are new attempts with new keys.
  origin                    VARCHAR(16)  NOT NULL
                            CHECK (origin IN ('INITIAL', 'BUSINESS_RETRY', 'FAILOVER')),
  previous_attempt_id       BIGINT       REFERENCES payment_attempt (id),
  excluded_domains          VARCHAR(256),
  provider_idempotency_key  VARCHAR(64)  NOT NULL,
  create_request_hash       CHAR(64)     NOT NULL,
  provider_payment_id       VARCHAR(128),
  status                    VARCHAR(16)  NOT NULL
                            CHECK (status IN ('CREATED', 'PENDING', 'UNKNOWN', 'SUCCEEDED', 'FAILED')),
  result_certainty          VARCHAR(24)  NOT NULL,
  error_code                VARCHAR(64),
  failover_eligible         BOOLEAN      NOT NULL DEFAULT FALSE,
  customer_action_pending   BOOLEAN      NOT NULL DEFAULT FALSE,
  amount                    BIGINT       NOT NULL CHECK (amount > 0),
  currency                  VARCHAR(3)   NOT NULL,
  payment_method            VARCHAR(32)  NOT NULL,
  replay_count              INT          NOT NULL DEFAULT 0,
  version                   BIGINT       NOT NULL DEFAULT 0,
  created_at                TIMESTAMPTZ  NOT NULL,
  updated_at                TIMESTAMPTZ  NOT NULL,
  -- The PSP's idempotency domain is the channel account.
  CONSTRAINT uk_attempt_provider_key UNIQUE (channel_account_id, provider_idempotency_key),
  CONSTRAINT uk_attempt_seq UNIQUE (trade_order_no, seq),
  CONSTRAINT ck_failover_has_previous CHECK (origin = 'INITIAL' OR previous_attempt_id IS NOT NULL)
);
-- At most one live attempt per order: a new attempt (failover, business retry) can only be
-- inserted once the previous one is final. This is the database half of the failover guard.
CREATE UNIQUE INDEX uk_attempt_live ON payment_attempt (trade_order_no)
  WHERE status IN ('CREATED', 'PENDING', 'UNKNOWN');

-- Terminal attempts never change; identity, amount and key never change; versions only grow.
CREATE FUNCTION payment_attempt_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'payment_attempt rows are never deleted';
  END IF;
  IF OLD.status IN ('SUCCEEDED', 'FAILED') THEN
    RAISE EXCEPTION 'attempt % is final (%)', OLD.id, OLD.status;
  END IF;
  IF NEW.trade_order_no <> OLD.trade_order_no OR NEW.channel_account_id <> OLD.channel_account_id
     OR NEW.provider_idempotency_key <> OLD.provider_idempotency_key
     OR NEW.create_request_hash <> OLD.create_request_hash OR NEW.amount <> OLD.amount
     OR NEW.currency <> OLD.currency OR NEW.origin <> OLD.origin THEN
    RAISE EXCEPTION 'attempt % identity is frozen', OLD.id;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'attempt % update without version + 1', OLD.id;
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER trg_payment_attempt_guard BEFORE UPDATE OR DELETE ON payment_attempt
  FOR EACH ROW EXECUTE FUNCTION payment_attempt_guard();

CREATE TABLE provider_evidence (
  id                  BIGSERIAL    PRIMARY KEY,
  attempt_id          BIGINT       NOT NULL REFERENCES payment_attempt (id),
  task_id             BIGINT,
  source              VARCHAR(16)  NOT NULL
                      CHECK (source IN ('RESPONSE', 'CALLBACK', 'QUERY', 'RECONCILIATION', 'MANUAL')),
  operation           VARCHAR(24)  NOT NULL,
  certainty           VARCHAR(24)  NOT NULL,
  provider_status     VARCHAR(48),
  provider_object_id  VARCHAR(128),
  error_code          VARCHAR(64),
  request_id          VARCHAR(128),
  raw_sha256          CHAR(64),
  policy_version      VARCHAR(64),
  observed_at         TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_evidence_attempt ON provider_evidence (attempt_id, id);

CREATE TABLE payment_attempt_history (
  id           BIGSERIAL    PRIMARY KEY,
  attempt_id   BIGINT       NOT NULL,
  version      BIGINT       NOT NULL,
  from_status  VARCHAR(16),
  to_status    VARCHAR(16)  NOT NULL,
  certainty    VARCHAR(24)  NOT NULL,
  source       VARCHAR(16)  NOT NULL,
  evidence_id  BIGINT,
  at           TIMESTAMPTZ  NOT NULL,
  CONSTRAINT uk_attempt_history UNIQUE (attempt_id, version)
);

CREATE TABLE recovery_task (
  id              BIGSERIAL    PRIMARY KEY,
  -- One recovery task per attempt, whoever creates it (response path, webhook, scanner).
  attempt_id      BIGINT       NOT NULL UNIQUE REFERENCES payment_attempt (id),
  channel_account_id BIGINT    NOT NULL,
  status          VARCHAR(16)  NOT NULL CHECK (status IN ('READY', 'LEASED', 'RESOLVED', 'MANUAL')),
  strategy        VARCHAR(32)  NOT NULL,
  due_at          TIMESTAMPTZ  NOT NULL,
  attempt_count   INT          NOT NULL DEFAULT 0,
  lease_owner     VARCHAR(96),
  lease_until     TIMESTAMPTZ,
  policy_version  VARCHAR(64)  NOT NULL,
  evidence_id     BIGINT,
  last_error      VARCHAR(64),
  version         BIGINT       NOT NULL DEFAULT 0,
  created_at      TIMESTAMPTZ  NOT NULL,
  updated_at      TIMESTAMPTZ  NOT NULL
);
-- The claim's index: only open tasks, in due order.
CREATE INDEX idx_recovery_due ON recovery_task (due_at, id) WHERE status IN ('READY', 'LEASED');

-- An attempt charged at its PSP although it is recorded FAILED (a late success, a PSP that lied):
-- the money has moved, so the attempt is not rewritten; the charge is refunded (seed 001 s. 7).
CREATE TABLE attempt_compensation (
  attempt_id      BIGINT       PRIMARY KEY REFERENCES payment_attempt (id),
  trade_order_no  VARCHAR(64)  NOT NULL,
  refund_no       VARCHAR(64)  NOT NULL UNIQUE,
  amount          BIGINT       NOT NULL CHECK (amount > 0),
  status          VARCHAR(16)  NOT NULL CHECK (status IN ('PENDING', 'REFUNDED', 'MANUAL')),
  reason          VARCHAR(64)  NOT NULL,
  last_error      VARCHAR(64),
  due_at          TIMESTAMPTZ  NOT NULL,
  tries           INT          NOT NULL DEFAULT 0,
  version         BIGINT       NOT NULL DEFAULT 0,
  created_at      TIMESTAMPTZ  NOT NULL,
  updated_at      TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_compensation_due ON attempt_compensation (due_at) WHERE status = 'PENDING';

-- Refunds of a flow (refund order numbers of the flow engine) routed to the charged attempt.
CREATE TABLE channel_refund (
  refund_order_no  VARCHAR(64)  PRIMARY KEY,
  attempt_id       BIGINT       NOT NULL REFERENCES payment_attempt (id),
  -- The number sent to the PSP; a refund the PSP CLOSED needs a new one (suffix -2, -3...).
  provider_refund_no VARCHAR(64) NOT NULL UNIQUE,
  generation       INT          NOT NULL DEFAULT 1,
  amount           BIGINT       NOT NULL CHECK (amount > 0),
  created_at       TIMESTAMPTZ  NOT NULL,
  updated_at       TIMESTAMPTZ  NOT NULL
);

-- Webhook deliveries already processed (PSPs redeliver; event ids dedupe).
CREATE TABLE channel_webhook_inbox (
  channel      VARCHAR(32)  NOT NULL,
  event_id     VARCHAR(128) NOT NULL,
  received_at  TIMESTAMPTZ  NOT NULL,
  PRIMARY KEY (channel, event_id)
);
