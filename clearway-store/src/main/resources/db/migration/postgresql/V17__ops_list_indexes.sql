-- Every ops list pages with a cursor (newest first by id unless its order says otherwise); each
-- list's statement reads an index that serves both its filter and its order, so a page costs the
-- same however long the list and however deep the page. Partial indexes hold only the rows a
-- person must see, so their size follows that backlog, not the table.

-- The review queue (escalated and frozen flows), newest first: all merchants, and one merchant.
CREATE INDEX idx_pay_flow_review_queue ON pay_flow (id) WHERE review_state <> 'NONE';
CREATE INDEX idx_pay_flow_review_merchant ON pay_flow (merchant_id, id)
  WHERE review_state <> 'NONE';

-- Refunds whose retry budget is spent (ABNORMAL), newest first: all merchants, and one merchant.
CREATE INDEX idx_refund_abnormal ON refund_order (id) WHERE status = 'ABNORMAL';
CREATE INDEX idx_refund_abnormal_merchant ON refund_order (merchant_id, id)
  WHERE status = 'ABNORMAL';

-- Late-charge checks a person must look at (MANUAL), newest first.
CREATE INDEX idx_late_charge_manual ON late_charge_check (id) WHERE status = 'MANUAL';

-- Recovery tasks open or in MANUAL, the one due longest ago first (the claim's idx_recovery_due
-- covers the open ones only).
CREATE INDEX idx_recovery_task_ops ON recovery_task (due_at, id)
  WHERE status IN ('READY', 'LEASED', 'MANUAL');

-- Compensations that need a person (two charges), newest attempt first.
CREATE INDEX idx_compensation_manual ON attempt_compensation (attempt_id) WHERE status = 'MANUAL';

-- The dry run reads attempts after the (created_at, id) of the last one read; the key of the
-- index is that pair (it still serves the per-account figures over created_at alone).
DROP INDEX idx_attempt_created;
CREATE INDEX idx_attempt_created ON payment_attempt (created_at, id);

-- Policy versions, newest created first.
CREATE INDEX idx_policy_created ON recovery_policy (created_at, version);
