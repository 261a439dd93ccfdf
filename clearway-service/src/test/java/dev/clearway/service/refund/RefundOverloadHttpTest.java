package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.refund.RefundHttpService.Answer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With one synchronous refund thread and no queue, a refund requested while that thread is busy is
 * answered 503 {@code overloaded} with Retry-After; the refund exists all the same, a retry with
 * its key replays it, and the refund scanner sends it once its creation lease expires.
 */
class RefundOverloadHttpTest {
  private static RefundHttpService api;

  @BeforeAll
  static void start() {
    api =
        RefundHttpService.start("clearway.refunds.sync-threads=1", "clearway.refunds.sync-queue=0");
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void reset() {
    RefundHttpService.resetDatabase();
  }

  @Test
  void aRefundBeyondCapacityIsRefusedWith503AndSentByTheScanner() throws Exception {
    long busyFlow = api.paidFlow(7_001, "ov-refund-busy", 990).number("flowId");
    long flowId = api.paidFlow(7_002, "ov-refund", 990).number("flowId");
    CountDownLatch release = api.wallet.holdRefunds();
    ExecutorService client = Executors.newSingleThreadExecutor();
    try {
      Future<Answer> busy = client.submit(() -> api.refund(busyFlow, "rk-busy", 100, "busy"));
      api.wallet.awaitHeld();

      Answer refused = api.refund(flowId, "rk-overload", 400, "damaged");

      assertThat(refused.status()).as("%s", refused).isEqualTo(503);
      assertThat(refused.code()).isEqualTo("overloaded");
      assertThat(refused.header("Retry-After")).contains("2");
      assertThat(rejected("refund-sync")).isEqualTo(1);
      assertThat(
              RefundHttpService.count(
                  "SELECT count(*) FROM refund_order WHERE flow_id = " + flowId))
          .as("the refund was created all the same")
          .isEqualTo(1);

      Answer replay = api.refund(flowId, "rk-overload", 400, "damaged");
      assertThat(replay.status()).as("%s", replay).isEqualTo(200);
      assertThat(replay.header("Idempotent-Replayed")).contains("true");

      release.countDown();
      assertThat(busy.get().status()).isEqualTo(201);
      api.awaitRefund(replay.number("refundId"), "SUCCESS", Duration.ofSeconds(30));
    } finally {
      release.countDown();
      client.shutdownNow();
    }
  }

  private static long rejected(String pool) {
    Counter counter =
        api.bean(MeterRegistry.class)
            .find("clearway.overload.rejected")
            .tag("pool", pool)
            .counter();
    return counter == null ? 0 : (long) counter.count();
  }
}
