package dev.clearway.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The wallet's background costs what is due: a settlement round visits the orders and refunds whose
 * time has come, however many were settled before, and the ledger is read from a cursor.
 */
class SettlementCostTest {
  private static final int SETTLED = 10_000;

  /** Past the longest PROCESSING delay of the wallet. */
  private static final Duration PAST_DUE = Duration.ofSeconds(2);

  private final MovableClock clock = new MovableClock();
  private final FaultPlan everyOrderFaulted = new FaultPlan(7, 1.0);
  private final SimWallet wallet = new SimWallet(everyOrderFaulted, clock);

  @Test
  void aRoundVisitsOnlyWhatIsDueAfterTenThousandSettledOrders() {
    List<String> processing = tradeNumbers(WalletFault.PAY_PROCESSING, SETTLED + 3);
    processing.subList(0, SETTLED).forEach(this::pay);
    clock.advance(PAST_DUE);
    wallet.settleAll();
    assertThat(wallet.lastSettleVisits()).isEqualTo(SETTLED);
    assertThat(wallet.ledger()).hasSize(SETTLED);

    wallet.settleAll();
    assertThat(wallet.lastSettleVisits()).isZero();

    processing.subList(SETTLED, SETTLED + 3).forEach(this::pay);
    String refundNo = refundNumber(WalletFault.REFUND_PROCESSING);
    wallet.refund(new RefundRequest(refundNo, processing.get(0), 100, "CNY"));
    wallet.settleAll();
    assertThat(wallet.lastSettleVisits()).as("nothing is due yet").isZero();

    clock.advance(PAST_DUE);
    wallet.settleAll();
    assertThat(wallet.lastSettleVisits()).as("three charges and one refund fell due").isEqualTo(4);
    assertThat(wallet.ledgerSince(SETTLED))
        .extracting(LedgerEntry::kind)
        .containsOnly(LedgerEntry.Kind.CHARGE, LedgerEntry.Kind.REFUND)
        .hasSize(4);
    assertThat(wallet.ledgerSince(SETTLED + 4)).isEmpty();
  }

  @Test
  void anOrderAnsweredBeforeItsRoundIsNotChargedTwice() {
    String no = tradeNumbers(WalletFault.PAY_PROCESSING, 1).get(0);
    pay(no);
    clock.advance(PAST_DUE);
    assertThat(wallet.queryPayment(no).certainty().name()).isEqualTo("SUCCESS");
    wallet.settleAll();
    assertThat(wallet.lastSettleVisits()).isEqualTo(1);
    assertThat(wallet.ledger()).hasSize(1);
  }

  private void pay(String tradeOrderNo) {
    wallet.pay(new ChargeRequest(tradeOrderNo, 1, 100, "CNY"));
  }

  private List<String> tradeNumbers(WalletFault fault, int count) {
    List<String> numbers = new ArrayList<>();
    for (int i = 0; numbers.size() < count; i++) {
      String no = "T" + i;
      if (wallet.payFault(no) == fault) {
        numbers.add(no);
      }
    }
    return numbers;
  }

  private String refundNumber(WalletFault fault) {
    for (int i = 0; ; i++) {
      if (wallet.refundFault("R" + i) == fault) {
        return "R" + i;
      }
    }
  }

  private static final class MovableClock extends Clock {
    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

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
      throw new UnsupportedOperationException();
    }
  }
}
