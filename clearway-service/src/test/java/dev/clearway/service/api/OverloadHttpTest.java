package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With one synchronous-advance thread and no queue in front of it, a burst of payments while that
 * thread is busy is answered 503 {@code overloaded} with Retry-After; every one of those payments
 * exists all the same, a retry with its key reads it, and the scanner takes each over once its
 * creation lease expires and drives it to its end. The refusals are counted.
 */
class OverloadHttpTest {
  private static final int BURST = 8;

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start("clearway.api.sync-threads=1", "clearway.api.sync-queue=0");
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

  @Test
  void aBurstBeyondCapacityIsRefusedWith503YetEveryPaymentExistsAndConverges() throws Exception {
    GatedWallet.Gate gate = api.wallet.gate(9_001);
    ExecutorService clients = Executors.newFixedThreadPool(BURST + 1);
    try {
      // The only synchronous thread is held inside the wallet by the first payment.
      Future<Answer> first =
          clients.submit(() -> api.pay("ov-first", Payment.of(9_001, "overload-first")));
      gate.awaitEntered();

      List<Payment> payments = new ArrayList<>();
      for (int i = 0; i < BURST; i++) {
        payments.add(Payment.of(9_100 + i, "overload-" + i));
      }
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Answer>> burst = new ArrayList<>();
      for (int i = 0; i < BURST; i++) {
        int n = i;
        burst.add(
            clients.submit(
                () -> {
                  go.await();
                  return api.pay("ov-" + n, payments.get(n));
                }));
      }
      go.countDown();
      List<Answer> answers = new ArrayList<>();
      for (Future<Answer> f : burst) {
        answers.add(f.get());
      }

      assertThat(answers)
          .allSatisfy(
              a -> {
                assertThat(a.status()).as("%s", a).isEqualTo(503);
                assertThat(a.code()).isEqualTo("overloaded");
                assertThat(a.header("Retry-After")).contains("2");
              });
      assertThat(rejected("payment-sync")).isEqualTo(BURST);
      assertThat(RunningApi.count("SELECT count(*) FROM pay_flow WHERE user_id >= 9100"))
          .as("every refused payment was created all the same")
          .isEqualTo(BURST);

      // A retry with the same key is answered from its record: the flow that already exists.
      List<Long> flowIds = new ArrayList<>();
      for (int i = 0; i < BURST; i++) {
        Answer retry = api.pay("ov-" + i, payments.get(i));
        assertThat(retry.status()).as("%s", retry).isEqualTo(200);
        assertThat(retry.header("Idempotent-Replayed")).contains("true");
        flowIds.add(retry.flowId());
      }
      assertThat(RunningApi.count("SELECT count(*) FROM pay_flow")).isEqualTo(BURST + 1);

      gate.release();
      assertThat(first.get().status()).isEqualTo(201);
      // Nobody advanced them: the scanner takes each over once its creation lease expires.
      for (long flowId : flowIds) {
        api.awaitStatus(flowId, "BIZ_SUCCESS", Duration.ofSeconds(30));
      }
    } finally {
      gate.release();
      clients.shutdownNow();
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
