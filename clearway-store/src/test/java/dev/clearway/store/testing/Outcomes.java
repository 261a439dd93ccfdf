package dev.clearway.store.testing;

import java.util.function.Function;

/**
 * What an operation on a store came to, for comparing two stores that must agree (a conformance
 * test): its answer, or the type of the exception it threw.
 */
public final class Outcomes {

  /** An operation that threw an exception of {@code type}. */
  public record Thrown(Class<?> type) {}

  private Outcomes() {}

  /** {@code op}'s answer on {@code store}, or {@link Thrown} with its exception's type. */
  public static <S, T> Object of(S store, Function<S, T> op) {
    try {
      return op.apply(store);
    } catch (RuntimeException e) {
      return new Thrown(e.getClass());
    }
  }

  /** The answer in {@code outcome}; null when the operation threw. */
  @SuppressWarnings("unchecked")
  public static <T> T answer(Object outcome) {
    return outcome instanceof Thrown ? null : (T) outcome;
  }
}
