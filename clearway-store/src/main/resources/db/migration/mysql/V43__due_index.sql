-- A claim's due work reads only open rows, however many finished rows the table holds, as
-- PostgreSQL's partial due indexes give. The MySQL family has no partial index: each leased table
-- gains a generated column holding the due time of an open row and NULL once the row is finished,
-- under an index on (due_at, id); a range `due_at <= now` never reads the NULLs. The open states
-- here are the claims' own (LeasedTable); the claim re-checks them on the rows it locks.
ALTER TABLE pay_flow_state
  ADD COLUMN due_at DATETIME(6) AS
    (CASE WHEN status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING') THEN next_retry_time END)
    STORED,
  ADD INDEX idx_pay_flow_due (due_at, id);

ALTER TABLE refund_order
  ADD COLUMN due_at DATETIME(6) AS
    (CASE WHEN status IN ('PENDING', 'PROCESSING', 'ABNORMAL') THEN next_retry_time END) STORED,
  ADD INDEX idx_refund_due (due_at, id);

ALTER TABLE late_charge_check
  ADD COLUMN due_at DATETIME(6) AS
    (CASE WHEN status IN ('PENDING', 'CHARGE_CONFIRMED', 'MANUAL') THEN next_check_time END)
    STORED,
  ADD INDEX idx_late_charge_due (due_at, id);
