-- Commands on a payment attempt the PSP charged for another amount than it asked (its recovery
-- task MANUAL with AMOUNT_MISMATCH): keep the charge, refund it, or hand it to finance. A refund or
-- a hand-over names the amount the evidence shows as charged; it becomes the compensation's amount.
ALTER TABLE manual_command ADD COLUMN amount BIGINT NULL;
ALTER TABLE manual_command ADD CONSTRAINT ck_command_amount CHECK (
  (kind IN ('REFUND_MISMATCHED_CHARGE', 'MISMATCH_TO_FINANCE')) = (amount IS NOT NULL)
  AND (amount IS NULL OR amount > 0));
ALTER TABLE manual_command DROP CONSTRAINT ck_command_kind;
ALTER TABLE manual_command ADD CONSTRAINT ck_command_kind CHECK (kind IN (
  'CONFIRM_BIZ_SUCCESS', 'FORCE_REFUND', 'RESUME', 'CONFIRM_PAID', 'CONFIRM_NOT_PAID',
  'CLOSE_UNPAID', 'CONFIRM_FLOW_REFUNDED',
  'RETRY_REFUND', 'CONFIRM_REFUNDED', 'CLOSE_REFUND',
  'CONFIRM_ATTEMPT_SUCCEEDED', 'CONFIRM_ATTEMPT_FAILED',
  'KEEP_MISMATCHED_CHARGE', 'REFUND_MISMATCHED_CHARGE', 'MISMATCH_TO_FINANCE',
  'REFUND_CHARGE', 'KEEP_CHARGE', 'HAND_TO_FINANCE'));
