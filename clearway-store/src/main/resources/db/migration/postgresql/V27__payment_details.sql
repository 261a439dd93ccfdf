-- Payment details for the client: the party of an attempt (sub-merchant in partner mode, payer id
-- for JSAPI), what the customer's client needs to complete a payment, and each merchant's channel
-- configuration (methods enabled, amount limits, sub-merchant id).

-- Both frozen with the attempt's key and create-request hash: a replay sends the same party.
ALTER TABLE payment_attempt ADD COLUMN sub_merchant VARCHAR(32);
ALTER TABLE payment_attempt ADD COLUMN payer_ref VARCHAR(128);

CREATE OR REPLACE FUNCTION payment_attempt_guard() RETURNS trigger AS $$
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
     OR NEW.currency <> OLD.currency OR NEW.origin <> OLD.origin
     OR NEW.sub_merchant IS DISTINCT FROM OLD.sub_merchant
     OR NEW.payer_ref IS DISTINCT FROM OLD.payer_ref THEN
    RAISE EXCEPTION 'attempt % identity is frozen', OLD.id;
  END IF;
  IF NEW.version <> OLD.version + 1 THEN
    RAISE EXCEPTION 'attempt % update without version + 1', OLD.id;
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;

-- The PSP's first answer's client action of an attempt that waits for the customer: a QR code
-- (code_url), the signed JSAPI parameters, a client secret and next action. Meant for the
-- customer's client; no key. Written once per attempt, never changed.
CREATE TABLE payment_attempt_action (
  attempt_id  BIGINT       PRIMARY KEY REFERENCES payment_attempt (id),
  kind        VARCHAR(32)  NOT NULL
              CHECK (kind IN ('WECHAT_NATIVE', 'WECHAT_JSAPI', 'STRIPE_NEXT_ACTION')),
  fields      TEXT         NOT NULL,
  created_at  TIMESTAMPTZ  NOT NULL
);

-- One merchant's configuration on one channel account. A merchant with rows here pays only through
-- the accounts they name, by the methods enabled there, within the limits.
CREATE TABLE merchant_channel (
  merchant_id         VARCHAR(64)  NOT NULL,
  channel_account_id  BIGINT       NOT NULL REFERENCES channel_account (id),
  sub_merchant        VARCHAR(32),
  payment_methods     VARCHAR(128) NOT NULL,
  min_amount          BIGINT       CHECK (min_amount IS NULL OR min_amount > 0),
  max_amount          BIGINT       CHECK (max_amount IS NULL OR max_amount > 0),
  enabled             BOOLEAN      NOT NULL DEFAULT TRUE,
  PRIMARY KEY (merchant_id, channel_account_id),
  CONSTRAINT ck_merchant_channel_limits
    CHECK (min_amount IS NULL OR max_amount IS NULL OR min_amount <= max_amount)
);

-- The payment method a merchant's request chose for a goal (and the payer's id at the PSP where the
-- method needs one), read when the goal's flow pays. Written before the flow starts; a later
-- request for the same goal replaces it.
CREATE TABLE payment_method_choice (
  merchant_id  VARCHAR(64)   NOT NULL,
  user_id      BIGINT        NOT NULL,
  scene        VARCHAR(32)   NOT NULL,
  biz_key      VARCHAR(160)  NOT NULL,
  method       VARCHAR(32)   NOT NULL,
  -- The opaque PSP token of the method (such as pm_card_visa), never card data; null: the method.
  token        VARCHAR(64),
  payer_ref    VARCHAR(128),
  chosen_at    TIMESTAMPTZ   NOT NULL,
  PRIMARY KEY (merchant_id, user_id, scene, biz_key)
);
