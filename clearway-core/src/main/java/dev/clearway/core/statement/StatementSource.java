package dev.clearway.core.statement;

import java.time.LocalDate;

/**
 * Where one account's daily statements come from: a PSP adapter ({@link
 * dev.clearway.core.channel.spi.PspAdapter#downloadStatement}) or a wallet gateway.
 */
@FunctionalInterface
public interface StatementSource {

  /**
   * The statement of the account for the day, as raw bytes with their format and the hash announced
   * for them, if any.
   *
   * @throws java.io.UncheckedIOException when it cannot be fetched
   * @throws UnsupportedOperationException when this source publishes no statement
   */
  Statement downloadStatement(String accountRef, LocalDate day);
}
