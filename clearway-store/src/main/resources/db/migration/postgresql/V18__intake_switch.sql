-- The intake switch: whether new payments are accepted, one row for every node of the deployment.
-- Operators close and reopen it through /ops/intake; every node reads it (with a short cache), so
-- closing it on one node closes intake on all. Closing stops only the creation of new payments:
-- queries, cancels, callbacks, refunds and every worker keep converging what exists.
CREATE TABLE intake_switch (
  id          SMALLINT     PRIMARY KEY CHECK (id = 1),
  open        BOOLEAN      NOT NULL,
  reason      VARCHAR(500) NULL,
  changed_by  VARCHAR(64)  NULL,
  changed_at  TIMESTAMPTZ  NULL
);

INSERT INTO intake_switch (id, open) VALUES (1, TRUE);

-- Every change of the switch: who, when, to which state, why. Written in the same transaction as
-- the change; never updated or deleted.
CREATE TABLE intake_audit (
  id          BIGSERIAL    PRIMARY KEY,
  open        BOOLEAN      NOT NULL,
  reason      VARCHAR(500) NULL,
  changed_by  VARCHAR(64)  NOT NULL,
  changed_at  TIMESTAMPTZ  NOT NULL
);
