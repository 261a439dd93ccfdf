-- Difference tickets resolved by maker/checker: an operator proposes how a difference that waits
-- for a person (NEEDS_PERSON) is closed, with a ticket, a reason and evidence (a PSP or finance
-- reference); a different person with the approver role approves it. The command pins the
-- difference's version at proposal: if the difference moved meanwhile, the approval fails instead
-- of acting on facts nobody reviewed.
CREATE TABLE recon_command (
  id                BIGSERIAL     PRIMARY KEY,
  difference_id     BIGINT        NOT NULL,
  kind              VARCHAR(32)   NOT NULL,
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
  CONSTRAINT ck_recon_command_kind
    CHECK (kind IN ('RESOLVE_REPAIRED_OUTSIDE', 'ACCEPT_DIFFERENCE')),
  CONSTRAINT ck_recon_command_state CHECK (state IN ('PROPOSED', 'APPLIED', 'REJECTED', 'FAILED')),
  -- Maker/checker held by the database: nobody approves their own proposal.
  CONSTRAINT ck_recon_command_two_people CHECK (approver_id IS NULL OR approver_id <> operator_id),
  CONSTRAINT ck_recon_command_decided CHECK ((state = 'PROPOSED') = (decided_at IS NULL))
);
-- One open proposal per difference at a time.
CREATE UNIQUE INDEX uk_recon_command_open ON recon_command (difference_id) WHERE state = 'PROPOSED';
CREATE INDEX idx_recon_command_difference ON recon_command (difference_id, id);

-- Every proposal, approval, rejection and failure, append-only: no update or delete reaches it.
CREATE TABLE recon_audit (
  id             BIGSERIAL    PRIMARY KEY,
  command_id     BIGINT       NOT NULL REFERENCES recon_command (id),
  difference_id  BIGINT       NOT NULL,
  actor_id       VARCHAR(64)  NOT NULL,
  role           VARCHAR(16)  NOT NULL,
  action         VARCHAR(16)  NOT NULL,
  detail         VARCHAR(500) NULL,
  at             TIMESTAMPTZ  NOT NULL,
  CONSTRAINT ck_recon_audit_action CHECK (action IN ('PROPOSE', 'APPROVE', 'REJECT', 'FAIL'))
);
CREATE INDEX idx_recon_audit_difference ON recon_audit (difference_id, id);

CREATE FUNCTION recon_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'recon_audit is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER recon_audit_no_change
  BEFORE UPDATE OR DELETE ON recon_audit
  FOR EACH ROW EXECUTE FUNCTION recon_audit_append_only();
