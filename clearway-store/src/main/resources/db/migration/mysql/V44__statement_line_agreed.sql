-- The agreeing lines of a reconciled file (see PostgreSQL's V44). On the MySQL family every line is
-- agreed through the matcher, which writes the payment's settlement row, so this table stays empty;
-- it exists so that both schemas have the same tables.
CREATE TABLE statement_line_agreed (
  file_id     BIGINT       NOT NULL,
  first_line  BIGINT       NOT NULL,
  last_line   BIGINT       NOT NULL,
  at          DATETIME(6)  NOT NULL,
  PRIMARY KEY (file_id, first_line)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- Every payment's settlement status in effect: on the MySQL family, its payment_settlement row.
CREATE VIEW payment_settlement_in_effect AS
SELECT trade_order_no, status, difference_id, statement_file_id, statement_line_no, version,
       updated_at
  FROM payment_settlement;
