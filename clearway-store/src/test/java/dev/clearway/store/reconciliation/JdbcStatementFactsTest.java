package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.core.statement.StatementStore;
import dev.clearway.store.statement.StatementStores;
import dev.clearway.store.statement.WalletCsvParser;
import dev.clearway.store.testing.TestDatabase;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcStatementFactsTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcStatementFacts facts = new JdbcStatementFacts(fx.ds);

  @BeforeEach
  void reset() {
    fx.reset();
  }

  @Test
  void aFilesMoneyLinesAreFactsInLineOrderWithPositiveAmounts() {
    long file = fx.file("acct_1", DAY, "IMPORTED");
    fx.textLine(file, 1);
    fx.line(file, 2, "CHARGE", "T1", null, "k1", 500, 15, T0.plusSeconds(1));
    fx.line(file, 3, "REFUND", "T1", "a_T1_1", "k1", -200, 0, T0.plusSeconds(2));
    fx.line(file, 4, "FEE", null, null, null, -45, 0, T0.plusSeconds(3));
    fx.line(file, 5, "ADJUSTMENT", null, null, "k1", -30, 0, T0.plusSeconds(4));

    List<StatementFact> lines;
    try (Stream<StatementFact> s = facts.lines(file, "acct_1")) {
      lines = s.toList();
    }

    assertThat(lines)
        .extracting(StatementFact::kind)
        .containsExactly(StatementKind.CHARGE, StatementKind.REFUND, StatementKind.ADJUSTMENT);
    assertThat(lines).extracting(StatementFact::amountMinor).containsExactly(500L, 200L, 30L);
    assertThat(lines).extracting(StatementFact::outcome).containsOnly(LineOutcome.SUCCEEDED);
    StatementFact charge = lines.get(0);
    assertThat(charge.feeMinor()).isEqualTo(15);
    assertThat(charge.tradeOrderNo()).isEqualTo("T1");
    assertThat(charge.attemptKey()).isEqualTo("k1");
    assertThat(charge.pspReference()).isEqualTo("psp-" + file + "-2");
    assertThat(charge.currency()).isEqualTo("EUR");
    assertThat(charge.at()).isEqualTo(T0.plusSeconds(1));
    assertThat(charge.account()).isEqualTo("acct_1");
    assertThat(lines.get(1).refundOrderNo()).isEqualTo("a_T1_1");
    try (Stream<StatementFact> other = facts.lines(file, "acct_2")) {
      assertThat(other).isEmpty();
    }
  }

  @Test
  void lookupsAcrossDaysReadOnlyTheFilesInForce() {
    long today = fx.file("acct_1", DAY, "IMPORTED");
    fx.line(today, 1, "CHARGE", "T1", null, "k1", 500, 15, T0.plusSeconds(1));
    fx.line(today, 2, "REFUND", "T1", "a_T1_1", null, -200, 0, T0.plusSeconds(5));
    long yesterday = fx.file("acct_1", DAY.minusDays(1), "IMPORTED");
    fx.line(yesterday, 1, "CHARGE", null, null, "k1", 500, 15, T0.minusSeconds(1));
    long refused = fx.file("acct_1", DAY.plusDays(1), "REFUSED");
    fx.line(refused, 1, "CHARGE", "T1", null, "k1", 500, 15, T0.plusSeconds(9));
    long elsewhere = fx.file("acct_2", DAY, "IMPORTED");
    fx.line(elsewhere, 1, "CHARGE", "T1", null, "k1", 500, 15, T0.plusSeconds(1));

    assertThat(facts.linesFor("acct_1", "T1", "k1"))
        .extracting(StatementFact::at)
        .containsExactly(T0.minusSeconds(1), T0.plusSeconds(1), T0.plusSeconds(5));
    assertThat(facts.linesFor("acct_1", null, "k1")).hasSize(2);
    assertThat(facts.linesFor("acct_1", "T1", null)).hasSize(2);
    assertThat(facts.linesFor("acct_1", "T9", "k9")).isEmpty();
    assertThat(facts.refundLinesFor("acct_1", "a_T1_1"))
        .singleElement()
        .extracting(StatementFact::amountMinor)
        .isEqualTo(200L);
    assertThat(facts.refundLinesFor("acct_1", "a_T1_2")).isEmpty();
    assertThat(facts.imported("acct_1", DAY)).isTrue();
    assertThat(facts.imported("acct_1", DAY.plusDays(1))).isFalse();
    assertThat(facts.imported("acct_3", DAY)).isFalse();
  }

  @Test
  void aSupersededFilesLinesAreNotSeen() throws Exception {
    StatementStore store = StatementStores.create(fx.ds, fx.dialect, Clock.systemUTC());
    StatementImporter importer =
        new StatementImporter(store, Map.of(StatementFormat.WALLET_CSV, new WalletCsvParser()));
    StatementFileRecord first = importWallet(importer, "/statement/wallet-2026-12-01.csv");
    StatementFileRecord corrected =
        importWallet(importer, "/statement/wallet-2026-12-01-corrected.csv");
    assertThat(store.find(first.id()).orElseThrow().status())
        .isEqualTo(StatementFileRecord.Status.SUPERSEDED);

    try (Stream<StatementFact> old = facts.lines(first.id(), "wallet")) {
      assertThat(old).isEmpty();
    }
    try (Stream<StatementFact> current = facts.lines(corrected.id(), "wallet")) {
      assertThat(current.map(StatementFact::tradeOrderNo))
          .containsExactly("T-1001", "T-1002", "T-1001", "T-1003");
    }
    assertThat(facts.linesFor("wallet", "T-1002", null)).hasSize(1);
    assertThat(facts.refundLinesFor("wallet", "R-2001"))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.kind()).isEqualTo(StatementKind.REFUND);
              assertThat(f.amountMinor()).isEqualTo(250);
            });
  }

  private static StatementFileRecord importWallet(StatementImporter importer, String resource)
      throws Exception {
    byte[] bytes;
    try (InputStream in = JdbcStatementFactsTest.class.getResourceAsStream(resource)) {
      bytes = in.readAllBytes();
    }
    return importer.importStatement(
        "wallet", DAY, Statement.unhashed(StatementFormat.WALLET_CSV, bytes));
  }
}
