package dev.clearway.core.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * A weighted choice among values and generators: {@code Choice.<Pay>of().or(3, SUCCESS).or(1,
 * REJECT)} draws SUCCESS three times as often as REJECT.
 */
public final class Choice<T> implements Function<Random, T> {
  private final List<Integer> weights = new ArrayList<>();
  private final List<Function<Random, ? extends T>> options = new ArrayList<>();
  private int total;

  private Choice() {}

  public static <T> Choice<T> of() {
    return new Choice<>();
  }

  /** Adds a fixed value with its weight. */
  public Choice<T> or(int weight, T value) {
    return orDrawn(weight, r -> value);
  }

  /** Adds a generator with its weight. */
  public Choice<T> orDrawn(int weight, Function<Random, ? extends T> generator) {
    if (weight <= 0) {
      throw new IllegalArgumentException("a weight is positive");
    }
    weights.add(weight);
    options.add(generator);
    total += weight;
    return this;
  }

  @Override
  public T apply(Random r) {
    int pick = r.nextInt(total);
    for (int i = 0; i < weights.size(); i++) {
      pick -= weights.get(i);
      if (pick < 0) {
        return options.get(i).apply(r);
      }
    }
    throw new IllegalStateException("the weights sum to " + total);
  }
}
