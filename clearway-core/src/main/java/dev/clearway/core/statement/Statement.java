package dev.clearway.core.statement;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.Objects;

/**
 * One daily statement as the PSP delivered it: the raw bytes, their layout and the hash the PSP
 * announced for them, when it announces one.
 *
 * @param expectedHash hex digest announced by the PSP, or null
 * @param hashType the algorithm of {@code expectedHash} ({@code SHA1}, {@code SHA256}), or null
 */
public record Statement(
    StatementFormat format, byte[] bytes, String expectedHash, String hashType) {
  public Statement {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(bytes, "bytes");
    if ((expectedHash == null) != (hashType == null)) {
      throw new IllegalArgumentException("expectedHash and hashType go together");
    }
  }

  /** A statement whose PSP announces no hash. */
  public static Statement unhashed(StatementFormat format, byte[] bytes) {
    return new Statement(format, bytes, null, null);
  }

  public InputStream open() {
    return new ByteArrayInputStream(bytes);
  }
}
