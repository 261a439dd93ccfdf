package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.decision.Decision;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.engine.PageAdvance.Need;
import dev.clearway.core.flow.engine.PageAdvance.Plan;
import dev.clearway.core.flow.engine.PageAdvance.Route;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The pure decisions of a page moved together: which facts each held flow reads, and which of its
 * next steps go in the page's group write, which are written for the flow alone, and which go on
 * the one-flow path because a call with a side effect comes next.
 */
class PageAdvanceTest {
  private static final String HOLDER = "page-lease";
  private static final Instant CREATED = Instant.parse("2030-01-01T00:00:00Z");
  private static final Instant DEADLINE = CREATED.plus(Duration.ofDays(1));
  private static final Instant NOW = CREATED.plus(Duration.ofMinutes(5));
  private static final String TRADE = "t_page_1";

  private final PageAdvance page = new PageAdvance(Duration.ofHours(2), Duration.ofMinutes(10));

  private static PayFlow.Builder held(FlowStatus status) {
    return PayFlow.builder()
        .id(7)
        .orderNumbers(TRADE, "r_" + TRADE)
        .status(status)
        .version(2)
        .money(100, "CNY")
        .bizDeadline(DEADLINE)
        .nextRetryTime(NOW.plusSeconds(30))
        .leaseOwner(HOLDER)
        .createdAt(CREATED)
        .updatedAt(CREATED);
  }

  @Test
  void eachStatusNeedsItsOwnFactsAndOnlyHeldLiveRowsStepAtAll() {
    assertThat(PageAdvance.need(held(FlowStatus.PAYING).build(), HOLDER))
        .isEqualTo(Need.WALLET_QUERY);
    assertThat(PageAdvance.need(held(FlowStatus.PAYED).build(), HOLDER))
        .isEqualTo(Need.BUSINESS_FACT);
    assertThat(PageAdvance.need(held(FlowStatus.WAIT_PAY).build(), HOLDER)).isEqualTo(Need.ALONE);
    assertThat(PageAdvance.need(held(FlowStatus.REFUNDING).build(), HOLDER)).isEqualTo(Need.ALONE);
    assertThat(PageAdvance.need(held(FlowStatus.PAYING).build(), "someone-else"))
        .isEqualTo(Need.HELD_ELSEWHERE);
    assertThat(PageAdvance.need(held(FlowStatus.BIZ_SUCCESS).leaseOwner(null).build(), HOLDER))
        .isEqualTo(Need.ENDED);
    assertThat(
            PageAdvance.need(
                held(FlowStatus.PAYED).review(ReviewState.FROZEN, "CONTRADICTION").build(), HOLDER))
        .isEqualTo(Need.ENDED);
  }

  @Test
  void aChargeTheWalletConfirmsOrRefusesIsAGroupedMove() {
    Plan paid =
        page.afterWalletQuery(held(FlowStatus.PAYING).build(), WalletResult.success("rq-1"), NOW);
    assertThat(paid.route()).isEqualTo(Route.GROUP);
    assertThat(paid.decision()).isEqualTo(new Decision.Move(FlowStatus.PAYED, null));
    assertThat(paid.result().requestId()).isEqualTo("rq-1");

    Plan refused =
        page.afterWalletQuery(
            held(FlowStatus.PAYING).build(), WalletResult.failed("NO_FUNDS", "rq-2", false), NOW);
    assertThat(refused.route()).isEqualTo(Route.GROUP);
    assertThat(refused.decision()).isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "NO_FUNDS"));
  }

  @Test
  void aChargeStillInDoubtWaitsForItsFlowAlone() {
    Plan processing =
        page.afterWalletQuery(
            held(FlowStatus.PAYING).build(), WalletResult.processing("rq-3"), NOW);
    assertThat(processing.route()).isEqualTo(Route.APPLY);
    assertThat(processing.decision()).isInstanceOf(Decision.Wait.class);

    Plan unknown =
        page.afterWalletQuery(
            held(FlowStatus.PAYING).build(), WalletResult.unknown("TIMEOUT"), NOW);
    assertThat(unknown.route()).isEqualTo(Route.APPLY);
    assertThat(unknown.decision()).isEqualTo(new Decision.Wait("TIMEOUT"));
  }

  @Test
  void aChargeToSendAgainOrAnOrderToCloseGoesOnAlone() {
    Plan resend =
        page.afterWalletQuery(held(FlowStatus.PAYING).build(), WalletResult.noRecord("rq-4"), NOW);
    assertThat(resend.route()).as("the same order is sent again").isEqualTo(Route.ALONE);

    Plan cancelled =
        page.afterWalletQuery(
            held(FlowStatus.PAYING).cancelRequestedAt(NOW.minusSeconds(1)).build(),
            WalletResult.processing("rq-5"),
            NOW);
    assertThat(cancelled.route()).as("the order is closed at the wallet").isEqualTo(Route.ALONE);
  }

  @Test
  void aBusinessDoneForThisOrderIsAGroupedMoveToBizSuccess() {
    Plan done = page.afterBusinessFact(held(FlowStatus.PAYED).build(), BizFact.done(TRADE), NOW);
    assertThat(done.route()).isEqualTo(Route.GROUP);
    assertThat(done.decision()).isEqualTo(new Decision.Move(FlowStatus.BIZ_SUCCESS, null));
    assertThat(done.resultClass()).isEqualTo("BIZ_FACT");
  }

  @Test
  void aRefundIsNeverDecidedInThePageButOnTheOneFlowPath() {
    Plan other =
        page.afterBusinessFact(held(FlowStatus.PAYED).build(), BizFact.done("t_other"), NOW);
    assertThat(other.route()).isEqualTo(Route.ALONE);

    Plan late =
        page.afterBusinessFact(
            held(FlowStatus.PAYED).build(), BizFact.notDone(), DEADLINE.plus(Duration.ofHours(1)));
    assertThat(late.route()).isEqualTo(Route.ALONE);
  }

  @Test
  void aBusinessNotDoneYetOrContradictoryIsWrittenForItsFlowAlone() {
    Plan notYet = page.afterBusinessFact(held(FlowStatus.PAYED).build(), BizFact.notDone(), NOW);
    assertThat(notYet.route()).isEqualTo(Route.APPLY);
    assertThat(notYet.decision()).isEqualTo(new Decision.Wait("BIZ_NOT_DONE", true));

    Plan contradiction =
        page.afterBusinessFact(held(FlowStatus.PAYED).build(), BizFact.done(null), NOW);
    assertThat(contradiction.route()).isEqualTo(Route.APPLY);
    assertThat(contradiction.decision()).isInstanceOf(Decision.Freeze.class);

    Plan unreadable =
        page.afterBusinessFact(
            held(FlowStatus.PAYED).build(), BizFact.unreadable("BIZ_TIMEOUT"), NOW);
    assertThat(unreadable.route()).isEqualTo(Route.APPLY);
  }

  @Test
  void onlyATransitionIsEverPlannedIntoTheGroup() {
    assertThatThrownBy(() -> new Plan(Route.GROUP, new Decision.Wait("X"), null, "X"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
