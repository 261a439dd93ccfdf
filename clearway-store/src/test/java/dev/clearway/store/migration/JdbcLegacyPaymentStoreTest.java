package dev.clearway.store.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.store.testing.TestDatabase;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The configured query against a legacy table in the test database. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcLegacyPaymentStoreTest {
  static final String QUERY =
      "SELECT order_no FROM legacy_payment WHERE merchant = :merchant AND user_id = :userId"
          + " AND scene = :scene AND biz_key = :bizKey AND status IN ('CREATED', 'PAYING')"
          + " ORDER BY created_at DESC";

  private final DataSource ds = TestDatabase.get().dataSource();

  @BeforeEach
  void legacyTable() throws SQLException {
    execute(
        "CREATE TABLE IF NOT EXISTS legacy_payment (order_no VARCHAR(64) PRIMARY KEY,"
            + " merchant VARCHAR(64) NOT NULL, user_id BIGINT NOT NULL, scene VARCHAR(64) NOT NULL,"
            + " biz_key VARCHAR(160) NOT NULL, status VARCHAR(16) NOT NULL,"
            + (TestDatabase.get().isMysqlFamily()
                ? " created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))"
                : " created_at TIMESTAMPTZ NOT NULL DEFAULT now())"));
    execute("TRUNCATE legacy_payment");
  }

  private void execute(String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  @Test
  void aNonTerminalLegacyPaymentOfTheGoalIsInFlightWithItsReference() throws SQLException {
    execute(
        "INSERT INTO legacy_payment (order_no, merchant, user_id, scene, biz_key, status) VALUES"
            + " ('LP-1', 'm1', 7, 'renewal', 'b1', 'PAYING'),"
            + " ('LP-2', 'm1', 7, 'renewal', 'b2', 'PAID'),"
            + " ('LP-3', 'm2', 7, 'renewal', 'b1', 'CREATED')");
    JdbcLegacyPaymentStore store = new JdbcLegacyPaymentStore(ds, QUERY, 2);

    assertThat(store.probe(new GoalKey("m1", 7, "renewal", "b1")))
        .isEqualTo(LegacyAnswer.inFlight("LP-1"));
    // A terminal legacy payment does not block, nor does another merchant's, user's or key's.
    assertThat(store.probe(new GoalKey("m1", 7, "renewal", "b2"))).isEqualTo(LegacyAnswer.clear());
    assertThat(store.probe(new GoalKey("m1", 8, "renewal", "b1"))).isEqualTo(LegacyAnswer.clear());
    assertThat(store.probe(new GoalKey("m3", 7, "renewal", "b1"))).isEqualTo(LegacyAnswer.clear());
  }

  @Test
  void theGoalIsBoundAsParametersNeverSplicedIntoTheQuery() throws SQLException {
    execute(
        "INSERT INTO legacy_payment (order_no, merchant, user_id, scene, biz_key, status) VALUES"
            + " ('LP-9', 'm1', 7, 'renewal', 'x', 'PAYING')");
    JdbcLegacyPaymentStore store = new JdbcLegacyPaymentStore(ds, QUERY, 2);
    assertThat(store.probe(new GoalKey("m1", 7, "renewal", "x' OR '1'='1")))
        .isEqualTo(LegacyAnswer.clear());
  }

  @Test
  void aStoreThatCannotAnswerIsUnknownNeverClear() {
    JdbcLegacyPaymentStore broken =
        new JdbcLegacyPaymentStore(ds, QUERY.replace("legacy_payment", "no_such_table"), 2);
    assertThat(broken.probe(new GoalKey("m1", 7, "renewal", "b1")))
        .isInstanceOf(LegacyAnswer.Unknown.class);
    JdbcLegacyPaymentStore down = new JdbcLegacyPaymentStore(new DownDataSource(), QUERY, 2);
    assertThat(down.probe(new GoalKey("m1", 7, "renewal", "b1")))
        .isInstanceOf(LegacyAnswer.Unknown.class);
  }

  @Test
  void aQueryWithoutTheGoalIsRefusedAtConfiguration() {
    assertThatThrownBy(() -> new JdbcLegacyPaymentStore(ds, "SELECT 1", 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new JdbcLegacyPaymentStore(ds, " ", 2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A legacy database that is down: every connection is refused. */
  private static final class DownDataSource implements DataSource {
    @Override
    public Connection getConnection() throws SQLException {
      throw new SQLException("connection refused", "08001");
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
      return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {}

    @Override
    public int getLoginTimeout() {
      return 0;
    }

    @Override
    public Logger getParentLogger() {
      return Logger.getGlobal();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
      return false;
    }
  }
}
