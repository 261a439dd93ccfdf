package dev.clearway.store.statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletStatement;
import java.io.ByteArrayInputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated wallet's statement parses back to the ledger it was rendered from. */
class WalletStatementRoundTripTest {

  @Test
  void theStatementOfADayParsesBackToThatDaysLedger() throws Exception {
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T23:59:58Z"), ZoneOffset.UTC);
    SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
    wallet.pay(new ChargeRequest("T-1", 7L, 1_500, "CNY"));
    wallet.pay(new ChargeRequest("T-2", 7L, 820, "CNY"));
    wallet.refund(new RefundRequest("R-1", "T-1", 500, "CNY"));
    List<LedgerEntry> ledger = wallet.ledger();
    assertThat(ledger).hasSize(3);

    byte[] statement = WalletStatement.render(ledger, LocalDate.of(2026, 12, 1), "CNY");
    List<StatementLine> lines = new ArrayList<>();
    new WalletCsvParser().parse(new ByteArrayInputStream(statement), lines::add);

    assertThat(lines.stream().filter(StatementLine::recordsMoney))
        .extracting(
            StatementLine::kind,
            StatementLine::tradeOrderNo,
            StatementLine::refundOrderNo,
            StatementLine::amount,
            StatementLine::at)
        .containsExactly(
            tuple(StatementLineKind.CHARGE, "T-1", null, 1_500L, clock.instant()),
            tuple(StatementLineKind.CHARGE, "T-2", null, 820L, clock.instant()),
            tuple(StatementLineKind.REFUND, "T-1", "R-1", -500L, clock.instant()));
    byte[] nextDay = WalletStatement.render(ledger, LocalDate.of(2026, 12, 2), "CNY");
    List<StatementLine> none = new ArrayList<>();
    new WalletCsvParser().parse(new ByteArrayInputStream(nextDay), none::add);
    assertThat(none).hasSize(1);
  }
}
