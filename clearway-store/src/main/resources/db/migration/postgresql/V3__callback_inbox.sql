-- Verified callbacks, stored before they are acknowledged (seed 000 section 6). The primary key
-- deduplicates by event id: a replayed event is acknowledged and has no effect. A callback never
-- writes flow state; it only wakes the advancer, which re-reads the row and queries the wallet.
CREATE TABLE callback_inbox (
  channel          VARCHAR(32)  NOT NULL,
  event_id         VARCHAR(128) NOT NULL,
  event_type       VARCHAR(64)  NOT NULL,
  trade_order_no   VARCHAR(96)  NULL,
  refund_order_no  VARCHAR(96)  NULL,
  flow_id          BIGINT       NULL,
  outcome          VARCHAR(32)  NOT NULL,
  payload_sha256   CHAR(64)     NOT NULL,
  received_at      TIMESTAMPTZ  NOT NULL,
  CONSTRAINT pk_callback_inbox PRIMARY KEY (channel, event_id),
  CONSTRAINT ck_callback_outcome CHECK (outcome IN ('ACCEPTED', 'UNKNOWN_ORDER'))
);
