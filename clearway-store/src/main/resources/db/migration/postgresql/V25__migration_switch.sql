-- The gray migration's switch: whether new goals may start on Clearway (the migrated path), one row
-- for every node. Rolling back closes only new-payment intake of the migrated path: goals Clearway
-- has never seen are handed back to the legacy path, while goals it has seen stay with it and
-- queries, cancels, callbacks and every worker keep converging the attempts that exist. Operators
-- change it through /ops/migration; every node reads it with a short cache.
CREATE TABLE migration_switch (
  id           SMALLINT     PRIMARY KEY CHECK (id = 1),
  rolled_back  BOOLEAN      NOT NULL,
  reason       VARCHAR(500) NULL,
  changed_by   VARCHAR(64)  NULL,
  changed_at   TIMESTAMPTZ  NULL
);

INSERT INTO migration_switch (id, rolled_back) VALUES (1, FALSE);

-- Every change of the switch: who, when, to which state, why. Written in the same transaction as
-- the change; never updated or deleted.
CREATE TABLE migration_audit (
  id           BIGSERIAL    PRIMARY KEY,
  rolled_back  BOOLEAN      NOT NULL,
  reason       VARCHAR(500) NULL,
  changed_by   VARCHAR(64)  NOT NULL,
  changed_at   TIMESTAMPTZ  NOT NULL
);
