-- The agreeing lines of a reconciled file, one row per line (the file's key order, so the rows are
-- appended to their key rather than inserted at random into a key by trade order no). A payment
-- without a payment_settlement row whose CHARGE line is recorded here is SETTLED by that line, at
-- version 0, as of the reconciliation that agreed it: the line records the flow it settles (its
-- trade order no) and the verdict. A payment_settlement row, once written, overrides it; the first
-- mark of such a payment writes the row from its agreed line before it changes it (so its history
-- starts from SETTLED, as it would for a row written at the agreement).
CREATE TABLE statement_line_agreed (
  file_id  BIGINT       NOT NULL,
  line_no  BIGINT       NOT NULL,
  at       TIMESTAMPTZ  NOT NULL,
  PRIMARY KEY (file_id, line_no)
);

-- The settlement a payment's agreed line gives it, whether or not a row overrides it: one per
-- trade order no (the first agreement recorded). Read by trade order no, it probes statement_line's
-- trade order index and then this table's key.
CREATE VIEW payment_settlement_agreed AS
SELECT DISTINCT ON (l.trade_order_no)
       l.trade_order_no, 'SETTLED'::varchar(16) AS status, NULL::bigint AS difference_id,
       a.file_id AS statement_file_id, NULL::bigint AS statement_line_no, 0::bigint AS version,
       a.at AS updated_at
  FROM statement_line_agreed a
  JOIN statement_line l ON l.file_id = a.file_id AND l.line_no = a.line_no
 ORDER BY l.trade_order_no, a.at, a.file_id, a.line_no;

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
