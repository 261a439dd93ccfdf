package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.EntryLock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Two nodes, each with its own connection, share the entry locks of the machine's Redis. */
@Tag("redis")
class RedisEntryLockTest {
  private static final String URL =
      System.getProperty("clearway.redis.url", "redis://127.0.0.1:6379");

  private final RedisLink nodeA = RedisLink.of(URL);
  private final RedisLink nodeB = RedisLink.of(URL);
  private final GoalKey goal = new GoalKey("m1", 42, "renewal", "biz-" + UUID.randomUUID());

  @BeforeEach
  void connect() {
    assertThat(nodeA.awaitConnected(Duration.ofSeconds(20))).isTrue();
    assertThat(nodeB.awaitConnected(Duration.ofSeconds(20))).isTrue();
  }

  @AfterEach
  void close() {
    nodeA.close();
    nodeB.close();
  }

  @Test
  void oneNodeAtATimeHoldsAGoal() {
    EntryLock a = RedisEntryLock.withDefaultTtl(nodeA);
    EntryLock b = RedisEntryLock.withDefaultTtl(nodeB);

    Optional<EntryLock.Held> held = a.tryLock(goal, Duration.ZERO);
    assertThat(held).isPresent();
    assertThat(b.tryLock(goal, Duration.ofMillis(150))).isEmpty();
    assertThat(a.tryLock(goal, Duration.ZERO)).as("not reentrant").isEmpty();

    held.get().close();
    Optional<EntryLock.Held> second = b.tryLock(goal, Duration.ZERO);
    assertThat(second).isPresent();
    second.get().close();
    assertThat(nodeA.fallbacks(RedisLink.LOCK) + nodeB.fallbacks(RedisLink.LOCK)).isZero();
  }

  @Test
  void aWaiterGetsTheLockWhenTheHolderReleases() throws Exception {
    EntryLock a = RedisEntryLock.withDefaultTtl(nodeA);
    EntryLock b = RedisEntryLock.withDefaultTtl(nodeB);
    EntryLock.Held held = a.tryLock(goal, Duration.ZERO).orElseThrow();
    Thread releaser = new Thread(() -> sleepThen(150, held::close));
    releaser.start();

    long start = System.nanoTime();
    Optional<EntryLock.Held> waited = b.tryLock(goal, Duration.ofSeconds(2));
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    releaser.join();

    assertThat(waited).isPresent();
    assertThat(tookMillis).isBetween(100L, 1_500L);
    waited.get().close();
  }

  @Test
  void onlyTheOwnerReleases() {
    RedisEntryLock a = RedisEntryLock.withDefaultTtl(nodeA);
    RedisEntryLock b = RedisEntryLock.withDefaultTtl(nodeB);
    EntryLock.Held held = a.tryLock(goal, Duration.ZERO).orElseThrow();

    assertThat(b.release(RedisEntryLock.key(goal), "not-the-owners-token")).isFalse();
    assertThat(b.tryLock(goal, Duration.ZERO)).as("still held by A").isEmpty();

    held.close();
    assertThat(b.tryLock(goal, Duration.ZERO)).isPresent();
  }

  @Test
  void theTtlFreesALockWhoseHolderVanishedAndTheLateReleaseTouchesNothing() {
    EntryLock a = new RedisEntryLock(nodeA, Duration.ofMillis(300));
    EntryLock b = new RedisEntryLock(nodeB, Duration.ofSeconds(5));
    EntryLock.Held vanished = a.tryLock(goal, Duration.ZERO).orElseThrow();

    long start = System.nanoTime();
    EntryLock.Held taken = b.tryLock(goal, Duration.ofSeconds(2)).orElseThrow();
    long tookMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(tookMillis).isBetween(200L, 1_500L);

    vanished.close();
    assertThat(a.tryLock(goal, Duration.ZERO)).as("B's lock survives A's late release").isEmpty();
    taken.close();
  }

  private static void sleepThen(long millis, Runnable then) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    then.run();
  }
}
