package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.reconciliation.decision.Reconciliation;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.BusinessFacts;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * A large day is matched line by line: the statement and the local rows are produced lazily, the
 * local side is only ever asked by identity, and every lookup is made once per line.
 */
class StreamingReconciliationTest {
  private static final long PAYMENTS = 50_000;

  @Test
  void largeDayIsMatchedOneLineAtATimeByIdentityLookups() {
    AtomicLong lookups = new AtomicLong();
    Derived derived = new Derived(lookups);
    Iterator<StatementFact> statement =
        LongStream.rangeClosed(1, PAYMENTS).mapToObj(id -> Day.chargeOf(paid(id))).iterator();
    Iterator<LocalFact> locals =
        LongStream.rangeClosed(1, PAYMENTS).mapToObj(StreamingReconciliationTest::paid).iterator();
    List<Difference> found = new ArrayList<>();

    new Reconciliation(derived, derived).run(Day.window(Day.LATE), statement, locals, found::add);

    assertThat(found).isEmpty();
    assertThat(lookups.get()).isEqualTo(PAYMENTS);
  }

  private static LocalFact paid(long flowId) {
    return Day.flow(flowId, BIZ_SUCCESS);
  }

  /** Answers each identity by deriving the row from it, holding nothing. */
  private record Derived(AtomicLong lookups) implements LocalFacts, BusinessFacts {

    @Override
    public Optional<LocalFact> byTradeOrderNo(String tradeOrderNo) {
      lookups.incrementAndGet();
      return flowOf(tradeOrderNo);
    }

    @Override
    public Optional<LocalFact> byRefundOrderNo(String refundOrderNo) {
      lookups.incrementAndGet();
      return flowOf(refundOrderNo.substring(2));
    }

    @Override
    public List<LocalFact> refundsOfPayment(String tradeOrderNo) {
      lookups.incrementAndGet();
      return List.of();
    }

    @Override
    public Optional<LocalFact> byAttemptKey(String attemptKey) {
      lookups.incrementAndGet();
      return flowOf(attemptKey.substring(3));
    }

    @Override
    public Optional<BusinessFact> byGoal(GoalKey goal) {
      long flowId = Long.parseLong(goal.bizKey().substring(4));
      String trade = OrderNumbers.derive(goal.userId(), flowId).tradeOrderNo();
      return Optional.of(new BusinessFact(goal, BusinessStatus.DONE, trade));
    }

    private static Optional<LocalFact> flowOf(String tradeOrderNo) {
      return OrderNumbers.flowIdOf(tradeOrderNo).stream().mapToObj(id -> paid(id)).findFirst();
    }
  }
}
