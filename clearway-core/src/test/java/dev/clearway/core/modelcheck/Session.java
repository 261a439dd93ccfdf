package dev.clearway.core.modelcheck;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One replay of one worker's program. Port calls and clock readings are first answered from the
 * recorded answers; past them, the first port call runs against the model (with the outcome the
 * explorer chose) and the next one suspends the worker. Clock readings past the record read the
 * model's clock.
 */
public final class Session {

  /** A call against the model, given the outcome the explorer chose. */
  @FunctionalInterface
  public interface Live {
    Object call(String outcome) throws Throwable;
  }

  private final List<Answer> recorded;
  private final Instant now;
  private final String outcome;
  private final List<Answer> appended = new ArrayList<>();
  private int next;
  private boolean executed;
  private Pending suspendedAt;

  /**
   * @param outcome the outcome of the pending call to run, or null to only find the pending call
   */
  Session(List<Answer> recorded, Instant now, String outcome) {
    this.recorded = recorded;
    this.now = now;
    this.outcome = outcome;
  }

  /** A port call: replayed, run once against the model, or the point where the worker waits. */
  public Object call(String port, String method, Object[] args, Live live) throws Throwable {
    if (suspendedAt != null) {
      throw new Suspend();
    }
    if (next < recorded.size()) {
      Answer answer = recorded.get(next++);
      requireSame(answer, port, method);
      if (answer.value() instanceof Answer.Thrown t) {
        throw rethrow(t);
      }
      return answer.value();
    }
    if (outcome == null || executed) {
      suspendedAt = new Pending(port, method, args == null ? List.of() : Arrays.asList(args));
      throw new Suspend();
    }
    executed = true;
    String name = Names.of(port, method);
    try {
      Object value = live.call(outcome);
      appended.add(new Answer(name, value));
      return value;
    } catch (RuntimeException e) {
      appended.add(new Answer(name, new Answer.Thrown(e.getClass(), e.getMessage())));
      throw e;
    }
  }

  /** A clock reading: replayed, or the model's time. */
  public Instant instant() {
    if (suspendedAt != null) {
      throw new Suspend();
    }
    if (next < recorded.size()) {
      Answer answer = recorded.get(next++);
      requireSame(answer, "clock", null);
      return (Instant) answer.value();
    }
    appended.add(new Answer("clock", now));
    return now;
  }

  Pending suspendedAt() {
    return suspendedAt;
  }

  boolean executed() {
    return executed;
  }

  /** Every answer of this worker so far: the record plus what this replay added. */
  List<Answer> log() {
    List<Answer> all = new ArrayList<>(recorded.size() + appended.size());
    all.addAll(recorded);
    all.addAll(appended);
    return List.copyOf(all);
  }

  private static void requireSame(Answer answer, String port, String method) {
    String recorded = answer.call();
    boolean same =
        method == null
            ? recorded.equals(port)
            : recorded.length() == port.length() + 1 + method.length()
                && recorded.startsWith(port)
                && recorded.endsWith(method);
    if (!same) {
      String call = method == null ? port : port + "." + method;
      throw new IllegalStateException(
          "replay diverged: recorded " + recorded + ", the code now calls " + call);
    }
  }

  /** One string per port call name, so that answers share it. */
  private static final class Names {
    private static final Map<String, String> NAMES = new ConcurrentHashMap<>();

    static String of(String port, String method) {
      return NAMES.computeIfAbsent(port + "." + method, k -> k);
    }
  }

  private static RuntimeException rethrow(Answer.Thrown t) {
    try {
      return (RuntimeException) t.type().getConstructor(String.class).newInstance(t.message());
    } catch (ReflectiveOperationException | ClassCastException e) {
      return new IllegalStateException(t.type().getSimpleName() + ": " + t.message());
    }
  }
}
