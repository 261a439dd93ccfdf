package dev.clearway.core.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/** Small building blocks for seeded generators. */
public final class Gen {
  private Gen() {}

  /** An int in [min, max]. */
  public static int between(Random r, int min, int max) {
    return min + r.nextInt(max - min + 1);
  }

  /** A long in [min, max]. */
  public static long between(Random r, long min, long max) {
    return min + (long) (r.nextDouble() * ((double) max - (double) min + 1));
  }

  /** One of the values, equally likely. */
  @SafeVarargs
  public static <T> T oneOf(Random r, T... values) {
    return values[r.nextInt(values.length)];
  }

  /** With probability {@code p}, null; otherwise a drawn value. */
  public static <T> T orNull(Random r, double p, Function<Random, T> gen) {
    return r.nextDouble() < p ? null : gen.apply(r);
  }

  /** A list of {@code min} to {@code max} drawn elements. */
  public static <T> List<T> listOf(Random r, int min, int max, Function<Random, T> gen) {
    int n = between(r, min, max);
    List<T> list = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(gen.apply(r));
    }
    return list;
  }

  /** Letters a-z and A-Z, {@code min} to {@code max} of them. */
  public static String alpha(Random r, int min, int max) {
    int n = between(r, min, max);
    StringBuilder s = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      int c = r.nextInt(52);
      s.append((char) (c < 26 ? 'a' + c : 'A' + c - 26));
    }
    return s.toString();
  }
}
