-- Manual commands for every case that waits for a person (issue 13). One maker/checker table and
-- one audit for every kind of target: a pay_flow (FLOW), an after-sales refund (REFUND_ORDER), a
-- payment attempt whose result cannot be known (ATTEMPT), a compensation of a charge found on a
-- failed attempt (COMPENSATION). The command pins the target's status and version at proposal; if
-- the target moved meanwhile, the approval is refused (stale_target) and nothing is written.
ALTER TABLE manual_command ADD COLUMN target_kind VARCHAR(16) NOT NULL DEFAULT 'FLOW';
ALTER TABLE manual_command ADD COLUMN target_id BIGINT NULL;
UPDATE manual_command SET target_id = flow_id;
ALTER TABLE manual_command ALTER COLUMN target_id SET NOT NULL;
-- Only flow commands name a flow; the others name their target alone.
ALTER TABLE manual_command ALTER COLUMN flow_id DROP NOT NULL;
ALTER TABLE manual_command ADD CONSTRAINT ck_command_target CHECK (
  target_kind IN ('FLOW', 'REFUND_ORDER', 'ATTEMPT', 'COMPENSATION')
  AND (target_kind <> 'FLOW' OR flow_id = target_id));
ALTER TABLE manual_command DROP CONSTRAINT ck_command_kind;
ALTER TABLE manual_command ADD CONSTRAINT ck_command_kind CHECK (kind IN (
  'CONFIRM_BIZ_SUCCESS', 'FORCE_REFUND', 'RESUME', 'CONFIRM_PAID', 'CONFIRM_NOT_PAID',
  'CLOSE_UNPAID', 'CONFIRM_FLOW_REFUNDED',
  'RETRY_REFUND', 'CONFIRM_REFUNDED', 'CLOSE_REFUND',
  'CONFIRM_ATTEMPT_SUCCEEDED', 'CONFIRM_ATTEMPT_FAILED',
  'REFUND_CHARGE', 'KEEP_CHARGE', 'HAND_TO_FINANCE'));
-- One open proposal per target at a time (the index keeps its name: the stores map it).
DROP INDEX uk_command_open;
CREATE UNIQUE INDEX uk_command_open ON manual_command (target_kind, target_id)
  WHERE state = 'PROPOSED';
CREATE INDEX idx_command_target ON manual_command (target_kind, target_id, id);
CREATE INDEX idx_command_open ON manual_command (id) WHERE state = 'PROPOSED';

ALTER TABLE manual_audit ADD COLUMN target_kind VARCHAR(16) NOT NULL DEFAULT 'FLOW';
ALTER TABLE manual_audit ADD COLUMN target_id BIGINT NULL;
UPDATE manual_audit SET target_id = flow_id;
ALTER TABLE manual_audit ALTER COLUMN flow_id DROP NOT NULL;
CREATE INDEX idx_audit_target ON manual_audit (target_kind, target_id, id);

-- A compensation a person settled: refunded by the worker again (PENDING), kept with a reason
-- (KEPT: the customer keeps the goods and the charge stands), or handed to finance (FINANCE:
-- settled outside the engine). KEPT and FINANCE are final, like REFUNDED.
ALTER TABLE attempt_compensation DROP CONSTRAINT attempt_compensation_status_check;
ALTER TABLE attempt_compensation ADD CONSTRAINT attempt_compensation_status_check
  CHECK (status IN ('PENDING', 'REFUNDED', 'MANUAL', 'KEPT', 'FINANCE'));

-- A settled compensation never changes again.
CREATE FUNCTION attempt_compensation_guard() RETURNS trigger AS $$
BEGIN
  IF OLD.status IN ('REFUNDED', 'KEPT', 'FINANCE') AND NEW.status IS DISTINCT FROM OLD.status THEN
    RAISE EXCEPTION 'compensation %: settled status % cannot change to %',
      OLD.attempt_id, OLD.status, NEW.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER trg_attempt_compensation_guard BEFORE UPDATE ON attempt_compensation
  FOR EACH ROW EXECUTE FUNCTION attempt_compensation_guard();
