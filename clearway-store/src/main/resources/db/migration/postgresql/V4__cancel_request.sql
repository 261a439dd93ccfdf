-- Cancel (issue 4, seeds 003 and 004): while the payment stage runs, a cancel is recorded here;
-- a charge that then lands is refunded, never fulfilled. Once set it never changes.
ALTER TABLE pay_flow ADD COLUMN cancel_requested_at TIMESTAMPTZ NULL;

CREATE OR REPLACE FUNCTION pay_flow_cancel_guard() RETURNS trigger AS $$
BEGIN
  IF OLD.cancel_requested_at IS NOT NULL
     AND NEW.cancel_requested_at IS DISTINCT FROM OLD.cancel_requested_at THEN
    RAISE EXCEPTION 'pay_flow %: a cancel request cannot be withdrawn', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.cancel_requested_at IS NULL AND NEW.cancel_requested_at IS NOT NULL
     AND OLD.status NOT IN ('WAIT_PAY', 'PAYING') THEN
    RAISE EXCEPTION 'pay_flow %: cancel is only recorded before the charge is known (status %)',
      OLD.id, OLD.status USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_pay_flow_cancel_guard BEFORE UPDATE OF cancel_requested_at ON pay_flow
  FOR EACH ROW EXECUTE FUNCTION pay_flow_cancel_guard();
