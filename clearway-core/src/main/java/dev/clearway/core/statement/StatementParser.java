package dev.clearway.core.statement;

import java.io.InputStream;

/**
 * Reads one statement layout line by line and hands every physical line to the sink as soon as it
 * is read, so a statement of any size is parsed in bounded memory.
 */
public interface StatementParser {

  /** Receives lines in file order. */
  @FunctionalInterface
  interface LineSink {
    void accept(StatementLine line) throws Exception;
  }

  StatementFormat format();

  /**
   * Parses the whole file into the sink. A line that does not follow the format stops the parse.
   *
   * @throws MalformedStatementException naming the first bad line
   * @throws Exception whatever the sink throws, unchanged
   */
  void parse(InputStream in, LineSink sink) throws Exception;
}
