package dev.clearway.core.statement;

import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.util.Objects;

/**
 * Downloads one account's statement of one day from its source and imports it. A download that
 * fails throws {@link StatementDownloadException} with the reason, and nothing is imported; a file
 * the importer refuses (a hash that does not match, a malformed line) is answered as the REFUSED
 * record, with its line and reason, like any other import.
 */
public final class StatementDownloads {
  private final StatementSources sources;
  private final StatementImporter importer;

  public StatementDownloads(StatementSources sources, StatementImporter importer) {
    this.sources = Objects.requireNonNull(sources, "sources");
    this.importer = Objects.requireNonNull(importer, "importer");
  }

  /**
   * The file on record for the account and day after this import: IMPORTED (also when the same
   * bytes were imported before) or REFUSED.
   *
   * @throws StatementDownloadException when the statement could not be fetched
   */
  public StatementFileRecord download(String accountRef, LocalDate day) {
    Objects.requireNonNull(accountRef, "accountRef");
    Objects.requireNonNull(day, "day");
    StatementSource source =
        sources
            .source(accountRef)
            .orElseThrow(
                () ->
                    new StatementDownloadException(
                        accountRef, day, "no statement source for the account", null));
    Statement statement;
    try {
      statement = source.downloadStatement(accountRef, day);
    } catch (UncheckedIOException e) {
      String why = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
      throw new StatementDownloadException(accountRef, day, why, e);
    } catch (UnsupportedOperationException e) {
      throw new StatementDownloadException(
          accountRef, day, "the account's source publishes no statement", e);
    } catch (RuntimeException e) {
      throw new StatementDownloadException(
          accountRef, day, e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    if (statement == null) {
      throw new StatementDownloadException(accountRef, day, "the source answered nothing", null);
    }
    return importer.importStatement(accountRef, day, statement);
  }
}
