package dev.clearway.core.statement;

import java.time.LocalDate;

/**
 * A statement that could not be fetched: no source for the account, a source that publishes none,
 * or a download that failed. Nothing was imported; the download may be retried.
 */
public final class StatementDownloadException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String accountRef;
  private final LocalDate day;

  public StatementDownloadException(
      String accountRef, LocalDate day, String reason, Throwable cause) {
    super(
        "statement of account " + accountRef + " for " + day + " not downloaded: " + reason, cause);
    this.accountRef = accountRef;
    this.day = day;
  }

  public String accountRef() {
    return accountRef;
  }

  public LocalDate day() {
    return day;
  }
}
