package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.shardingsphere.driver.jdbc.core.statement.ShardingSpherePreparedStatement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sharded URL's connections: ShardingSphere connections pooled, at most the pool size given to
 * {@code Database.connect} (8 here) at once, each keeping its prepared statements (prepared and
 * bound once, routed again on every execution) and the driver's autocommit as the caller's mode
 * needs it.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedConnectionsTest {

  private static final String INSERT_EVENT =
      "INSERT INTO outbox_event (event_id, event_type, aggregate_id, payload, created_at)"
          + " VALUES (?, 'TEST', ?, '{}', NOW(6))";

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final DataSource ds = db.database().dataSource();
  private final String prefix = "conn-" + UUID.randomUUID() + "-";

  @AfterEach
  void emptyTheOutbox() {
    db.truncate(List.of("outbox_event"));
  }

  @Test
  void aStatementPreparedAgainOnAConnectionIsTheOneItPreparedBeforeUnlessStillHeld()
      throws Exception {
    try (Connection c = ds.getConnection()) {
      Object first;
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM pay_flow_fact")) {
        first = ps.unwrap(ShardingSpherePreparedStatement.class);
        try (PreparedStatement nested = c.prepareStatement("SELECT COUNT(*) FROM pay_flow_fact")) {
          assertThat(nested.unwrap(ShardingSpherePreparedStatement.class)).isNotSameAs(first);
        }
      }
      try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM pay_flow_fact")) {
        assertThat(ps.unwrap(ShardingSpherePreparedStatement.class)).isSameAs(first);
      }
    }
  }

  @Test
  void aStatementPreparedWithKeyColumnsIsKeptAndReturnsEachExecutionsOwnKey() throws Exception {
    try (Connection c = ds.getConnection()) {
      Object first = null;
      for (int shard = 0; shard < 4; shard++) {
        try (PreparedStatement ps = c.prepareStatement(INSERT_EVENT, new String[] {"id"})) {
          Object now = ps.unwrap(ShardingSpherePreparedStatement.class);
          if (first == null) {
            first = now;
          }
          assertThat(now).isSameAs(first);
          ps.setString(1, prefix + shard);
          ps.setLong(2, ShardKeys.firstId(shard) + 11);
          assertThat(ps.executeUpdate()).isEqualTo(1);
          try (ResultSet keys = ps.getGeneratedKeys()) {
            assertThat(keys.next()).isTrue();
            assertThat(ShardKeys.ofId(keys.getLong(1))).isEqualTo(shard);
          }
        }
      }
      try (PreparedStatement plain = c.prepareStatement(INSERT_EVENT)) {
        assertThat(plain.unwrap(ShardingSpherePreparedStatement.class)).isNotSameAs(first);
      }
    }
    for (int shard = 0; shard < 4; shard++) {
      assertThat(eventsOn(shard / 2, "outbox_event_" + shard % 2, prefix + shard)).isEqualTo(1);
    }
  }

  @Test
  void aKeptStatementIsRoutedAgainOnEveryExecutionWithItsNewParameters() throws Exception {
    try (Connection c = ds.getConnection()) {
      for (int shard = 0; shard < 4; shard++) {
        try (PreparedStatement ps = c.prepareStatement(INSERT_EVENT)) {
          ps.setString(1, prefix + shard);
          ps.setLong(2, ShardKeys.firstId(shard) + 7);
          assertThat(ps.executeUpdate()).isEqualTo(1);
        }
      }
    }
    for (int shard = 0; shard < 4; shard++) {
      assertThat(eventsOn(shard / 2, "outbox_event_" + shard % 2, prefix + shard)).isEqualTo(1);
      assertThat(eventsOn(1 - shard / 2, "outbox_event_" + shard % 2, prefix + shard)).isZero();
      assertThat(eventsOn(shard / 2, "outbox_event_" + (1 - shard % 2), prefix + shard)).isZero();
    }
  }

  @Test
  void autocommitAfterATransactionCommitsEveryStatementAndEndingTheTransactionCommitsIt()
      throws Exception {
    long aggregate = ShardKeys.firstId(3) + 9;
    try (Connection c = ds.getConnection()) {
      c.setAutoCommit(false);
      PreparedStatement held = c.prepareStatement(INSERT_EVENT);
      held.setString(1, prefix + "in-tx");
      held.setLong(2, aggregate);
      held.executeUpdate();
      assertThat(eventsOn(1, "outbox_event_1", prefix + "in-tx")).isZero();
      c.setAutoCommit(true); // ends the transaction: committed
      assertThat(c.getAutoCommit()).isTrue();
      assertThat(eventsOn(1, "outbox_event_1", prefix + "in-tx")).isEqualTo(1);

      // a statement made in the transaction and run after it, in autocommit: committed at once
      held.setString(1, prefix + "held");
      held.setLong(2, aggregate);
      held.executeUpdate();
      assertThat(eventsOn(1, "outbox_event_1", prefix + "held")).isEqualTo(1);
      held.close();
      try (PreparedStatement ps = c.prepareStatement(INSERT_EVENT)) {
        ps.setString(1, prefix + "auto");
        ps.setLong(2, aggregate);
        ps.executeUpdate();
      }
      assertThat(eventsOn(1, "outbox_event_1", prefix + "auto")).isEqualTo(1);

      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(INSERT_EVENT)) {
        ps.setString(1, prefix + "rolled-back");
        ps.setLong(2, aggregate);
        ps.executeUpdate();
      }
      c.rollback();
      c.setAutoCommit(true);
    }
    assertThat(eventsOn(1, "outbox_event_1", prefix + "rolled-back")).isZero();
  }

  private long eventsOn(int database, String table, String eventId) {
    return db.physicalCount(
        database, "SELECT COUNT(*) FROM " + table + " WHERE event_id = '" + eventId + "'");
  }

  @Test
  void noMoreThanThePoolSizeAreOpenAtOnceAndAClosedOneLetsTheNextIn() throws Exception {
    List<Connection> held = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        held.add(ds.getConnection());
      }
      CompletableFuture<Long> ninth =
          CompletableFuture.supplyAsync(
              () -> {
                try (Connection c = ds.getConnection();
                    Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM pay_flow_fact")) {
                  rs.next();
                  return rs.getLong(1);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(500);
      assertThat(ninth).isNotDone();

      Connection one = held.remove(0);
      one.close();
      one.close(); // a second close gives no second place back
      assertThat(ninth.get(10, TimeUnit.SECONDS)).isNotNegative();
      held.add(ds.getConnection());
      CompletableFuture<Connection> tenth = CompletableFuture.supplyAsync(this::open);
      Thread.sleep(500);
      assertThat(tenth).isNotDone();
      held.remove(0).close();
      held.add(tenth.get(10, TimeUnit.SECONDS));
    } finally {
      for (Connection c : held) {
        c.close();
      }
    }
  }

  private Connection open() {
    try {
      return ds.getConnection();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
