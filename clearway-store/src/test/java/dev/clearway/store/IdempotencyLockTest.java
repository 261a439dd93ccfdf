package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.JdbcIdempotencyStore.Claim;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A key whose request failed keeps its row: the retry takes it over, a new body is refused. */
@Tag(TestDatabase.MYSQL_FAMILY)
class IdempotencyLockTest {
  private final JdbcIdempotencyStore keys =
      new JdbcIdempotencyStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());

  /** Request hashes are SHA-256 in hex, as the API makes them. */
  private static final String H1 = "a".repeat(64);

  private static final String H2 = "b".repeat(64);

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  @Test
  void anExpiredLockIsTakenOverAtOnceAndAReleasedKeyStartsAfresh() {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    Instant lock = now.plus(Duration.ofSeconds(6));
    assertThat(keys.begin("m", "k1", H1, now, lock)).isEqualTo(new Claim.Owned(false));
    assertThat(keys.begin("m", "k1", H1, now.plusSeconds(1), lock)).isEqualTo(new Claim.InUse());

    keys.expireLock("m", "k1", now.plusSeconds(1));

    assertThat(keys.begin("m", "k1", H1, now.plusSeconds(2), lock.plusSeconds(2)))
        .isEqualTo(new Claim.Owned(true));
    assertThat(keys.begin("m", "k1", H2, now.plusSeconds(3), lock.plusSeconds(3)))
        .isEqualTo(new Claim.Reused());

    keys.release("m", "k1");
    assertThat(keys.begin("m", "k1", H2, now.plusSeconds(4), lock.plusSeconds(4)))
        .isEqualTo(new Claim.Owned(false));
  }
}
