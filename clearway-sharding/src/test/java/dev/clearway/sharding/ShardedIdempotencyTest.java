package dev.clearway.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.Database;
import dev.clearway.store.JdbcIdempotencyStore;
import dev.clearway.store.JdbcIdempotencyStore.Claim;
import dev.clearway.store.MysqlDialect;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The idempotency store on the sharded URL: one shard per statement, one row per key. */
@Tag(ShardedTestDatabase.SHARDING)
class ShardedIdempotencyTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final String H1 = "a".repeat(64);

  private final ShardedTestDatabase db = ShardedTestDatabase.get();
  private final Database database = db.database();
  private final JdbcIdempotencyStore keys =
      new JdbcIdempotencyStore(database.dataSource(), database.dialect());

  @BeforeEach
  void clean() {
    db.truncate(List.of("idempotency_key"));
  }

  @Test
  void theShardingUrlRunsTheMysqlDialectAndEveryKeyStatementReachesOneShard() {
    assertThat(database.dialect()).isInstanceOf(MysqlDialect.class);
    List<SqlLog.Routed> log =
        SqlLog.capture(
            () -> {
              for (int i = 0; i < 40; i++) {
                keys.begin("m" + (i % 3), "key-" + i, H1, T0, T0.plusSeconds(6));
                keys.expireLock("m" + (i % 3), "key-" + i, T0.plusSeconds(1));
              }
              return null;
            });

    assertThat(log).hasSizeGreaterThanOrEqualTo(80);
    assertThat(log).allSatisfy(s -> assertThat(s.shards()).as(s.logic()).isEqualTo(1));
    for (int ds = 0; ds < 2; ds++) {
      for (int t = 0; t < 2; t++) {
        assertThat(db.physicalCount(ds, "SELECT count(*) FROM idempotency_key_" + t))
            .as("rows of ds_%d.idempotency_key_%d", ds, t)
            .isPositive();
      }
    }
  }

  @Test
  void oneKeyOfAMerchantIsOwnedOnceAcrossShardsUnderConcurrency() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Claim>> racers = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        racers.add(() -> keys.begin("m-race", "same-key", H1, T0, T0.plusSeconds(6)));
      }
      List<Claim> claims = new ArrayList<>();
      for (Future<Claim> f : pool.invokeAll(racers)) {
        claims.add(f.get());
      }
      assertThat(claims.stream().filter(c -> c instanceof Claim.Owned).count()).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    long rows = 0;
    for (int ds = 0; ds < 2; ds++) {
      for (int t = 0; t < 2; t++) {
        rows +=
            db.physicalCount(
                ds, "SELECT count(*) FROM idempotency_key_" + t + " WHERE idem_key = 'same-key'");
      }
    }
    assertThat(rows).isEqualTo(1);
  }
}
