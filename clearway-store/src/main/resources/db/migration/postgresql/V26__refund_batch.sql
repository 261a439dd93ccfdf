-- Batch refunds: every paid goal of a scene (optionally within a window of payment creation times
-- or a list of business keys) refunded through after-sales refund orders. An operator proposes a
-- batch, a different person approves it, a leased runner carries it out paced per account.
CREATE TABLE refund_batch (
  id                BIGSERIAL     PRIMARY KEY,
  merchant_id       VARCHAR(64)   NOT NULL,
  scene             VARCHAR(32)   NOT NULL,
  paid_from         TIMESTAMPTZ   NULL,
  paid_to           TIMESTAMPTZ   NULL,
  biz_keys          TEXT[]        NULL,
  state             VARCHAR(16)   NOT NULL,
  version           BIGINT        NOT NULL DEFAULT 0,
  proposer_id       VARCHAR(64)   NOT NULL,
  approver_id       VARCHAR(64)   NULL,
  ticket            VARCHAR(64)   NOT NULL,
  reason            VARCHAR(500)  NOT NULL,
  decision_note     VARCHAR(500)  NULL,
  -- The runner's lease: while lease_owner is set, due_at is the lease expiry.
  lease_owner       VARCHAR(128)  NULL,
  due_at            TIMESTAMPTZ   NOT NULL,
  -- The last item whose outcome the runner wrote before its last checkpoint.
  cursor_item_id    BIGINT        NOT NULL DEFAULT 0,
  total_items       INT           NOT NULL,
  refunded          INT           NOT NULL DEFAULT 0,
  already_refunded  INT           NOT NULL DEFAULT 0,
  failed            INT           NOT NULL DEFAULT 0,
  needs_person      INT           NOT NULL DEFAULT 0,
  created_at        TIMESTAMPTZ   NOT NULL,
  decided_at        TIMESTAMPTZ   NULL,
  finished_at       TIMESTAMPTZ   NULL,
  updated_at        TIMESTAMPTZ   NOT NULL,
  CONSTRAINT ck_refund_batch_state CHECK (state IN
    ('PROPOSED', 'APPROVED', 'RUNNING', 'PAUSED', 'DONE', 'REJECTED', 'CANCELLED')),
  -- Maker/checker held by the database: nobody approves or rejects their own proposal.
  CONSTRAINT ck_refund_batch_two_people CHECK (approver_id IS NULL OR approver_id <> proposer_id),
  CONSTRAINT ck_refund_batch_window CHECK (paid_from IS NULL OR paid_to IS NULL OR paid_from < paid_to)
);
-- One open batch per merchant and scene: a second proposal waits until the first has ended.
CREATE UNIQUE INDEX uk_refund_batch_open ON refund_batch (merchant_id, scene)
  WHERE state IN ('PROPOSED', 'APPROVED', 'RUNNING', 'PAUSED');
-- The runner's claim: runnable batches by due time.
CREATE INDEX idx_refund_batch_due ON refund_batch (due_at, id) WHERE state IN ('APPROVED', 'RUNNING');

-- One row per payment of a batch. outcome: PENDING (not tried yet), ORDERED (its refund order
-- exists and has not ended), then REFUNDED, ALREADY_REFUNDED, FAILED or NEEDS_PERSON.
CREATE TABLE refund_batch_item (
  id           BIGSERIAL     PRIMARY KEY,
  batch_id     BIGINT        NOT NULL REFERENCES refund_batch (id),
  flow_id      BIGINT        NOT NULL REFERENCES pay_flow (id),
  account_id   BIGINT        NOT NULL,
  amount       BIGINT        NOT NULL CHECK (amount > 0),
  outcome      VARCHAR(16)   NOT NULL,
  refund_id    BIGINT        NULL REFERENCES refund_order (id),
  detail       VARCHAR(200)  NULL,
  updated_at   TIMESTAMPTZ   NOT NULL,
  CONSTRAINT uk_refund_batch_item UNIQUE (batch_id, flow_id),
  CONSTRAINT ck_refund_batch_item_outcome CHECK (outcome IN
    ('PENDING', 'ORDERED', 'REFUNDED', 'ALREADY_REFUNDED', 'FAILED', 'NEEDS_PERSON')),
  CONSTRAINT ck_refund_batch_item_order CHECK (outcome <> 'ORDERED' OR refund_id IS NOT NULL)
);
CREATE INDEX idx_refund_batch_item_open ON refund_batch_item (batch_id, outcome, id)
  WHERE outcome IN ('PENDING', 'ORDERED');
