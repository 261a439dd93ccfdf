-- Late charges (issue 4, seeds 003 section 6.2 and 004 section 4): a charge that lands on an order
-- already ended without payment is refunded through a refund order of its own kind.
ALTER TABLE refund_order ADD COLUMN kind VARCHAR(16) NOT NULL DEFAULT 'AFTER_SALE';
ALTER TABLE refund_order ADD CONSTRAINT ck_refund_kind CHECK (kind IN ('AFTER_SALE', 'LATE_CHARGE'));
