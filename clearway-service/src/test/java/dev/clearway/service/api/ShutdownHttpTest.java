package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a node (what SIGTERM does): new payments are refused with 503 shutting_down while the
 * payment requests inside finish, then the node stops and releases every lease it held, and another
 * node takes the flows at once instead of waiting for the leases to expire.
 */
class ShutdownHttpTest {

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
  }

  @Test
  void aClosingNodeRefusesNewPaymentsFinishesThoseInsideAndReleasesItsLeases() throws Exception {
    // Production timing: leases of 30 s, so a flow taken over quickly was released, not expired.
    RunningApi node =
        RunningApi.start(
            "clearway.instance-id=node-stop",
            "clearway.timing=production",
            "clearway.api.sync-budget=3s",
            "clearway.shutdown.grace=20s");
    GatedWallet.Gate gate = node.wallet.gate(61_001L);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    RunningApi successor = null;
    try {
      Future<RunningApi.Answer> inside =
          pool.submit(() -> node.pay("stop-inside", RunningApi.Payment.of(61_001L, "stop-1")));
      gate.awaitEntered();
      assertThat(
              RunningApi.count(
                  "SELECT count(*) FROM pay_flow WHERE lease_owner LIKE 'node-stop/%'"))
          .as("the flow in flight is leased by the node")
          .isEqualTo(1);

      CompletableFuture<Void> closed =
          CompletableFuture.runAsync(() -> node.context().close(), pool);
      List<RunningApi.Answer> during = refusalsWhileClosing(node, closed);

      long acceptedBefore = during.stream().filter(a -> a.status() == 201).count();
      List<RunningApi.Answer> refused = during.stream().filter(a -> a.status() != 201).toList();
      assertThat(refused).as("answers while the node was closing").isNotEmpty();
      assertThat(refused)
          .allSatisfy(
              a -> {
                assertThat(a.status()).as(a.body()).isEqualTo(503);
                assertThat(a.code()).isEqualTo("shutting_down");
                assertThat(a.text("message")).isNotBlank();
              });
      RunningApi.Answer finished = inside.get(30, TimeUnit.SECONDS);
      assertThat(finished.status())
          .as("the request inside finished: %s", finished.body())
          .isEqualTo(201);
      closed.get(60, TimeUnit.SECONDS);

      assertThat(RunningApi.count("SELECT count(*) FROM pay_flow WHERE biz_key LIKE 'stop-new-%'"))
          .as("refused requests wrote nothing")
          .isEqualTo(acceptedBefore);
      assertThat(leasesOf("node-stop")).as("leases left by the stopped node").isZero();

      // Another node takes the flow at once: long before the 30 s lease would have expired.
      successor = RunningApi.start("clearway.instance-id=node-next");
      Instant started = Instant.now();
      successor.awaitStatus(finished.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(15));
      assertThat(Duration.between(started, Instant.now())).isLessThan(Duration.ofSeconds(15));
    } finally {
      gate.release();
      pool.shutdownNow();
      if (successor != null) {
        successor.close();
      }
      node.close();
    }
  }

  /**
   * New payments sent while {@code closed} runs, until the server stops answering; the first may
   * still be accepted (sent before the gate closed), none after a refusal.
   */
  private static List<RunningApi.Answer> refusalsWhileClosing(
      RunningApi node, CompletableFuture<Void> closed) throws InterruptedException {
    List<RunningApi.Answer> answers = new ArrayList<>();
    int n = 0;
    Instant giveUp = Instant.now().plusSeconds(20);
    while (!closed.isDone() && Instant.now().isBefore(giveUp)) {
      try {
        RunningApi.Answer a =
            node.pay("stop-new-" + n, RunningApi.Payment.of(61_100L + n, "stop-new-" + n));
        n++;
        answers.add(a); // a 201 was sent before the gate closed
        if (a.status() == 201) {
          assertThat(answers).as("accepted after a refusal").allMatch(x -> x.status() == 201);
        }
      } catch (UncheckedIOException refused) {
        break; // the web server stopped accepting: the graceful shutdown went on
      }
      Thread.sleep(50);
    }
    return answers;
  }

  private static long leasesOf(String instanceId) {
    long held = 0;
    for (String table :
        List.of("pay_flow", "refund_order", "late_charge_check", "late_charge_sweep")) {
      held +=
          RunningApi.count(
              "SELECT count(*) FROM "
                  + table
                  + " WHERE lease_owner LIKE '"
                  + instanceId
                  + "/%' OR lease_owner LIKE '"
                  + instanceId
                  + "-%'");
    }
    return held;
  }
}
