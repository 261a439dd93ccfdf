package dev.clearway.store;

import static dev.clearway.store.StoreFixtures.created;
import static dev.clearway.store.StoreFixtures.lease;
import static dev.clearway.store.StoreFixtures.now;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pooled connection carries a statement timeout and a socket timeout: a worker's statement stuck
 * behind a row lock that another connection holds fails after the timeout instead of pinning the
 * worker for ever.
 */
class DatabaseTimeoutTest {
  private static final Database.Timeouts SHORT =
      new Database.Timeouts(Duration.ofMillis(400), Duration.ofSeconds(5));

  private static Database shortPool;

  @BeforeAll
  static void open() {
    shortPool = Database.connect(TestDatabase.get().database().jdbcUrl(), 2, SHORT);
  }

  @AfterAll
  static void close() {
    shortPool.close();
  }

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void aWriteBlockedByARowLockFailsAfterTheStatementTimeout() throws Exception {
    Instant now = now();
    PayFlow flow = created(now);
    Instant expired = now.plusSeconds(60);
    try (Connection holder = TestDatabase.get().dataSource().getConnection()) {
      holder.setAutoCommit(false);
      try (PreparedStatement lock =
          holder.prepareStatement("SELECT id FROM pay_flow WHERE id = ? FOR UPDATE")) {
        lock.setLong(1, flow.id());
        lock.executeQuery().close();
      }
      JdbcFlowStore worker = shortPool.flowStore();
      // Without a timeout the claim waits for the lock as long as the holder keeps it.
      assertTimeoutPreemptively(
          Duration.ofSeconds(20),
          () ->
              assertThatThrownBy(() -> worker.claim(flow.id(), lease("w", expired), expired))
                  .isInstanceOf(StoreException.class)
                  .rootCause()
                  .isInstanceOf(SQLException.class)
                  .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014")));
      holder.rollback();
    }
    // The pool is healthy afterwards: the same claim goes through once the lock is gone.
    assertThat(shortPool.flowStore().claim(flow.id(), lease("w", expired), expired)).isTrue();
  }

  @Test
  void aTimeoutGivenInTheUrlTakesPrecedence() throws Exception {
    String url = TestDatabase.get().database().jdbcUrl();
    String withOwn =
        url + (url.contains("?") ? "&" : "?") + "options=-c%20statement_timeout%3D1234";
    try (Database own = Database.connect(withOwn, 1, SHORT);
        Connection c = own.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("1234ms");
    }
  }

  @Test
  void everyPooledConnectionCarriesBothTimeouts() throws Exception {
    try (Connection c = shortPool.dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
      rs.next();
      assertThat(rs.getString(1)).isEqualTo("400ms");
      assertThat(c.getNetworkTimeout()).isEqualTo(5_000);
    }
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SHOW statement_timeout")) {
      rs.next();
      assertThat(rs.getString(1)).as("the default pool").isEqualTo("30s");
    }
  }
}
