package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SQL statements one {@code POST /v1/payments} runs on its way to a final flow: on the request
 * thread (the Idempotency-Key's record, the creation) and on the synchronous advance's thread (the
 * transitions), counted at the pool; the background workers sharing the pool are not counted.
 */
class CreatePaymentStatementsHttpTest {
  private static final StatementCounter onPaymentPath =
      new StatementCounter("http-nio", "clearway-sync");
  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start(onPaymentPath::wrap);
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @Test
  void aPaymentCreatedAndSettledByItsPostRunsAFixedNumberOfStatements() {
    RunningApi.resetDatabase();
    assertThat(api.pay("stmt-warm", Payment.of(301, "stmt-warm")).status()).isEqualTo(201);

    int[] counts = new int[3];
    for (int i = 0; i < counts.length; i++) {
      onPaymentPath.reset();
      Answer created = api.pay("stmt-" + i, Payment.of(302 + i, "stmt-" + i));
      assertThat(created.status()).as("%s", created).isEqualTo(201);
      assertThat(created.json().get("status").asString()).isEqualTo("BIZ_SUCCESS");
      counts[i] = onPaymentPath.count();
    }

    System.out.println("statements per POST: " + java.util.Arrays.toString(counts));
    assertThat(counts).containsOnly(counts[0]);
    assertThat(counts[0]).isLessThanOrEqualTo(STATEMENTS_PER_POST);
  }

  /**
   * Read the key, create the flow with its claim, the two transitions, bind the key to the flow.
   */
  private static final int STATEMENTS_PER_POST = 5;
}
