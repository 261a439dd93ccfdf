package dev.clearway.lab;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * One run of the command line in the test's JVM, as a user runs it: the exit code, what it printed
 * to stdout, and what it printed to stderr (also passed on to the test's stderr, so a failing run's
 * log stays readable).
 */
public record CommandRun(int exit, String out, String err) {

  /** Runs {@code args} on a database of its own ({@link OwnDatabase}), dropped afterwards. */
  public static CommandRun onOwnDatabase(String databasePrefix, String... args)
      throws SQLException {
    try (OwnDatabase db = OwnDatabase.create(databasePrefix)) {
      List<String> all = new ArrayList<>(Arrays.asList(args));
      all.addAll(db.jdbcUrlArgs());
      return of(all.toArray(String[]::new));
    }
  }

  /** Runs {@code args} as given. */
  public static CommandRun of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new Tee(err, System.err), true, StandardCharsets.UTF_8));
    return new CommandRun(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The JSON object printed as the last line of stdout. */
  public JsonNode lastJson() {
    return LastJson.of(out);
  }

  /** Writes to both streams. */
  private static final class Tee extends OutputStream {
    private final OutputStream first;
    private final OutputStream second;

    Tee(OutputStream first, OutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws IOException {
      first.write(b);
      second.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      first.write(b, off, len);
      second.write(b, off, len);
    }
  }
}
