-- Idempotency of the payment API (issue 4): one row per (merchant, Idempotency-Key). The request
-- hash refuses the same key with other parameters; the state and lock tell a concurrent request
-- that the first one is still running; flow_id is the answer every replay returns.
CREATE TABLE idempotency_key (
  merchant_id   VARCHAR(64)  NOT NULL,
  idem_key      VARCHAR(255) NOT NULL,
  request_hash  CHAR(64)     NOT NULL,
  state         VARCHAR(16)  NOT NULL,
  flow_id       BIGINT       NULL,
  locked_until  TIMESTAMPTZ  NOT NULL,
  created_at    TIMESTAMPTZ  NOT NULL,
  updated_at    TIMESTAMPTZ  NOT NULL,
  CONSTRAINT pk_idempotency_key PRIMARY KEY (merchant_id, idem_key),
  CONSTRAINT ck_idempotency_state CHECK (state IN ('IN_FLIGHT', 'DONE')),
  CONSTRAINT ck_idempotency_done CHECK (state <> 'DONE' OR flow_id IS NOT NULL)
);

-- GET /v1/payment-flows?bizKey=...: the goal's attempts by business key.
CREATE INDEX idx_pay_flow_biz_key ON pay_flow (biz_key);

-- The manual-review backlog (metrics, the review queue): only flows a person must see.
CREATE INDEX idx_pay_flow_review ON pay_flow (review_state, id) WHERE review_state <> 'NONE';
