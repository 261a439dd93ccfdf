-- Transactional outbox (issue 5, seed 001 section 5): a domain event for every transition that
-- other systems must hear about, inserted by the same statement as the transition. The relay
-- publishes at least once; event_id is stable so that consumers deduplicate.
CREATE TABLE outbox_event (
  id            BIGSERIAL    PRIMARY KEY,
  event_id      VARCHAR(96)  NOT NULL,
  event_type    VARCHAR(48)  NOT NULL,
  aggregate_id  BIGINT       NOT NULL,
  payload       TEXT         NOT NULL,
  created_at    TIMESTAMPTZ  NOT NULL,
  lease_until   TIMESTAMPTZ  NULL,
  attempts      INT          NOT NULL DEFAULT 0,
  published_at  TIMESTAMPTZ  NULL,
  CONSTRAINT uk_outbox_event_id UNIQUE (event_id)
);
-- The relay's work: only events not yet published, so its size follows the backlog.
CREATE INDEX idx_outbox_pending ON outbox_event (id) WHERE published_at IS NULL;
