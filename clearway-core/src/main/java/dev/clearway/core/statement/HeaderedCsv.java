package dev.clearway.core.statement;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The reading loop of a CSV statement with one exact header line: the header is kept as a text-only
 * line 1, then every following line is parsed by {@code rows} and handed to the sink as it is read.
 * Bytes that are not UTF-8, an empty file or another header refuse the file.
 */
public final class HeaderedCsv {
  /** Parses one data line, numbered from 2. */
  @FunctionalInterface
  public interface RowParser {
    StatementLine parse(long lineNo, String raw) throws MalformedStatementException;
  }

  private HeaderedCsv() {}

  public static void read(
      InputStream in, String header, RowParser rows, StatementParser.LineSink sink)
      throws Exception {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()));
    String line = reader.readLine();
    if (line == null) {
      throw new MalformedStatementException(0, "empty file: no header");
    }
    if (!header.equals(line)) {
      throw new MalformedStatementException(1, "header is not " + header);
    }
    sink.accept(StatementLine.textOnly(1, line));
    long lineNo = 1;
    while ((line = reader.readLine()) != null) {
      lineNo++;
      sink.accept(rows.parse(lineNo, line));
    }
  }
}
