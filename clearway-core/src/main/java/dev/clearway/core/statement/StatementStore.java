package dev.clearway.core.statement;

import java.time.LocalDate;
import java.util.Optional;

/**
 * Where statement files and their lines are kept. Implementations serialise the imports of one
 * (account, day) and run each in one transaction.
 */
public interface StatementStore {

  /** What is to be imported: whose, which day, which bytes. */
  record Incoming(
      String accountRef,
      LocalDate day,
      StatementFormat format,
      String sha256,
      String expectedHash) {}

  /** Supplies the parsed lines of the file, in order, to the store's sink. */
  @FunctionalInterface
  interface LineSource {
    void feed(StatementParser.LineSink sink) throws Exception;
  }

  /**
   * Imports a file: answers the file already on record with the same account, day and bytes
   * unchanged; otherwise stores the file and every line in one transaction, marking the file it
   * replaces superseded. When the source throws {@link MalformedStatementException} none of the
   * lines stay and a refused file is recorded, naming the line and reason.
   */
  StatementFileRecord importFile(Incoming incoming, LineSource lines);

  /** Records a file refused before its lines were read (its hash is not the announced one). */
  StatementFileRecord refuse(Incoming incoming, String reason);

  Optional<StatementFileRecord> find(long fileId);

  /** The file in force for the account and day, if any. */
  Optional<StatementFileRecord> current(String accountRef, LocalDate day);
}
