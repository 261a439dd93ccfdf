-- Manual review (issue 4, seed 001 section 7, seed 003 section 4.4): commands proposed by an
-- operator and applied only when a different person with the approver role approves them. The
-- command pins the flow's status and version at proposal: if the flow moved meanwhile, the
-- approval fails instead of acting on facts nobody reviewed.
CREATE TABLE manual_command (
  id                BIGSERIAL     PRIMARY KEY,
  flow_id           BIGINT        NOT NULL,
  kind              VARCHAR(32)   NOT NULL,
  expected_status   VARCHAR(24)   NOT NULL,
  expected_version  BIGINT        NOT NULL,
  operator_id       VARCHAR(64)   NOT NULL,
  ticket            VARCHAR(64)   NOT NULL,
  reason            VARCHAR(500)  NOT NULL,
  evidence          VARCHAR(2000) NOT NULL,
  state             VARCHAR(16)   NOT NULL,
  approver_id       VARCHAR(64)   NULL,
  result            VARCHAR(200)  NULL,
  created_at        TIMESTAMPTZ   NOT NULL,
  decided_at        TIMESTAMPTZ   NULL,
  CONSTRAINT ck_command_kind CHECK (kind IN ('CONFIRM_BIZ_SUCCESS', 'FORCE_REFUND', 'RESUME')),
  CONSTRAINT ck_command_state CHECK (state IN ('PROPOSED', 'APPLIED', 'REJECTED', 'FAILED')),
  -- Maker/checker held by the database: nobody approves their own proposal.
  CONSTRAINT ck_command_two_people CHECK (approver_id IS NULL OR approver_id <> operator_id)
);
-- One open proposal per flow at a time.
CREATE UNIQUE INDEX uk_command_open ON manual_command (flow_id) WHERE state = 'PROPOSED';
CREATE INDEX idx_command_flow ON manual_command (flow_id, id);

-- Every proposal, approval, rejection and failure, append-only.
CREATE TABLE manual_audit (
  id          BIGSERIAL    PRIMARY KEY,
  command_id  BIGINT       NOT NULL,
  flow_id     BIGINT       NOT NULL,
  actor_id    VARCHAR(64)  NOT NULL,
  role        VARCHAR(16)  NOT NULL,
  action      VARCHAR(16)  NOT NULL,
  detail      VARCHAR(500) NULL,
  at          TIMESTAMPTZ  NOT NULL
);
CREATE INDEX idx_audit_flow ON manual_audit (flow_id, id);
