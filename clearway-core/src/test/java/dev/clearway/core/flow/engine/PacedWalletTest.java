package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The plain wallet's calls are spaced by the budget, and never sent past the caller's lease. */
class PacedWalletTest {
  private final AtomicInteger calls = new AtomicInteger();
  private final Clock clock = Clock.systemUTC();

  private final WalletGateway wallet =
      new WalletGateway() {
        @Override
        public WalletResult pay(ChargeRequest request) {
          return answer();
        }

        @Override
        public WalletResult queryPayment(String tradeOrderNo) {
          return answer();
        }

        @Override
        public WalletResult closePayment(String tradeOrderNo) {
          return answer();
        }

        @Override
        public WalletResult refund(RefundRequest request) {
          return answer();
        }

        @Override
        public WalletResult queryRefund(String refundOrderNo) {
          return answer();
        }
      };

  private WalletResult answer() {
    calls.incrementAndGet();
    return WalletResult.success("r");
  }

  @Test
  void callsAreSpacedAtTheBudget() {
    PacedWallet paced =
        new PacedWallet(wallet, new PacedRateLimiter(), 20, Duration.ofSeconds(1), clock);
    long start = System.nanoTime();
    for (int i = 0; i < 5; i++) {
      assertThat(paced.queryPayment("t_" + i).certainty()).isEqualTo(Certainty.SUCCESS);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(190));
    assertThat(calls).hasValue(5);
  }

  @Test
  void aCallThatCannotStartBeforeTheLeaseEndsIsNotSent() {
    PacedWallet paced =
        new PacedWallet(wallet, new PacedRateLimiter(), 1, Duration.ofSeconds(1), clock);
    assertThat(paced.queryRefund("r_1", clock.instant().plusSeconds(5)).certainty())
        .isEqualTo(Certainty.SUCCESS);
    WalletResult refused = paced.queryRefund("r_2", clock.instant().plusMillis(100));
    assertThat(refused.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(refused.errorCode()).isEqualTo(PacedRateLimiter.PAST_LEASE);
    assertThat(calls).hasValue(1);
  }
}
