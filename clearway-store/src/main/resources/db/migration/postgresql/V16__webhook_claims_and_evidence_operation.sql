-- A webhook event is claimed in the inbox before any work and marked done after it. A delivery
-- that finds the event claimed does nothing (no PSP call, no recording); a claim that was never
-- marked done (its process died) is taken over by a later delivery once it is stale.
ALTER TABLE channel_webhook_inbox ADD COLUMN done_at TIMESTAMPTZ;

-- Rows written before claims existed were written after their work: they are done.
UPDATE channel_webhook_inbox SET done_at = received_at WHERE done_at IS NULL;

-- Event ids are unique per PSP account, not per channel (two accounts of one channel may both send
-- evt_1): the account is part of the key. Rows written before keep account 0, so an old event
-- delivered again is processed again, as it was before claims existed (the work is idempotent).
ALTER TABLE channel_webhook_inbox ADD COLUMN channel_account_id BIGINT NOT NULL DEFAULT 0;
ALTER TABLE channel_webhook_inbox DROP CONSTRAINT channel_webhook_inbox_pkey;
ALTER TABLE channel_webhook_inbox ADD PRIMARY KEY (channel_account_id, event_id);

-- An evidence row's operation is the recovery strategy's name, and MERCHANT_REFERENCE_SEARCH has 25
-- characters: as wide as recovery_task.strategy, so that no recording of a search fails.
ALTER TABLE provider_evidence ALTER COLUMN operation TYPE VARCHAR(32);
