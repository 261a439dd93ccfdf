package dev.clearway.core.review;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import org.junit.jupiter.api.Test;

/** Which command applies to which target state, and the stable code of every refusal. */
class OpsCommandKindTest {

  @Test
  void onlyAnAbnormalRefundTakesARefundCommandAndOnlyAlongItsLegalEdges() {
    for (RefundStatus s : RefundStatus.values()) {
      TargetFacts facts = new TargetFacts.Refund(s);
      for (OpsCommandKind k :
          new OpsCommandKind[] {
            OpsCommandKind.RETRY_REFUND,
            OpsCommandKind.CONFIRM_REFUNDED,
            OpsCommandKind.CLOSE_REFUND
          }) {
        OpsVerdict v = k.check(facts);
        if (s == RefundStatus.ABNORMAL) {
          assertThat(v.isAllowed()).as(k + " on " + s).isTrue();
          RefundStatus to = RefundStatus.valueOf(v.target());
          assertThat(to == s || RefundTransitions.isLegal(s, to)).isTrue();
        } else {
          assertThat(v.code()).as(k + " on " + s).isEqualTo("refund_not_abnormal");
        }
      }
    }
    TargetFacts abnormal = new TargetFacts.Refund(RefundStatus.ABNORMAL);
    assertThat(OpsCommandKind.RETRY_REFUND.check(abnormal).target()).isEqualTo("ABNORMAL");
    assertThat(OpsCommandKind.CONFIRM_REFUNDED.check(abnormal).target()).isEqualTo("SUCCESS");
    assertThat(OpsCommandKind.CLOSE_REFUND.check(abnormal).target()).isEqualTo("FAIL");
  }

  @Test
  void anAttemptIsAPersonsOnlyWhenNotFinalAndManualOrUnknown() {
    OpsCommandKind ok = OpsCommandKind.CONFIRM_ATTEMPT_SUCCEEDED;
    assertThat(ok.check(new TargetFacts.Attempt(AttemptStatus.PENDING, TaskStatus.MANUAL)).target())
        .isEqualTo("SUCCEEDED");
    assertThat(
            OpsCommandKind.CONFIRM_ATTEMPT_FAILED
                .check(new TargetFacts.Attempt(AttemptStatus.UNKNOWN, TaskStatus.READY))
                .target())
        .isEqualTo("FAILED");
    assertThat(ok.check(new TargetFacts.Attempt(AttemptStatus.PENDING, TaskStatus.READY)).code())
        .isEqualTo("attempt_not_waiting");
    assertThat(ok.check(new TargetFacts.Attempt(AttemptStatus.CREATED, TaskStatus.LEASED)).code())
        .isEqualTo("attempt_not_waiting");
    for (AttemptStatus fin : new AttemptStatus[] {AttemptStatus.SUCCEEDED, AttemptStatus.FAILED}) {
      assertThat(ok.check(new TargetFacts.Attempt(fin, TaskStatus.MANUAL)).code())
          .isEqualTo("attempt_final");
    }
  }

  @Test
  void aChargeOfAnotherAmountTakesOnlyTheMismatchCommands() {
    TargetFacts mismatch =
        new TargetFacts.Attempt(AttemptStatus.UNKNOWN, TaskStatus.MANUAL, "AMOUNT_MISMATCH");
    TargetFacts plain =
        new TargetFacts.Attempt(AttemptStatus.UNKNOWN, TaskStatus.MANUAL, "MAX_UNKNOWN_AGE");
    assertThat(OpsCommandKind.KEEP_MISMATCHED_CHARGE.check(mismatch).target())
        .isEqualTo("SUCCEEDED");
    assertThat(OpsCommandKind.REFUND_MISMATCHED_CHARGE.check(mismatch).target())
        .isEqualTo("FAILED");
    assertThat(OpsCommandKind.MISMATCH_TO_FINANCE.check(mismatch).target()).isEqualTo("FAILED");
    assertThat(OpsCommandKind.CONFIRM_ATTEMPT_FAILED.check(mismatch).code())
        .isEqualTo("amount_mismatch");
    assertThat(OpsCommandKind.CONFIRM_ATTEMPT_SUCCEEDED.check(mismatch).isAllowed()).isTrue();
    for (OpsCommandKind k :
        new OpsCommandKind[] {
          OpsCommandKind.KEEP_MISMATCHED_CHARGE,
          OpsCommandKind.REFUND_MISMATCHED_CHARGE,
          OpsCommandKind.MISMATCH_TO_FINANCE
        }) {
      assertThat(k.check(plain).code()).as(k.name()).isEqualTo("not_amount_mismatch");
      assertThat(
              k.check(new TargetFacts.Attempt(AttemptStatus.FAILED, TaskStatus.MANUAL, "X")).code())
          .isEqualTo("attempt_final");
    }
    assertThat(OpsCommandKind.CONFIRM_ATTEMPT_FAILED.check(plain).target()).isEqualTo("FAILED");
    assertThat(OpsCommandKind.REFUND_MISMATCHED_CHARGE.takesAmount()).isTrue();
    assertThat(OpsCommandKind.KEEP_MISMATCHED_CHARGE.takesAmount()).isFalse();
  }

  @Test
  void onlyAManualCompensationIsSettledByAPerson() {
    for (CompensationStatus s : CompensationStatus.values()) {
      OpsVerdict v = OpsCommandKind.KEEP_CHARGE.check(new TargetFacts.Compensation(s));
      switch (s) {
        case MANUAL -> assertThat(v.target()).isEqualTo("KEPT");
        case PENDING -> assertThat(v.code()).isEqualTo("compensation_not_manual");
        case REFUNDED, KEPT, FINANCE -> assertThat(v.code()).isEqualTo("compensation_settled");
      }
    }
    TargetFacts manual = new TargetFacts.Compensation(CompensationStatus.MANUAL);
    assertThat(OpsCommandKind.REFUND_CHARGE.check(manual).target()).isEqualTo("PENDING");
    assertThat(OpsCommandKind.HAND_TO_FINANCE.check(manual).target()).isEqualTo("FINANCE");
  }

  @Test
  void aCommandOnAnotherKindOfTargetIsRefused() {
    for (OpsCommandKind k : OpsCommandKind.values()) {
      TargetFacts other =
          k.target() == TargetKind.REFUND_ORDER
              ? new TargetFacts.Compensation(CompensationStatus.MANUAL)
              : new TargetFacts.Refund(RefundStatus.ABNORMAL);
      assertThat(k.check(other).code()).as(k.name()).isEqualTo("wrong_target");
    }
  }
}
