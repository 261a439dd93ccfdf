-- The agreeing lines of a reconciled file, as runs of consecutive lines: every CHARGE line of the
-- file numbered from first_line to last_line agreed with its payment when the file was reconciled
-- at `at` (the runs are broken by every money line that did not agree; text and FEE lines inside
-- a run are not charges and settle nothing). The runs of one file never overlap: a later
-- reconciliation of the same file records only lines no run covers yet. A clean file of a million
-- lines is a handful of rows, instead of a keyed row per payment.
--
-- A payment without a payment_settlement row whose CHARGE line lies in such a run is SETTLED by
-- that line, at version 0, as of that reconciliation: the line records the flow it settles (its
-- trade order no) and the run records the verdict. A payment_settlement row, once written,
-- overrides it; the first mark of such a payment writes the row from its agreed line before it
-- changes it (so its history starts from SETTLED, as it would for a row written at the agreement).
CREATE TABLE statement_line_agreed (
  file_id     BIGINT       NOT NULL,
  first_line  BIGINT       NOT NULL,
  last_line   BIGINT       NOT NULL,
  at          TIMESTAMPTZ  NOT NULL,
  PRIMARY KEY (file_id, first_line),
  CHECK (first_line <= last_line)
);

-- The settlement a payment's agreed line gives it, whether or not a row overrides it: one per
-- trade order no (the first agreement recorded). Read by trade order no, it probes statement_line's
-- trade order index, then this table's key once per line (the run starting at or before the line,
-- which holds it if any does: the runs of a file never overlap).
CREATE VIEW payment_settlement_agreed AS
SELECT DISTINCT ON (l.trade_order_no)
       l.trade_order_no, 'SETTLED'::varchar(16) AS status, NULL::bigint AS difference_id,
       a.file_id AS statement_file_id, NULL::bigint AS statement_line_no, 0::bigint AS version,
       a.at AS updated_at
  FROM statement_line l
  JOIN LATERAL (SELECT r.file_id, r.last_line, r.at
                  FROM statement_line_agreed r
                 WHERE r.file_id = l.file_id AND r.first_line <= l.line_no
                 ORDER BY r.first_line DESC
                 LIMIT 1) a ON a.last_line >= l.line_no
 WHERE l.kind = 'CHARGE'
 ORDER BY l.trade_order_no, a.at, a.file_id, l.line_no;

-- Every payment's settlement status in effect: its row, else its agreed line.
CREATE VIEW payment_settlement_in_effect AS
SELECT trade_order_no, status, difference_id, statement_file_id, statement_line_no, version,
       updated_at
  FROM payment_settlement
UNION ALL
SELECT g.trade_order_no, g.status, g.difference_id, g.statement_file_id, g.statement_line_no,
       g.version, g.updated_at
  FROM payment_settlement_agreed g
 WHERE NOT EXISTS (SELECT 1 FROM payment_settlement s WHERE s.trade_order_no = g.trade_order_no);
