package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many concurrent requests per Idempotency-Key through real HTTP, some with other parameters: each
 * key ends with exactly one flow, every success for a key names that flow, the others are refused
 * with 409 or 422, and nothing fails.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class IdempotencyStormHttpTest {
  private static final int KEYS = 20;
  private static final int REQUESTS_PER_KEY = 10;

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
  }

  /** One request of the storm and what it got. */
  private record Shot(int key, Payment payment, Answer answer) {}

  @Test
  void eachKeyEndsWithExactlyOneFlow() throws Exception {
    // Per key: the canonical payment and, for every other key, a few requests with another amount
    // (same goal), and for every fourth key one with another bizKey (another goal).
    List<Integer> keyOf = new ArrayList<>();
    List<Payment> payments = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      Payment canonical = Payment.of(500 + k, "storm-" + k);
      for (int r = 0; r < REQUESTS_PER_KEY; r++) {
        Payment p = canonical;
        if (k % 2 == 1 && r % 4 == 3) {
          p = canonical.withAmount(canonical.amount() + r);
        } else if (k % 4 == 2 && r == 5) {
          p = canonical.withBizKey("storm-" + k + "-other");
        }
        keyOf.add(k);
        payments.add(p);
      }
    }

    int total = keyOf.size();
    ExecutorService pool = Executors.newFixedThreadPool(total);
    List<Future<Shot>> futures = new ArrayList<>();
    CountDownLatch ready = new CountDownLatch(total);
    CountDownLatch go = new CountDownLatch(1);
    long started = System.nanoTime();
    try {
      for (int i = 0; i < total; i++) {
        int k = keyOf.get(i);
        Payment p = payments.get(i);
        futures.add(
            pool.submit(
                () -> {
                  ready.countDown();
                  go.await();
                  return new Shot(k, p, api.pay("storm-key-" + k, p));
                }));
      }
      ready.await(10, TimeUnit.SECONDS);
      go.countDown();
      List<Shot> shots = new ArrayList<>();
      for (Future<Shot> f : futures) {
        shots.add(f.get(30, TimeUnit.SECONDS));
      }
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      verify(shots);
      Map<Integer, Long> statuses = new TreeMap<>();
      shots.forEach(s -> statuses.merge(s.answer().status(), 1L, Long::sum));
      System.out.printf(
          "idempotency storm: %d requests over %d keys in %s, statuses %s%n",
          total, KEYS, took, statuses);
    } finally {
      pool.shutdownNow();
    }
  }

  private void verify(List<Shot> shots) throws Exception {
    Map<Integer, List<Shot>> byKey = new HashMap<>();
    for (Shot s : shots) {
      byKey.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
      assertThat(s.answer().status())
          .as("no request of the storm may fail: %s", s.answer())
          .isIn(200, 201, 409, 422);
    }
    for (int k = 0; k < KEYS; k++) {
      List<Shot> mine = byKey.get(k);
      List<Shot> succeeded = mine.stream().filter(s -> s.answer().status() < 300).toList();
      assertThat(succeeded).as("key %d has a winner", k).isNotEmpty();
      assertThat(succeeded.stream().filter(s -> s.answer().status() == 201))
          .as("key %d created exactly once", k)
          .hasSize(1);
      Set<Long> flowIds = new HashSet<>();
      succeeded.forEach(s -> flowIds.add(s.answer().flowId()));
      assertThat(flowIds).as("flows answered for key %d", k).hasSize(1);
      long flowId = flowIds.iterator().next();
      // The winner's parameters decide: every success carries them, every other request is
      // refused as reused (or in use while the winner ran).
      Payment winner = succeeded.get(0).payment();
      for (Shot s : mine) {
        if (s.answer().status() < 300) {
          assertThat(s.payment()).as("a success for key %d", k).isEqualTo(winner);
          assertThat(s.answer().json().get("amount").asLong()).isEqualTo(winner.amount());
          if (s.answer().status() == 200) {
            assertThat(s.answer().header("Idempotent-Replayed")).hasValue("true");
          }
        } else if (!s.payment().equals(winner)) {
          assertThat(s.answer().status()).as("%s", s.answer()).isIn(409, 422);
          assertThat(s.answer().code())
              .isEqualTo(
                  s.answer().status() == 422 ? "idempotency_key_reused" : "idempotency_key_in_use");
        } else {
          assertThat(s.answer().status()).as("%s", s.answer()).isEqualTo(409);
          assertThat(s.answer().code()).isEqualTo("idempotency_key_in_use");
        }
      }

      long userId = 500 + k;
      assertThat(RunningApi.count("SELECT count(*) FROM pay_flow WHERE user_id = " + userId))
          .as("flows of key %d's user", k)
          .isEqualTo(1);
      assertThat(
              RunningApi.count(
                  "SELECT count(*) FROM idempotency_key WHERE idem_key = 'storm-key-"
                      + k
                      + "' AND state = 'DONE' AND flow_id = "
                      + flowId))
          .as("key %d is bound to flow %d", k, flowId)
          .isEqualTo(1);
      Answer settled = api.awaitStatus(flowId, "BIZ_SUCCESS", Duration.ofSeconds(5));
      assertThat(api.wallet.charges(settled.text("tradeOrderNo"))).isEqualTo(1);
    }
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow")).isEqualTo(KEYS);
    assertThat(RunningApi.count("SELECT count(*) FROM idempotency_key")).isEqualTo(KEYS);
    assertThat(api.wallet.charges()).isEqualTo(KEYS);
  }
}
