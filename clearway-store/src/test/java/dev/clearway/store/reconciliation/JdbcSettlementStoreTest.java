package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import dev.clearway.store.testing.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

class JdbcSettlementStoreTest {
  private final ReconFixture fx = new ReconFixture();
  private final JdbcSettlementStore store = new JdbcSettlementStore(fx.ds, fx.dialect);

  @BeforeEach
  void reset() {
    fx.reset();
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void eachChangeIsAHistoryRowAndTheSameStatusAgainChangesNothing() {
    assertThat(store.status("T1")).isEmpty();

    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0));
    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 5L, 2L, T0.plusSeconds(1)));
    assertThat(store.status("T1")).contains(SettlementStatus.SETTLED);
    assertThat(history()).containsExactly("0:null>SETTLED file 4");

    store.mark(new Mark("T1", SettlementStatus.MISMATCH, 77L, 6L, 1L, T0.plusSeconds(2)));
    store.mark(new Mark("T1", SettlementStatus.MISMATCH, 77L, 6L, 1L, T0.plusSeconds(3)));
    assertThat(store.status("T1")).contains(SettlementStatus.MISMATCH);
    assertThat(history()).containsExactly("0:null>SETTLED file 4", "1:SETTLED>MISMATCH file 6");
    assertThat(fx.strings("SELECT CONCAT(difference_id, '/', version) FROM payment_settlement"))
        .containsExactly("77/1");
    assertThatThrownBy(() -> fx.exec("DELETE FROM payment_settlement_history"))
        .hasMessageContaining("append-only");
    assertThatThrownBy(() -> fx.exec("UPDATE payment_settlement_history SET to_status = 'SETTLED'"))
        .hasMessageContaining("append-only");
  }

  /** Writes the flow's row on the database (the flow store on the MySQL family: not yet). */
  @Test
  void theFlowIsNeverTouched() {
    long flow = fx.flow("T1", "BIZ_SUCCESS", T0);
    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0));
    store.mark(new Mark("T1", SettlementStatus.MISMATCH, 77L, 6L, 1L, T0.plusSeconds(2)));

    assertThat(fx.strings("SELECT status || '/' || version FROM pay_flow WHERE id = ?", flow))
        .containsExactly("BIZ_SUCCESS/3");
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void aRowSettledSetBasedGetsItsFirstHistoryRowFromItselfWhenItFirstChanges() {
    // As JdbcAgreeingLines settles: the row at version 0, no history row.
    fx.update(
        "INSERT INTO payment_settlement (trade_order_no, status, statement_file_id, version,"
            + " updated_at) VALUES ('T1', 'SETTLED', 3, 0, ?)",
        ReconFixture.ts(T0));
    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 4L, 2L, T0.plusSeconds(1)));
    assertThat(history()).isEmpty();

    store.mark(new Mark("T1", SettlementStatus.MISMATCH, 77L, 6L, 1L, T0.plusSeconds(2)));
    store.mark(new Mark("T1", SettlementStatus.SETTLED, null, 7L, 1L, T0.plusSeconds(3)));

    assertThat(history())
        .containsExactly(
            "0:null>SETTLED file 3", "1:SETTLED>MISMATCH file 6", "2:MISMATCH>SETTLED file 7");
  }

  private java.util.List<String> history() {
    return fx.strings(
        "SELECT CONCAT(version, ':', coalesce(from_status, 'null'), '>', to_status,"
            + " ' file ', statement_file_id) FROM payment_settlement_history"
            + " WHERE trade_order_no = 'T1' ORDER BY version");
  }
}
