package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.DAY;
import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A payment settled by its agreed statement line (PostgreSQL's set-based agreement): SETTLED in
 * effect without a row, and its first mark writes the row from that line before changing it.
 */
class AgreedLineSettlementTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcSettlementStore store = new JdbcSettlementStore(fx.ds, fx.dialect);
  private long file;

  @BeforeEach
  void reset() {
    fx.reset();
    file = fx.file("acct", DAY, "IMPORTED");
    fx.textLine(file, 1);
    fx.line(file, 2, "CHARGE", "T1", null, null, 100, 1, T0);
    fx.line(file, 3, "CHARGE", "T2", null, null, 200, 2, T0);
    fx.line(file, 4, "CHARGE", "T3", null, null, 300, 3, T0);
    fx.line(file, 5, "FEE", "T4", null, null, -6, 0, T0);
    // Lines 1 to 3 agreed (the text line is no charge); line 4 did not; the FEE line is no charge.
    fx.update(
        "INSERT INTO statement_line_agreed (file_id, first_line, last_line, at)"
            + " VALUES (?, 1, 3, ?), (?, 5, 5, ?)",
        file,
        ReconFixture.ts(T0),
        file,
        ReconFixture.ts(T0));
  }

  @Test
  void anAgreedLineSettlesItsPaymentWithoutARow() {
    assertThat(store.status("T1")).contains(SettlementStatus.SETTLED);
    assertThat(store.status("T3")).isEqualTo(Optional.empty());
    assertThat(store.status("T4")).isEqualTo(Optional.empty());
    assertThat(store.statuses(List.of("T1", "T2", "T3")))
        .isEqualTo(Map.of("T1", SettlementStatus.SETTLED, "T2", SettlementStatus.SETTLED));
    assertThat(fx.strings("SELECT count(*) FROM payment_settlement")).containsExactly("0");
  }

  @Test
  void aRowOverridesTheAgreedLineAndItsHistoryStartsFromTheLine() {
    store.mark(new Mark("T1", SettlementStatus.MISMATCH, 77L, 9L, 5L, T0.plusSeconds(1)));
    store.markAll(
        List.of(
            new Mark("T2", SettlementStatus.SETTLED, null, 9L, 6L, T0.plusSeconds(1)),
            new Mark("T3", SettlementStatus.MISMATCH, 78L, 9L, 7L, T0.plusSeconds(1))));
    store.markAll(
        List.of(new Mark("T2", SettlementStatus.MISMATCH, 79L, 9L, 6L, T0.plusSeconds(2))));

    assertThat(store.statuses(List.of("T1", "T2", "T3")))
        .isEqualTo(
            Map.of(
                "T1", SettlementStatus.MISMATCH,
                "T2", SettlementStatus.MISMATCH,
                "T3", SettlementStatus.MISMATCH));
    assertThat(
            fx.strings(
                "SELECT concat(trade_order_no, ' ', version, ':', coalesce(from_status, 'null'),"
                    + " '>', to_status, ' file ', statement_file_id)"
                    + " FROM payment_settlement_history ORDER BY trade_order_no, version"))
        .containsExactly(
            "T1 0:null>SETTLED file " + file,
            "T1 1:SETTLED>MISMATCH file 9",
            "T2 0:null>SETTLED file " + file,
            "T2 1:SETTLED>MISMATCH file 9",
            "T3 0:null>MISMATCH file 9");
  }
}
