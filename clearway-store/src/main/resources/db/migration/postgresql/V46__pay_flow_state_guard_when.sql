-- The transition table's guard calls its function only for a status change the table refuses: the
-- trigger's WHEN holds the rule itself (a legal edge, which never leaves a terminal status, and the
-- version bumped by one), evaluated by the executor for every status change; the function, which
-- raises the error naming what was broken, runs only when that rule fails. A legal transition runs
-- no PL/pgSQL. The function is unchanged: it refuses exactly the changes the WHEN lets through.
DROP TRIGGER trg_pay_flow_state_guard ON pay_flow_state;

CREATE TRIGGER trg_pay_flow_state_guard BEFORE UPDATE ON pay_flow_state
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NOT (
    ((OLD.status = 'WAIT_PAY' AND NEW.status IN ('PAYING', 'CLOSED'))
      OR (OLD.status = 'PAYING' AND NEW.status IN ('PAYED', 'PAY_FAIL'))
      OR (OLD.status = 'PAYED' AND NEW.status IN ('BIZ_SUCCESS', 'REFUNDING'))
      OR (OLD.status = 'REFUNDING' AND NEW.status = 'REFUNDED'))
    AND NEW.version = OLD.version + 1))
  EXECUTE FUNCTION pay_flow_state_guard();
