package dev.clearway.core.statement;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link IsoInstants#parse} answers as {@link Instant#parse} does, for any text. */
class IsoInstantsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-12-01T02:00:00Z",
        "2026-12-01T02:00:00.1Z",
        "2026-12-01T02:00:00.086Z",
        "2026-12-01T02:00:00.123456789Z",
        "2024-02-29T23:59:59.999999999Z",
        "1970-01-01T00:00:00Z",
        "0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2026-12-01T10:00:00+08:00",
        "2026-12-01T02:00Z",
        "+12026-12-01T02:00:00Z",
        "2023-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-12-32T00:00:00Z",
        "2026-12-01T24:00:00Z",
        "2026-12-01T02:60:00Z",
        "2026-12-01T23:59:60Z",
        "2026-12-01T02:00:00.Z",
        "2026-12-01T02:00:00.1234567890Z",
        "2026-12-01T02:00:00",
        "2026-12-01 02:00:00Z",
        "2026-12-01t02:00:00z",
        "2026-1x-01T02:00:00Z",
        "2026-12-01T02:00:00.08aZ",
        "",
        "Z"
      })
  void answersAsInstantParse(String text) {
    assertSame(text);
  }

  @Test
  void generatedTextsAnswerAsInstantParse() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    String alphabet = "0123456789-T:.Z+ ";
    for (int i = 0; i < 20_000; i++) {
      StringBuilder s =
          new StringBuilder(
              Instant.ofEpochMilli(random.nextLong() % 4_000_000_000_000L).toString());
      int edits = random.nextInt(3);
      for (int e = 0; e < edits && s.length() > 0; e++) {
        s.setCharAt(random.nextInt(s.length()), alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String text = s.toString();
      try {
        assertSame(text);
      } catch (AssertionError failure) {
        throw new AssertionError("seed " + seed + ", text " + text, failure);
      }
    }
  }

  private static void assertSame(String text) {
    Instant expected;
    try {
      expected = Instant.parse(text);
    } catch (DateTimeParseException e) {
      expected = null;
    }
    Instant actual;
    try {
      actual = IsoInstants.parse(text);
    } catch (DateTimeParseException e) {
      actual = null;
    }
    assertThat(actual).as(text).isEqualTo(expected);
  }
}
