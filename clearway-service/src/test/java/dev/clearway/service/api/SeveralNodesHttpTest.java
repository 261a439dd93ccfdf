package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
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
 * Two service nodes (two Spring contexts, each its own Tomcat on a free port, engine and workers)
 * on one PostgreSQL database: an Idempotency-Key is one key for the whole deployment.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class SeveralNodesHttpTest {
  private static RunningApi nodeA;
  private static RunningApi nodeB;

  @BeforeAll
  static void start() {
    nodeA = RunningApi.start("clearway.instance-id=node-a");
    nodeB = RunningApi.start("clearway.instance-id=node-b");
  }

  @AfterAll
  static void stop() {
    nodeB.close();
    nodeA.close();
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
  }

  @Test
  void aRetryOnAnotherNodeTakesOverTheKeyOfAHolderThatDied() {
    RunningApi.Payment payment = RunningApi.Payment.of(41_001L, "nodes-takeover");
    RunningApi.Answer first = nodeA.pay("key-takeover", payment);
    assertThat(first.status()).as(first.body()).isEqualTo(201);
    // Node A dies after creating the flow but before binding the key to it: the record is left
    // in flight, without a flow, its lock (the holder's lease) already expired.
    RunningApi.execute(
        "UPDATE idempotency_key SET state = 'IN_FLIGHT', flow_id = NULL,"
            + " locked_until = now() - interval '1 second' WHERE idem_key = 'key-takeover'");

    RunningApi.Answer retry = nodeB.pay("key-takeover", payment);

    assertThat(retry.status()).as(retry.body()).isEqualTo(200);
    assertThat(retry.flowId()).isEqualTo(first.flowId());
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow WHERE biz_key = 'nodes-takeover'"))
        .isEqualTo(1);
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM idempotency_key WHERE idem_key = 'key-takeover'"
                    + " AND state = 'DONE' AND flow_id = "
                    + first.flowId()))
        .isEqualTo(1);
    RunningApi.Answer replay = nodeA.pay("key-takeover", payment);
    assertThat(replay.flowId()).isEqualTo(first.flowId());
    assertThat(replay.header("Idempotent-Replayed")).contains("true");
  }

  @Test
  void aLiveHolderOnAnotherNodeAnswersInUse() {
    RunningApi.Payment payment = RunningApi.Payment.of(41_003L, "nodes-live-holder");
    GatedWallet.Gate gate = nodeA.wallet.gate(41_003L);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<RunningApi.Answer> onA = pool.submit(() -> nodeA.pay("key-live", payment));
      gate.awaitEntered();

      RunningApi.Answer onB = nodeB.pay("key-live", payment);

      assertThat(onB.status()).as(onB.body()).isIn(200, 409);
      if (onB.status() == 409) {
        assertThat(onB.code()).isEqualTo("idempotency_key_in_use");
      }
      gate.release();
      RunningApi.Answer first = onA.get(20, TimeUnit.SECONDS);
      assertThat(first.status()).isIn(200, 201);
      assertThat(
              RunningApi.count("SELECT count(*) FROM pay_flow WHERE biz_key = 'nodes-live-holder'"))
          .isEqualTo(1);
    } catch (Exception e) {
      throw new AssertionError(e);
    } finally {
      gate.release();
      pool.shutdownNow();
    }
  }

  @Test
  void concurrentRetriesOfOneKeyOnBothNodesMakeExactlyOneFlow() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 10; round++) {
        String bizKey = "nodes-race-" + round;
        String key = "key-race-" + round;
        RunningApi.Payment payment = RunningApi.Payment.of(42_000L + round, bizKey);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<RunningApi.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          RunningApi node = i % 2 == 0 ? nodeA : nodeB;
          answers.add(
              pool.submit(
                  () -> {
                    go.await();
                    return node.pay(key, payment);
                  }));
        }
        go.countDown();
        Long flowId = null;
        for (Future<RunningApi.Answer> f : answers) {
          RunningApi.Answer a = f.get(30, TimeUnit.SECONDS);
          assertThat(a.status()).as(a.body()).isIn(200, 201, 409);
          if (a.status() == 409) {
            assertThat(a.code()).isEqualTo("idempotency_key_in_use");
            continue;
          }
          if (flowId == null) {
            flowId = a.flowId();
          }
          assertThat(a.flowId()).isEqualTo(flowId);
        }
        assertThat(flowId).as("round %d: some request got the flow", round).isNotNull();
        assertThat(
                RunningApi.count("SELECT count(*) FROM pay_flow WHERE biz_key = '" + bizKey + "'"))
            .isEqualTo(1);
        RunningApi.Answer after = nodeB.pay(key, payment);
        assertThat(after.flowId()).isEqualTo(flowId);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
