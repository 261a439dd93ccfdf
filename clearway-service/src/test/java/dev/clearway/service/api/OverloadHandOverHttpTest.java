package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A payment answered 503 {@code overloaded} (no synchronous thread free) goes on in the background
 * at once: its creation lease is released with the flow due now and a worker is woken, so it ends
 * long before that lease (30 s in production timing) would have expired, while the only synchronous
 * thread is still busy.
 */
class OverloadHandOverHttpTest {
  private static final int REFUSED = 3;
  private static final Duration PROMPTLY = Duration.ofSeconds(12);

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api =
        RunningApi.start(
            "clearway.timing=production",
            "clearway.api.sync-threads=1",
            "clearway.api.sync-queue=0");
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
  void aRefusedPaymentEndsLongBeforeItsCreationLeaseExpires() throws Exception {
    // One payment first, so that a slow first request does not outlast the gate's wait below.
    long warm = api.pay("ho-warm", Payment.of(9_200, "handover-warm")).flowId();
    api.awaitStatus(warm, "BIZ_SUCCESS", Duration.ofSeconds(60));

    GatedWallet.Gate gate = api.wallet.gate(9_201);
    ExecutorService clients = Executors.newSingleThreadExecutor();
    try {
      // The only synchronous thread is held inside the wallet by the first payment's advance
      // (its request answers PROCESSING once the budget is spent; the advance goes on).
      Future<Answer> first =
          clients.submit(() -> api.pay("ho-first", Payment.of(9_201, "handover-first")));
      gate.awaitEntered();

      List<Long> refused = new ArrayList<>();
      for (int i = 0; i < REFUSED; i++) {
        Payment payment = Payment.of(9_300 + i, "handover-" + i);
        Answer answer = api.pay("ho-" + i, payment);
        assertThat(answer.status()).as("%s", answer).isEqualTo(503);
        assertThat(answer.code()).isEqualTo("overloaded");
        refused.add(api.pay("ho-" + i, payment).flowId());
      }

      // Each ends well before its creation lease (30 s) could have expired.
      for (long flowId : refused) {
        api.awaitStatus(flowId, "BIZ_SUCCESS", PROMPTLY);
      }

      gate.release();
      assertThat(first.get().status()).isEqualTo(201);
    } finally {
      gate.release();
      clients.shutdownNow();
    }
  }
}
