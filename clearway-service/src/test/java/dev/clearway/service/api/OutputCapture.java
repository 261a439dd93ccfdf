package dev.clearway.service.api;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies everything written to System.out and System.err (the console log appender writes there)
 * while it is open, so a test can assert what was logged or printed.
 */
public final class OutputCapture implements AutoCloseable {
  private final PrintStream out = System.out;
  private final PrintStream err = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  public OutputCapture() {
    System.setOut(tee(out));
    System.setErr(tee(err));
  }

  private PrintStream tee(PrintStream original) {
    OutputStream both =
        new OutputStream() {
          @Override
          public void write(int b) {
            original.write(b);
            synchronized (captured) {
              captured.write(b);
            }
          }

          @Override
          public void write(byte[] b, int off, int len) {
            original.write(b, off, len);
            synchronized (captured) {
              captured.write(b, off, len);
            }
          }
        };
    return new PrintStream(both, true, StandardCharsets.UTF_8);
  }

  public String text() {
    synchronized (captured) {
      return captured.toString(StandardCharsets.UTF_8);
    }
  }

  @Override
  public void close() {
    System.setOut(out);
    System.setErr(err);
  }
}
