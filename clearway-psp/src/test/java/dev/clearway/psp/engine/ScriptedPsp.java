package dev.clearway.psp.engine;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RecoveryCapabilities;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/** An in-process PSP whose answers a test scripts; it records every call it receives. */
final class ScriptedPsp implements PspAdapter {

  final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  final List<CreatePayment> creates = Collections.synchronizedList(new ArrayList<>());
  private final Deque<PspOutcome> createAnswers = new ArrayDeque<>();
  private final Deque<PspOutcome> retrieveAnswers = new ArrayDeque<>();
  private final String channel;
  private final RecoveryCapabilities caps;
  volatile WebhookNotice nextWebhook;

  /** Runs once inside the next create or retrieve, after its answer is decided (a slow call). */
  volatile Runnable duringNextCall;

  /** Every retrieve throws while set (a broken PSP client, a bug). */
  volatile boolean retrieveThrows;

  /** Refund numbers whose refund call throws (a broken PSP client, a bug). */
  final java.util.Set<String> explodingRefunds = java.util.concurrent.ConcurrentHashMap.newKeySet();

  volatile PspOutcome closeAnswer = of(ResultCertainty.DEFINITE_FAILURE, "CLOSED", false);

  /** The daily statement this PSP publishes, or null: it publishes none. */
  volatile dev.clearway.core.statement.Statement statement;

  @Override
  public boolean settlementReportAvailable() {
    return statement != null;
  }

  @Override
  public dev.clearway.core.statement.Statement downloadStatement(
      String accountRef, java.time.LocalDate day) {
    calls.add("statement " + accountRef + " " + day);
    if (statement == null) {
      throw new UnsupportedOperationException("no statement");
    }
    return statement;
  }

  ScriptedPsp(String channel, RecoveryCapabilities caps) {
    this.channel = channel;
    this.caps = caps;
  }

  static PspOutcome of(ResultCertainty c, String code, boolean eligible) {
    return new PspOutcome(c, c.name(), "pi_" + code, code, eligible, false, "req", null);
  }

  static PspOutcome success() {
    return new PspOutcome(
        ResultCertainty.CONFIRMED_SUCCESS, "succeeded", "pi_ok", null, false, false, "req", null);
  }

  synchronized ScriptedPsp onCreate(PspOutcome... outcomes) {
    createAnswers.addAll(List.of(outcomes));
    return this;
  }

  synchronized ScriptedPsp onRetrieve(PspOutcome... outcomes) {
    retrieveAnswers.addAll(List.of(outcomes));
    return this;
  }

  long count(String op) {
    synchronized (calls) {
      return calls.stream().filter(op::equals).count();
    }
  }

  @Override
  public String channel() {
    return channel;
  }

  @Override
  public RecoveryCapabilities capabilities() {
    return caps;
  }

  @Override
  public synchronized PspOutcome create(CreatePayment request) {
    calls.add("create");
    creates.add(request);
    return during(createAnswers.isEmpty() ? PspOutcome.unknown("timeout") : createAnswers.poll());
  }

  @Override
  public synchronized PspOutcome retrieve(AttemptRef attempt) {
    calls.add("retrieve");
    if (retrieveThrows) {
      throw new IllegalStateException("retrieve exploded");
    }
    return during(
        retrieveAnswers.isEmpty() ? PspOutcome.unknown("timeout") : retrieveAnswers.poll());
  }

  private PspOutcome during(PspOutcome answer) {
    Runnable hook = duringNextCall;
    duringNextCall = null;
    if (hook != null) {
      hook.run();
    }
    return answer;
  }

  @Override
  public PspOutcome close(AttemptRef attempt) {
    calls.add("close");
    return closeAnswer;
  }

  @Override
  public RefundOutcome refund(RefundCall refund) {
    calls.add("refund");
    if (explodingRefunds.contains(refund.refundNo())) {
      throw new IllegalStateException("refund call exploded");
    }
    return new RefundOutcome(
        RefundOutcome.RefundState.SUCCEEDED, "SUCCESS", "re_1", null, "req", null);
  }

  @Override
  public RefundOutcome queryRefund(RefundCall refund) {
    calls.add("queryRefund");
    return new RefundOutcome(
        RefundOutcome.RefundState.SUCCEEDED, "SUCCESS", "re_1", null, "req", null);
  }

  @Override
  public WebhookNotice parseWebhook(Map<String, String> headers, byte[] rawBody)
      throws WebhookRejected {
    if (nextWebhook == null) {
      throw new WebhookRejected("bad_signature", "scripted rejection");
    }
    return nextWebhook;
  }
}
