-- The recovery policy dry run reads the attempts of a recent window (JdbcRecordedAttempts):
-- by creation time, so it does not scan the whole table.
CREATE INDEX idx_attempt_created ON payment_attempt (created_at);
