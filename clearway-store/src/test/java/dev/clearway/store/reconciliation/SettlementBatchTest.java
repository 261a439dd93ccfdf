package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import dev.clearway.store.testing.TestDatabase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Many settlement marks in one batch have the effect of one mark each. */
@Tag(TestDatabase.MYSQL_FAMILY)
class SettlementBatchTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcSettlementStore store = new JdbcSettlementStore(fx.ds, fx.dialect);

  @BeforeEach
  void reset() {
    fx.reset();
  }

  @Test
  void aBatchInsertsNewRowsMovesChangedOnesAndLeavesTheSameAloneEachWithItsHistory() {
    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0));
    store.mark(new Mark("T2", SettlementStatus.SETTLED, null, 4L, 3L, T0));

    store.markAll(
        List.of(
            new Mark("T1", SettlementStatus.SETTLED, null, 5L, 2L, T0.plusSeconds(1)),
            new Mark("T2", SettlementStatus.MISMATCH, 77L, 5L, 3L, T0.plusSeconds(1)),
            new Mark("T3", SettlementStatus.SETTLED, null, 5L, 4L, T0.plusSeconds(1))));

    assertThat(store.statuses(List.of("T1", "T2", "T3", "T4")))
        .isEqualTo(
            Map.of(
                "T1", SettlementStatus.SETTLED,
                "T2", SettlementStatus.MISMATCH,
                "T3", SettlementStatus.SETTLED));
    assertThat(
            fx.strings(
                "SELECT CONCAT(trade_order_no, ' ', version, ':', coalesce(from_status, 'null'),"
                    + " '>', to_status, ' file ', statement_file_id)"
                    + " FROM payment_settlement_history ORDER BY trade_order_no, version"))
        .containsExactly(
            "T1 0:null>SETTLED file 4",
            "T2 0:null>SETTLED file 4",
            "T2 1:SETTLED>MISMATCH file 5",
            "T3 0:null>SETTLED file 5");
    assertThat(
            fx.strings(
                "SELECT CONCAT(trade_order_no, ' v', version, ' file ', statement_file_id,"
                    + " ' diff ', CASE WHEN difference_id IS NULL THEN '-'"
                    + " ELSE CONCAT(difference_id, '') END)"
                    + " FROM payment_settlement ORDER BY trade_order_no"))
        .containsExactly("T1 v0 file 4 diff -", "T2 v1 file 5 diff 77", "T3 v0 file 5 diff -");
  }

  @Test
  void aRowSettledSetBasedGetsItsFirstHistoryRowFromItselfWhenABatchMovesIt() {
    // As JdbcAgreeingLines settles: the row at version 0, no history row.
    fx.update(
        "INSERT INTO payment_settlement (trade_order_no, status, statement_file_id, version,"
            + " updated_at) VALUES ('T1', 'SETTLED', 3, 0, ?)",
        ReconFixture.ts(T0));

    store.markAll(
        List.of(new Mark("T1", SettlementStatus.MISMATCH, 77L, 5L, 2L, T0.plusSeconds(1))));
    store.markAll(
        List.of(new Mark("T1", SettlementStatus.SETTLED, null, 6L, 2L, T0.plusSeconds(2))));

    assertThat(
            fx.strings(
                "SELECT CONCAT(version, ':', coalesce(from_status, 'null'), '>', to_status,"
                    + " ' file ', statement_file_id, ' at ',"
                    + " CASE WHEN at = ? THEN 'true' ELSE 'false' END)"
                    + " FROM payment_settlement_history ORDER BY version",
                ReconFixture.ts(T0)))
        .containsExactly(
            "0:null>SETTLED file 3 at true",
            "1:SETTLED>MISMATCH file 5 at false",
            "2:MISMATCH>SETTLED file 6 at false");
  }

  @Test
  void theSameBatchAgainChangesNothing() {
    List<Mark> batch =
        List.of(
            new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0),
            new Mark("T2", SettlementStatus.MISMATCH, 9L, 4L, 3L, T0));
    store.markAll(batch);
    store.markAll(batch);

    assertThat(fx.strings("SELECT count(*) FROM payment_settlement_history")).containsExactly("2");
    assertThat(fx.strings("SELECT max(version) FROM payment_settlement")).containsExactly("0");
  }

  @Test
  void aBatchNamingOneTradeOrderTwiceIsRefused() {
    assertThatThrownBy(
            () ->
                store.markAll(
                    List.of(
                        new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0),
                        new Mark("T1", SettlementStatus.MISMATCH, 9L, 4L, 2L, T0))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.status("T1")).isEmpty();
  }
}
