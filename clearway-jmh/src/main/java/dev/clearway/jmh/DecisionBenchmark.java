package dev.clearway.jmh;

import dev.clearway.core.flow.decision.BusinessDecision;
import dev.clearway.core.flow.decision.Decision;
import dev.clearway.core.flow.decision.PaymentDecision;
import dev.clearway.core.flow.decision.RefundDecision;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.runtime.Backoff;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The pure decisions the advancer makes on every step: they should cost nanoseconds. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DecisionBenchmark {
  private final Instant now = Instant.parse("2026-12-01T00:00:00Z");
  private final PayFlow payed =
      PayFlow.builder()
          .id(901)
          .goal(GoalKey.ofDefaultMerchant(16, "renewal", "biz-R-73"))
          .attemptNo(1)
          .orderNumbers("t_g_p1", "r_t_g_p1")
          .status(FlowStatus.PAYED)
          .version(2)
          .money(1_000, "CNY")
          .bizDeadline(now.plusSeconds(60))
          .nextRetryTime(now)
          .createdAt(now)
          .updatedAt(now)
          .build();
  private final BizFact doneHere = BizFact.done("t_g_p1");
  private final BizFact doneElsewhere = BizFact.done("t_g_p9");
  private final WalletResult success = WalletResult.success("w1");
  private final WalletResult unknown = WalletResult.unknown("TIMEOUT");
  private final WalletResult noRecord = WalletResult.noRecord("w2");
  private final Duration grace = Duration.ofSeconds(5);
  private final Backoff backoff = new Backoff(EngineConfig.production());
  private int retry;

  @Benchmark
  public Decision paymentOnSuccess() {
    return PaymentDecision.onPaymentResult(success);
  }

  @Benchmark
  public Decision paymentOnUnknown() {
    return PaymentDecision.onPaymentResult(unknown);
  }

  @Benchmark
  public PaymentDecision.NextCall paymentAfterNoRecord() {
    return PaymentDecision.afterQuery(payed, noRecord, now);
  }

  @Benchmark
  public Decision businessDoneHere() {
    return BusinessDecision.decide(payed, doneHere, now, grace);
  }

  @Benchmark
  public Decision businessDoneElsewhere() {
    return BusinessDecision.decide(payed, doneElsewhere, now, grace);
  }

  @Benchmark
  public Decision refundOnSuccess() {
    return RefundDecision.onRefundResult(success);
  }

  @Benchmark
  public boolean transitionIsLegal() {
    return Transitions.isLegal(FlowStatus.PAYED, FlowStatus.REFUNDING);
  }

  @Benchmark
  public boolean transitionIsSameOrLater() {
    return Transitions.isSameOrLater(FlowStatus.PAYING, FlowStatus.REFUNDED);
  }

  @Benchmark
  public Instant backoffNext() {
    retry = (retry + 1) & 15;
    return backoff.next(901, retry, false, now);
  }
}
