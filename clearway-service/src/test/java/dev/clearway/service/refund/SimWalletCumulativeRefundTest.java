package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The simulated wallet refuses a new refund number that would refund more than was charged. */
@Tag(TestDatabase.MYSQL_FAMILY)
class SimWalletCumulativeRefundTest {
  private final SimWallet wallet = new SimWallet(FaultPlan.none(), Clock.systemUTC());

  private WalletResult refund(String no, long amount) {
    return wallet.refund(new RefundRequest(no, "t_1", amount, "CNY"));
  }

  private long refunded() {
    return wallet.ledger().stream()
        .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
        .mapToLong(LedgerEntry::amount)
        .sum();
  }

  @Test
  void partialRefundsAreCumulativeAndASentNumberIsNeverRecounted() {
    wallet.pay(new ChargeRequest("t_1", 7, 1_000, "CNY"));

    WalletResult first = refund("a_t_1_1", 600);
    WalletResult tooMuch = refund("a_t_1_2", 500);
    WalletResult resent = refund("a_t_1_1", 600);
    WalletResult rest = refund("a_t_1_3", 400);
    WalletResult beyond = refund("a_t_1_4", 1);

    assertThat(first.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(tooMuch.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(tooMuch.errorCode()).isEqualTo("REFUND_EXCEEDS_PAYMENT");
    assertThat(tooMuch.retryable()).isFalse();
    assertThat(wallet.queryRefund("a_t_1_2").certainty()).isEqualTo(Certainty.NO_RECORD);
    assertThat(resent.certainty())
        .as("the same number is not new money")
        .isEqualTo(Certainty.SUCCESS);
    assertThat(rest.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(beyond.errorCode()).isEqualTo("REFUND_EXCEEDS_PAYMENT");
    assertThat(refunded()).isEqualTo(1_000);
  }

  @Test
  void newNumbersRacingOnOneOrderCannotShareTheRoom() throws Exception {
    wallet.pay(new ChargeRequest("t_1", 7, 1_000, "CNY"));
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<WalletResult>> results = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        String no = "a_t_1_" + (i + 1);
        results.add(
            pool.submit(
                () -> {
                  go.await();
                  return refund(no, 300);
                }));
      }
      go.countDown();
      int ok = 0;
      for (Future<WalletResult> f : results) {
        if (f.get(10, TimeUnit.SECONDS).certainty() == Certainty.SUCCESS) {
          ok++;
        }
      }
      assertThat(ok).isEqualTo(3);
      assertThat(refunded()).isEqualTo(900);
    } finally {
      pool.shutdownNow();
    }
  }
}
