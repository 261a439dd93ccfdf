package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.lease;
import static dev.clearway.store.refund.RefundFixtures.path;
import static dev.clearway.store.refund.RefundFixtures.refunds;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.engine.RefundAdvanceResult;
import dev.clearway.core.refund.engine.RefundAdvanceResult.Outcome;
import dev.clearway.core.refund.engine.RefundAdvancer;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shared leased-advance loop on the real refund store: a worker whose lease is taken over
 * during its wallet call writes nothing, an unanswered call reschedules with the engine's backoff,
 * a step that throws leaves the row to its lease, and a trigger whose lease expired claims afresh.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LeasedRefundAdvanceTest {
  private static final EngineConfig CONFIG = EngineConfig.production();

  private final TestClock clock = new TestClock(Instant.now().truncatedTo(ChronoUnit.MICROS));
  private final AtomicInteger leaseLost = new AtomicInteger();
  private final AtomicInteger rescheduled = new AtomicInteger();
  private final List<Instant> wakeups = new ArrayList<>();
  private final AtomicInteger walletCalls = new AtomicInteger();
  private Function<WalletGateway.RefundRequest, WalletResult> onRefund;

  @BeforeEach
  void clean() {
    RefundFixtures.reset();
  }

  private RefundAdvancer advancer() {
    RefundEvents events =
        new RefundEvents() {
          @Override
          public void leaseLost(String table) {
            assertThat(table).isEqualTo("refund_order");
            leaseLost.incrementAndGet();
          }

          @Override
          public void rescheduled(RefundStatus status, String errorCode) {
            rescheduled.incrementAndGet();
          }
        };
    return new RefundAdvancer(
        refunds(),
        RefundFixtures.flows(),
        new ScriptedWallet(),
        (id, at) -> wakeups.add(at),
        events,
        new LeaseTokens("test", clock, CONFIG),
        CONFIG,
        clock);
  }

  /** A refund created under the lease "creator", and that lease. */
  private RefundOrder createdRefund() {
    return created(bizSuccess(clock.instant()), 500, "k-" + System.nanoTime(), clock.instant());
  }

  private Trigger creation() {
    return Trigger.held(TriggerSource.API, lease("creator", clock.instant()));
  }

  @Test
  void aWorkerWhoseLeaseIsTakenOverDuringItsWalletCallWritesNothing() {
    RefundOrder refund = createdRefund();
    onRefund =
        request -> {
          // Mid-step: this worker stalls past its lease and another worker claims the refund.
          clock.advance(CONFIG.lease().plusSeconds(1));
          Lease taker = new Lease("taker", clock.instant().plus(CONFIG.lease()));
          assertThat(refunds().claim(refund.id(), taker, clock.instant())).isTrue();
          return WalletResult.success("w-1");
        };

    RefundAdvanceResult result = advancer().advanceCreated(refund, creation());

    assertThat(result.outcome()).isEqualTo(Outcome.BUSY);
    RefundOrder after = refunds().find(refund.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(after.version()).isEqualTo(1);
    assertThat(after.leaseOwner()).isEqualTo("taker");
    assertThat(path(refund.id())).containsExactly("null->PENDING@0", "PENDING->PROCESSING@1");
    assertThat(leaseLost).hasValue(1);
    assertThat(rescheduled).hasValue(0);
    assertThat(wakeups).isEmpty();
  }

  @Test
  void anUnansweredCallReschedulesWithTheEngineBackoffAndReleasesTheLease() {
    RefundOrder refund = createdRefund();
    onRefund = request -> WalletResult.unknown("TIMEOUT");

    RefundAdvanceResult result = advancer().advanceCreated(refund, creation());

    assertThat(result.outcome()).isEqualTo(Outcome.WAITING);
    Instant expected = new Backoff(CONFIG).next(refund.id(), 0, false, clock.instant());
    RefundOrder after = refunds().find(refund.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(after.retryCount()).isEqualTo(1);
    assertThat(after.leaseOwner()).isNull();
    assertThat(after.nextRetryTime()).isEqualTo(expected);
    assertThat(after.lastErrorCode()).isEqualTo("TIMEOUT");
    assertThat(wakeups).containsExactly(expected);
    assertThat(rescheduled).hasValue(1);
    assertThat(leaseLost).hasValue(0);
  }

  @Test
  void aStepThatThrowsLeavesTheRowToItsLeaseAndTheNextClaimFinishesIt() {
    RefundOrder refund = createdRefund();
    onRefund =
        request -> {
          throw new IllegalStateException("worker died mid-call");
        };
    RefundAdvancer advancer = advancer();

    assertThatThrownBy(() -> advancer.advanceCreated(refund, creation()))
        .hasMessageContaining("worker died");
    RefundOrder held = refunds().find(refund.id()).orElseThrow();
    assertThat(held.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(held.leaseOwner()).isEqualTo("creator");

    // While the dead worker's lease runs, nobody else takes the refund; after it, a claim does.
    onRefund = request -> WalletResult.success("w-2");
    assertThat(advancer.advance(refund.id(), Trigger.unclaimed(TriggerSource.SCANNER)).outcome())
        .isEqualTo(Outcome.BUSY);
    clock.advance(CONFIG.lease());
    assertThat(advancer.advance(refund.id(), Trigger.unclaimed(TriggerSource.SCANNER)).outcome())
        .isEqualTo(Outcome.TERMINAL);
    assertThat(refunds().find(refund.id()).orElseThrow().status()).isEqualTo(RefundStatus.SUCCESS);
  }

  @Test
  void aTriggerWhoseLeaseExpiredClaimsAfreshAndStopsWhileAnotherWorkerHoldsTheRow() {
    RefundOrder refund = createdRefund();
    Trigger stale = creation();
    clock.advance(CONFIG.lease().plusSeconds(1));
    Lease taker = new Lease("taker", clock.instant().plus(CONFIG.lease()));
    assertThat(refunds().claim(refund.id(), taker, clock.instant())).isTrue();
    onRefund = request -> WalletResult.success("w-3");

    RefundAdvanceResult result = advancer().advanceCreated(refund, stale);

    assertThat(result.outcome()).isEqualTo(Outcome.BUSY);
    assertThat(walletCalls).hasValue(0);
    RefundOrder after = refunds().find(refund.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.PENDING);
    assertThat(after.leaseOwner()).isEqualTo("taker");
  }

  /** A wallet whose refund answers are scripted per test; it never queries before a send. */
  private final class ScriptedWallet implements WalletGateway {
    @Override
    public WalletResult refund(RefundRequest request) {
      walletCalls.incrementAndGet();
      return onRefund.apply(request);
    }

    @Override
    public WalletResult queryRefund(String refundOrderNo) {
      walletCalls.incrementAndGet();
      return WalletResult.noRecord("q-1");
    }

    @Override
    public WalletResult pay(ChargeRequest request) {
      throw new AssertionError("no charge in a refund advance");
    }

    @Override
    public WalletResult queryPayment(String tradeOrderNo) {
      throw new AssertionError("no charge query in a refund advance");
    }

    @Override
    public WalletResult closePayment(String tradeOrderNo) {
      throw new AssertionError("no close in a refund advance");
    }
  }

  /** The engine clock, moved by the test. */
  private static final class TestClock extends Clock {
    private Instant now;

    TestClock(Instant start) {
      this.now = start;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
