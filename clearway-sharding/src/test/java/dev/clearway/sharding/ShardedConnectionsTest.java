package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The sharded URL's connections: opened per use (never pooled, so a transaction commits only on the
 * databases it reached), at most the pool size given to {@code Database.connect} (8 here) at once.
 */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedConnectionsTest {

  private final DataSource ds = ShardedTestDatabase.get().database().dataSource();

  @Test
  void eachConnectionIsANewShardingSphereConnection() throws Exception {
    Object first;
    try (Connection c = ds.getConnection()) {
      first = c.unwrap(Connection.class);
      assertThat(first.getClass().getSimpleName()).isEqualTo("ShardingSphereConnection");
    }
    try (Connection c = ds.getConnection()) {
      assertThat(c.unwrap(Connection.class)).isNotSameAs(first);
    }
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
