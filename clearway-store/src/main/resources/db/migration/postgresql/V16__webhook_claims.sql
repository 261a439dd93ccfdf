-- A webhook event is claimed in the inbox before any work and marked done after it. A delivery
-- that finds the event claimed does nothing (no PSP call, no recording); a claim that was never
-- marked done (its process died) is taken over by a later delivery once it is stale.
ALTER TABLE channel_webhook_inbox ADD COLUMN done_at TIMESTAMPTZ;

-- Rows written before claims existed were written after their work: they are done.
UPDATE channel_webhook_inbox SET done_at = received_at WHERE done_at IS NULL;