-- A later batch looks up the refund order an earlier batch recorded for the same payment.
CREATE INDEX idx_refund_batch_item_flow ON refund_batch_item (flow_id, id) WHERE refund_id IS NOT NULL;
-- Proposals select the paid goals of one merchant's scene.
CREATE INDEX idx_pay_flow_paid_scene ON pay_flow (merchant_id, scene, id) WHERE status = 'BIZ_SUCCESS';

-- A batch's state machine held by the database: terminal states never change, only these edges.
CREATE FUNCTION refund_batch_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'refund_batch %: rows are never deleted', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.merchant_id <> OLD.merchant_id OR NEW.scene <> OLD.scene
     OR NEW.proposer_id <> OLD.proposer_id THEN
    RAISE EXCEPTION 'refund_batch %: scope and proposer are frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.state IS DISTINCT FROM OLD.state THEN
    IF OLD.state IN ('DONE', 'REJECTED', 'CANCELLED') THEN
      RAISE EXCEPTION 'refund_batch %: terminal state % cannot change', OLD.id, OLD.state
        USING ERRCODE = 'check_violation';
    END IF;
    IF NOT ((OLD.state = 'PROPOSED' AND NEW.state IN ('APPROVED', 'REJECTED', 'CANCELLED'))
         OR (OLD.state = 'APPROVED' AND NEW.state IN ('RUNNING', 'PAUSED'))
         OR (OLD.state = 'RUNNING' AND NEW.state IN ('PAUSED', 'DONE'))
         OR (OLD.state = 'PAUSED' AND NEW.state IN ('RUNNING', 'CANCELLED'))) THEN
      RAISE EXCEPTION 'refund_batch %: illegal transition % -> %', OLD.id, OLD.state, NEW.state
        USING ERRCODE = 'check_violation';
    END IF;
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_refund_batch_guard BEFORE UPDATE OR DELETE ON refund_batch
  FOR EACH ROW EXECUTE FUNCTION refund_batch_guard();

-- An item's outcome only moves forward: a final outcome never changes.
CREATE FUNCTION refund_batch_item_guard() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'refund_batch_item %: rows are never deleted', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.flow_id <> OLD.flow_id OR NEW.batch_id <> OLD.batch_id OR NEW.amount <> OLD.amount THEN
    RAISE EXCEPTION 'refund_batch_item %: identity is frozen', OLD.id USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.outcome IS DISTINCT FROM OLD.outcome
     AND NOT (OLD.outcome = 'PENDING' OR (OLD.outcome = 'ORDERED' AND NEW.outcome <> 'PENDING')) THEN
    RAISE EXCEPTION 'refund_batch_item %: outcome % is final', OLD.id, OLD.outcome
      USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.refund_id IS NOT NULL AND NEW.refund_id IS DISTINCT FROM OLD.refund_id THEN
    RAISE EXCEPTION 'refund_batch_item %: refund order is frozen', OLD.id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER trg_refund_batch_item_guard BEFORE UPDATE OR DELETE ON refund_batch_item
  FOR EACH ROW EXECUTE FUNCTION refund_batch_item_guard();

-- Every proposal, decision, pause, resume, cancel and end, append-only.
CREATE TABLE refund_batch_audit (
  id         BIGSERIAL    PRIMARY KEY,
  batch_id   BIGINT       NOT NULL REFERENCES refund_batch (id),
  actor_id   VARCHAR(128) NOT NULL,
  role       VARCHAR(16)  NOT NULL,
  action     VARCHAR(16)  NOT NULL,
  detail     VARCHAR(500) NULL,
  at         TIMESTAMPTZ  NOT NULL,
  CONSTRAINT ck_refund_batch_audit_action CHECK (action IN
    ('PROPOSE', 'APPROVE', 'REJECT', 'PAUSE', 'RESUME', 'CANCEL', 'DONE'))
);
CREATE INDEX idx_refund_batch_audit_batch ON refund_batch_audit (batch_id, id);

CREATE FUNCTION refund_batch_audit_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'refund_batch_audit is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER refund_batch_audit_no_change
  BEFORE UPDATE OR DELETE ON refund_batch_audit
  FOR EACH ROW EXECUTE FUNCTION refund_batch_audit_append_only();
