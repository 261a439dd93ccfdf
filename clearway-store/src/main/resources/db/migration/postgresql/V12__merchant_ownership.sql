-- Every payment belongs to one merchant. The goal becomes (merchant, user, scene, business key):
-- two merchants may use the same business key without touching each other. Rows written before
-- ownership existed belong to the merchant 'default', so an existing database keeps working.
ALTER TABLE pay_flow ADD COLUMN merchant_id VARCHAR(64) NOT NULL DEFAULT 'default';

ALTER TABLE pay_flow DROP CONSTRAINT uk_biz_attempt;
ALTER TABLE pay_flow ADD CONSTRAINT uk_biz_attempt
  UNIQUE (merchant_id, user_id, scene, biz_key, attempt_no);

DROP INDEX uk_live_attempt;
CREATE UNIQUE INDEX uk_live_attempt ON pay_flow (merchant_id, user_id, scene, biz_key)
  WHERE status NOT IN ('PAY_FAIL', 'CLOSED');

-- GET /v1/payment-flows?bizKey=: one merchant's attempts of a business key, newest first.
DROP INDEX idx_pay_flow_biz_key;
CREATE INDEX idx_pay_flow_biz_key ON pay_flow (merchant_id, biz_key, id);

-- The owner is as frozen as the goal. The trigger fires only for statements that name the
-- column, so transitions (which never do) pay nothing for it.
CREATE FUNCTION pay_flow_owner_guard() RETURNS trigger AS $$
BEGIN
  IF NEW.merchant_id IS DISTINCT FROM OLD.merchant_id THEN
    RAISE EXCEPTION 'pay_flow %: the owning merchant is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_pay_flow_owner_guard BEFORE UPDATE OF merchant_id ON pay_flow
  FOR EACH ROW EXECUTE FUNCTION pay_flow_owner_guard();

-- A refund order belongs to the merchant of its payment (copied at creation, frozen).
ALTER TABLE refund_order ADD COLUMN merchant_id VARCHAR(64) NOT NULL DEFAULT 'default';
UPDATE refund_order r SET merchant_id = f.merchant_id
  FROM pay_flow f WHERE f.id = r.flow_id AND r.merchant_id <> f.merchant_id;

CREATE FUNCTION refund_order_owner_guard() RETURNS trigger AS $$
BEGIN
  IF NEW.merchant_id IS DISTINCT FROM OLD.merchant_id THEN
    RAISE EXCEPTION 'refund_order %: the owning merchant is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_refund_order_owner_guard BEFORE UPDATE OF merchant_id ON refund_order
  FOR EACH ROW EXECUTE FUNCTION refund_order_owner_guard();

-- Idempotency records were keyed by a digest-named principal; they now belong to the named
-- merchant. Existing records move to 'default' unless two principals used the same key (those
-- stay where they are and simply expire: the goal's live attempt still answers a retry).
UPDATE idempotency_key k SET merchant_id = 'default'
 WHERE k.merchant_id <> 'default'
   AND NOT EXISTS (SELECT 1 FROM idempotency_key o
                    WHERE o.idem_key = k.idem_key AND o.merchant_id <> k.merchant_id);

-- What a callback caused (the flow it woke) belongs to that flow's merchant; a callback for an
-- unknown order has none.
ALTER TABLE callback_inbox ADD COLUMN merchant_id VARCHAR(64) NULL;
UPDATE callback_inbox c SET merchant_id = f.merchant_id FROM pay_flow f WHERE f.id = c.flow_id;

-- Every event names the merchant it concerns, so a consumer can route it without a lookup.
ALTER TABLE outbox_event ADD COLUMN merchant_id VARCHAR(64) NULL;
UPDATE outbox_event SET merchant_id = 'default';
