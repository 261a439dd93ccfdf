package dev.clearway.core.refund.domain;

import static dev.clearway.core.refund.domain.RefundStatus.ABNORMAL;
import static dev.clearway.core.refund.domain.RefundStatus.CLOSED;
import static dev.clearway.core.refund.domain.RefundStatus.FAIL;
import static dev.clearway.core.refund.domain.RefundStatus.PENDING;
import static dev.clearway.core.refund.domain.RefundStatus.PROCESSING;
import static dev.clearway.core.refund.domain.RefundStatus.SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The refund state table, and the numbers it sends. */
class RefundTransitionsTest {

  @Test
  void theLegalEdgesAreExactlyTheTable() {
    assertThat(RefundTransitions.targetsOf(PENDING)).containsExactlyInAnyOrder(PROCESSING, CLOSED);
    assertThat(RefundTransitions.targetsOf(PROCESSING))
        .containsExactlyInAnyOrder(SUCCESS, FAIL, ABNORMAL);
    assertThat(RefundTransitions.targetsOf(ABNORMAL)).containsExactlyInAnyOrder(SUCCESS, FAIL);
  }

  @ParameterizedTest
  @EnumSource(RefundStatus.class)
  void terminalStatesHaveNoEdgesAndOthersHaveSome(RefundStatus status) {
    assertThat(RefundTransitions.targetsOf(status).isEmpty()).isEqualTo(status.isTerminal());
  }

  @Test
  void nothingGoesBackToPendingOrProcessing() {
    for (RefundStatus from : RefundStatus.values()) {
      assertThat(RefundTransitions.isLegal(from, PENDING)).isFalse();
      assertThat(RefundTransitions.isLegal(from, PROCESSING)).isEqualTo(from == PENDING);
    }
    assertThatThrownBy(() -> RefundTransitions.requireLegal(ABNORMAL, PROCESSING))
        .isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> RefundTransitions.requireLegal(SUCCESS, FAIL))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void sameOrLaterFollowsThePaths() {
    assertThat(RefundTransitions.isSameOrLater(PROCESSING, SUCCESS)).isTrue();
    assertThat(RefundTransitions.isSameOrLater(ABNORMAL, FAIL)).isTrue();
    assertThat(RefundTransitions.isSameOrLater(PROCESSING, PROCESSING)).isTrue();
    assertThat(RefundTransitions.isSameOrLater(SUCCESS, FAIL)).isFalse();
    assertThat(RefundTransitions.isSameOrLater(PROCESSING, CLOSED)).isFalse();
  }

  @Test
  void onlyFailAndClosedReleaseTheirAmount() {
    Set<RefundStatus> released = EnumSet.noneOf(RefundStatus.class);
    for (RefundStatus s : RefundStatus.values()) {
      if (!s.holdsAmount()) {
        released.add(s);
      }
    }
    // JdbcRefundStore sums "status NOT IN ('FAIL', 'CLOSED')": keep the two in step.
    assertThat(released).containsExactlyInAnyOrder(FAIL, CLOSED);
  }

  @Test
  void refundNumbersAreDeterministicAndNeverTheCompensationNumber() {
    String trade = "t_g_2s";
    assertThat(RefundNumbers.of(trade, 1)).isEqualTo("a_t_g_2s_1");
    assertThat(RefundNumbers.of(trade, 12)).isEqualTo("a_t_g_2s_12");
    assertThat(RefundNumbers.of(trade, 1)).isNotEqualTo("r_" + trade).startsWith("a_");
    assertThatThrownBy(() -> RefundNumbers.of(trade, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theRequestHashBindsFlowAmountAndReason() {
    NewRefund a = new NewRefund(1, 500, "damaged", "m", "k");
    assertThat(a.requestHash())
        .hasSize(64)
        .isEqualTo(new NewRefund(1, 500, "damaged", "m2", "k2").requestHash());
    assertThat(a.requestHash())
        .isNotEqualTo(new NewRefund(2, 500, "damaged", "m", "k").requestHash());
    assertThat(a.requestHash())
        .isNotEqualTo(new NewRefund(1, 501, "damaged", "m", "k").requestHash());
    assertThat(a.requestHash()).isNotEqualTo(new NewRefund(1, 500, "late", "m", "k").requestHash());
    assertThatThrownBy(() -> new NewRefund(1, 0, "x", "m", "k"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
